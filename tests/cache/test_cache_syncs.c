/* SPDX-License-Identifier: MIT */
/*
 * The syncs: without sync_for_cpu the CPU reads stale data, without
 * sync_for_device the device does, on the non-coherent device only; a
 * partial sync hands over exactly the lines of its range.
 *
 * Every check compares bytes the device read (dmamap_device_read), bytes
 * the CPU reads through its pointer, or the memory view probed with
 * dmamap_sim_mem_read(), against patterns the test wrote: a missing clean or
 * invalidate in the library shows up as stale bytes, never as a counter.
 */
#include "../helpers.h"

TEST(cache_missing_sync_for_cpu)
{
	static const enum dma_data_direction rx_dirs[] = { DMA_FROM_DEVICE,
							DMA_BIDIRECTIONAL };
	struct dmamap_platform *p = builtin_board("default");
	uint8_t a[512], b[512], c[512];

	REQUIRE(p);
	pattern(a, sizeof(a), 1);
	pattern(b, sizeof(b), 2);
	pattern(c, sizeof(c), 3);
	for (unsigned int d = 0; d < 2; d++) {
		struct device *dev = dmamap_device_lookup(p, both_devs[d]);
		bool nc = !dev_is_dma_coherent(dev);

		for (unsigned int i = 0; i < 2; i++) {
			enum dma_data_direction dir = rx_dirs[i];
			uint8_t *buf = dbuf(p, 512);
			dma_addr_t h;

			REQUIRE(buf);
			memcpy(buf, a, 512);
			h = dma_map_single(dev, buf, 512, dir);
			REQUIRE(!dma_mapping_error(dev, h));
			CHECK_EQ(dmamap_device_write(dev, h, b, 512), 0);
			/* The bug: the CPU consumes the buffer without taking it back. */
			CHECK_MSG(!memcmp(buf, nc ? a : b, 512),
				  "%s %s: unsynced CPU read should see %s data (%zu bytes differ)",
				  both_devs[d], dir_name(dir), nc ? "stale" : "the device's",
				  ndiff(buf, nc ? a : b, 512));
			/* Done right: sync for the CPU, then it sees the device's bytes. */
			dma_sync_single_for_cpu(dev, h, 512, dir);
			CHECK_MSG(!memcmp(buf, b, 512), "%s %s: after sync_for_cpu %zu bytes stale",
				  both_devs[d], dir_name(dir), ndiff(buf, b, 512));
			/* And a second round of ownership, as a ring buffer does. */
			dma_sync_single_for_device(dev, h, 512, dir);
			CHECK_EQ(dmamap_device_write(dev, h, c, 512), 0);
			dma_sync_single_for_cpu(dev, h, 512, dir);
			CHECK_MSG(!memcmp(buf, c, 512), "%s %s: second round %zu bytes stale",
				  both_devs[d], dir_name(dir), ndiff(buf, c, 512));
			dma_sync_single_for_device(dev, h, 512, dir);
			dma_unmap_single(dev, h, 512, dir);
			CHECK(!memcmp(buf, c, 512));
			dmamap_kfree(p, buf);
		}
	}
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

TEST(cache_missing_sync_for_device)
{
	static const enum dma_data_direction tx_dirs[] = { DMA_TO_DEVICE,
							DMA_BIDIRECTIONAL };
	struct dmamap_platform *p = builtin_board("default");
	uint8_t a[512], b[512], c[512];

	REQUIRE(p);
	pattern(a, sizeof(a), 4);
	pattern(b, sizeof(b), 5);
	pattern(c, sizeof(c), 6);
	for (unsigned int d = 0; d < 2; d++) {
		struct device *dev = dmamap_device_lookup(p, both_devs[d]);
		bool nc = !dev_is_dma_coherent(dev);

		for (unsigned int i = 0; i < 2; i++) {
			enum dma_data_direction dir = tx_dirs[i];
			uint8_t *buf = dbuf(p, 512);
			dma_addr_t h;

			REQUIRE(buf);
			memcpy(buf, a, 512);
			h = dma_map_single(dev, buf, 512, dir);
			REQUIRE(!dma_mapping_error(dev, h));
			/* The bug: the CPU changes the buffer and does not give it back. */
			memcpy(buf, b, 512);
			CHECK_MSG(dev_reads(dev, h, nc ? a : b, 512),
				  "%s %s: without sync_for_device the device should read %s data",
				  both_devs[d], dir_name(dir), nc ? "stale" : "the CPU's");
			dma_sync_single_for_device(dev, h, 512, dir);
			CHECK_MSG(dev_reads(dev, h, b, 512),
				  "%s %s: after sync_for_device the device reads stale data",
				  both_devs[d], dir_name(dir));
			/* Done right: take it back, write, give it back. */
			dma_sync_single_for_cpu(dev, h, 512, dir);
			memcpy(buf, c, 512);
			dma_sync_single_for_device(dev, h, 512, dir);
			CHECK_MSG(dev_reads(dev, h, c, 512),
				  "%s %s: second round: device reads stale data",
				  both_devs[d], dir_name(dir));
			dma_unmap_single(dev, h, 512, dir);
			CHECK(!memcmp(buf, c, 512));
			dmamap_kfree(p, buf);
		}
	}
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

/* dma_sync_single_range_*: exactly the lines of the range change hands. */
TEST(cache_sync_range)
{
	struct dmamap_platform *p = builtin_board("default");
	unsigned int line;
	size_t size, off, rlen;
	uint8_t *a, *b, *want;

	REQUIRE(p);
	line = dmamap_cache_line_size(p);
	size = 8 * line;
	off = 2 * line;
	rlen = 3 * line;
	a = malloc(size);
	b = malloc(size);
	want = malloc(size);
	REQUIRE(a && b && want);
	pattern(a, size, 10);
	pattern(b, size, 11);
	for (unsigned int d = 0; d < 2; d++) {
		struct device *dev = dmamap_device_lookup(p, both_devs[d]);
		bool nc = !dev_is_dma_coherent(dev);
		uint8_t *buf = dbuf(p, size);
		dma_addr_t h;

		REQUIRE(buf);
		/* What a partial sync should leave: the range new, the rest as before. */
		memcpy(want, nc ? a : b, size);
		memcpy(want + off, b + off, rlen);

		memcpy(buf, a, size);
		h = dma_map_single(dev, buf, size, DMA_FROM_DEVICE);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK_EQ(dmamap_device_write(dev, h, b, size), 0);
		dma_sync_single_range_for_cpu(dev, h, off, rlen, DMA_FROM_DEVICE);
		CHECK_MSG(!memcmp(buf, want, size),
			  "%s: range_for_cpu [%zu,+%zu): %zu bytes unexpected", both_devs[d],
			  off, rlen, ndiff(buf, want, size));
		dma_sync_single_range_for_device(dev, h, off, rlen, DMA_FROM_DEVICE);
		dma_unmap_single(dev, h, size, DMA_FROM_DEVICE);
		CHECK(!memcmp(buf, b, size));

		memcpy(buf, a, size);
		h = dma_map_single(dev, buf, size, DMA_TO_DEVICE);
		REQUIRE(!dma_mapping_error(dev, h));
		dma_sync_single_for_cpu(dev, h, size, DMA_TO_DEVICE);
		memcpy(buf, b, size);
		dma_sync_single_range_for_device(dev, h, off, rlen, DMA_TO_DEVICE);
		CHECK_MSG(dev_reads(dev, h, want, size),
			  "%s: range_for_device [%zu,+%zu): device read unexpected bytes",
			  both_devs[d], off, rlen);
		dma_unmap_single(dev, h, size, DMA_TO_DEVICE);
		dmamap_kfree(p, buf);
	}
	CHECK_EQ(sim_losses(p), 0);
	free(a);
	free(b);
	free(want);
	dmamap_platform_destroy(p);
}
