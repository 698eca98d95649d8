/* SPDX-License-Identifier: MIT */
/*
 * API errors with the checker on (invalid direction, zero size, NULL
 * buffer, failed or foreign handles, unreachable memory, masks, allocation
 * failures, device faults, no device): each is reported exactly once, never
 * doubled by the checker's own kinds.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked()) and calls dma_mapping_error() on every handle it
 * maps, else it would also get MAP_ERR_NOT_CHECKED; device-writable mappings
 * on non-coherent devices use line-aligned buffers, else MAP_UNALIGNED;
 * except where that is the mistake under test.
 */
#include "../helpers.h"

TEST(checker_api_errors_once)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *nc, *d32;
	uint8_t stack_buf[64], got[64];
	unsigned long nulls;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	nc = lookup(p, NC);
	d32 = lookup(p, D32);
	buf = dbuf(p, 256);
	REQUIRE(nc && d32 && buf);

	CHECK_EQ(dma_map_single(nc, buf, 64, (enum dma_data_direction)7), DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_INVALID_DIRECTION);
	rec_reset();
	CHECK_EQ(dma_map_single(nc, buf, 0, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_ZERO_SIZE);
	rec_reset();
	CHECK_EQ(dma_map_single(nc, NULL, 64, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_INVALID_ARGUMENT);
	/* A failed mapping's handle, or one outside the window: not NOT_MAPPED too. */
	rec_reset();
	dma_unmap_single(nc, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_UNMAP_INVALID);
	rec_reset();
	dma_unmap_single(nc, 128 * MiB + 16 * PAGE_SIZE, 64, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_UNMAP_INVALID);
	rec_reset();
	dma_sync_single_for_cpu(nc, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_UNMAP_INVALID);
	rec_reset();
	dma_sync_single_for_device(nc, 128 * MiB + 16 * PAGE_SIZE, 64, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_UNMAP_INVALID);
	/* Unreachable: MMIO beyond dma-32's mask (a resource is never bounced). */
	rec_reset();
	CHECK_EQ(dma_map_resource(d32, 0x100000000ULL, PAGE_SIZE, DMA_TO_DEVICE, 0),
		 DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_UNREACHABLE);
	/* The stack on a board: not linear (and not MAP_STACK). */
	rec_reset();
	CHECK_EQ(dma_map_single(nc, stack_buf, sizeof(stack_buf), DMA_TO_DEVICE),
		 DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_NOT_LINEAR);
	rec_reset();
	CHECK_EQ(dma_set_mask(d32, DMA_BIT_MASK(24)), -EIO);
	EXPECT_KINDS(DMAMAP_DBG_MASK_UNSUPPORTED);
	/* More than the board has (an injected fault there is silent by design). */
	rec_reset();
	CHECK(dma_alloc_coherent(nc, 512 * MiB, &h, GFP_KERNEL) == NULL);
	EXPECT_KINDS(DMAMAP_DBG_ALLOC_FAILED);
	rec_reset();
	dmamap_kfree(p, stack_buf);
	EXPECT_KINDS(DMAMAP_DBG_FREE_INVALID);
	rec_reset();
	CHECK_EQ(dmamap_device_read(nc, 128 * MiB, got, sizeof(got)), -EFAULT);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_FAULT);
	/* No device: the NULL platform counts it; this platform's hook sees nothing. */
	rec_reset();
	nulls = dmamap_report_count(NULL, DMAMAP_DBG_NULL_DEVICE);
	dmamap_set_log_hook(NULL, log_hook, NULL);
	CHECK_EQ(dma_map_single(NULL, buf, 64, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
	dmamap_set_log_hook(NULL, NULL, NULL);
	CHECK_EQ(dmamap_report_count(NULL, DMAMAP_DBG_NULL_DEVICE), nulls + 1);
	check_log = false;
	EXPECT_NO_REPORTS();
	check_log = true;
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}
