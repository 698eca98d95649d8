/* SPDX-License-Identifier: MIT */
/*
 * dma_declare_coherent_memory: a device's own pool serves its coherent
 * allocations first, at the device address it was declared at, on a board
 * and on the host.
 */
#include "../helpers.h"

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

/*
 * A snooping device's pool: what the CPU stores in an allocation from it
 * is what the device reads, and the other way round (found by the board
 * fuzzer: the CPU wrote around the cache the device snoops, which read 0).
 */
TEST(alloc_declared_pool_on_a_coherent_device)
{
	struct dmamap_platform *p = default_board();
	uint8_t pat[PAGE_SIZE], seen[PAGE_SIZE];
	struct device *dev;
	struct page *pg;
	dma_addr_t h;
	void *cpu;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-coh");
	REQUIRE(dev);
	REQUIRE(dev_is_dma_coherent(dev));
	pg = dmamap_alloc_pages(p, 2, GFP_DMA);
	REQUIRE(pg);
	CHECK_EQ(dma_declare_coherent_memory(dev, page_to_phys(pg), POOL_DEVADDR,
					     POOL_PAGES * PAGE_SIZE), 0);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(h >= POOL_DEVADDR && h < POOL_DEVADDR + POOL_PAGES * PAGE_SIZE);
	fill_pattern(pat, sizeof(pat), 41);
	memcpy(cpu, pat, sizeof(pat));
	CHECK_EQ(dmamap_device_read(dev, h, seen, sizeof(seen)), 0);
	CHECK_MEM(seen, pat, sizeof(pat));
	fill_pattern(pat, sizeof(pat), 42);
	CHECK_EQ(dmamap_device_write(dev, h, pat, sizeof(pat)), 0);
	CHECK_MEM(cpu, pat, sizeof(pat));
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	dmamap_platform_destroy(p);
}

/*
 * A user mapping of pool memory: a 4 KiB run on a 4 KiB host maps; where
 * a host page holds several runs (16 or 64 KiB hosts) it would show the
 * others too, and is refused.
 */
TEST(alloc_declared_pool_mmap_only_in_whole_host_pages)
{
	struct dmamap_platform *p = quiet(default_board());
	struct vm_area_struct vma = { 0, PAGE_SIZE, 0, DMAMAP_PROT_READ };
	struct device *dev;
	struct page *pg;
	dma_addr_t h;
	uint8_t *cpu;
	int ret;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	pg = dmamap_alloc_pages(p, 4, GFP_DMA);
	REQUIRE(dev && pg);
	REQUIRE(dma_declare_coherent_memory(dev, page_to_phys(pg), POOL_DEVADDR, 16 * PAGE_SIZE) == 0);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(h >= POOL_DEVADDR && h < POOL_DEVADDR + 16 * PAGE_SIZE);
	ret = dma_mmap_coherent(dev, &vma, cpu, h, PAGE_SIZE);
	if (host_page() == PAGE_SIZE) {
		CHECK_EQ(ret, 0);
		memset(cpu, 0x5a, 16);
		if (!ret) {
			CHECK_EQ(((uint8_t *)vma.vm_start)[15], 0x5a);
			CHECK_EQ(dmamap_munmap(&vma), 0);
		}
	} else {
		CHECK_EQ(ret, -EINVAL);
	}
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	dmamap_platform_destroy(p);
}
