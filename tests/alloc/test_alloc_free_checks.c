/* SPDX-License-Identifier: MIT */
/*
 * A coherent free names its allocation by its own CPU address and handle.
 * Another way to the same memory (its linear-map address where the
 * allocation has an uncached alias) or a stale address is refused, so the
 * alias is never left behind nor someone else's unmapped.
 */
#include <dmamap/dmamap.h>
#include <dmamap/swiotlb.h>
#include "../helpers.h"

/* Behind an IOMMU, a non-coherent contiguous allocation freed by its linear-map address. */
TEST(free_iommu_alias_is_not_freed_by_its_linear_address)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = p ? dmamap_device_lookup(p, "dma-iommu") : NULL;
	const size_t size = 4 * PAGE_SIZE;
	dma_addr_t dma;
	uint8_t *cpu, *linear;

	REQUIRE(dev);
	cpu = dma_alloc_attrs(dev, size, &dma, GFP_KERNEL, DMA_ATTR_FORCE_CONTIGUOUS);
	REQUIRE(cpu);
	linear = dmamap_phys_to_virt(p, dmamap_iommu_iova_to_phys(dev, dma));
	REQUIRE(linear && linear != cpu);
	dma_free_attrs(dev, size, linear, dma, DMA_ATTR_FORCE_CONTIGUOUS);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 1);
	/* Still allocated: the device reaches it, its own free goes through. */
	CHECK_EQ(dmamap_device_write(dev, dma, "live", 4), 0);
	CHECK_MEM(cpu, "live", 4);
	dma_free_attrs(dev, size, cpu, dma, DMA_ATTR_FORCE_CONTIGUOUS);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 1);
	dmamap_platform_destroy(p);
}

/* In a restricted pool: the linear address, an interior pointer and a wrong handle are refused. */
TEST(free_restricted_pool_needs_the_allocations_own_address_and_handle)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = p ? dmamap_device_lookup(p, "dma-nc") : NULL;
	const size_t size = 2 * PAGE_SIZE;
	struct page *pg;
	dma_addr_t dma;
	uint8_t *cpu, *linear;

	REQUIRE(dev);
	pg = dmamap_alloc_pages(p, 7, 0);
	REQUIRE(pg);
	REQUIRE(dmamap_swiotlb_restricted_pool(dev, page_to_phys(pg), 128 * PAGE_SIZE) == 0);
	cpu = dma_alloc_coherent(dev, size, &dma, GFP_KERNEL);
	REQUIRE(cpu);
	linear = dmamap_phys_to_virt(p, dmamap_dma_to_phys(dev, dma));
	REQUIRE(linear && linear != cpu);
	dma_free_coherent(dev, size, linear, dma);
	dma_free_coherent(dev, size, cpu + PAGE_SIZE, dma + PAGE_SIZE);
	dma_free_coherent(dev, size, cpu, dma + PAGE_SIZE);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 3);
	CHECK_EQ(dmamap_device_write(dev, dma, "live", 4), 0);
	CHECK_MEM(cpu, "live", 4);
	dma_free_coherent(dev, size, cpu, dma);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 3);
	dmamap_platform_destroy(p);
}
