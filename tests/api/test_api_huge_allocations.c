/* SPDX-License-Identifier: MIT */
/*
 * Sizes no memory holds: a coherent allocation whose page rounding wraps,
 * or that is larger than the device can address, fails on every backend,
 * counted as out of memory, and asks the system for nothing absurd (found
 * by the API fuzzer: the IOMMU asked calloc for 2^55 bytes of page lists).
 */
#include <stdint.h>
#include "../helpers.h"

static const char *const devices[] = { "dma-coh", "dma-nc", "dma-32", "dma-24", "ixp-pci",
					 "dma-iommu" };

TEST(api_alloc_sizes_that_wrap_fail_everywhere)
{
	struct dmamap_platform *p = quiet_board();

	REQUIRE(p);
	for (size_t i = 0; i < sizeof(devices) / sizeof(devices[0]); i++) {
		struct device *dev = dmamap_device_lookup(p, devices[i]);
		const size_t sizes[] = { SIZE_MAX, SIZE_MAX - 100, SIZE_MAX - PAGE_SIZE + 2 };

		REQUIRE(dev);
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			dma_addr_t h = 0;
			void *cpu = dma_alloc_coherent(dev, sizes[k], &h, GFP_KERNEL);

			CHECK_MSG(!cpu, "%s: %zu bytes allocated at %p", devices[i], sizes[k], cpu);
			if (cpu)
				dma_free_coherent(dev, sizes[k], cpu, h);
		}
		CHECK_EQ(stats_of(dev).errors_by_kind[DMAMAP_ERRK_NOMEM], 3);
		CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	}
	dmamap_platform_destroy(p);
}

TEST(api_alloc_beyond_the_coherent_mask_fails_behind_an_iommu)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = p ? dmamap_device_lookup(p, "dma-iommu") : NULL;
	dma_addr_t h = 0;

	REQUIRE(dev);
	if (sizeof(size_t) < 8) {
		dmamap_platform_destroy(p);
		SKIP("a 32-bit size_t cannot exceed a 32-bit device's reach");
	}
	/* 2^52 bytes: more than a 32-bit device can address; no page list is made for it. */
	CHECK(!dma_alloc_coherent(dev, (size_t)((uint64_t)1 << 52), &h, GFP_KERNEL));
	CHECK_EQ(stats_of(dev).errors_by_kind[DMAMAP_ERRK_NOMEM], 1);
	dmamap_platform_destroy(p);
}
