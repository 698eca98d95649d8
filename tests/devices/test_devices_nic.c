/* SPDX-License-Identifier: MIT */
/*
 * The NIC model and its driver: the wire in both directions, frames too
 * long for a buffer, a full wire, and interrupt coalescing.
 */
#include <dmamap/sim.h>
#include "../../drivers/nic_drv.h"
#include "../helpers.h"

struct rx_log {
	unsigned int n, errors;
	size_t len[8];
	uint8_t first[8][64];
};

static void log_rx(void *ctx, uint8_t *frame, size_t len, bool error)
{
	struct rx_log *l = ctx;

	if (l->n < 8) {
		l->len[l->n] = len;
		memcpy(l->first[l->n], frame, len < 64 ? len : 64);
	}
	l->n++;
	l->errors += error;
}

static void freed(void *ctx, void *cookie, bool error)
{
	(void)ctx;
	(void)cookie;
	(void)error;
}

static void settle(struct nicdrv *n)
{
	for (int i = 0; i < 2000; i++) {
		if (n->napi_more)
			nicdrv_poll(n, 64);
		udelay(10);
	}
}

TEST(nic_wire_carries_frames_both_ways)
{
	struct dmamap_platform *p = sim_board("default");
	struct rx_log log = { 0 };
	struct device *dev;
	struct nicdrv n;
	uint8_t frame[300], got[400], *tx;
	struct nicdrv_frag frag;

	REQUIRE(p && (dev = lookup(p, "nic-nc")));
	REQUIRE(nicdrv_probe(&n, dev, 16, false, NICDRV_BUG_NONE, log_rx, freed, &log) == 0);
	/* In from the wire: the driver's RX path sees the bytes. */
	pattern(frame, sizeof(frame), 5);
	CHECK_EQ(dmamap_nic_wire_inject(dev, frame, sizeof(frame)), 0);
	settle(&n);
	CHECK_EQ(log.n, 1);
	CHECK_EQ(log.len[0], sizeof(frame));
	CHECK(!memcmp(log.first[0], frame, 64));
	/* Out to the wire: not looped back, taken whole by the observer. */
	tx = dmamap_kmalloc(p, 200, DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(tx);
	pattern(tx, 200, 6);
	frag = (struct nicdrv_frag){ tx, 200 };
	CHECK_EQ(nicdrv_xmit(&n, &frag, 1, NULL), 0);
	settle(&n);
	CHECK_EQ(log.n, 1);
	CHECK_EQ(dmamap_nic_wire_take(dev, got, sizeof(got)), 200);
	CHECK(!memcmp(got, tx, 200));
	CHECK_EQ(dmamap_nic_wire_take(dev, got, sizeof(got)), 0);
	/* Bad arguments. */
	CHECK_EQ(dmamap_nic_wire_inject(lookup(p, "dma-nc"), frame, 60), -EINVAL);
	CHECK_EQ(dmamap_nic_wire_inject(dev, frame, 0), -EINVAL);
	CHECK_EQ(dmamap_nic_wire_inject(dev, NULL, 60), -EINVAL);
	CHECK_EQ(dmamap_nic_wire_take(NULL, got, 1), -EINVAL);
	nicdrv_remove(&n);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, tx);
	dmamap_platform_destroy(p);
}

TEST(nic_frame_longer_than_its_buffer_arrives_truncated_with_err)
{
	struct dmamap_platform *p = sim_board("default");
	static uint8_t big[NICDRV_RX_BUF + 500];
	struct rx_log log = { 0 };
	struct device *dev;
	struct nicdrv n;

	REQUIRE(p && (dev = lookup(p, "nic-coh")));
	REQUIRE(nicdrv_probe(&n, dev, 16, false, NICDRV_BUG_NONE, log_rx, freed, &log) == 0);
	pattern(big, sizeof(big), 9);
	CHECK_EQ(dmamap_nic_wire_inject(dev, big, sizeof(big)), 0);
	settle(&n);
	CHECK_EQ(log.n, 1);
	CHECK_EQ(log.errors, 1);
	CHECK_EQ(log.len[0], NICDRV_RX_BUF);
	CHECK(!memcmp(log.first[0], big, 64));
	nicdrv_remove(&n);
	dmamap_platform_destroy(p);
}

/* With nowhere to put them, frames wait on the wire; past its capacity they are dropped and counted. */
TEST(nic_full_wire_drops_and_counts)
{
	struct dmamap_platform *p = sim_board("default");
	void __iomem *regs;
	struct device *dev;
	uint8_t frame[64] = { 1 };

	REQUIRE(p && (dev = lookup(p, "nic-nc")) && (regs = dmamap_device_ioremap(dev)));
	for (int i = 0; i < NIC_WIRE_FRAMES; i++)
		REQUIRE(dmamap_nic_wire_inject(dev, frame, sizeof(frame)) == 0);
	CHECK_EQ(dmamap_nic_wire_inject(dev, frame, sizeof(frame)), -ENOBUFS);
	CHECK_EQ(readl(regs + NIC_REG_RX_DROPPED), 1);
	CHECK_EQ(readl(regs + NIC_REG_RX_FRAMES), 0);
	dmamap_platform_destroy(p);
}

/* Interrupts raised for the same 64 frames each way, with the given coalescing. */
static uint64_t raised_with(uint32_t coalesce)
{
	struct dmamap_platform *p = quiet(dmamap_platform_builtin("default", NULL));
	struct dmamap_sched_stats before, after;
	struct rx_log log = { 0 };
	struct device *dev;
	struct nicdrv n;
	uint8_t *buf;

	if (!p || !(dev = lookup(p, "nic-coh")) ||
	    nicdrv_probe(&n, dev, 64, true, NICDRV_BUG_NONE, log_rx, freed, &log))
		return 0;
	buf = dmamap_kmalloc(p, 100, DMAMAP_GFP_DMA_ALIGN);
	writel(coalesce, n.regs + NIC_REG_COALESCE);
	dmamap_sim_sched_stats(p, &before);
	for (int i = 0; i < 64; i++) {
		struct nicdrv_frag f = { buf, 100 };

		if (nicdrv_xmit(&n, &f, 1, NULL))
			settle(&n);
	}
	settle(&n);
	dmamap_sim_sched_stats(p, &after);
	nicdrv_remove(&n);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
	return log.n == 64 ? after.irqs_raised - before.irqs_raised : 0;
}

TEST(nic_coalescing_raises_fewer_interrupts)
{
	uint64_t each = raised_with(1), by16 = raised_with(16 | 200u << 16);

	CHECK_MSG(each > 0 && by16 > 0 && 2 * by16 < each,
		  "an interrupt per frame: %llu raised; per 16 frames: %llu",
		  (unsigned long long)each, (unsigned long long)by16);
}
