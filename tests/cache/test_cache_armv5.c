/* SPDX-License-Identifier: MIT */
/*
 * ARMv5's cache rules: all the maintenance at map (invalidate for
 * FROM_DEVICE, clean and invalidate for BIDIRECTIONAL), none at unmap,
 * against arm64's clean at map and invalidate at unmap; the example driver
 * works on every device of the armv5 board.
 *
 * Every check compares bytes the device read (dmamap_device_read), bytes
 * the CPU reads through its pointer, or the memory view probed with
 * dmamap_sim_mem_read(), against patterns the test wrote: a missing clean or
 * invalidate in the library shows up as stale bytes, never as a counter.
 */
#include "../helpers.h"

struct rx_stats {
	uint64_t map_inv, map_clean, unmap_inv, unmap_clean;
	bool cpu_ok;
};

/* One FROM_DEVICE (or BIDIRECTIONAL) receive; what maintenance each step did. */
static struct rx_stats rx_round(struct dmamap_platform *p, struct device *dev,
				enum dma_data_direction dir, size_t size,
				unsigned int seed)
{
	struct rx_stats r = { 0 };
	struct dmamap_device_stats s0, s1, s2;
	uint8_t *buf = dbuf(p, size), *a = malloc(size), *b = malloc(size);
	dma_addr_t h;

	if (!buf || !a || !b)
		goto out;
	pattern(a, size, seed);
	pattern(b, size, seed + 128);
	/*
	 * Give the CPU's bytes to memory first, so that an invalidate at map
	 * (armv5) finds clean lines: the CPU's copy differs from what the
	 * device will write, but nothing of the CPU's is thrown away.
	 */
	memcpy(buf, a, size);
	h = dma_map_single(dev, buf, size, DMA_TO_DEVICE);
	dma_unmap_single(dev, h, size, DMA_TO_DEVICE);
	s0 = stats_of(dev);
	h = dma_map_single(dev, buf, size, dir);
	if (dma_mapping_error(dev, h))
		goto out;
	s1 = stats_of(dev);
	dmamap_device_write(dev, h, b, size);
	dma_unmap_single(dev, h, size, dir);
	s2 = stats_of(dev);
	r.map_inv = s1.cache_bytes_invalidated - s0.cache_bytes_invalidated;
	r.map_clean = s1.cache_bytes_cleaned - s0.cache_bytes_cleaned;
	r.unmap_inv = s2.cache_bytes_invalidated - s1.cache_bytes_invalidated;
	r.unmap_clean = s2.cache_bytes_cleaned - s1.cache_bytes_cleaned;
	r.cpu_ok = !memcmp(buf, b, size);
out:
	free(a);
	free(b);
	dmamap_kfree(p, buf);
	return r;
}

TEST(cache_armv5_rules)
{
	struct dmamap_platform *v5 = builtin_board("armv5"), *v8 = builtin_board("default");
	struct device *nc5, *nc8;
	struct rx_stats r;
	size_t size;

	REQUIRE(v5 && v8);
	nc5 = dmamap_device_lookup(v5, NC);
	nc8 = dmamap_device_lookup(v8, NC);
	REQUIRE(nc5 && nc8);
	CHECK_EQ(dmamap_cache_line_size(v5), 32);

	/* The correct driver works on every device of the armv5 board. */
	for (unsigned int i = 0; i < 3; i++) {
		static const char *const devs[] = { COH, NC, D32 };

		mcdma_copy_ok(v5, devs[i], 1000, 20 + i);
		mcdma_copy_ok(v5, devs[i], 4096 + 96, 30 + i);
	}

	/* armv5 FROM_DEVICE: invalidate at map, nothing at unmap. */
	size = 16 * dmamap_cache_line_size(v5) + 8;
	r = rx_round(v5, nc5, DMA_FROM_DEVICE, size, 40);
	CHECK_MSG(r.cpu_ok, "armv5: the CPU does not see the device's bytes after unmap");
	CHECK_EQ(r.map_inv, 17 * dmamap_cache_line_size(v5));
	CHECK_EQ(r.map_clean, 0);
	CHECK_EQ(r.unmap_inv, 0);
	CHECK_EQ(r.unmap_clean, 0);
	/* armv5 BIDIRECTIONAL: clean+invalidate at map, nothing at unmap. */
	r = rx_round(v5, nc5, DMA_BIDIRECTIONAL, size, 41);
	CHECK(r.cpu_ok);
	CHECK_EQ(r.map_inv, 17 * dmamap_cache_line_size(v5));
	CHECK_EQ(r.map_clean, 17 * dmamap_cache_line_size(v5));
	CHECK_EQ(r.unmap_inv, 0);

	/* arm64 (default board) FROM_DEVICE: clean at map, invalidate at unmap. */
	size = 16 * dmamap_cache_line_size(v8) + 8;
	r = rx_round(v8, nc8, DMA_FROM_DEVICE, size, 42);
	CHECK(r.cpu_ok);
	CHECK_EQ(r.map_inv, 0);
	CHECK_EQ(r.map_clean, 17 * dmamap_cache_line_size(v8));
	CHECK_EQ(r.unmap_inv, 17 * dmamap_cache_line_size(v8));

	CHECK_EQ(sim_losses(v5), 0);
	CHECK_EQ(sim_losses(v8), 0);
	dmamap_platform_destroy(v5);
	dmamap_platform_destroy(v8);
}
