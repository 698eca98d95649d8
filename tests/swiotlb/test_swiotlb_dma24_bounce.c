/* SPDX-License-Identifier: MIT */
/*
 * swiotlb on the default board's dma-24, which sees only
 * the first 16 MiB of RAM: buffers above it bounce through the default pool
 * at the bottom of RAM, in every direction and size, single or as sg
 * entries; memory between the pool's end and 16 MiB is mapped directly.
 *
 * Every check compares bytes the device read (dmamap_device_read) or the CPU
 * reads through its pointer against patterns the test wrote, never a
 * counter alone.
 */
#include "../helpers.h"

TEST(swiotlb_dma24_high_buffer_bounces_each_direction)
{
	static const size_t sizes[] = { 1, 63, 100, 2048, 3000, 4096, 10000, 65536 };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	struct dmamap_swiotlb_stats pool;

	REQUIRE(p && dev);
	pool = pool_of(p, NULL);
	CHECK(!strcmp(pool.name, "swiotlb"));
	CHECK_EQ(pool.start, RAM0);
	CHECK_EQ(pool.slot_size, 2048);
	for (unsigned int d = 0; d < 3; d++) {
		for (unsigned int k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			size_t n = sizes[k];
			uint8_t *buf = hi24_buf(p, n), *a = patbuf(n, k), *b = patbuf(n, k + 100);
			dma_addr_t h;

			REQUIRE(buf && a && b);
			memcpy(buf, a, n);
			h = dma_map_single(dev, buf, n, dirs[d]);
			REQUIRE(!dma_mapping_error(dev, h));
			/* A handle dma-24 can use, pointing into the pool. */
			CHECK_MSG(h + n <= 16 * MiB, "%s %zu: handle 0x%llx", dir_name(dirs[d]), n,
				  (unsigned long long)h);
			CHECK(dmamap_swiotlb_is_bounce(dev, h));
			CHECK(in_pool(&pool, dmamap_dma_to_phys(dev, h), n));
			/* The device reads what the CPU wrote before the map, whatever the direction. */
			CHECK_MSG(dev_diff(dev, h, a, n) == 0, "%s %zu: device read %zu wrong bytes",
				  dir_name(dirs[d]), n, dev_diff(dev, h, a, n));
			if (dev_writes(dirs[d]))
				CHECK_EQ(dmamap_device_write(dev, h, b, n), 0);
			/* While the device owns it, the CPU's buffer is untouched. */
			CHECK_EQ(ndiff(buf, a, n), 0);
			dma_unmap_single(dev, h, n, dirs[d]);
			CHECK_MSG(ndiff(buf, dev_writes(dirs[d]) ? b : a, n) == 0,
				  "%s %zu: CPU sees %zu wrong bytes after unmap", dir_name(dirs[d]), n,
				  ndiff(buf, dev_writes(dirs[d]) ? b : a, n));
			dmamap_kfree(p, buf);
			free(a);
			free(b);
		}
	}
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_dma24_low_buffer_is_not_bounced)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	uint8_t *buf, a[3000], b[3000];
	dma_addr_t h;

	REQUIRE(p && dev);
	buf = d24_lo_pages(p, 1);
	REQUIRE(buf);
	pat(a, sizeof(a), 1);
	pat(b, sizeof(b), 2);
	h = fill_map(dev, buf + 96, a, sizeof(a), DMA_BIDIRECTIONAL);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(h, virt_to_phys(buf + 96) - RAM0);
	CHECK(!dmamap_swiotlb_is_bounce(dev, h));
	CHECK(bidir_round_trip(dev, h, buf + 96, a, b, sizeof(a)));
	CHECK_EQ(pool_of(p, NULL).bounced_maps, 0);
	CHECK_EQ(stats_of(dev).bytes_bounced, 0);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_dma24_sg_mixes_bounced_and_direct_entries)
{
	enum { N = 5 };
	static const size_t len[N] = { 3000, 4096, 700, 1000, 9000 };
	static const size_t off[N] = { 100, 0, 0, 64, 0 };
	static const bool high[N] = { true, false, true, false, true };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	uint8_t *lo, *hi[N] = { 0 }, *cpu[N], *a[N], *b[N];
	struct scatterlist sgl[N], *sg;
	int i;

	REQUIRE(p && dev);
	lo = d24_lo_pages(p, 2);
	REQUIRE(lo);
	for (i = 0; i < N; i++) {
		if (high[i]) {
			hi[i] = hi24_buf(p, off[i] + len[i]);
			REQUIRE(hi[i]);
			cpu[i] = hi[i] + off[i];
		} else {
			/* Two entries in separate pages of the low block. */
			cpu[i] = lo + (i == 1 ? 0 : 2 * PAGE_SIZE) + off[i];
		}
		a[i] = patbuf(len[i], 10 + i);
		b[i] = patbuf(len[i], 50 + i);
		REQUIRE(a[i] && b[i]);
	}
	for (unsigned int d = 0; d < 3; d++) {
		enum dma_data_direction dir = dirs[d];
		int n;

		sg_fill(sgl, N, cpu, a, len);
		n = dma_map_sg(dev, sgl, N, dir);
		REQUIRE(n > 0);
		CHECK_EQ(n, N); /* nothing to merge: the entries are not contiguous */
		for_each_sg(sgl, sg, N, i) {
			dma_addr_t h = sg_dma_address(sg);

			CHECK_EQ(sg_dma_len(sg), len[i]);
			CHECK_MSG(h + len[i] <= 16 * MiB, "%s entry %d: 0x%llx", dir_name(dir), i,
				  (unsigned long long)h);
			CHECK_EQ(dmamap_swiotlb_is_bounce(dev, h), high[i]);
			if (!high[i])
				CHECK_EQ(h, virt_to_phys(cpu[i]) - RAM0);
			CHECK_MSG(dev_diff(dev, h, a[i], len[i]) == 0, "%s entry %d: device read",
				  dir_name(dir), i);
			if (dev_writes(dir))
				CHECK_EQ(dmamap_device_write(dev, h, b[i], len[i]), 0);
		}
		sg_round_end(dev, sgl, N, cpu, a, b, len, dir);
		CHECK_EQ(pool_of(p, NULL).used_slots, 0);
	}
	CHECK_EQ(pool_of(p, NULL).bounced_maps, 3 * 3);
	for (i = 0; i < N; i++) {
		free(a[i]);
		free(b[i]);
	}
	dmamap_platform_destroy(p);
}

/*
 * A driver written for a 32-bit device probes on dma-24 as it would on
 * Linux, whose dma_direct_supported() accepts every mask of 32 bits or
 * more: dma_set_mask_and_coherent(32 bits) succeeds, its buffers above
 * the window bounce, and coherent memory still comes from where dma-24
 * reaches. Narrower than the DMA zone is still refused.
 */
TEST(swiotlb_dma24_takes_a_32_bit_mask_and_bounces)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	uint8_t *buf, *a, *cpu;
	dma_addr_t h, ch;

	REQUIRE(p && dev);
	CHECK(dma_supported(dev, DMA_BIT_MASK(32)));
	CHECK(dma_supported(dev, DMA_BIT_MASK(64)));
	CHECK_EQ(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32)), 0);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(32));
	CHECK(!dma_supported(dev, DMA_BIT_MASK(20)));
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(20)), -EIO);

	buf = hi24_buf(p, 3000);
	a = patbuf(3000, 7);
	REQUIRE(buf && a);
	memcpy(buf, a, 3000);
	h = dma_map_single(dev, buf, 3000, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK(h + 3000 <= 16 * MiB);
	CHECK(dmamap_swiotlb_is_bounce(dev, h));
	CHECK_EQ(dev_diff(dev, h, a, 3000), 0);
	dma_unmap_single(dev, h, 3000, DMA_TO_DEVICE);

	cpu = dma_alloc_coherent(dev, 8192, &ch, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(ch + 8192 <= 16 * MiB);
	memset(cpu, 0x5a, 8192);
	memset(a, 0x5a, 3000);
	CHECK_EQ(dev_diff(dev, ch, a, 3000), 0);
	dma_free_coherent(dev, 8192, cpu, ch);
	/* The one error: the 20-bit mask. */
	CHECK_EQ(stats_of(dev).errors, 1);
	CHECK_EQ(errk(dev, DMAMAP_ERRK_BAD_MASK), 1);
	dmamap_kfree(p, buf);
	free(a);
	dmamap_platform_destroy(p);
}
