/* SPDX-License-Identifier: MIT */
/*
 * Restricted pools (restricted-dma-pool): every mapping and coherent
 * allocation of their device goes through them whatever the swiotlb mode,
 * other devices are not affected, the pool runs out on its own and names
 * itself; bad arguments install nothing; on the host, a search that takes
 * back a parked run never lands on a live mapping.
 *
 * Every check compares bytes the device read (dmamap_device_read) or the CPU
 * reads through its pointer against patterns the test wrote, never a
 * counter alone.
 */
#include <pthread.h>
#include "../helpers.h"

TEST(swiotlb_restricted_pool_takes_every_mapping_of_its_device)
{
	enum { PSIZE = 512 * KiB, LEN = 3000 };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, NC);
	struct device *coh = dmamap_device_lookup(p, COH);
	struct dmamap_swiotlb_stats def0, rs;
	struct page *pg;
	phys_addr_t base;
	uint8_t *buf, *cpu, a[LEN], b[LEN];
	dma_addr_t h, ch;
	unsigned int r0;

	REQUIRE(p && dev && coh);
	pg = dmamap_alloc_pages(p, 7, 0);
	REQUIRE(pg);
	base = page_to_phys(pg);
	def0 = pool_of(p, NULL);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, PSIZE), 0);
	rs = pool_of(NULL, dev);
	/* Named by where it is: devices naming the same region share it. */
	CHECK_MSG(!strncmp(rs.name, "restricted@0x", 13), "name %s", rs.name);
	CHECK_EQ(rs.start, base);
	CHECK_EQ(rs.total_slots * rs.slot_size, PSIZE);
	CHECK_EQ(rs.used_slots, 0);
	CHECK(!strcmp(pool_of(NULL, coh).name, "swiotlb"));
	/* dma-nc reaches this buffer directly, but it bounces into its own pool. */
	buf = dmamap_kmalloc(p, LEN, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	pat(a, LEN, 21);
	pat(b, LEN, 22);
	for (int mode = 0; mode < 2; mode++) {
		/* ... whatever the swiotlb mode. */
		REQUIRE(dmamap_swiotlb_set_mode(p, mode ? DMAMAP_SWIOTLB_NOFORCE :
							  DMAMAP_SWIOTLB_ON) == 0);
		memcpy(buf, a, LEN);
		h = dma_map_single(dev, buf, LEN, DMA_BIDIRECTIONAL);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK(h != virt_to_phys(buf) - RAM0);
		CHECK(in_pool(&rs, dmamap_dma_to_phys(dev, h), LEN));
		CHECK(dmamap_swiotlb_is_bounce(dev, h));
		CHECK_EQ(dev_diff(dev, h, a, LEN), 0);
		CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
		CHECK_EQ(ndiff(buf, a, LEN), 0);
		dma_unmap_single(dev, h, LEN, DMA_BIDIRECTIONAL);
		CHECK_EQ(ndiff(buf, b, LEN), 0);
	}
	REQUIRE(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_ON) == 0);
	rs = pool_of(NULL, dev);
	CHECK_EQ(rs.bounced_maps, 2);
	CHECK_EQ(rs.used_slots, 0);
	CHECK_EQ(pool_of(p, NULL).bounced_maps, def0.bounced_maps);
	/* Other devices are not affected. */
	memcpy(buf, a, LEN);
	h = dma_map_single(coh, buf, LEN, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(coh, h));
	CHECK_EQ(h, virt_to_phys(buf));
	dma_unmap_single(coh, h, LEN, DMA_TO_DEVICE);

	/* Coherent allocations come from the pool too, and both sides share them. */
	cpu = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &ch, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(in_pool(&rs, dmamap_dma_to_phys(dev, ch), 2 * PAGE_SIZE));
	/* 4 slots on a 4K host: the buffer takes whole host pages, and slots for all of them. */
	CHECK_EQ(pool_of(NULL, dev).used_slots,
		 ((2 * PAGE_SIZE + host_page() - 1) & ~(host_page() - 1)) / IO_TLB_SIZE);
	CHECK(all_bytes(cpu, 2 * PAGE_SIZE, 0));
	memcpy(cpu + 100, a, LEN);
	CHECK_EQ(dev_diff(dev, ch + 100, a, LEN), 0);
	CHECK_EQ(dmamap_device_write(dev, ch + 4000, b, LEN), 0);
	CHECK_EQ(ndiff(cpu + 4000, b, LEN), 0);
	dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, ch);
	CHECK_EQ(pool_of(NULL, dev).used_slots, 0);

	/*
	 * The restricted pool runs out on its own, and says which pool it is.
	 * The slots the coherent buffer had are streaming slots again: no
	 * report about the bytes written through its uncached alias.
	 */
	{
		struct page *big = dmamap_alloc_pages(p, 6, 0);
		dma_addr_t hh[3];

		REQUIRE(big);
		r0 = reps.n;
		hh[0] = dma_map_page(dev, big, 0, 256 * KiB, DMA_TO_DEVICE);
		hh[1] = dma_map_page(dev, big, 0, 256 * KiB, DMA_TO_DEVICE);
		CHECK(!dma_mapping_error(dev, hh[0]) && !dma_mapping_error(dev, hh[1]));
		CHECK_MSG(reps.n == r0, "%u reports, the last: [%s] %s", reps.n - r0,
			  dmamap_dbg_kind_name(reps.last.kind), reps.last.text);
		CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_DEVICE_DATA_LOST), 0);
		r0 = reps.n;
		hh[2] = dma_map_page(dev, big, 0, 100, DMA_TO_DEVICE);
		CHECK(hh[2] == DMA_MAPPING_ERROR);
		CHECK_EQ(reps.n, r0 + 1);
		CHECK_MSG(strstr(reps.last.text, "restricted@0x") != NULL, "report: %s",
			  reps.last.text);
		CHECK_EQ(pool_of(NULL, dev).failures, 1);
		CHECK_EQ(pool_of(p, NULL).failures, def0.failures);
		dma_unmap_page(dev, hh[0], 256 * KiB, DMA_TO_DEVICE);
		dma_unmap_page(dev, hh[1], 256 * KiB, DMA_TO_DEVICE);
		CHECK_EQ(pool_of(NULL, dev).used_slots, 0);
	}

	/* One pool per device. */
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, PSIZE), -EBUSY);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_restricted_pool_bad_arguments)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, COH);
	struct page *pg;
	phys_addr_t base;

	REQUIRE(p && dev);
	pg = dmamap_alloc_pages(p, 7, 0);
	REQUIRE(pg);
	base = page_to_phys(pg);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(NULL, base, 256 * KiB), -EINVAL);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base + 64, 256 * KiB), -EINVAL);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, 0), -EINVAL);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, 100 * KiB), -EINVAL);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, 256 * KiB + PAGE_SIZE), -EINVAL);
	/* Not RAM, or running off the end of a bank. */
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, 0x40000000ULL, 256 * KiB), -EINVAL);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, RAM0 + 128 * MiB - 128 * KiB,
						256 * KiB), -EINVAL);
	/* None of these installed anything. */
	CHECK(!strcmp(pool_of(NULL, dev).name, "swiotlb"));
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, 256 * KiB), 0);
	CHECK(!strncmp(pool_of(NULL, dev).name, "restricted@0x", 13));
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, 256 * KiB), -EBUSY);
	/* Another device: the same range shares the pool; an overlapping other one is refused. */
	{
		struct device *other = dmamap_device_lookup(p, "dma-nc");

		REQUIRE(other && other != dev);
		CHECK_EQ(dmamap_swiotlb_restricted_pool(other, base, 512 * KiB), -EINVAL);
		CHECK_EQ(dmamap_swiotlb_restricted_pool(other, base + 128 * KiB, 256 * KiB), -EINVAL);
		CHECK_EQ(dmamap_swiotlb_restricted_pool(other, base, 256 * KiB), 0);
		CHECK_EQ(pool_of(NULL, other).start, pool_of(NULL, dev).start);
	}
	/* Stats arguments. */
	{
		struct dmamap_swiotlb_stats s;

		CHECK_EQ(dmamap_swiotlb_stats(NULL, NULL, &s), -EINVAL);
		CHECK_EQ(dmamap_swiotlb_stats(p, NULL, NULL), -EINVAL);
	}
	dmamap_platform_destroy(p);
}

/* A restricted pool on the host: its device bounces into it, the others do not bounce. */
TEST(swiotlb_host_restricted_pool_takes_every_mapping_of_its_device)
{
	enum { PSIZE = 512 * KiB, LEN = 5000 };
	struct dmamap_platform *p = host_platform();
	struct device *dev = p ? host_device(p, "rp", NULL) : NULL;
	struct device *other = p ? host_device(p, "other", NULL) : NULL;
	uint8_t *pool = host_pages(PSIZE), *buf = malloc(LEN), a[LEN], b[LEN];
	struct dmamap_swiotlb_stats rs, def0;
	struct dmamap_device_stats d;
	dma_addr_t h;

	REQUIRE(p && dev && other && pool && buf);
	def0 = pool_of(p, NULL);
	REQUIRE(dmamap_swiotlb_restricted_pool(dev, (uintptr_t)pool, PSIZE) == 0);
	rs = pool_of(NULL, dev);
	pat(a, LEN, 71);
	pat(b, LEN, 72);
	for (unsigned int k = 0; k < 3; k++) {
		memcpy(buf, a, LEN);
		h = dma_map_single(dev, buf, LEN, dirs[k]);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK(in_pool(&rs, (phys_addr_t)h, LEN));
		CHECK(dmamap_swiotlb_is_bounce(dev, h));
		CHECK_EQ(dev_diff(dev, h, a, LEN), 0);
		if (dev_writes(dirs[k]))
			CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
		CHECK_EQ(ndiff(buf, a, LEN), 0);
		dma_unmap_single(dev, h, LEN, dirs[k]);
		CHECK_MSG(ndiff(buf, dev_writes(dirs[k]) ? b : a, LEN) == 0, "%s: CPU after unmap",
			  dir_name(dirs[k]));
	}
	rs = pool_of(NULL, dev);
	CHECK_EQ(rs.bounced_maps, 3);
	CHECK_EQ(rs.bytes_to_device, 3 * LEN);
	CHECK_EQ(rs.bytes_from_device, 2 * LEN);
	CHECK_EQ(rs.used_slots, 0);
	CHECK_EQ(rs.high_water, (LEN + 2047) / 2048);
	d = stats_of(dev);
	CHECK_EQ(d.maps, 3);
	CHECK_EQ(d.unmaps, 3);
	CHECK_EQ(d.bytes_bounced, 3 * LEN);
	CHECK_EQ(pool_of(p, NULL).bounced_maps, def0.bounced_maps);
	/* The other device maps the same buffer where it is. */
	h = dma_map_single(other, buf, LEN, DMA_TO_DEVICE);
	CHECK_EQ(h, (uintptr_t)buf);
	dma_unmap_single(other, h, LEN, DMA_TO_DEVICE);
	free(buf);
	dmamap_platform_destroy(p);
	free(pool);
}

/*
 * A search that takes back a parked run in its way must still check the
 * run it returns. Restricted pool (one area): M maps slot 0; T maps 3000
 * bytes (slots 1-2), unmaps them (parked in T's shard) and exits; M maps L
 * (slot 3, stays live), unmaps slot 0 (parked in M's shard) and maps 5000
 * bytes, which must not land on L.
 */
struct park3000 {
	struct device *dev;
	uint8_t *buf;
};

static void *park_3000(void *arg)
{
	struct park3000 *k = arg;
	dma_addr_t h = dma_map_single(k->dev, k->buf, 3000, DMA_TO_DEVICE);

	if (!dma_mapping_error(k->dev, h))
		dma_unmap_single(k->dev, h, 3000, DMA_TO_DEVICE);
	return NULL;
}

TEST(swiotlb_host_unparking_search_never_overlaps_a_live_mapping)
{
	enum { PSIZE = 256 * KiB };
	struct dmamap_platform *p = host_platform();
	struct device *dev = p ? host_device(p, "rp", NULL) : NULL;
	uint8_t *pool = host_pages(PSIZE), *buf = host_pages(8 * KiB), *lbuf = host_pages(PAGE_SIZE);
	struct park3000 k;
	dma_addr_t a, l, n;
	pthread_t th;

	REQUIRE(p && dev && pool && buf && lbuf);
	REQUIRE(dmamap_swiotlb_restricted_pool(dev, (uintptr_t)pool, PSIZE) == 0);
	pat(buf, 8 * KiB, 81);
	pat(lbuf, PAGE_SIZE, 82);
	a = dma_map_single(dev, buf, 2048, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, a));
	k = (struct park3000){ .dev = dev, .buf = buf };
	REQUIRE(pthread_create(&th, NULL, park_3000, &k) == 0);
	pthread_join(th, NULL);
	l = dma_map_single(dev, lbuf, 2048, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, l));
	dma_unmap_single(dev, a, 2048, DMA_TO_DEVICE);
	n = dma_map_single(dev, buf, 5000, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, n));
	CHECK_MSG(n + 5000 <= l || l + 2048 <= n, "5000 bytes at 0x%llx overlap live 2048 at 0x%llx",
		  (unsigned long long)n, (unsigned long long)l);
	CHECK_EQ(dev_diff(dev, l, lbuf, 2048), 0);
	CHECK_EQ(dev_diff(dev, n, buf, 5000), 0);
	CHECK_EQ(pool_of(NULL, dev).used_slots, 1 + 3);
	dma_unmap_single(dev, n, 5000, DMA_TO_DEVICE);
	dma_unmap_single(dev, l, 2048, DMA_TO_DEVICE);
	CHECK_EQ(pool_of(NULL, dev).used_slots, 0);
	CHECK_EQ(pool_of(NULL, dev).largest_free_run, 128);
	free(buf);
	free(lbuf);
	dmamap_platform_destroy(p);
	free(pool);
}

/*
 * A pool the device cannot reach serves it no coherent memory: the
 * allocation fails, rather than handing out memory whose handle is
 * DMA_MAPPING_ERROR (found by the board fuzzer, with a pool outside the
 * device's only window).
 */
TEST(swiotlb_restricted_pool_out_of_reach_gives_no_coherent_memory)
{
	enum { PSIZE = 512 * KiB };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	struct page *pg;
	phys_addr_t base;
	dma_addr_t h = 0;
	void *cpu;

	REQUIRE(p && dev);
	pg = dmamap_alloc_pages(p, 7, 0);
	REQUIRE(pg);
	base = page_to_phys(pg);
	/* dma-24 sees only the first 16 MiB of RAM. */
	REQUIRE(dmamap_phys_to_dma(dev, base) == DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, PSIZE), 0);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	CHECK_MSG(!cpu, "allocated %p at handle 0x%llx", cpu, (unsigned long long)h);
	if (cpu)
		dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	/* Nothing was taken from the pool. */
	CHECK_EQ(pool_of(NULL, dev).used_slots, 0);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	dmamap_platform_destroy(p);
}
