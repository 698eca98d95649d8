/* SPDX-License-Identifier: MIT */
/*
 * The three example drivers, correct, on every device of every built-in
 * board that has their model: every frame, request and copy arrives with
 * every byte right, the checker says nothing and nothing stays mapped.
 */
#include <dmamap/sim.h>
#include "../../drivers/exercise.h"
#include "../helpers.h"

/* Run the driver @dev's model wants; false if it has none. */
static bool exercise(struct device *dev, uint64_t seed, struct exercise_result *r)
{
	const char *model = dmamap_device_model_name(dev);

	if (!strcmp(model, "nic"))
		return exercise_nic(dev, 96, NICDRV_BUG_NONE, seed, r) == 0;
	if (!strcmp(model, "blk"))
		return exercise_blk(dev, 12, BLKDRV_BUG_NONE, seed, r) == 0;
	if (!strcmp(model, "memcpy"))
		return exercise_memcpy(dev, 12, MCDMA_BUG_NONE, seed, r) == 0;
	memset(r, 0, sizeof(*r));
	return false;
}

static void every_device(const char *board, unsigned int *ran)
{
	struct dmamap_platform *p = sim_board(board);

	REQUIRE(p);
	for (unsigned int i = 0; i < dmamap_device_count(p); i++) {
		struct device *dev = dmamap_device_at(p, i);
		struct exercise_result r;

		rec_reset();
		if (!exercise(dev, 1 + i, &r))
			continue;
		(*ran)++;
		CHECK_MSG(r.units > 0 && r.ok == r.units && !r.corrupted && !r.lost,
			  "%s/%s (%s): %lu units, %lu ok, %lu corrupted, %lu lost", board,
			  dev_name(dev), dmamap_device_model_name(dev), r.units, r.ok,
			  r.corrupted, r.lost);
		CHECK_MSG(r.wrong_bytes == 0 && r.bytes > 0, "%s/%s: %llu of %llu bytes wrong",
			  board, dev_name(dev), r.wrong_bytes, r.bytes);
		EXPECT_NO_REPORTS();
		CHECK_MSG(dmamap_debug_live(dev, NULL) == 0, "%s/%s: %lu mappings left", board,
			  dev_name(dev), dmamap_debug_live(dev, NULL));
	}
	dmamap_platform_destroy(p);
}

TEST(devices_every_driver_on_every_builtin_board)
{
	const char *const *names = dmamap_platform_builtin_names();
	unsigned int ran = 0, want = 0;

	/* default and armv5: 6 engines, 4 NICs, 4 disks each; the others at least one of each. */
	for (unsigned int b = 0; names[b]; b++) {
		if (board_too_big_for_host(names[b]))
			continue;
		every_device(names[b], &ran);
		want += !strcmp(names[b], "default") || !strcmp(names[b], "armv5") ? 14 : 3;
	}
	CHECK_MSG(ran >= want, "%u driver runs, %u at least", ran, want);
}

/* The NIC completes in batches: NAPI and coalescing give fewer interrupts than frames. */
TEST(devices_nic_completes_in_batches)
{
	struct dmamap_platform *p = sim_board("default");
	struct exercise_result r;
	struct dmamap_sched_stats st;

	REQUIRE(p);
	CHECK_EQ(exercise_nic(lookup(p, "nic-coh"), 200, NICDRV_BUG_NONE, 7, &r), 0);
	CHECK_EQ(r.ok, 200);
	CHECK_EQ(dmamap_sim_sched_stats(p, &st), 0);
	CHECK_MSG(r.irqs > 0 && r.irqs < 200, "%lu interrupts for 200 frames each way", r.irqs);
	CHECK(st.irqs_delivered >= r.irqs);
	CHECK(st.steps > 200 * 3);
	dmamap_platform_destroy(p);
}

/* Devices on their own thread, interrupts delivered there: the drivers' locking holds. */
TEST(devices_threaded_mode_drivers_lose_nothing)
{
	struct dmamap_platform *p = sim_board("default");
	unsigned int ran = 0;

	REQUIRE(p);
	CHECK_EQ(dmamap_sim_set_threaded(p, true), 0);
	for (unsigned int i = 0; i < dmamap_device_count(p); i++) {
		struct device *dev = dmamap_device_at(p, i);
		struct exercise_result r;

		rec_reset();
		if (!exercise(dev, 3 + i, &r))
			continue;
		ran++;
		CHECK_MSG(r.units > 0 && r.ok == r.units, "%s (%s), device thread: %lu of %lu ok",
			  dev_name(dev), dmamap_device_model_name(dev), r.ok, r.units);
		EXPECT_NO_REPORTS();
	}
	CHECK_EQ(ran, 14);
	dmamap_platform_destroy(p);
}

static irqreturn_t count_irq(int irq, void *dev_id)
{
	(void)irq;
	(*(unsigned int *)dev_id)++;
	return IRQ_HANDLED;
}

/* The memcpy engine completes by interrupt too: once its ring drains, with INT_ENABLE set. */
TEST(devices_memcpy_engine_interrupts_when_its_ring_drains)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	struct mcdma m;
	unsigned int irqs = 0;
	uint8_t *a, *b;
	dma_addr_t s, d;
	int irq;

	REQUIRE(p && (dev = lookup(p, "dma-nc")));
	REQUIRE(mcdma_probe(&m, dev, 8) == 0);
	irq = dmamap_device_irq(dev, 0);
	REQUIRE(irq > 0);
	CHECK_EQ(request_irq((unsigned int)irq, count_irq, 0, "mce", &irqs), 0);
	writel(MCE_INT_DONE, m.regs + MCE_REG_INT_ENABLE);
	a = dmamap_kmalloc(p, 8192, DMAMAP_GFP_DMA_ALIGN);
	b = dmamap_kmalloc(p, 8192, DMAMAP_GFP_DMA_ALIGN | __GFP_ZERO);
	REQUIRE(a && b);
	memset(a, 0x3c, 8192);
	s = dma_map_single(dev, a, 8192, DMA_TO_DEVICE);
	d = dma_map_single(dev, b, 8192, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, s) && !dma_mapping_error(dev, d));
	CHECK_EQ(mcdma_copy_dma(&m, d, s, 4096), 0);
	CHECK_EQ(mcdma_copy_dma(&m, d + 4096, s + 4096, 4096), 0);
	CHECK_EQ(irqs, 2);
	CHECK_EQ(readl(m.regs + MCE_REG_INT_STATUS), MCE_INT_DONE);
	writel(MCE_INT_DONE, m.regs + MCE_REG_INT_STATUS);
	CHECK_EQ(readl(m.regs + MCE_REG_INT_STATUS), 0);
	dma_unmap_single(dev, d, 8192, DMA_FROM_DEVICE);
	dma_unmap_single(dev, s, 8192, DMA_TO_DEVICE);
	CHECK(all_bytes(b, 8192, 0x3c));
	free_irq((unsigned int)irq, &irqs);
	mcdma_remove(&m);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, a);
	dmamap_kfree(p, b);
	dmamap_platform_destroy(p);
}
