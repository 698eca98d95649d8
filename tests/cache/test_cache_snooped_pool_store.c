/* SPDX-License-Identifier: MIT */
/*
 * A snooping device's declared pool: the CPU stores into a line the device
 * wrote. The device's next read sees the store, and no maintenance or
 * eviction may write an older copy of the line over it in memory.
 */
#include "../helpers.h"

#define POOL_DEVADDR 0x40000000ULL

TEST(cache_cpu_store_after_a_snooped_write_survives_eviction)
{
	struct dmamap_platform *p = default_board();
	uint8_t pat[64], back[64];
	struct device *dev;
	struct page *pg;
	phys_addr_t phys;
	dma_addr_t h;
	uint8_t *cpu;
	bool cd = false, dc = false;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-coh");
	REQUIRE(dev);
	pg = dmamap_alloc_pages(p, 0, GFP_DMA);
	REQUIRE(pg);
	phys = page_to_phys(pg);
	REQUIRE(dma_declare_coherent_memory(dev, phys, POOL_DEVADDR, PAGE_SIZE) == 0);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	fill_pattern(pat, sizeof(pat), 5);
	CHECK_EQ(dmamap_device_write(dev, h, pat, sizeof(pat)), 0); /* whole line */
	cpu[0] = 0xAA;
	CHECK_EQ(dmamap_sim_line_state(p, phys, &cd, &dc), 0);
	CHECK(cd); /* the store sits in the cache, where the device snoops */
	/* One whole line in the buffer: chaos at 1000 permille picks it. */
	dmamap_sim_set_chaos(p, 1, 1000);
	CHECK_EQ(dmamap_device_read(dev, h, back, sizeof(back)), 0);
	dmamap_sim_set_chaos(p, 0, 0);
	CHECK_EQ(back[0], 0xAA);
	CHECK_MEM(back + 1, pat + 1, sizeof(pat) - 1);
	CHECK_EQ(dmamap_sim_mem_read(p, phys, back, 1), 0);
	CHECK_EQ(back[0], 0xAA);
	CHECK_EQ(cpu[0], 0xAA);
	CHECK_EQ(sim_losses(p), 0);
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	dmamap_platform_destroy(p);
}
