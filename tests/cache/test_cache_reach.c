/* SPDX-License-Identifier: MIT */
/*
 * What a device can reach: dma-nc's window translates both ways at any
 * offset; accesses outside a window, past its end or with the bus master
 * off fault and move nothing; dma-32 cannot map the bank above 4 GiB.
 *
 * Every check compares bytes the device read (dmamap_device_read), bytes
 * the CPU reads through its pointer, or the memory view probed with
 * dmamap_sim_mem_read(), against patterns the test wrote: a missing clean or
 * invalidate in the library shows up as stale bytes, never as a counter.
 */
#include "../helpers.h"

TEST(cache_nc_window_offsets)
{
	struct dmamap_platform *p = builtin_board("default");
	struct device *nc;
	uint8_t a[300], b[300];
	struct page *hi;

	REQUIRE(p);
	nc = dmamap_device_lookup(p, NC);
	REQUIRE(nc);
	pattern(a, sizeof(a), 50);
	pattern(b, sizeof(b), 51);
	hi = dmamap_alloc_pages(p, 0, GFP_DMA32);
	/* A buffer low in the window (ZONE_DMA) and one high in it (ZONE_DMA32). */
	for (unsigned int i = 0; i < 2; i++) {
		uint8_t *buf = i ? (uint8_t *)page_address(hi) + 300 : dbuf(p, 300);
		phys_addr_t phys;
		dma_addr_t h;

		REQUIRE(buf);
		phys = virt_to_phys(buf);
		REQUIRE(phys >= RAM0 && phys + 300 <= RAM0 + 128 * MiB);
		memcpy(buf, a, 300);
		h = dma_map_single(nc, buf, 300, DMA_BIDIRECTIONAL);
		CHECK_EQ(h, phys - RAM0);
		CHECK_EQ(dmamap_phys_to_dma(nc, phys), phys - RAM0);
		CHECK_EQ(dmamap_dma_to_phys(nc, h), phys);
		CHECK(dev_reads(nc, h, a, 300));
		CHECK_EQ(dmamap_device_write(nc, h, b, 300), 0);
		/* The device's bytes are in RAM at P at once, the CPU's copy is stale. */
		CHECK(mem_is(p, buf, b, 300));
		CHECK(!memcmp(buf, a, 300));
		dma_unmap_single(nc, h, 300, DMA_BIDIRECTIONAL);
		CHECK(!memcmp(buf, b, 300));
		if (!i)
			dmamap_kfree(p, buf);
	}
	dmamap_free_pages(p, hi, 0);
	dmamap_platform_destroy(p);
}

TEST(cache_device_faults)
{
	static const struct dmamap_device_desc small = {
		.name = "dma-small",
		.dma_mask = DMA_BIT_MASK(32),
		.nr_ranges = 1,
		.ranges = { { .cpu_start = RAM0, .dma_start = 0, .size = 1 * MiB } },
	};
	struct dmamap_platform *p = builtin_board("default");
	struct dmamap_device_stats s0, s1;
	struct dmamap_fault f;
	struct device *nc, *sm;
	uint8_t before[64], after[64], junk[64], rd[64], sentinel[64];
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	nc = dmamap_device_lookup(p, NC);
	sm = dmamap_device_create(p, &small, NULL);
	REQUIRE(nc && sm);
	pattern(junk, sizeof(junk), 60);
	CHECK_EQ(dmamap_device_last_fault(nc, &f), -ENOENT);

	/* Straddling the end of the 128 MiB window: the in-window half stays untouched. */
	s0 = stats_of(nc);
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 128 * MiB - 32, before, 32));
	CHECK_EQ(dmamap_device_write(nc, 128 * MiB - 32, junk, 64), -EFAULT);
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 128 * MiB - 32, after, 32));
	CHECK(!memcmp(before, after, 32));
	s1 = stats_of(nc);
	CHECK_EQ(s1.faults, s0.faults + 1);
	CHECK_EQ(s1.dev_bytes_written, s0.dev_bytes_written);
	REQUIRE(dmamap_device_last_fault(nc, &f) == 0);
	CHECK_EQ(f.addr, 128 * MiB - 32);
	CHECK_EQ(f.len, 64);
	CHECK(f.write);
	CHECK(!strcmp(f.device, NC));

	/* Entirely past the window, and far past it. */
	CHECK_EQ(dmamap_device_write(nc, 128 * MiB, junk, 64), -EFAULT);
	CHECK_EQ(dmamap_device_last_fault(nc, &f), 0);
	CHECK_EQ(f.addr, 128 * MiB);
	memset(sentinel, 0xa5, sizeof(sentinel));
	memcpy(rd, sentinel, sizeof(rd));
	CHECK_EQ(dmamap_device_read(nc, 0xF0000000ULL, rd, 64), -EFAULT);
	CHECK(!memcmp(rd, sentinel, 64));
	CHECK_EQ(dmamap_device_last_fault(nc, &f), 0);
	CHECK_EQ(f.addr, 0xF0000000ULL);
	CHECK(!f.write);
	CHECK_EQ(stats_of(nc).faults, s0.faults + 3);

	/*
	 * A 1 MiB window over RAM: device address 1 MiB would be RAM at
	 * 0x80100000 if the window were not enforced. Nothing may land there.
	 */
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 1 * MiB, before, 64));
	CHECK_EQ(dmamap_device_write(sm, 1 * MiB, junk, 64), -EFAULT);
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 1 * MiB, after, 64));
	CHECK(!memcmp(before, after, 64));
	CHECK_EQ(stats_of(sm).faults, 1);
	/* Straddling its end, with RAM on both sides: not even the first half. */
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 1 * MiB - 32, before, 64));
	CHECK_EQ(dmamap_device_write(sm, 1 * MiB - 32, junk, 64), -EFAULT);
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 1 * MiB - 32, after, 64));
	CHECK(!memcmp(before, after, 64));
	CHECK_EQ(stats_of(sm).faults, 2);
	CHECK_EQ(dmamap_device_write(sm, 1 * MiB - 64, junk, 64), 0);
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 1 * MiB - 64, after, 64));
	CHECK(!memcmp(after, junk, 64));

	/* A disabled bus master faults on a mapped, valid address. */
	buf = dbuf(p, 64);
	REQUIRE(buf);
	memset(buf, 0x3c, 64);
	h = dma_map_single(nc, buf, 64, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(nc, h));
	REQUIRE(!dmamap_sim_mem_read(p, virt_to_phys(buf), before, 64));
	s0 = stats_of(nc);
	dmamap_device_set_bus_master(nc, false);
	CHECK_EQ(dmamap_device_write(nc, h, junk, 64), -EFAULT);
	CHECK_EQ(dmamap_device_read(nc, h, rd, 64), -EFAULT);
	CHECK(mem_is(p, buf, before, 64));
	CHECK_EQ(stats_of(nc).faults, s0.faults + 2);
	CHECK_EQ(dmamap_device_last_fault(nc, &f), 0);
	CHECK_EQ(f.addr, h);
	dmamap_device_set_bus_master(nc, true);
	CHECK_EQ(dmamap_device_write(nc, h, junk, 64), 0);
	dma_unmap_single(nc, h, 64, DMA_FROM_DEVICE);
	CHECK(!memcmp(buf, junk, 64));
	CHECK(dmamap_report_count(p, DMAMAP_DBG_DEVICE_FAULT) >= 6);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(cache_dma32_high_bank)
{
	struct dmamap_platform *p = builtin_board("default");
	struct device *d32, *coh, *nc;
	struct dmamap_device_stats s0, s1;
	struct scatterlist sg;
	struct page *pg;
	bool owned = true;
	uint8_t a[256], b[256];
	phys_addr_t phys;
	dma_addr_t h;

	REQUIRE(p);
	d32 = dmamap_device_lookup(p, D32);
	coh = dmamap_device_lookup(p, COH);
	nc = dmamap_device_lookup(p, NC);
	REQUIRE(d32 && coh && nc);
	/* Pages from the high bank: ask the allocator, else take one by address. */
	pg = dmamap_alloc_pages(p, 0, __GFP_HIGHMEM);
	if (pg && page_to_phys(pg) < HIGH_BANK) {
		dmamap_free_pages(p, pg, 0);
		pg = NULL;
	}
	if (!pg) {
		pg = virt_to_page(dmamap_phys_to_virt(p, HIGH_BANK + 0x10000));
		owned = false;
	}
	REQUIRE(pg);
	phys = page_to_phys(pg);
	REQUIRE(phys >= HIGH_BANK);
	/* This test is about reach: nothing may bounce (bouncing: tests/swiotlb/). */
	REQUIRE(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_NOFORCE) == 0);
	pattern(a, sizeof(a), 70);
	pattern(b, sizeof(b), 71);
	memcpy(page_address(pg), a, 256);

	s0 = stats_of(d32);
	h = dma_map_page(d32, pg, 0, 256, DMA_TO_DEVICE);
	CHECK_EQ(h, DMA_MAPPING_ERROR);
	CHECK(dma_mapping_error(d32, h) != 0);
	h = dma_map_single(d32, (uint8_t *)page_address(pg) + 512, 256, DMA_FROM_DEVICE);
	CHECK_EQ(h, DMA_MAPPING_ERROR);
	sg_init_one(&sg, page_address(pg), 256);
	CHECK_EQ(dma_map_sg(d32, &sg, 1, DMA_BIDIRECTIONAL), 0);
	s1 = stats_of(d32);
	CHECK_EQ(s1.errors_by_kind[DMAMAP_ERRK_UNREACHABLE],
		 s0.errors_by_kind[DMAMAP_ERRK_UNREACHABLE] + 3);
	CHECK_EQ(s1.maps, s0.maps);
	CHECK(dmamap_report_count(p, DMAMAP_DBG_UNREACHABLE) >= 3);
	/* dma-nc's window does not cover it either. */
	CHECK_EQ(dma_map_page(nc, pg, 0, 256, DMA_TO_DEVICE), DMA_MAPPING_ERROR);

	/* The 40-bit coherent device reaches it, identity-mapped. */
	h = dma_map_page(coh, pg, 0, 256, DMA_BIDIRECTIONAL);
	CHECK_EQ(h, phys);
	if (!dma_mapping_error(coh, h)) {
		CHECK(dev_reads(coh, h, a, 256));
		CHECK_EQ(dmamap_device_write(coh, h, b, 256), 0);
		dma_unmap_page(coh, h, 256, DMA_BIDIRECTIONAL);
		CHECK(!memcmp(page_address(pg), b, 256));
	}
	if (owned)
		dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}
