/* SPDX-License-Identifier: MIT */
/*
 * Pages and non-contiguous memory: dma_alloc_pages() and its mmap, and
 * dma_alloc_noncontiguous() with its vmap and mmap. Behind an IOMMU,
 * scattered pages (one each with DMA_ATTR_ALLOC_SINGLE_PAGES) behind one
 * IOVA range and one CPU view; without one, a single entry. Every check
 * compares the bytes the CPU, its views and the device see, with the
 * ownership handed over by syncs, under the checker.
 */
#include <sys/mman.h>
#include "../helpers.h"

/*
 * Pages here are host pages (mmap's unit; HP simulated ones on a 16K or
 * 64K-page host, one on a 4K host): a CPU remap or a user mapping is made
 * of whole ones. Buffers are sized for the largest host page.
 */
#define PG host_page()
#define HP (PG / PAGE_SIZE)
#define PG_MAX 65536
#define NPAGES 8
#define SIZE (NPAGES * PG)

/* On a 16K or 64K host the buffer outgrows the 64 KiB default segment: a driver says so. */
static void fit_segments(struct device *dev)
{
	if (dev && SIZE > 65536)
		dma_set_max_seg_size(dev, (unsigned int)SIZE);
}

TEST(noncontig_pages_are_streaming_memory)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev = lookup(p, NC);
	struct vm_area_struct vma = { 0, 2 * PG, 0, DMAMAP_PROT_READ | DMAMAP_PROT_WRITE };
	static uint8_t want_buf[2 * PG_MAX];
	uint8_t *want = want_buf;
	const size_t len = 2 * PG;
	struct page *pg;
	dma_addr_t h;
	uint8_t *cpu;

	REQUIRE(dev);
	pg = dma_alloc_pages(dev, len, &h, DMA_BIDIRECTIONAL, GFP_KERNEL);
	REQUIRE(pg);
	cpu = page_address(pg);
	fill_pattern(want, len, 21);
	memcpy(cpu, want, len);
	dma_sync_single_for_device(dev, h, len, DMA_BIDIRECTIONAL);
	CHECK(dev_reads(dev, h, want, len));
	fill_pattern(want, len, 22);
	CHECK_EQ(dmamap_device_write(dev, h, want, len), 0);
	dma_sync_single_for_cpu(dev, h, len, DMA_BIDIRECTIONAL);
	CHECK_MEM(cpu, want, len);
	/* A user mapping of the same pages. */
	REQUIRE(dma_mmap_pages(dev, &vma, len, pg) == 0);
	CHECK_MEM((uint8_t *)vma.vm_start, want, len);
	CHECK_EQ(dmamap_munmap(&vma), 0);
	dma_free_pages(dev, len, pg, h, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
	dmamap_platform_destroy(p);
}

/* Fragment the page allocator: @hold gets 2 * NPAGES pages, every other one given back. */
static void fragment(struct dmamap_platform *p, struct page **hold)
{
	for (int i = 0; i < 2 * NPAGES; i++)
		REQUIRE((hold[i] = dmamap_alloc_pages(p, host_page_order(), 0)) != NULL);
	for (int i = 0; i < 2 * NPAGES; i += 2) {
		dmamap_free_pages(p, hold[i], host_page_order());
		hold[i] = NULL;
	}
}

/* The CPU writes through @view, the device reads at the IOVA, and back. */
static void bytes_both_ways(struct device *dev, struct sg_table *sgt, uint8_t *view)
{
	static uint8_t want[NPAGES * PG_MAX], got[NPAGES * PG_MAX];
	dma_addr_t iova = sg_dma_address(sgt->sgl);

	fill_pattern(want, SIZE, 31);
	memcpy(view, want, SIZE);
	dma_sync_sgtable_for_device(dev, sgt, DMA_BIDIRECTIONAL);
	CHECK_EQ(dmamap_device_read(dev, iova, got, SIZE), 0);
	CHECK_MEM(got, want, SIZE);
	fill_pattern(want, SIZE, 32);
	CHECK_EQ(dmamap_device_write(dev, iova, want, SIZE), 0);
	dma_sync_sgtable_for_cpu(dev, sgt, DMA_BIDIRECTIONAL);
	CHECK_MEM(view, want, SIZE);
}

TEST(noncontig_iommu_scattered_pages_one_iova_range)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev = lookup(p, IOMMU_DEV);
	struct vm_area_struct vma = { 0, SIZE, 0, DMAMAP_PROT_READ | DMAMAP_PROT_WRITE };
	struct page *hold[2 * NPAGES];
	struct sg_table *sgt;
	uint8_t *view;

	REQUIRE(dev);
	fit_segments(dev);
	fragment(p, hold);
	sgt = dma_alloc_noncontiguous(dev, SIZE, DMA_BIDIRECTIONAL, GFP_KERNEL,
				      DMA_ATTR_ALLOC_SINGLE_PAGES);
	REQUIRE(sgt);
	/* Single pages from a fragmented allocator: not one run for the CPU... */
	CHECK(sgt->orig_nents > 1);
	/* ...one range for the device. */
	CHECK_EQ(sgt->nents, 1);
	CHECK_EQ(sg_dma_len(sgt->sgl), SIZE);
	view = dma_vmap_noncontiguous(dev, SIZE, sgt);
	REQUIRE(view);
	CHECK(dma_vmap_noncontiguous(dev, SIZE, sgt) == view);
	bytes_both_ways(dev, sgt, view);
	/* The pages hold what the view shows, in order. */
	{
		size_t at = 0;
		struct scatterlist *sg;
		int i;

		for_each_sg(sgt->sgl, sg, (int)sgt->orig_nents, i) {
			CHECK_MEM(sg_virt(sg), view + at, sg->length);
			at += sg->length;
		}
		CHECK_EQ(at, SIZE);
	}
	/* A user mapping, from the third page on. */
	vma.vm_pgoff = 2 * HP;
	vma.vm_end = SIZE - 2 * PG;
	REQUIRE(dma_mmap_noncontiguous(dev, &vma, SIZE, sgt) == 0);
	CHECK_MEM((uint8_t *)vma.vm_start, view + 2 * PG, SIZE - 2 * PG);
	CHECK_EQ(dmamap_munmap(&vma), 0);
	dma_vunmap_noncontiguous(dev, view);
	dma_free_noncontiguous(dev, SIZE, sgt, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
	CHECK(iommu_left_clean(dev));
	for (int i = 1; i < 2 * NPAGES; i += 2)
		dmamap_free_pages(p, hold[i], host_page_order());
	dmamap_platform_destroy(p);
}

TEST(noncontig_iommu_takes_runs_unless_told_single_pages)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, IOMMU_DEV);
	struct page *hold[2 * NPAGES];
	struct sg_table *runs, *singles;

	REQUIRE(dev);
	fragment(p, hold);
	/* The holes are single pages; a run of eight comes from elsewhere. */
	runs = dma_alloc_noncontiguous(dev, SIZE, DMA_TO_DEVICE, GFP_KERNEL, 0);
	singles = dma_alloc_noncontiguous(dev, SIZE, DMA_TO_DEVICE, GFP_KERNEL,
					  DMA_ATTR_ALLOC_SINGLE_PAGES);
	REQUIRE(runs && singles);
	CHECK_EQ(runs->orig_nents, 1);
	CHECK(singles->orig_nents > 1);
	dma_free_noncontiguous(dev, SIZE, singles, DMA_TO_DEVICE);
	dma_free_noncontiguous(dev, SIZE, runs, DMA_TO_DEVICE);
	CHECK(iommu_left_clean(dev));
	for (int i = 1; i < 2 * NPAGES; i += 2)
		dmamap_free_pages(p, hold[i], host_page_order());
	dmamap_platform_destroy(p);
}

TEST(noncontig_without_iommu_is_one_entry)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev = lookup(p, NC);
	struct sg_table *sgt;
	uint8_t *view;

	REQUIRE(dev);
	fit_segments(dev);
	sgt = dma_alloc_noncontiguous(dev, SIZE, DMA_BIDIRECTIONAL, GFP_KERNEL, 0);
	REQUIRE(sgt);
	CHECK_EQ(sgt->orig_nents, 1);
	CHECK_EQ(sgt->nents, 1);
	view = dma_vmap_noncontiguous(dev, SIZE, sgt);
	CHECK(view == sg_virt(sgt->sgl)); /* the linear address */
	bytes_both_ways(dev, sgt, view);
	dma_free_noncontiguous(dev, SIZE, sgt, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
	/* After the free the device has no business there. */
	{
		uint8_t b[16];

		CHECK_EQ(dmamap_device_read(dev, dmamap_phys_to_dma(dev, virt_to_phys(view)), b,
					    sizeof(b)), 0);
		EXPECT_KINDS(DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED);
	}
	dmamap_platform_destroy(p);
}

TEST(noncontig_refuses_what_linux_refuses)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, IOMMU_DEV), *nc = lookup(p, NC);
	struct sg_table other = { 0 }, *sgt;

	REQUIRE(dev && nc);
	reps.n = 0;
	CHECK(!dma_alloc_noncontiguous(dev, SIZE, DMA_TO_DEVICE, GFP_KERNEL,
				       DMA_ATTR_WRITE_COMBINE));
	CHECK(!dma_alloc_noncontiguous(dev, 0, DMA_TO_DEVICE, GFP_KERNEL, 0));
	CHECK_EQ(reps.n, 2);
	CHECK_EQ(errk(dev, DMAMAP_ERRK_BAD_ARG), 2);
	/* A table of another kind, or another device's. */
	sgt = dma_alloc_noncontiguous(dev, SIZE, DMA_TO_DEVICE, GFP_KERNEL, 0);
	REQUIRE(sgt);
	reps.n = 0;
	CHECK(!dma_vmap_noncontiguous(dev, SIZE, &other));
	dma_free_noncontiguous(dev, SIZE, &other, DMA_TO_DEVICE);
	dma_free_noncontiguous(nc, SIZE, sgt, DMA_TO_DEVICE);
	CHECK_EQ(reps.n, 3);
	CHECK_EQ(reps.last.kind, DMAMAP_DBG_FREE_INVALID);
	dma_free_noncontiguous(dev, SIZE, sgt, DMA_TO_DEVICE);
	CHECK_EQ(istats(dev).pages_mapped, 0);
	dmamap_platform_destroy(p);
}

/*
 * A user mapping of the memory: without an IOMMU the pages' own, behind
 * one any page range of it, the same bytes as the CPU's view; what is not
 * page aligned or lies past the allocation is refused, and a free with the
 * wrong size or direction is reported and frees anyway.
 */
TEST(noncontig_mmap_shows_the_same_pages_and_refuses_what_lies_outside)
{
	struct dmamap_platform *p = quiet_board();
	struct device *io = lookup(p, IOMMU_DEV), *nc = lookup(p, NC);
	struct vm_area_struct vma;
	static uint8_t want[NPAGES * PG_MAX];
	struct sg_table *sgt;
	uint8_t *view;

	REQUIRE(io && nc);
	fit_segments(io);
	fit_segments(nc);
	fill_pattern(want, SIZE, 41);
	/* No IOMMU: the single entry's pages. */
	sgt = dma_alloc_noncontiguous(nc, SIZE, DMA_BIDIRECTIONAL, GFP_KERNEL, 0);
	REQUIRE(sgt);
	memcpy(sg_virt(sgt->sgl), want, SIZE);
	vma = (struct vm_area_struct){ 0, SIZE, 0, DMAMAP_PROT_READ };
	CHECK_EQ(dma_mmap_noncontiguous(nc, &vma, SIZE, sgt), 0);
	CHECK(vma.vm_start && vma.vm_end - vma.vm_start == SIZE);
	if (vma.vm_start) {
		CHECK_MEM((uint8_t *)vma.vm_start, want, SIZE);
		CHECK_EQ(dmamap_munmap(&vma), 0);
	}
	reps.n = 0;
	dma_free_noncontiguous(nc, SIZE / 2, sgt, DMA_BIDIRECTIONAL);
	CHECK_EQ(reps.n, 1);
	CHECK_EQ(reps.last.kind, DMAMAP_DBG_INVALID_ARGUMENT);

	/* Behind the IOMMU: pages 2 and 3 of the view, mapped again. */
	sgt = dma_alloc_noncontiguous(io, SIZE, DMA_BIDIRECTIONAL, GFP_KERNEL, 0);
	REQUIRE(sgt);
	view = dma_vmap_noncontiguous(io, SIZE, sgt);
	REQUIRE(view);
	memcpy(view, want, SIZE);
	vma = (struct vm_area_struct){ 0, 2 * PG, 2 * HP, DMAMAP_PROT_READ };
	CHECK_EQ(dma_mmap_noncontiguous(io, &vma, SIZE, sgt), 0);
	if (vma.vm_start) {
		CHECK_MEM((uint8_t *)vma.vm_start, want + 2 * PG, 2 * PG);
		CHECK_EQ(dmamap_munmap(&vma), 0);
	}
	CHECK_EQ(dma_mmap_noncontiguous(io, NULL, SIZE, sgt), -EINVAL);
	vma = (struct vm_area_struct){ 0, PAGE_SIZE + 1, 0, DMAMAP_PROT_READ };
	CHECK_EQ(dma_mmap_noncontiguous(io, &vma, SIZE, sgt), -EINVAL);
	vma = (struct vm_area_struct){ 0, PG, NPAGES * HP, DMAMAP_PROT_READ };
	CHECK_EQ(dma_mmap_noncontiguous(io, &vma, SIZE, sgt), -ENXIO);
	vma = (struct vm_area_struct){ 0, 2 * PG, (NPAGES - 1) * HP, DMAMAP_PROT_READ };
	CHECK_EQ(dma_mmap_noncontiguous(io, &vma, SIZE, sgt), -ENXIO);
	reps.n = 0;
	dma_free_noncontiguous(io, SIZE, sgt, DMA_TO_DEVICE);
	CHECK_EQ(reps.n, 1);
	CHECK_EQ(reps.last.kind, DMAMAP_DBG_INVALID_ARGUMENT);
	CHECK_EQ(istats(io).pages_mapped, 0);
	/* Pages: no mapping without a device, a vma or a size. */
	vma = (struct vm_area_struct){ 0, PAGE_SIZE, 0, DMAMAP_PROT_READ };
	CHECK_EQ(dma_mmap_pages(NULL, &vma, PAGE_SIZE, virt_to_page(want)), -EINVAL);
	CHECK_EQ(dma_mmap_pages(nc, NULL, PAGE_SIZE, virt_to_page(want)), -EINVAL);
	CHECK_EQ(dma_mmap_pages(nc, &vma, 0, virt_to_page(want)), -EINVAL);
	CHECK(!dma_alloc_noncontiguous(NULL, SIZE, DMA_TO_DEVICE, GFP_KERNEL, 0));
	dmamap_platform_destroy(p);
}
