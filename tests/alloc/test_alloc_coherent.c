/* SPDX-License-Identifier: MIT */
/*
 * dma_alloc_attrs: a non-coherent device gets an uncached alias of its
 * memory, DMA_ATTR_NO_KERNEL_MAPPING no CPU address, a coherent device the
 * linear map; memory comes zeroed, within the coherent mask.
 */
#include "../helpers.h"

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

/*
 * Every coherent allocation a windowed device gets lies in its window, up
 * to the last one there is room for: dma-24 sees 16 MiB of a 64 MiB DMA
 * zone, and the allocator must skip the rest rather than hand it out.
 */
TEST(alloc_coherent_never_outside_a_small_window)
{
	enum { N = 2048, SIZE = 16384 };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = p ? dmamap_device_lookup(p, "dma-24") : NULL;
	static void *cpu[N];
	static dma_addr_t h[N];
	unsigned int n = 0, bad = 0;
	uint8_t b;

	REQUIRE(dev);
	while (n < N && (cpu[n] = dma_alloc_coherent(dev, SIZE, &h[n], GFP_KERNEL)) != NULL) {
		bad += h[n] + SIZE - 1 > 0xffffff || dmamap_device_read(dev, h[n] + SIZE - 1, &b, 1);
		n++;
	}
	CHECK(n > 0 && n < N); /* the window ran out before the zone did */
	CHECK_EQ(bad, 0);
	while (n--)
		dma_free_coherent(dev, SIZE, cpu[n], h[n]);
	dmamap_platform_destroy(p);
}
