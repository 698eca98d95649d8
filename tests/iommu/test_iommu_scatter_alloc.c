/* SPDX-License-Identifier: MIT */
/*
 * Coherent memory behind an IOMMU from scattered pages: contiguous for the
 * device through the IOMMU, contiguous for the CPU through a second mapping
 * of the same RAM, as the kernel's iommu_dma_alloc_remap does; runs of pages
 * where the allocator has them, single pages with DMA_ATTR_ALLOC_SINGLE_PAGES.
 */
#include <dmamap/dmamap.h>
#include "../helpers.h"

/*
 * Pages here are host pages (a CPU remap and a user mapping are made of
 * whole ones): HP simulated pages on a 16K or 64K-page host, one on a 4K
 * host; buffers are sized for the largest.
 */
#define PG host_page()
#define HP (PG / PAGE_SIZE)
#define PG_MAX 65536
#define NPAGES 8
#define LEN (NPAGES * PG)

TEST(iommu_scatter_alloc_pages_not_contiguous_bytes_shared)
{
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_builtin("default", &err);
	struct device *dev;
	struct page *hold[2 * NPAGES];
	struct sg_table sgt;
	struct vm_area_struct vma = { 0, 2 * PG, 3 * HP, DMAMAP_PROT_READ | DMAMAP_PROT_WRITE };
	static uint8_t want[NPAGES * PG_MAX], got[NPAGES * PG_MAX];
	uint8_t *cpu;
	bool gap = false;
	dma_addr_t h;
	int i;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-iommu");
	REQUIRE(dev);
	/* Fragment the page allocator: take pages, give back every other one. */
	for (i = 0; i < 2 * NPAGES; i++)
		REQUIRE((hold[i] = dmamap_alloc_pages(p, host_page_order(), 0)) != NULL);
	for (i = 0; i < 2 * NPAGES; i += 2)
		dmamap_free_pages(p, hold[i], host_page_order());
	/* Without DMA_ATTR_ALLOC_SINGLE_PAGES a run is taken where there is one: contiguous. */
	cpu = dma_alloc_coherent(dev, NPAGES * PG, &h, GFP_KERNEL);
	REQUIRE(cpu);
	for (i = 1; i < NPAGES; i++)
		CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h + i * PG),
			 dmamap_iommu_iova_to_phys(dev, h) + i * PG);
	dma_free_coherent(dev, NPAGES * PG, cpu, h);
	/* With it, single pages: the holes, scattered. */
	cpu = dma_alloc_attrs(dev, NPAGES * PG, &h, GFP_KERNEL, DMA_ATTR_ALLOC_SINGLE_PAGES);
	REQUIRE(cpu);
	for (i = 1; i < NPAGES; i++)
		gap |= dmamap_iommu_iova_to_phys(dev, h + i * PG) !=
		       dmamap_iommu_iova_to_phys(dev, h) + i * PG;
	CHECK_MSG(gap, "the pages behind the IOVA range are contiguous: not a scattered buffer");
	/* CPU -> device, device -> CPU, across every page. */
	for (i = 0; i < (int)LEN; i++)
		want[i] = (uint8_t)(i * 7 + 3);
	memcpy(cpu, want, LEN);
	CHECK_EQ(dmamap_device_read(dev, h, got, LEN), 0);
	CHECK_MEM(got, want, LEN);
	for (i = 0; i < (int)LEN; i++)
		want[i] = (uint8_t)~want[i];
	CHECK_EQ(dmamap_device_write(dev, h, want, LEN), 0);
	CHECK_MEM(cpu, want, LEN);
	/* An sg_table simulated page by page, each the page the IOMMU maps. */
	REQUIRE(dma_get_sgtable_attrs(dev, &sgt, cpu, h, LEN, 0) == 0);
	CHECK_EQ(sgt.orig_nents, NPAGES * HP);
	for (i = 0; i < (int)(NPAGES * HP); i++)
		CHECK_EQ(page_to_phys(sg_page(&sgt.sgl[i])),
			 dmamap_iommu_iova_to_phys(dev, h + i * PAGE_SIZE));
	sg_free_table(&sgt);
	/* A user mapping of pages 3-4 sees and changes the same bytes. */
	REQUIRE(dma_mmap_coherent(dev, &vma, cpu, h, NPAGES * PG) == 0);
	CHECK_MEM((uint8_t *)vma.vm_start, want + 3 * PG, 2 * PG);
	((uint8_t *)vma.vm_start)[10] = 0x5c;
	CHECK_EQ(cpu[3 * PG + 10], 0x5c);
	CHECK_EQ(dmamap_device_read(dev, h + 3 * PG + 10, got, 1), 0);
	CHECK_EQ(got[0], 0x5c);
	dmamap_munmap(&vma);
	/* A user mapping that is not whole pages, or reaches past the buffer: refused. */
	vma = (struct vm_area_struct){ 0, PG + 100, 0, DMAMAP_PROT_READ };
	CHECK_EQ(dma_mmap_coherent(dev, &vma, cpu, h, NPAGES * PG), -EINVAL);
	vma = (struct vm_area_struct){ 0, PG, NPAGES * HP, DMAMAP_PROT_READ };
	CHECK_EQ(dma_mmap_coherent(dev, &vma, cpu, h, NPAGES * PG), -ENXIO);
	vma = (struct vm_area_struct){ 0, 2 * PG, (NPAGES - 1) * HP, DMAMAP_PROT_READ };
	CHECK_EQ(dma_mmap_coherent(dev, &vma, cpu, h, NPAGES * PG), -ENXIO);
	/* Wrong size: refused, nothing torn down. */
	dma_free_attrs(dev, 2 * PG, cpu, h, DMA_ATTR_ALLOC_SINGLE_PAGES);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 1);
	CHECK_EQ(dmamap_device_read(dev, h, got, 16), 0);
	dma_free_attrs(dev, NPAGES * PG, cpu, h, DMA_ATTR_ALLOC_SINGLE_PAGES);
	CHECK_EQ(dmamap_device_read(dev, h, got, 16), -EFAULT);
	for (i = 1; i < 2 * NPAGES; i += 2)
		dmamap_free_pages(p, hold[i], host_page_order());
	dmamap_platform_destroy(p);
}
