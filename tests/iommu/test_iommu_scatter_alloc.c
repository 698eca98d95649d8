/* SPDX-License-Identifier: MIT */
/*
 * Coherent memory behind an IOMMU from scattered pages: contiguous for the
 * device through the IOMMU, contiguous for the CPU through a second mapping
 * of the same RAM, as the kernel's iommu_dma_alloc_remap does; runs of pages
 * where the allocator has them, single pages with DMA_ATTR_ALLOC_SINGLE_PAGES.
 */
#include <dmamap/dmamap.h>
#include "../helpers.h"

#define NPAGES 8

TEST(iommu_scatter_alloc_pages_not_contiguous_bytes_shared)
{
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_builtin("default", &err);
	struct device *dev;
	struct page *hold[2 * NPAGES];
	struct sg_table sgt;
	struct vm_area_struct vma = { 0, 2 * PAGE_SIZE, 3, DMAMAP_PROT_READ | DMAMAP_PROT_WRITE };
	uint8_t want[NPAGES * PAGE_SIZE], got[NPAGES * PAGE_SIZE], *cpu;
	bool gap = false;
	dma_addr_t h;
	int i;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-iommu");
	REQUIRE(dev);
	/* Fragment the page allocator: take pages, give back every other one. */
	for (i = 0; i < 2 * NPAGES; i++)
		REQUIRE((hold[i] = dmamap_alloc_pages(p, 0, 0)) != NULL);
	for (i = 0; i < 2 * NPAGES; i += 2)
		dmamap_free_pages(p, hold[i], 0);
	/* Without DMA_ATTR_ALLOC_SINGLE_PAGES a run is taken where there is one: contiguous. */
	cpu = dma_alloc_coherent(dev, NPAGES * PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	for (i = 1; i < NPAGES; i++)
		CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h + i * PAGE_SIZE),
			 dmamap_iommu_iova_to_phys(dev, h) + i * PAGE_SIZE);
	dma_free_coherent(dev, NPAGES * PAGE_SIZE, cpu, h);
	/* With it, single pages: the holes, scattered. */
	cpu = dma_alloc_attrs(dev, NPAGES * PAGE_SIZE, &h, GFP_KERNEL, DMA_ATTR_ALLOC_SINGLE_PAGES);
	REQUIRE(cpu);
	for (i = 1; i < NPAGES; i++)
		gap |= dmamap_iommu_iova_to_phys(dev, h + i * PAGE_SIZE) !=
		       dmamap_iommu_iova_to_phys(dev, h) + i * PAGE_SIZE;
	CHECK_MSG(gap, "the pages behind the IOVA range are contiguous: not a scattered buffer");
	/* CPU -> device, device -> CPU, across every page. */
	for (i = 0; i < (int)sizeof(want); i++)
		want[i] = (uint8_t)(i * 7 + 3);
	memcpy(cpu, want, sizeof(want));
	CHECK_EQ(dmamap_device_read(dev, h, got, sizeof(got)), 0);
	CHECK_MEM(got, want, sizeof(want));
	for (i = 0; i < (int)sizeof(want); i++)
		want[i] = (uint8_t)~want[i];
	CHECK_EQ(dmamap_device_write(dev, h, want, sizeof(want)), 0);
	CHECK_MEM(cpu, want, sizeof(want));
	/* An sg_table page by page, each the page the IOMMU maps. */
	REQUIRE(dma_get_sgtable_attrs(dev, &sgt, cpu, h, NPAGES * PAGE_SIZE, 0) == 0);
	CHECK_EQ(sgt.orig_nents, NPAGES);
	for (i = 0; i < NPAGES; i++)
		CHECK_EQ(page_to_phys(sg_page(&sgt.sgl[i])),
			 dmamap_iommu_iova_to_phys(dev, h + i * PAGE_SIZE));
	sg_free_table(&sgt);
	/* A user mapping of pages 3-4 sees and changes the same bytes. */
	REQUIRE(dma_mmap_coherent(dev, &vma, cpu, h, NPAGES * PAGE_SIZE) == 0);
	CHECK_MEM((uint8_t *)vma.vm_start, want + 3 * PAGE_SIZE, 2 * PAGE_SIZE);
	((uint8_t *)vma.vm_start)[10] = 0x5c;
	CHECK_EQ(cpu[3 * PAGE_SIZE + 10], 0x5c);
	CHECK_EQ(dmamap_device_read(dev, h + 3 * PAGE_SIZE + 10, got, 1), 0);
	CHECK_EQ(got[0], 0x5c);
	dmamap_munmap(&vma);
	/* A user mapping that is not whole pages, or reaches past the buffer: refused. */
	vma = (struct vm_area_struct){ 0, PAGE_SIZE + 100, 0, DMAMAP_PROT_READ };
	CHECK_EQ(dma_mmap_coherent(dev, &vma, cpu, h, NPAGES * PAGE_SIZE), -EINVAL);
	vma = (struct vm_area_struct){ 0, PAGE_SIZE, NPAGES, DMAMAP_PROT_READ };
	CHECK_EQ(dma_mmap_coherent(dev, &vma, cpu, h, NPAGES * PAGE_SIZE), -ENXIO);
	vma = (struct vm_area_struct){ 0, 2 * PAGE_SIZE, NPAGES - 1, DMAMAP_PROT_READ };
	CHECK_EQ(dma_mmap_coherent(dev, &vma, cpu, h, NPAGES * PAGE_SIZE), -ENXIO);
	/* Wrong size: refused, nothing torn down. */
	dma_free_attrs(dev, 2 * PAGE_SIZE, cpu, h, DMA_ATTR_ALLOC_SINGLE_PAGES);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 1);
	CHECK_EQ(dmamap_device_read(dev, h, got, 16), 0);
	dma_free_attrs(dev, NPAGES * PAGE_SIZE, cpu, h, DMA_ATTR_ALLOC_SINGLE_PAGES);
	CHECK_EQ(dmamap_device_read(dev, h, got, 16), -EFAULT);
	for (i = 1; i < 2 * NPAGES; i += 2)
		dmamap_free_pages(p, hold[i], 0);
	dmamap_platform_destroy(p);
}
