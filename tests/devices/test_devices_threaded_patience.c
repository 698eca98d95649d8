/* SPDX-License-Identifier: MIT */
/*
 * Threaded mode on a loaded machine: the device thread waits for a core
 * between its steps, so a transfer takes longer by the clock than the
 * second a kernel driver's timeout allows, and the example drivers wait
 * longer there (drivers/patience.h). A ticker whose every step sleeps
 * holds the thread up the same way, deterministically: the transfer
 * waited for takes more than a second, and must arrive whole.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/io.h>
#include <dmamap/scatterlist.h>
#include <dmamap/sim.h>
#include "../../drivers/blk_drv.h"
#include "../../drivers/memcpy_dma.h"
#include "../helpers.h"

/* Each step of the device thread, once held up, sleeps this long. */
#define SLOW_US 25000
/* Transfers of this many steps of the device: 48 of 4 KiB for the disk, 48 of 16 KiB for the engine. */
#define BLK_LEN (192u << 10)
#define MCE_LEN (768u << 10)

/* The default board in threaded mode, with a ticker that can hold its device thread up. */
static struct dmamap_platform *threaded_board(void __iomem **ticker)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *t = p ? add_ticker(p, "held-up") : NULL;

	*ticker = t ? dmamap_device_ioremap(t) : NULL;
	if (!*ticker || dmamap_sim_set_threaded(p, true)) {
		if (p)
			dmamap_platform_destroy(p);
		return NULL;
	}
	return p;
}

static void threaded_board_end(struct dmamap_platform *p)
{
	dmamap_sim_set_threaded(p, false);
	dmamap_platform_destroy(p);
}

/* From now on every step of the device thread sleeps SLOW_US. */
static void hold_up(void __iomem *ticker)
{
	writel(SLOW_US, ticker + TICK_SLOW_US);
	writel(1, ticker + TICK_FOREVER);
}

TEST(devices_threaded_held_up_block_driver_waits_it_out)
{
	void __iomem *ticker;
	struct dmamap_platform *p = threaded_board(&ticker);
	struct scatterlist sg;
	struct blkdrv b;
	uint8_t *out, *in;
	double t0, waited;

	REQUIRE(p);
	out = dmamap_kmalloc(p, BLK_LEN, DMAMAP_GFP_DMA_ALIGN);
	in = dmamap_kmalloc(p, BLK_LEN, DMAMAP_GFP_DMA_ALIGN | __GFP_ZERO);
	REQUIRE(out && in);
	pattern(out, BLK_LEN, 3);
	REQUIRE(blkdrv_probe(&b, lookup(p, "blk-coh"), 16, BLKDRV_BUG_NONE) == 0);
	sg_init_one(&sg, out, BLK_LEN);
	CHECK_EQ(blkdrv_rw(&b, BLK_OP_WRITE, 64, &sg, 1), 0);
	hold_up(ticker);
	sg_init_one(&sg, in, BLK_LEN);
	t0 = now_s();
	CHECK_EQ(blkdrv_rw(&b, BLK_OP_READ, 64, &sg, 1), 0);
	waited = now_s() - t0;
	printf("# blk-coh: %u KiB read back in %.2f s of the clock\n", BLK_LEN >> 10, waited);
	/* Held up less than the usual second, the test would show nothing. */
	CHECK_MSG(waited > 1.0, "the read took %.2f s", waited);
	CHECK(!memcmp(in, out, BLK_LEN));
	blkdrv_remove(&b);
	dmamap_kfree(p, out);
	dmamap_kfree(p, in);
	threaded_board_end(p);
}

TEST(devices_threaded_held_up_memcpy_driver_waits_it_out)
{
	void __iomem *ticker;
	struct dmamap_platform *p = threaded_board(&ticker);
	struct mcdma m;
	uint8_t *src, *dst, *want;
	double t0, waited;

	REQUIRE(p);
	src = dmamap_kmalloc(p, MCE_LEN, DMAMAP_GFP_DMA_ALIGN);
	dst = dmamap_kmalloc(p, MCE_LEN, DMAMAP_GFP_DMA_ALIGN | __GFP_ZERO);
	want = malloc(MCE_LEN);
	REQUIRE(src && dst && want);
	pattern(want, MCE_LEN, 5);
	REQUIRE(mcdma_probe(&m, lookup(p, "dma-coh"), 8) == 0);
	hold_up(ticker);
	t0 = now_s();
	CHECK_EQ(mcdma_copy_buf(&m, dst, src, MCE_LEN, want, NULL, MCDMA_BUG_NONE), 0);
	waited = now_s() - t0;
	printf("# dma-coh: %u KiB copied in %.2f s of the clock\n", MCE_LEN >> 10, waited);
	CHECK_MSG(waited > 1.0, "the copy took %.2f s", waited);
	CHECK(!memcmp(dst, want, MCE_LEN));
	mcdma_remove(&m);
	free(want);
	dmamap_kfree(p, src);
	dmamap_kfree(p, dst);
	threaded_board_end(p);
}
