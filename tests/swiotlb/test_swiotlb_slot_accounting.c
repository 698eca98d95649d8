/* SPDX-License-Identifier: MIT */
/*
 * Where swiotlb puts a mapping and how it counts slots: the high-water mark
 * is the most slots ever in use at once (across areas, across threads, and
 * not counting a thread's parked run), and min_align_mask keeps the low
 * address bits of the original in the bounce address.
 *
 * Every check compares bytes the device read (dmamap_device_read) or the CPU
 * reads through its pointer against patterns the test wrote, never a
 * counter alone.
 */
#include <pthread.h>
#include "../helpers.h"

#define CHUNK (64 * KiB)

/*
 * high_water is the most slots ever in use at once, whichever areas they
 * were in. Fragment the first area so a larger mapping has to go to the
 * next one, then fill the first area's holes again: the pool's peak is
 * then higher than any earlier one although the first area's is not.
 */
#define HW_NB 48

/* @buf: HW_NB + 1 buffers of 128 KiB that @dev must bounce. */
static void high_water_run(struct dmamap_platform *p, struct device *dev, uint8_t **buf)
{
	enum { NB = HW_NB };
	dma_addr_t h[NB + 1];
	uint64_t peak = 0;
	struct dmamap_swiotlb_stats s;
	unsigned int i, per_area;

	s = pool_of(p, NULL);
	REQUIRE(s.high_water == 0);
	/* 4 areas of whole 128-slot segments; 64 KiB = 32 slots. */
	per_area = (unsigned int)(s.total_slots / 4 / 32);
	REQUIRE(per_area >= 4 && per_area < NB);
	for (i = 0; i <= NB; i++)
		h[i] = DMA_MAPPING_ERROR;
#define MAP_AND_TRACK(k, len)                                                       \
	do {                                                                         \
		h[k] = dma_map_single(dev, buf[k], (len), DMA_TO_DEVICE);            \
		REQUIRE(!dma_mapping_error(dev, h[k]));                              \
		s = pool_of(p, NULL);                                                \
		peak = s.used_slots > peak ? s.used_slots : peak;                    \
		CHECK_MSG(s.high_water == peak, "high_water %llu, most used so far %llu", \
			  (unsigned long long)s.high_water, (unsigned long long)peak);  \
	} while (0)
	for (i = 0; i < per_area; i++)
		MAP_AND_TRACK(i, CHUNK);
	for (i = 0; i < per_area; i += 2) {
		dma_unmap_single(dev, h[i], CHUNK, DMA_TO_DEVICE);
		h[i] = DMA_MAPPING_ERROR;
	}
	MAP_AND_TRACK(NB, 2 * CHUNK); /* no 64-slot hole in the first area */
	for (i = 0; i < per_area; i += 2)
		MAP_AND_TRACK(i, CHUNK);
	CHECK_EQ(peak, (per_area + 2) * 32ULL);
#undef MAP_AND_TRACK
	for (i = 0; i < per_area; i++)
		dma_unmap_single(dev, h[i], CHUNK, DMA_TO_DEVICE);
	dma_unmap_single(dev, h[NB], 2 * CHUNK, DMA_TO_DEVICE);
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, 0);
	CHECK_EQ(s.high_water, peak);
}

TEST(swiotlb_high_water_is_most_slots_ever_used)
{
	on_dma24(HW_NB + 1, 5, high_water_run);
}

TEST(swiotlb_host_forced_high_water_is_most_slots_ever_used)
{
	on_host_forced(HW_NB + 1, 2 * CHUNK, high_water_run);
}

/*
 * Two threads each holding a mapping at the same moment: the pool's
 * high-water mark may overstate concurrent use but must never miss it,
 * although neither thread reads the other's area when it maps.
 */
struct holder {
	struct device *dev;
	uint8_t *buf;
	size_t len;
	pthread_barrier_t *both_mapped, *checked;
	int err;
};

static void *hold_mapping(void *arg)
{
	struct holder *h = arg;
	dma_addr_t a = dma_map_single(h->dev, h->buf, h->len, DMA_TO_DEVICE);

	h->err = dma_mapping_error(h->dev, a);
	pthread_barrier_wait(h->both_mapped);
	pthread_barrier_wait(h->checked);
	if (!h->err)
		dma_unmap_single(h->dev, a, h->len, DMA_TO_DEVICE);
	return NULL;
}

TEST(swiotlb_high_water_counts_mappings_held_by_two_threads)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	pthread_barrier_t both_mapped, checked;
	struct holder h[2];
	pthread_t t[2];
	struct dmamap_swiotlb_stats s;

	REQUIRE(p && dev);
	REQUIRE(pool_of(p, NULL).high_water == 0);
	pthread_barrier_init(&both_mapped, NULL, 3);
	pthread_barrier_init(&checked, NULL, 3);
	for (int i = 0; i < 2; i++) {
		struct page *pg = dmamap_alloc_pages(p, 4, 0);

		REQUIRE(pg && page_to_phys(pg) >= WIN24_END);
		/* 40 and 24 KiB: 20 and 12 slots, so the sum is not either alone. */
		h[i] = (struct holder){ .dev = dev, .buf = page_address(pg),
					.len = (size_t)(i ? 24 : 40) * KiB,
					.both_mapped = &both_mapped, .checked = &checked };
	}
	for (int i = 0; i < 2; i++)
		REQUIRE(pthread_create(&t[i], NULL, hold_mapping, &h[i]) == 0);
	pthread_barrier_wait(&both_mapped);
	s = pool_of(p, NULL);
	CHECK_EQ(h[0].err, 0);
	CHECK_EQ(h[1].err, 0);
	CHECK_EQ(s.used_slots, 32);
	CHECK_MSG(s.high_water >= 32, "high_water %llu with 32 slots in use at once",
		  (unsigned long long)s.high_water);
	pthread_barrier_wait(&checked);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, 0);
	CHECK(s.high_water >= 32 && s.high_water <= s.total_slots);
	pthread_barrier_destroy(&both_mapped);
	pthread_barrier_destroy(&checked);
	dmamap_platform_destroy(p);
}

/*
 * A thread's parked run is not in use: a mapping on the general path that
 * finds room elsewhere does not count it toward the mark. The parked run
 * is the first in its area; min_align_mask 0x1fff puts the next mapping,
 * of a buffer 0x1000 past it modulo 8 KiB, two slots further on.
 */
TEST(swiotlb_host_parked_run_not_counted_in_high_water)
{
	struct device *dev;
	struct dmamap_platform *p = host_forced(&dev);
	uint8_t *a = host_pages(PAGE_SIZE), *area = host_pages(4 * PAGE_SIZE), *b;
	dma_addr_t ha, hb;
	uint64_t want;

	REQUIRE(p && a && area);
	ha = dma_map_single(dev, a, PAGE_SIZE, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, ha));
	/* 0x1000 modulo 8 KiB from the parked run's start. */
	want = (ha + 0x1000) & 0x1fff;
	b = area + ((want - ((uintptr_t)area & 0x1fff)) & 0x1fff);
	dma_unmap_single(dev, ha, PAGE_SIZE, DMA_TO_DEVICE);
	REQUIRE(dma_set_min_align_mask(dev, 0x1fff) == 0);
	hb = dma_map_single(dev, b, PAGE_SIZE, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, hb));
	CHECK_EQ(hb & 0x1fff, want);
	CHECK_EQ(hb - ha, 2 * 2048);
	CHECK_EQ(pool_of(p, NULL).used_slots, 2);
	CHECK_EQ(pool_of(p, NULL).high_water, 2);
	dma_unmap_single(dev, hb, PAGE_SIZE, DMA_TO_DEVICE);
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
	free(a);
	free(area);
	dmamap_platform_destroy(p);
}

/* @buf: 4 pages that @dev must bounce. */
static void min_align_run(struct dmamap_platform *p, struct device *dev, uint8_t **bufs)
{
	uint8_t *buf = bufs[0];
	static const size_t offs[] = { 0, 0x40, 0x123, 0x7ff, 0x800, 0x9c4, 0xfff };
	static const size_t sizes[] = { 1, 100, 2049, 5000 };
	enum { AREA = 4 * PAGE_SIZE };
	uint8_t guard[AREA], a[5000], b[5000];

	CHECK_EQ(dma_get_min_align_mask(dev), 0);
	CHECK_EQ(dma_set_min_align_mask(dev, 0xfff), 0);
	CHECK_EQ(dma_get_min_align_mask(dev), 0xfff);
	CHECK_EQ(dma_set_min_align_mask(NULL, 0xfff), -EINVAL);
	for (unsigned int o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
		for (unsigned int k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			size_t off = offs[o], n = sizes[k];
			phys_addr_t phys = virt_to_phys(buf + off);
			dma_addr_t h;

			pat(guard, AREA, o * 7 + k);
			memcpy(buf, guard, AREA);
			pat(a, n, o * 7 + k);
			pat(b, n, o * 7 + k + 100);
			memcpy(buf + off, a, n);
			memcpy(guard + off, b, n); /* what the whole area must hold at the end */
			h = dma_map_single(dev, buf + off, n, DMA_BIDIRECTIONAL);
			REQUIRE(!dma_mapping_error(dev, h));
			CHECK(dmamap_swiotlb_is_bounce(dev, h));
			CHECK_MSG((h & 0xfff) == (phys & 0xfff),
				  "offset 0x%zx size %zu: handle 0x%llx, phys 0x%llx", off, n,
				  (unsigned long long)h, (unsigned long long)phys);
			CHECK_EQ(dev_diff(dev, h, a, n), 0);
			CHECK_EQ(dmamap_device_write(dev, h, b, n), 0);
			dma_unmap_single(dev, h, n, DMA_BIDIRECTIONAL);
			/* The mapping's bytes came back, and nothing around them moved. */
			CHECK_MSG(ndiff(buf, guard, AREA) == 0, "offset 0x%zx size %zu: %zu bytes",
				  off, n, ndiff(buf, guard, AREA));
		}
	}
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
}

TEST(swiotlb_min_align_mask_keeps_low_address_bits)
{
	on_dma24(1, 2, min_align_run);
}

TEST(swiotlb_host_forced_min_align_mask_keeps_low_address_bits)
{
	on_host_forced(1, 4 * PAGE_SIZE, min_align_run);
}
