/* SPDX-License-Identifier: MIT */
/*
 * The host platform: identity addresses for this process's memory, the
 * memcpy engine model on the host and on a board, and a coherent free
 * larger than the allocation sparing its neighbour.
 */
#include "../../drivers/memcpy_dma.h"
#include "../helpers.h"

TEST(api_host_identity)
{
	struct dmamap_platform *p = host_platform();
	struct scatterlist sg[2];
	struct device *dev;
	uint8_t stack_buf[100];
	dma_addr_t h;
	uint8_t *buf;

	REQUIRE(p);
	CHECK(!dmamap_platform_is_sim(p));
	dev = host_device(p, "h0", NULL);
	REQUIRE(dev);
	CHECK(dev_is_dma_coherent(dev));
	buf = malloc(3000);
	REQUIRE(buf);
	h = dma_map_single(dev, buf + 5, 2000, DMA_BIDIRECTIONAL);
	CHECK_EQ(h, (dma_addr_t)(uintptr_t)(buf + 5));
	CHECK_EQ(page_to_phys(virt_to_page(buf + 5)), (uintptr_t)(buf + 5) & PAGE_MASK);
	CHECK_EQ(virt_to_phys(buf + 5), (uintptr_t)(buf + 5));
	dma_unmap_single(dev, h, 2000, DMA_BIDIRECTIONAL);
	h = dma_map_single(dev, stack_buf, sizeof(stack_buf), DMA_TO_DEVICE);
	CHECK_EQ(h, (dma_addr_t)(uintptr_t)stack_buf);
	dma_unmap_single(dev, h, sizeof(stack_buf), DMA_TO_DEVICE);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 1000);
	sg_set_buf(&sg[1], buf + 2000, 1000);
	CHECK_EQ(dma_map_sg(dev, sg, 2, DMA_FROM_DEVICE), 2);
	CHECK_EQ(sg_dma_address(&sg[0]), (uintptr_t)buf);
	CHECK_EQ(sg_dma_address(&sg[1]), (uintptr_t)(buf + 2000));
	dma_unmap_sg(dev, sg, 2, DMA_FROM_DEVICE);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	free(buf);
	dmamap_platform_destroy(p);
}

static void memcpy_engine_roundtrip(struct device *dev, void *dst, void *src,
				    size_t len)
{
	struct mcdma m;
	uint8_t *expect = malloc(len);
	int ret;

	REQUIRE(expect);
	fill_pattern(expect, len, 9);
	memset(dst, 0, len);
	ret = mcdma_probe(&m, dev, 16);
	CHECK_EQ(ret, 0);
	if (!ret) {
		CHECK_EQ(mcdma_copy_buf(&m, dst, src, len, expect, NULL, MCDMA_BUG_NONE), 0);
		CHECK_MEM(dst, expect, len);
		CHECK(stats_of(dev).dev_bytes_read >= len);
		CHECK(stats_of(dev).dev_bytes_written >= len);
		mcdma_remove(&m);
	}
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	free(expect);
}

TEST(api_host_memcpy_model)
{
	struct dmamap_platform *p = host_platform();
	struct device *dev;
	const size_t len = 3 * PAGE_SIZE + 123;
	void *src, *dst;

	REQUIRE(p);
	dev = host_device(p, "mc0", "memcpy");
	REQUIRE(dev);
	CHECK(strcmp(dmamap_device_model_name(dev), "memcpy") == 0);
	src = malloc(len);
	dst = malloc(len);
	REQUIRE(src && dst);
	memcpy_engine_roundtrip(dev, dst, src, len);
	free(src);
	free(dst);
	dmamap_platform_destroy(p);
}

TEST(api_sim_memcpy_model)
{
	struct dmamap_platform *p = default_board();
	const char *names[] = { "dma-nc", "dma-coh", "dma-32" };
	const size_t len = 2 * PAGE_SIZE + 64;

	REQUIRE(p);
	for (unsigned int i = 0; i < 3; i++) {
		struct device *dev = dmamap_device_lookup(p, names[i]);
		void *src = dmamap_kmalloc(p, len, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);
		void *dst = dmamap_kmalloc(p, len, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);

		REQUIRE(dev && src && dst);
		memcpy_engine_roundtrip(dev, dst, src, len);
		dmamap_kfree(p, src);
		dmamap_kfree(p, dst);
	}
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	dmamap_platform_destroy(p);
}

/*
 * A size larger than allocated must not touch the memory after the buffer.
 * Coherent memory comes in host pages (several simulated ones on a 16K or
 * 64K-page host), so the buffer ends, its neighbour begins and a size is
 * wrong only at a whole host page: one page more than the allocator holds.
 */
#define PG host_page()

/* Own the host page after @phys through the page allocator (a one-page buffer is its, not CMA's). */
static uint8_t *own_next(struct dmamap_platform *p, phys_addr_t phys)
{
	for (int i = 0; i < 64; i++) {
		struct page *next = dmamap_alloc_pages(p, host_page_order(), GFP_DMA32);

		if (!next)
			return NULL;
		if (page_to_phys(next) == phys + PG)
			return page_address(next);
	}
	return NULL;
}

TEST(api_free_coherent_larger_size_spares_neighbour)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	uint8_t *cpu, *nb;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	nb = own_next(p, dmamap_dma_to_phys(dev, h));
	REQUIRE(nb);
	memset(nb, 0x77, PG);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, 2 * PG, cpu, h)));
	for (unsigned int i = 0; i < PG; i++)
		if (nb[i] != 0x77) {
			CHECK_MSG(0, "neighbour byte %u changed to 0x%02x", i, nb[i]);
			break;
		}
	dmamap_platform_destroy(p);
}

/*
 * A host device whose bus reaches only part of memory is judged by Linux's
 * dma_direct_supported() rule, as on a board: every mask of 32 bits or
 * more is supported (what the device cannot reach bounces); a narrower
 * mask must reach the device address of the top of the 32-bit zone, which
 * neither a 1 GiB nor a 4 GiB window at 0 gives a 31-bit mask.
 */
TEST(api_host_device_with_a_window_is_judged_as_on_a_board)
{
	struct dmamap_platform *p = quiet(host_platform());
	struct dmamap_device_desc d = { .name = "win1g", .nr_ranges = 1,
					.ranges = { { .cpu_start = 0, .dma_start = 0,
						      .size = 1ULL << 30 } } };
	struct dmamap_error err = { 0 };
	struct device *narrow, *wide;

	REQUIRE(p);
	narrow = dmamap_device_create(p, &d, &err);
	d.name = "win4g";
	d.ranges[0].size = 4ULL << 30;
	wide = dmamap_device_create(p, &d, &err);
	REQUIRE(narrow && wide);
	CHECK(dma_supported(narrow, DMA_BIT_MASK(32)));
	CHECK(dma_supported(narrow, DMA_BIT_MASK(64)));
	CHECK_EQ(dma_set_mask(narrow, DMA_BIT_MASK(32)), 0);
	CHECK(!dma_supported(narrow, DMA_BIT_MASK(31)));
	CHECK_EQ(dma_set_mask(narrow, DMA_BIT_MASK(31)), -EIO);
	CHECK_EQ(dma_get_mask(narrow), DMA_BIT_MASK(32));
	CHECK(dma_supported(wide, DMA_BIT_MASK(32)));
	CHECK_EQ(dma_set_mask(wide, DMA_BIT_MASK(32)), 0);
	CHECK(!dma_supported(wide, DMA_BIT_MASK(31)));
	dmamap_platform_destroy(p);
}
