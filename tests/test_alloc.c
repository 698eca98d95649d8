/* SPDX-License-Identifier: MIT */
/*
 * Allocation tests: coherent and non-coherent memory, its mmap and
 * sg_table views, per-device coherent pools, and the board's kmalloc and
 * page allocator.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <dmamap/dmamap.h>
#include "helpers.h"

/* ---- 5. dma_alloc_attrs ------------------------------------------------------ */

TEST(alloc_nc_uncached_alias)
{
	struct dmamap_platform *p = default_board();
	uint8_t pat[3 * PAGE_SIZE], back[3 * PAGE_SIZE];
	const size_t size = sizeof(pat);
	struct device *dev;
	phys_addr_t phys_uc, phys_wc;
	uint8_t *uc, *wc, *lin_uc, *lin_wc;
	dma_addr_t huc, hwc;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	CHECK(!dev_is_dma_coherent(dev));

	uc = dma_alloc_coherent(dev, size, &huc, GFP_KERNEL);
	REQUIRE(uc);
	phys_uc = dmamap_dma_to_phys(dev, huc);
	CHECK(in_bank(phys_uc, size));
	lin_uc = dmamap_phys_to_virt(p, phys_uc);
	REQUIRE(lin_uc);
	/* Not the cached linear map: an uncached alias of the same RAM. */
	CHECK(uc != lin_uc);

	/* CPU stores through the alias reach the device with no sync... */
	fill_pattern(pat, size, 1);
	memcpy(uc, pat, size);
	CHECK(dev_reads(dev, huc, pat, size));
	/* ...and device stores are seen by CPU loads, with no sync either. */
	fill_pattern(pat, size, 2);
	CHECK_EQ(dmamap_device_write(dev, huc + 100, pat, 1000), 0);
	CHECK_MEM(uc + 100, pat, 1000);

	/* Write-combining: yet another alias. */
	wc = dma_alloc_wc(dev, size, &hwc, GFP_KERNEL);
	REQUIRE(wc);
	phys_wc = dmamap_dma_to_phys(dev, hwc);
	lin_wc = dmamap_phys_to_virt(p, phys_wc);
	REQUIRE(lin_wc);
	CHECK(wc != lin_wc);
	CHECK(wc != uc);
	/* Both buffers sit in the same bank: the aliases are different views. */
	CHECK((phys_uc < BANK1_START) == (phys_wc < BANK1_START));
	CHECK((uintptr_t)wc - (uintptr_t)lin_wc != (uintptr_t)uc - (uintptr_t)lin_uc);
	fill_pattern(pat, size, 3);
	memcpy(wc, pat, size);
	CHECK(dev_reads(dev, hwc, pat, size));
	fill_pattern(pat, size, 4);
	CHECK_EQ(dmamap_device_write(dev, hwc, pat, size), 0);
	memcpy(back, wc, size);
	CHECK_MEM(back, pat, size);

	dma_free_wc(dev, size, wc, hwc);
	dma_free_coherent(dev, size, uc, huc);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	CHECK_EQ(stats_of(dev).allocs, 2);
	CHECK_EQ(stats_of(dev).frees, 2);
	dmamap_platform_destroy(p);
}

TEST(alloc_no_kernel_mapping)
{
	struct dmamap_platform *p = default_board();
	const char *names[] = { "dma-nc", "dma-coh" };

	REQUIRE(p);
	for (unsigned int i = 0; i < 2; i++) {
		struct device *dev = dmamap_device_lookup(p, names[i]);
		dma_addr_t h, h2;
		void *cookie, *again;

		REQUIRE(dev);
		cookie = dma_alloc_attrs(dev, 2 * PAGE_SIZE, &h, GFP_KERNEL,
					 DMA_ATTR_NO_KERNEL_MAPPING);
		REQUIRE(cookie);
		CHECK(in_bank(dmamap_dma_to_phys(dev, h), 2 * PAGE_SIZE));
		/* The device can use the memory. */
		CHECK_EQ(dmamap_device_write(dev, h, "abcd", 4), 0);
		dma_free_attrs(dev, 2 * PAGE_SIZE, cookie, h, DMA_ATTR_NO_KERNEL_MAPPING);
		CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 0);
		CHECK_EQ(stats_of(dev).errors, 0);
		/* The pages went back: the same request gets the same memory. */
		again = dma_alloc_attrs(dev, 2 * PAGE_SIZE, &h2, GFP_KERNEL,
					DMA_ATTR_NO_KERNEL_MAPPING);
		REQUIRE(again);
		CHECK_EQ(h2, h);
		dma_free_attrs(dev, 2 * PAGE_SIZE, again, h2, DMA_ATTR_NO_KERNEL_MAPPING);
		CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 0);
	}
	dmamap_platform_destroy(p);
}

TEST(alloc_coherent_device_linear)
{
	struct dmamap_platform *p = default_board();
	uint8_t pat[PAGE_SIZE];
	struct device *dev;
	dma_addr_t h;
	uint8_t *cpu, *wc;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-coh");
	REQUIRE(dev);
	CHECK(dev_is_dma_coherent(dev));
	cpu = dma_alloc_coherent(dev, 5000, &h, GFP_KERNEL);
	REQUIRE(cpu);
	/* A snooping device shares the cached linear map. */
	CHECK(cpu == dmamap_phys_to_virt(p, dmamap_dma_to_phys(dev, h)));
	fill_pattern(pat, sizeof(pat), 6);
	memcpy(cpu, pat, sizeof(pat));
	CHECK(dev_reads(dev, h, pat, sizeof(pat)));
	dma_free_coherent(dev, 5000, cpu, h);
	/* Write-combining means nothing to a coherent device: same rule. */
	wc = dma_alloc_wc(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(wc);
	CHECK(wc == dmamap_phys_to_virt(p, dmamap_dma_to_phys(dev, h)));
	dma_free_wc(dev, PAGE_SIZE, wc, h);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	dmamap_platform_destroy(p);
}

/* Allocate, dirty, free, and allocate again: the new buffer reads zero. */
static void check_zeroed(struct device *dev, unsigned long attrs)
{
	const size_t size = 4 * PAGE_SIZE;
	uint8_t *zero = calloc(1, size);
	dma_addr_t h;
	uint8_t *cpu;

	REQUIRE(zero);
	for (int round = 0; round < 2; round++) {
		cpu = dma_alloc_attrs(dev, size, &h, GFP_KERNEL, attrs);
		REQUIRE(cpu);
		CHECK_MSG(memcmp(cpu, zero, size) == 0, "%s round %d: not zeroed",
			  dev_name(dev), round);
		CHECK_MSG(dev_reads(dev, h, zero, size),
			  "%s round %d: device does not read zeroes", dev_name(dev), round);
		memset(cpu, 0xa5, size);
		CHECK_EQ(dmamap_device_write(dev, h + PAGE_SIZE, cpu, PAGE_SIZE), 0);
		dma_free_attrs(dev, size, cpu, h, attrs);
	}
	free(zero);
}

TEST(alloc_zeroed)
{
	struct dmamap_platform *p = default_board();
	struct dmamap_platform *hp = host_platform();
	struct device *hdev;

	REQUIRE(p && hp);
	hdev = host_device(hp, "h0", NULL);
	REQUIRE(hdev);
	check_zeroed(dmamap_device_lookup(p, "dma-nc"), 0);
	check_zeroed(dmamap_device_lookup(p, "dma-nc"), DMA_ATTR_WRITE_COMBINE);
	check_zeroed(dmamap_device_lookup(p, "dma-coh"), 0);
	check_zeroed(dmamap_device_lookup(p, "dma-32"), 0);
	check_zeroed(hdev, 0);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	dmamap_platform_destroy(hp);
	dmamap_platform_destroy(p);
}

TEST(alloc_coherent_mask)
{
	struct dmamap_platform *p = default_board();
	const size_t size = 64 * 1024;
	const u64 zone_dma_mask = ZONE_DMA_END - 1;
	struct device *coh, *d32;
	void *cpu[4];
	dma_addr_t h[4];

	REQUIRE(p);
	coh = dmamap_device_lookup(p, "dma-coh");
	d32 = dmamap_device_lookup(p, "dma-32");
	REQUIRE(coh && d32);
	/* The default of a 32-bit device. */
	cpu[0] = dma_alloc_coherent(d32, size, &h[0], GFP_KERNEL);
	REQUIRE(cpu[0]);
	CHECK(h[0] + size - 1 <= DMA_BIT_MASK(32));
	CHECK_EQ(dma_set_coherent_mask(coh, DMA_BIT_MASK(32)), 0);
	cpu[1] = dma_alloc_coherent(coh, size, &h[1], GFP_KERNEL);
	REQUIRE(cpu[1]);
	CHECK(h[1] + size - 1 <= DMA_BIT_MASK(32));
	/* Masks that reach only ZONE_DMA: allocations come from there, whatever the gfp zone. */
	CHECK_EQ(dma_set_coherent_mask(coh, zone_dma_mask), 0);
	cpu[2] = dma_alloc_coherent(coh, size, &h[2], GFP_DMA32 | __GFP_HIGHMEM);
	REQUIRE(cpu[2]);
	CHECK_MSG(h[2] + size - 1 <= zone_dma_mask, "0x%llx beyond the coherent mask",
		  (unsigned long long)h[2]);
	CHECK_EQ(dma_set_coherent_mask(d32, zone_dma_mask), 0);
	cpu[3] = dma_alloc_coherent(d32, size, &h[3], GFP_KERNEL);
	REQUIRE(cpu[3]);
	CHECK_MSG(h[3] + size - 1 <= zone_dma_mask, "0x%llx beyond the coherent mask",
		  (unsigned long long)h[3]);
	/* The streaming masks were left alone. */
	CHECK_EQ(dma_get_mask(coh), DMA_BIT_MASK(40));
	CHECK_EQ(dma_get_mask(d32), DMA_BIT_MASK(32));
	dma_free_coherent(d32, size, cpu[0], h[0]);
	dma_free_coherent(coh, size, cpu[1], h[1]);
	dma_free_coherent(coh, size, cpu[2], h[2]);
	dma_free_coherent(d32, size, cpu[3], h[3]);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	dmamap_platform_destroy(p);
}

/* ---- 6. dma_mmap_attrs ---------------------------------------------------- */

static bool is_mapped(unsigned long addr, size_t len)
{
	return msync((void *)addr, len, MS_ASYNC) == 0;
}

/* Allocate with @attrs, mmap it with the matching call, and check all three views agree. */
static void mmap_roundtrip(struct device *dev, unsigned long attrs)
{
	const size_t npages = 3, size = npages * PAGE_SIZE;
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

	/* A window: pages 1..2 only. */
	vma.vm_start = 0;
	vma.vm_end = 2 * PAGE_SIZE;
	vma.vm_pgoff = 1;
	vma.vm_page_prot = DMAMAP_PROT_READ | DMAMAP_PROT_WRITE;
	CHECK_EQ(dma_mmap_attrs(dev, &vma, cpu, h, size, attrs), 0);
	user = (uint8_t *)vma.vm_start;
	memset(user, 0x3c, 2 * PAGE_SIZE);
	CHECK(all_bytes(cpu + PAGE_SIZE, 2 * PAGE_SIZE, 0x3c));
	CHECK(!all_bytes(cpu, PAGE_SIZE, 0x3c));
	CHECK_EQ(dmamap_munmap(&vma), 0);
	CHECK(!is_mapped((unsigned long)user, 2 * PAGE_SIZE));

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

/* ---- 7. sg_table view, non-coherent allocations -------------------------------- */

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

/* ---- 8. dma_declare_coherent_memory ------------------------------------------ */

#define POOL_PAGES 4
#define POOL_DEVADDR 0x40000000ULL

TEST(alloc_declared_pool)
{
	struct dmamap_platform *p = default_board();
	const size_t psize = POOL_PAGES * PAGE_SIZE;
	uint8_t pat[PAGE_SIZE], back[PAGE_SIZE];
	void *cpu[POOL_PAGES], *extra, *again;
	dma_addr_t h[POOL_PAGES], hx, ha;
	struct device *dev;
	struct page *pg;
	phys_addr_t phys;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	/* Memory for the pool, outside the device's normal window address. */
	pg = dmamap_alloc_pages(p, 2, GFP_DMA);
	REQUIRE(pg);
	phys = page_to_phys(pg);
	CHECK_EQ(dma_declare_coherent_memory(dev, phys, POOL_DEVADDR, psize), 0);
	CHECK_EQ(dma_declare_coherent_memory(dev, phys, POOL_DEVADDR, psize), -EBUSY);
	CHECK_EQ(dma_declare_coherent_memory(dev, BANK0_START - 16 * PAGE_SIZE,
					     POOL_DEVADDR, psize), -EINVAL);

	for (int i = 0; i < POOL_PAGES; i++) {
		cpu[i] = dma_alloc_coherent(dev, PAGE_SIZE, &h[i], GFP_KERNEL);
		REQUIRE(cpu[i]);
		CHECK_MSG(h[i] >= POOL_DEVADDR && h[i] + PAGE_SIZE <= POOL_DEVADDR + psize,
			  "allocation %d at 0x%llx is not from the pool", i,
			  (unsigned long long)h[i]);
	}
	/* The device reaches the pool's bytes at the handle. */
	fill_pattern(pat, sizeof(pat), 31);
	CHECK_EQ(dmamap_device_write(dev, h[1], pat, sizeof(pat)), 0);
	CHECK_MEM(cpu[1], pat, sizeof(pat));
	CHECK_EQ(dmamap_sim_mem_read(p, phys + (h[1] - POOL_DEVADDR), back, sizeof(back)), 0);
	CHECK_MEM(back, pat, sizeof(pat));
	fill_pattern(pat, sizeof(pat), 32);
	memcpy(cpu[2], pat, sizeof(pat));
	CHECK(dev_reads(dev, h[2], pat, sizeof(pat)));
	CHECK_EQ(dmamap_sim_mem_read(p, phys + (h[2] - POOL_DEVADDR), back, sizeof(back)), 0);
	CHECK_MEM(back, pat, sizeof(pat));

	/* Full: the next one comes from the normal allocator. */
	extra = dma_alloc_coherent(dev, PAGE_SIZE, &hx, GFP_KERNEL);
	REQUIRE(extra);
	CHECK(hx + PAGE_SIZE <= POOL_DEVADDR || hx >= POOL_DEVADDR + psize);
	dma_free_coherent(dev, PAGE_SIZE, extra, hx);

	/* Freeing returns pool memory: the pool serves the next request again. */
	dma_free_coherent(dev, PAGE_SIZE, cpu[2], h[2]);
	again = dma_alloc_coherent(dev, PAGE_SIZE, &ha, GFP_KERNEL);
	REQUIRE(again);
	CHECK_EQ(ha, h[2]);
	CHECK(all_bytes(again, PAGE_SIZE, 0));
	cpu[2] = again;

	/* A wrong size is refused and reported. */
	dma_free_coherent(dev, 2 * PAGE_SIZE, cpu[0], h[0]);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 1);
	for (int i = 0; i < POOL_PAGES; i++)
		dma_free_coherent(dev, PAGE_SIZE, cpu[i], h[i]);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 1);
	/* A two-page run fits again once everything is back. */
	again = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &ha, GFP_KERNEL);
	REQUIRE(again);
	CHECK(ha >= POOL_DEVADDR && ha + 2 * PAGE_SIZE <= POOL_DEVADDR + psize);
	dma_free_coherent(dev, 2 * PAGE_SIZE, again, ha);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 1);
	dmamap_platform_destroy(p);
}

TEST(alloc_declared_pool_host)
{
	struct dmamap_platform *p = host_platform();
	const size_t psize = 8 * PAGE_SIZE;
	struct device *dev;
	uint8_t *mem, pat[256];
	dma_addr_t h;
	void *cpu;

	REQUIRE(p);
	dev = host_device(p, "h0", NULL);
	REQUIRE(dev);
	mem = aligned_alloc(PAGE_SIZE, psize);
	REQUIRE(mem);
	CHECK_EQ(dma_declare_coherent_memory(dev, (uintptr_t)mem, 0x10000000, psize), 0);
	cpu = dma_alloc_coherent(dev, 3 * PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(h >= 0x10000000 && h + 3 * PAGE_SIZE <= 0x10000000 + psize);
	CHECK((uint8_t *)cpu >= mem && (uint8_t *)cpu + 3 * PAGE_SIZE <= mem + psize);
	fill_pattern(pat, sizeof(pat), 41);
	CHECK_EQ(dmamap_device_write(dev, h + 8, pat, sizeof(pat)), 0);
	CHECK_MEM((uint8_t *)cpu + 8, pat, sizeof(pat));
	dma_free_coherent(dev, 3 * PAGE_SIZE, cpu, h);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	dmamap_platform_destroy(p);
	free(mem);
}

/* ---- 11. kmalloc and pages ------------------------------------------------- */

TEST(alloc_kmalloc_packed)
{
	struct dmamap_platform *p = default_board();
	const unsigned int line = dmamap_cache_line_size(p);
	uint8_t *obj[8];
	bool shared = false;

	REQUIRE(p);
	CHECK_EQ(line, 64);
	for (int i = 0; i < 8; i++) {
		obj[i] = dmamap_kmalloc(p, 32, 0);
		REQUIRE(obj[i]);
	}
	/* Two 32-byte objects in one 64-byte line, as the kernel packs them. */
	for (int i = 0; i < 8; i++)
		for (int j = i + 1; j < 8; j++)
			if ((uintptr_t)obj[i] / line == (uintptr_t)obj[j] / line)
				shared = true;
	CHECK(shared);
	/* They do not overlap. */
	for (int i = 0; i < 8; i++)
		for (int j = i + 1; j < 8; j++)
			CHECK(obj[i] + 32 <= obj[j] || obj[j] + 32 <= obj[i]);
	for (int i = 0; i < 8; i++)
		dmamap_kfree(p, obj[i]);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	dmamap_platform_destroy(p);
}

TEST(alloc_kmalloc_dma_align)
{
	static const size_t sizes[] = { 1, 8, 32, 33, 64, 65, 96, 100, 150, 200, 700,
					3000, 5000, 3 * PAGE_SIZE + 5 };
	struct dmamap_platform *plats[2] = { default_board(), host_platform() };

	REQUIRE(plats[0] && plats[1]);
	for (int k = 0; k < 2; k++) {
		struct dmamap_platform *p = plats[k];
		const unsigned int line = dmamap_cache_line_size(p);
		uint8_t *obj[sizeof(sizes) / sizeof(sizes[0])][2];

		for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			for (int j = 0; j < 2; j++) {
				obj[i][j] = dmamap_kmalloc(p, sizes[i],
							   DMAMAP_GFP_DMA_ALIGN | DMAMAP_GFP_DMA);
				REQUIRE(obj[i][j]);
				CHECK_MSG((uintptr_t)obj[i][j] % line == 0,
					  "%s: %zu-byte object at %p is not line aligned",
					  dmamap_platform_name(p), sizes[i], (void *)obj[i][j]);
			}
			/* Two such objects never share a line. */
			CHECK((uintptr_t)obj[i][0] / line != (uintptr_t)obj[i][1] / line);
			CHECK((uintptr_t)(obj[i][0] + sizes[i] - 1) / line !=
			      (uintptr_t)obj[i][1] / line);
			CHECK((uintptr_t)(obj[i][1] + sizes[i] - 1) / line !=
			      (uintptr_t)obj[i][0] / line);
		}
		for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			for (int j = 0; j < 2; j++)
				dmamap_kfree(p, obj[i][j]);
		CHECK_EQ(dmamap_report_count(p, 0), 0);
	}
	dmamap_platform_destroy(plats[1]);
	dmamap_platform_destroy(plats[0]);
}

TEST(alloc_kmalloc_zone_dma)
{
	struct dmamap_platform *p = default_board();
	static const size_t sizes[] = { 16, 200, 2048, 6000, 40000 };
	struct page *pg;

	REQUIRE(p);
	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int n = 0; n < 4; n++) {
			void *ptr = dmamap_kmalloc(p, sizes[i], DMAMAP_GFP_DMA);
			phys_addr_t phys;

			REQUIRE(ptr);
			phys = virt_to_phys(ptr);
			CHECK_MSG(phys >= BANK0_START && phys + sizes[i] <= ZONE_DMA_END,
				  "%zu bytes at phys 0x%llx, outside ZONE_DMA", sizes[i],
				  (unsigned long long)phys);
			/* Deliberately not freed: the next one is a different object. */
		}
	}
	for (int n = 0; n < 4; n++) {
		pg = dmamap_alloc_pages(p, (unsigned int)n, GFP_DMA);
		REQUIRE(pg);
		CHECK(page_to_phys(pg) >= BANK0_START &&
		      page_to_phys(pg) + (PAGE_SIZE << n) <= ZONE_DMA_END);
	}
	/* Without GFP_DMA the allocator prefers the zones above. */
	{
		void *ptr = dmamap_kmalloc(p, 200, 0);

		REQUIRE(ptr);
		CHECK(virt_to_phys(ptr) >= ZONE_DMA_END);
		dmamap_kfree(p, ptr);
	}
	dmamap_platform_destroy(p);
}

TEST(alloc_kmalloc_zero)
{
	static const size_t sizes[] = { 24, 200, 1000, 3 * PAGE_SIZE };
	struct dmamap_platform *plats[2] = { default_board(), host_platform() };

	REQUIRE(plats[0] && plats[1]);
	for (int k = 0; k < 2; k++) {
		struct dmamap_platform *p = plats[k];

		for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			uint8_t *a = dmamap_kmalloc(p, sizes[i], 0), *b;

			REQUIRE(a);
			memset(a, 0xff, sizes[i]);
			dmamap_kfree(p, a);
			b = dmamap_kmalloc(p, sizes[i], __GFP_ZERO);
			REQUIRE(b);
			CHECK_MSG(all_bytes(b, sizes[i], 0), "%s: %zu bytes not zeroed",
				  dmamap_platform_name(p), sizes[i]);
			dmamap_kfree(p, b);
		}
	}
	{
		struct dmamap_platform *p = plats[0];
		struct page *pg = dmamap_alloc_pages(p, 1, 0);

		REQUIRE(pg);
		memset(page_address(pg), 0xff, 2 * PAGE_SIZE);
		dmamap_free_pages(p, pg, 1);
		pg = dmamap_alloc_pages(p, 1, __GFP_ZERO);
		REQUIRE(pg);
		CHECK(all_bytes(page_address(pg), 2 * PAGE_SIZE, 0));
		dmamap_free_pages(p, pg, 1);
	}
	dmamap_platform_destroy(plats[1]);
	dmamap_platform_destroy(plats[0]);
}

TEST(alloc_page_to_phys)
{
	struct dmamap_platform *p = default_board();
	struct dmamap_platform *hp = host_platform();
	uint8_t *host_buf;
	struct page *pg;
	uint8_t *ptr;
	phys_addr_t phys;

	REQUIRE(p && hp);
	ptr = dmamap_kmalloc(p, 300, DMAMAP_GFP_DMA);
	REQUIRE(ptr);
	phys = page_to_phys(virt_to_page(ptr));
	CHECK(in_bank(phys, PAGE_SIZE));
	CHECK_EQ(phys & ~PAGE_MASK, 0);
	CHECK_EQ(virt_to_phys(ptr), phys + offset_in_page(ptr));
	CHECK(dmamap_phys_to_virt(p, phys) == page_address(virt_to_page(ptr)));
	CHECK(dmamap_phys_to_virt(p, virt_to_phys(ptr)) == ptr);
	dmamap_kfree(p, ptr);

	/* Pages from each bank. */
	pg = dmamap_alloc_pages(p, 0, GFP_DMA);
	REQUIRE(pg);
	CHECK(page_to_phys(pg) >= BANK0_START && page_to_phys(pg) < ZONE_DMA_END);
	CHECK(dmamap_phys_to_virt(p, page_to_phys(pg)) == page_address(pg));
	CHECK_EQ(page_to_phys(nth_page(pg, 1)), page_to_phys(pg) + PAGE_SIZE);
	dmamap_free_pages(p, pg, 0);
	pg = dmamap_alloc_pages(p, 0, __GFP_HIGHMEM);
	REQUIRE(pg);
	CHECK(page_to_phys(pg) >= BANK1_START &&
	      page_to_phys(pg) < BANK1_START + BANK1_SIZE);
	CHECK(dmamap_phys_to_virt(p, page_to_phys(pg)) == page_address(pg));
	dmamap_free_pages(p, pg, 0);
	CHECK(dmamap_phys_to_virt(p, 0x10000000) == NULL);

	/* Host: physical is virtual. */
	host_buf = malloc(100);
	REQUIRE(host_buf);
	CHECK_EQ(page_to_phys(virt_to_page(host_buf)), (uintptr_t)host_buf & PAGE_MASK);
	CHECK_EQ(virt_to_phys(host_buf), (uintptr_t)host_buf);
	free(host_buf);
	ptr = dmamap_kmalloc(hp, 100, 0);
	REQUIRE(ptr);
	CHECK_EQ(virt_to_phys(ptr), (uintptr_t)ptr);
	dmamap_kfree(hp, ptr);
	pg = dmamap_alloc_pages(hp, 0, 0);
	if (pg) {
		CHECK_EQ(page_to_phys(pg), (uintptr_t)pg);
		dmamap_free_pages(hp, pg, 0);
	}
	dmamap_platform_destroy(hp);
	dmamap_platform_destroy(p);
}
