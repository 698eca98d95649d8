/* SPDX-License-Identifier: MIT */
/*
 * Chaos mode (seeded evictions and speculative fills): a correct driver
 * loses nothing under a thousand seeds.
 *
 * Every check compares bytes the device read (dmamap_device_read), bytes
 * the CPU reads through its pointer, or the memory view probed with
 * dmamap_sim_mem_read(), against patterns the test wrote: a missing clean or
 * invalidate in the library shows up as stale bytes, never as a counter.
 */
#include "../../drivers/memcpy_dma.h"
#include "../helpers.h"

TEST(cache_chaos_correct_driver)
{
	enum { SEEDS = 1000, PER_BOARD = 250, LEN = 1000, FLEN = 704 };
	uint8_t fill[LEN], seen[LEN], old[FLEN], neu[FLEN];
	struct dmamap_platform *p = NULL;
	struct device *nc = NULL;
	struct mcdma m = { 0 };
	uint8_t *src = NULL, *dst = NULL, *buf = NULL;
	uint64_t wrong = 0, failed = 0, lost = 0, chaos = 0;
	struct dmamap_sim_cache_stats cs;

	for (unsigned int seed = 1; seed <= SEEDS + 1; seed++) {
		dma_addr_t h;

		if ((seed - 1) % PER_BOARD == 0) {
			if (p) {
				/* Chaos off: the totals of this board. */
				dmamap_sim_set_chaos(p, 0, 0);
				lost += sim_losses(p);
				if (!dmamap_sim_cache_stats(p, &cs))
					chaos += cs.chaos_evictions + cs.chaos_prefetches;
				mcdma_remove(&m);
				dmamap_platform_destroy(p);
				p = NULL;
			}
			if (seed > SEEDS)
				break;
			p = builtin_board("default");
			REQUIRE(p);
			nc = dmamap_device_lookup(p, NC);
			REQUIRE(nc && !mcdma_probe(&m, nc, 16));
			src = dbuf(p, LEN);
			dst = dbuf(p, LEN);
			buf = dbuf(p, FLEN);
			REQUIRE(src && dst && buf);
		}
		dmamap_sim_set_chaos(p, seed, 0);

		pattern(fill, LEN, seed);
		if (mcdma_copy_buf(&m, dst, src, LEN, fill, seen, MCDMA_BUG_NONE))
			failed++;
		wrong += ndiff(seen, fill, LEN) + ndiff(dst, fill, LEN);

		/* A receive: stale CPU data in the buffer, the device overwrites it. */
		pattern(old, FLEN, seed + 85);
		pattern(neu, FLEN, seed + 170);
		memcpy(buf, old, FLEN);
		h = dma_map_single(nc, buf, FLEN, DMA_FROM_DEVICE);
		if (dma_mapping_error(nc, h)) {
			failed++;
			continue;
		}
		if (dmamap_device_write(nc, h, neu, FLEN))
			failed++;
		dma_unmap_single(nc, h, FLEN, DMA_FROM_DEVICE);
		wrong += ndiff(buf, neu, FLEN);
	}
	CHECK_EQ(failed, 0);
	CHECK_EQ(wrong, 0);
	CHECK_EQ(lost, 0);
	CHECK_MSG(chaos > 0, "chaos mode evicted and prefetched nothing");
	printf("#   chaos: %llu evictions+prefetches over %d seeds\n",
	       (unsigned long long)chaos, SEEDS);
}
