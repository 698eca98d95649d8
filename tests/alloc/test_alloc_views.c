/* SPDX-License-Identifier: MIT */
/*
 * Views of allocated memory: dma_mmap_attrs gives user space the same
 * bytes the CPU and the device see (on a board and on the host), the
 * sg_table view lists the allocation's pages, and non-coherent allocations
 * hand ownership over with the syncs.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include "../helpers.h"

/*
 * Whether any of [addr, addr+len) is mapped, as the process's map lists it
 * (msync() on an unmapped range would say too, but not under qemu-user,
 * which emulates /proc/self/maps and not that answer).
 */
static bool is_mapped(unsigned long addr, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long lo, hi;
	char line[512];
	bool found = false;

	if (!f)
		return msync((void *)addr, len, MS_ASYNC) == 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx", &lo, &hi) == 2)
			found = lo < (unsigned long long)addr + len && addr < hi;
	fclose(f);
	return found;
}

/* Allocate with @attrs, mmap it with the matching call, and check all three views agree. */
static void mmap_roundtrip(struct device *dev, unsigned long attrs)
{
	/* Three host pages (mmap's unit: on a 4K host three simulated pages). */
	const size_t unit = host_page(), npages = 3 * (unit / PAGE_SIZE), size = npages * PAGE_SIZE;
	struct vm_area_struct vma = { 0 };
	uint8_t *pat = malloc(size), *user, *cpu;
	dma_addr_t h;
	int ret;

	REQUIRE(pat);
	cpu = dma_alloc_attrs(dev, size, &h, GFP_KERNEL, attrs);
	REQUIRE(cpu);

	vma.vm_start = 0;
	vma.vm_end = size;
	vma.vm_pgoff = 0;
	vma.vm_page_prot = DMAMAP_PROT_READ | DMAMAP_PROT_WRITE;
	ret = attrs & DMA_ATTR_WRITE_COMBINE ? dma_mmap_wc(dev, &vma, cpu, h, size) :
					       dma_mmap_coherent(dev, &vma, cpu, h, size);
	CHECK_EQ(ret, 0);
	REQUIRE(ret == 0);
	CHECK(vma.vm_start != 0);
	CHECK(vma.vm_start != (unsigned long)cpu);
	CHECK_EQ(vma.vm_end - vma.vm_start, size);
	user = (uint8_t *)vma.vm_start;

	/* user -> kernel pointer and device */
	fill_pattern(pat, size, 11);
	memcpy(user, pat, size);
	CHECK_MSG(memcmp(cpu, pat, size) == 0, "%s: kernel pointer misses user writes",
		  dev_name(dev));
	CHECK_MSG(dev_reads(dev, h, pat, size), "%s: device misses user writes",
		  dev_name(dev));
	/* kernel pointer -> user */
	fill_pattern(pat, size, 12);
	memcpy(cpu, pat, size);
	CHECK_MEM(user, pat, size);
	/* device -> user */
	fill_pattern(pat, PAGE_SIZE, 13);
	CHECK_EQ(dmamap_device_write(dev, h + PAGE_SIZE, pat, PAGE_SIZE), 0);
	CHECK_MEM(user + PAGE_SIZE, pat, PAGE_SIZE);
	CHECK_EQ(dmamap_munmap(&vma), 0);
	CHECK(!is_mapped((unsigned long)user, size));
	CHECK_EQ(vma.vm_start, 0);

	/* A window: host pages 1..2 only. */
	vma.vm_start = 0;
	vma.vm_end = 2 * unit;
	vma.vm_pgoff = unit / PAGE_SIZE;
	vma.vm_page_prot = DMAMAP_PROT_READ | DMAMAP_PROT_WRITE;
	CHECK_EQ(dma_mmap_attrs(dev, &vma, cpu, h, size, attrs), 0);
	user = (uint8_t *)vma.vm_start;
	memset(user, 0x3c, 2 * unit);
	CHECK(all_bytes(cpu + unit, 2 * unit, 0x3c));
	CHECK(!all_bytes(cpu, unit, 0x3c));
	CHECK_EQ(dmamap_munmap(&vma), 0);
	CHECK(!is_mapped((unsigned long)user, 2 * unit));
	/* A window no whole host page starts: refused, not mapped short (a 4K host has none). */
	if (unit > PAGE_SIZE) {
		vma = (struct vm_area_struct){ 0, unit, 1, DMAMAP_PROT_READ };
		CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
			   dma_mmap_attrs(dev, &vma, cpu, h, size, attrs) == -EINVAL);
	}

	/* More than the buffer holds: refused and counted. */
	vma = (struct vm_area_struct){ 0, PAGE_SIZE, npages, DMAMAP_PROT_READ };
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   dma_mmap_attrs(dev, &vma, cpu, h, size, attrs) == -ENXIO);
	vma = (struct vm_area_struct){ 0, (npages + 1) * PAGE_SIZE, 0, DMAMAP_PROT_READ };
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   dma_mmap_attrs(dev, &vma, cpu, h, size, attrs) == -ENXIO);
	vma = (struct vm_area_struct){ 0, 2 * PAGE_SIZE, npages - 1, DMAMAP_PROT_READ };
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   dma_mmap_attrs(dev, &vma, cpu, h, size, attrs) == -ENXIO);
	CHECK_EQ(vma.vm_start, 0);
	/* An empty vma. */
	vma = (struct vm_area_struct){ 0, 0, 0, DMAMAP_PROT_READ };
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   dma_mmap_attrs(dev, &vma, cpu, h, size, attrs) == -EINVAL);
	CHECK_EQ(dmamap_munmap(&vma), -EINVAL);
	CHECK_EQ(dmamap_munmap(NULL), -EINVAL);

	dma_free_attrs(dev, size, cpu, h, attrs);
	free(pat);
}

TEST(alloc_mmap_sim)
{
	struct dmamap_platform *p = default_board();

	REQUIRE(p);
	mmap_roundtrip(dmamap_device_lookup(p, "dma-nc"), 0);
	mmap_roundtrip(dmamap_device_lookup(p, "dma-nc"), DMA_ATTR_WRITE_COMBINE);
	mmap_roundtrip(dmamap_device_lookup(p, "dma-coh"), 0);
	mmap_roundtrip(dmamap_device_lookup(p, "dma-coh"), DMA_ATTR_WRITE_COMBINE);
	mmap_roundtrip(dmamap_device_lookup(p, "dma-32"), 0);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 0);
	dmamap_platform_destroy(p);
}

TEST(alloc_mmap_host)
{
	struct dmamap_platform *p = host_platform();
	struct device *dev;

	REQUIRE(p);
	dev = host_device(p, "h0", NULL);
	REQUIRE(dev);
	mmap_roundtrip(dev, 0);
	mmap_roundtrip(dev, DMA_ATTR_WRITE_COMBINE);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 0);
	dmamap_platform_destroy(p);
}

TEST(alloc_get_sgtable)
{
	struct dmamap_platform *p = default_board();
	const char *names[] = { "dma-nc", "dma-coh" };
	const size_t size = 3 * PAGE_SIZE - 100;

	REQUIRE(p);
	for (unsigned int i = 0; i < 2; i++) {
		struct device *dev = dmamap_device_lookup(p, names[i]);
		struct sg_table sgt;
		phys_addr_t phys;
		dma_addr_t h;
		void *cpu;

		REQUIRE(dev);
		cpu = dma_alloc_coherent(dev, size, &h, GFP_KERNEL);
		REQUIRE(cpu);
		phys = dmamap_dma_to_phys(dev, h);
		memset(&sgt, 0xff, sizeof(sgt));
		CHECK_EQ(dma_get_sgtable_attrs(dev, &sgt, cpu, h, size, 0), 0);
		CHECK_EQ(sgt.orig_nents, 1);
		REQUIRE(sgt.sgl);
		CHECK(sg_is_last(sgt.sgl));
		CHECK(sg_virt(sgt.sgl) == dmamap_phys_to_virt(p, phys));
		CHECK_EQ(page_to_phys(sg_page(sgt.sgl)) + sgt.sgl->offset, phys);
		CHECK(sgt.sgl->length >= size);
		CHECK(sgt.sgl->length <= PAGE_ALIGN(size));
		sg_free_table(&sgt);
		CHECK_EQ(stats_of(dev).errors, 0);
		/* A handle that is no memory of this device. */
		CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
			   dma_get_sgtable_attrs(dev, &sgt, cpu,
						 dmamap_phys_to_dma(dev, BANK0_START) +
							 BANK0_SIZE + PAGE_SIZE,
						 size, 0) == -ENXIO);
		dma_free_coherent(dev, size, cpu, h);
	}
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_INVALID_ARGUMENT), 2);
	CHECK_EQ(dmamap_report_count(p, 0), 2);
	dmamap_platform_destroy(p);
}

TEST(alloc_noncoherent)
{
	struct dmamap_platform *p = default_board();
	const size_t size = 2 * PAGE_SIZE;
	uint8_t pat[2 * PAGE_SIZE];
	struct device *dev;
	uint8_t *cpu;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	cpu = dma_alloc_noncoherent(dev, size, &h, DMA_BIDIRECTIONAL, GFP_KERNEL);
	REQUIRE(cpu);
	/* Cacheable: the linear map itself. */
	CHECK(cpu == dmamap_phys_to_virt(p, dmamap_dma_to_phys(dev, h)));
	CHECK(all_bytes(cpu, size, 0));

	/* CPU writes sit in the cache until the buffer is given to the device. */
	fill_pattern(pat, size, 21);
	memcpy(cpu, pat, size);
	CHECK(!dev_reads(dev, h, pat, size));
	dma_sync_single_for_device(dev, h, size, DMA_BIDIRECTIONAL);
	CHECK(dev_reads(dev, h, pat, size));

	/* Device writes reach the CPU once it takes the buffer back. */
	fill_pattern(pat, size, 22);
	CHECK_EQ(dmamap_device_write(dev, h, pat, size), 0);
	dma_sync_single_for_cpu(dev, h, size, DMA_BIDIRECTIONAL);
	CHECK_MEM(cpu, pat, size);
	CHECK_EQ(stats_of(dev).allocs, 1);

	dma_free_noncoherent(dev, size, cpu, h, DMA_BIDIRECTIONAL);
	CHECK_EQ(stats_of(dev).frees, 1);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	/* The wrong handle is caught. */
	cpu = dma_alloc_noncoherent(dev, size, &h, DMA_TO_DEVICE, GFP_KERNEL);
	REQUIRE(cpu);
	dma_free_noncoherent(dev, size, cpu, h + PAGE_SIZE, DMA_TO_DEVICE);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 1);
	dma_free_noncoherent(dev, size, cpu, h, DMA_TO_DEVICE);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 1);
	dmamap_platform_destroy(p);
}

/*
 * Views (mmap, sg_table) exist for allocations only: asked of a streaming
 * handle, with the checker on, they are refused and reported, naming the
 * mapping; an allocation of the same device still has them.
 */
TEST(alloc_views_of_a_streaming_handle_are_refused)
{
	struct dmamap_platform *p = sim_board("default");
	struct vm_area_struct vma = { 0, PAGE_SIZE, 0, DMAMAP_PROT_READ };
	struct device *dev;
	struct sg_table sgt;
	uint8_t *buf, *cpu;
	dma_addr_t h, ch;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, PAGE_SIZE);
	REQUIRE(dev && buf);
	h = dma_map_single(dev, buf, PAGE_SIZE, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	rec_reset();
	CHECK_EQ(dma_get_sgtable(dev, &sgt, buf, h, PAGE_SIZE), -EINVAL);
	EXPECT_REPORT_AT(DMAMAP_DBG_WRONG_TYPE, h);
	CHECK_MSG(strstr(rec.r[0].text, "single mapping"), "report: %s", rec.r[0].text);
	rec_reset();
	CHECK_EQ(dma_mmap_coherent(dev, &vma, buf, h, PAGE_SIZE), -EINVAL);
	EXPECT_REPORT_AT(DMAMAP_DBG_WRONG_TYPE, h);
	CHECK_EQ(vma.vm_start, 0);
	CHECK_EQ(errk(dev, DMAMAP_ERRK_BAD_HANDLE), 2);
	dma_unmap_single(dev, h, PAGE_SIZE, DMA_TO_DEVICE);

	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &ch, GFP_KERNEL);
	REQUIRE(cpu);
	rec_reset();
	CHECK_EQ(dma_get_sgtable(dev, &sgt, cpu, ch, PAGE_SIZE), 0);
	sg_free_table(&sgt);
	CHECK_EQ(dma_mmap_coherent(dev, &vma, cpu, ch, PAGE_SIZE), 0);
	CHECK_EQ(dmamap_munmap(&vma), 0);
	EXPECT_NO_REPORTS();
	dma_free_coherent(dev, PAGE_SIZE, cpu, ch);
	dmamap_platform_destroy(p);
}
