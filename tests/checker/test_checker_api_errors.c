/* SPDX-License-Identifier: MIT */
/*
 * API errors with the checker on (invalid direction, zero size, NULL
 * buffer, failed or foreign handles, unreachable memory, masks, allocation
 * failures, device faults, no device): each is reported exactly once, never
 * doubled by the checker's own kinds.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked(), checked_scene()) and calls dma_mapping_error() on
 * every handle it maps, else it would also get MAP_ERR_NOT_CHECKED;
 * device-writable mappings on non-coherent devices use line-aligned buffers,
 * else MAP_UNALIGNED; except where that is the mistake under test.
 */
#include "../helpers.h"

TEST(checker_api_errors_once)
{
	uint8_t stack_buf[64], got[64];
	unsigned long nulls;
	struct device *d32;
	struct scene s;
	dma_addr_t h;

	REQUIRE(checked_scene(&s, NC, 256));
	d32 = lookup(s.p, D32);
	REQUIRE(d32);

	EXPECT_ONLY(DMAMAP_DBG_INVALID_DIRECTION,
		    CHECK_EQ(dma_map_single(s.dev, s.buf, 64, (enum dma_data_direction)7),
			     DMA_MAPPING_ERROR));
	EXPECT_ONLY(DMAMAP_DBG_ZERO_SIZE,
		    CHECK_EQ(dma_map_single(s.dev, s.buf, 0, DMA_TO_DEVICE), DMA_MAPPING_ERROR));
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    CHECK_EQ(dma_map_single(s.dev, NULL, 64, DMA_TO_DEVICE), DMA_MAPPING_ERROR));
	/* A failed mapping's handle, or one outside the window: not NOT_MAPPED too. */
	EXPECT_ONLY(DMAMAP_DBG_UNMAP_INVALID,
		    dma_unmap_single(s.dev, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE));
	EXPECT_ONLY(DMAMAP_DBG_UNMAP_INVALID,
		    dma_unmap_single(s.dev, 128 * MiB + 16 * PAGE_SIZE, 64, DMA_TO_DEVICE));
	EXPECT_ONLY(DMAMAP_DBG_UNMAP_INVALID,
		    dma_sync_single_for_cpu(s.dev, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE));
	EXPECT_ONLY(DMAMAP_DBG_UNMAP_INVALID,
		    dma_sync_single_for_device(s.dev, 128 * MiB + 16 * PAGE_SIZE, 64,
					       DMA_TO_DEVICE));
	/* Unreachable: MMIO beyond dma-32's mask (a resource is never bounced). */
	EXPECT_ONLY(DMAMAP_DBG_UNREACHABLE,
		    CHECK_EQ(dma_map_resource(d32, 0x100000000ULL, PAGE_SIZE, DMA_TO_DEVICE, 0),
			     DMA_MAPPING_ERROR));
	/* The stack on a board: not linear (and not MAP_STACK). */
	EXPECT_ONLY(DMAMAP_DBG_NOT_LINEAR,
		    CHECK_EQ(dma_map_single(s.dev, stack_buf, sizeof(stack_buf), DMA_TO_DEVICE),
			     DMA_MAPPING_ERROR));
	EXPECT_ONLY(DMAMAP_DBG_MASK_UNSUPPORTED,
		    CHECK_EQ(dma_set_mask(d32, DMA_BIT_MASK(24)), -EIO));
	/* More than the board has (an injected fault there is silent by design). */
	EXPECT_ONLY(DMAMAP_DBG_ALLOC_FAILED,
		    CHECK(dma_alloc_coherent(s.dev, 512 * MiB, &h, GFP_KERNEL) == NULL));
	EXPECT_ONLY(DMAMAP_DBG_FREE_INVALID, dmamap_kfree(s.p, stack_buf));
	EXPECT_ONLY(DMAMAP_DBG_DEVICE_FAULT,
		    CHECK_EQ(dmamap_device_read(s.dev, 128 * MiB, got, sizeof(got)), -EFAULT));
	/* No device: the NULL platform counts it; this platform's hook sees nothing. */
	rec_reset();
	nulls = dmamap_report_count(NULL, DMAMAP_DBG_NULL_DEVICE);
	dmamap_set_log_hook(NULL, log_hook, NULL);
	CHECK_EQ(dma_map_single(NULL, s.buf, 64, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
	dmamap_set_log_hook(NULL, NULL, NULL);
	CHECK_EQ(dmamap_report_count(NULL, DMAMAP_DBG_NULL_DEVICE), nulls + 1);
	check_log = false;
	EXPECT_NO_REPORTS();
	check_log = true;
	scene_end_clean(&s);
}
