/* SPDX-License-Identifier: MIT */
/*
 * Calls the API refuses and counts: unmaps of handles never mapped, sg
 * unmaps longer than the list, empty sg lists, masks the device cannot use,
 * frees of coherent memory with another address or size (the neighbour
 * untouched), kfree of what kmalloc did not give, impossible kmalloc sizes,
 * and the stack, which is no board's RAM.
 */
#include "../helpers.h"

TEST(api_unmap_bad_handle)
{
	struct dmamap_platform *p = default_board();
	struct device *nc;
	dma_addr_t outside;
	uint64_t maint;

	REQUIRE(p);
	nc = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(nc);
	/* DMA_MAPPING_ERROR: a failed mapping being used. */
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_unmap_single(nc, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_unmap_page(nc, DMA_MAPPING_ERROR, 64, DMA_FROM_DEVICE)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_unmap_resource(nc, DMA_MAPPING_ERROR, 64,
					       DMA_TO_DEVICE, 0)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_sync_single_for_cpu(nc, DMA_MAPPING_ERROR, 64,
						    DMA_FROM_DEVICE)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_sync_single_for_device(nc, DMA_MAPPING_ERROR, 64,
						       DMA_TO_DEVICE)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_sync_single_range_for_cpu(nc, DMA_MAPPING_ERROR, 0, 64,
							  DMA_FROM_DEVICE)));
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_UNMAP_INVALID), 6);

	/* A handle beyond dma-nc's 128 MiB window cannot be one of its mappings. */
	outside = dmamap_phys_to_dma(nc, BANK0_START) + BANK0_SIZE + 16 * PAGE_SIZE;
	REQUIRE(dmamap_dma_to_phys(nc, outside) == (phys_addr_t)-1);
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_unmap_single(nc, outside, 256, DMA_FROM_DEVICE)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_unmap_page(nc, outside, 256, DMA_BIDIRECTIONAL)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_sync_single_for_cpu(nc, outside, 256, DMA_FROM_DEVICE)));
	CHECK_ERRK(nc, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_sync_single_for_device(nc, outside, 256, DMA_TO_DEVICE)));
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_UNMAP_INVALID), 10);
	/* No cache maintenance happened for any of them. */
	maint = stats_of(nc).cache_bytes_invalidated + stats_of(nc).cache_bytes_cleaned;
	CHECK_EQ(maint, 0);
	dmamap_platform_destroy(p);
}

/*
 * The default board (checker off) in *@p, its dma-nc (returned) and @sg,
 * three entries of @len bytes, one after the other in one ZONE_DMA
 * buffer (*@buf).
 */
static struct device *nc_and_sg3(struct dmamap_platform **p, struct scatterlist *sg,
				 size_t len, void **buf)
{
	struct device *dev;

	*p = default_board();
	dev = *p ? dmamap_device_lookup(*p, "dma-nc") : NULL;
	*buf = *p ? dmamap_kmalloc(*p, 3 * len, DMAMAP_GFP_DMA) : NULL;
	if (!dev || !*buf)
		return NULL;
	sg_init_table(sg, 3);
	for (int i = 0; i < 3; i++)
		sg_set_buf(&sg[i], (char *)*buf + i * len, (unsigned int)len);
	return dev;
}

TEST(api_unmap_sg_longer_than_list)
{
	struct dmamap_platform *p;
	struct scatterlist sg[3];
	void *buf;
	struct device *dev = nc_and_sg3(&p, sg, 256, &buf);
	int n;

	REQUIRE(dev);
	/* nents beyond the list's end: an error, never a walk off the list. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG, dma_map_sg(dev, sg, 5, DMA_TO_DEVICE) == 0);
	CHECK_EQ(live_maps(dev), 0);
	n = dma_map_sg(dev, sg, 3, DMA_TO_DEVICE);
	CHECK_EQ(n, 3);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   VOIDCALL(dma_sync_sg_for_cpu(dev, sg, 5, DMA_TO_DEVICE)));
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   VOIDCALL(dma_unmap_sg(dev, sg, 5, DMA_TO_DEVICE)));
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(api_map_sg_empty)
{
	struct dmamap_platform *p;
	struct scatterlist sg[3];
	struct sg_table sgt;
	void *buf;
	struct device *dev = nc_and_sg3(&p, sg, 512, &buf);

	REQUIRE(dev);
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE, dma_map_sg(dev, sg, 0, DMA_TO_DEVICE) == 0);
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE, dma_map_sg(dev, sg, -3, DMA_TO_DEVICE) == 0);
	sgt.sgl = sg;
	sgt.orig_nents = 0;
	sgt.nents = 0;
	CHECK_ERRK(dev, DMAMAP_ERRK_ZERO_SIZE,
		   dma_map_sgtable(dev, &sgt, DMA_TO_DEVICE, 0) == -EINVAL);

	/* An empty middle entry: the first one is unmapped again. */
	sg[1].length = 0;
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG, dma_map_sg(dev, sg, 3, DMA_TO_DEVICE) == 0);
	CHECK_EQ(stats_of(dev).maps, 1);
	CHECK_EQ(live_maps(dev), 0);
	sgt.orig_nents = 3;
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   dma_map_sgtable(dev, &sgt, DMA_BIDIRECTIONAL, 0) == -EINVAL);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).sg_maps, 0);

	/* Repaired, the same list maps. */
	sg[1].length = 512;
	CHECK_EQ(dma_map_sgtable(dev, &sgt, DMA_BIDIRECTIONAL, 0), 0);
	CHECK_EQ(sgt.nents, 3);
	CHECK_EQ(live_maps(dev), 3);
	dma_unmap_sgtable(dev, &sgt, DMA_BIDIRECTIONAL, 0);
	CHECK_EQ(live_maps(dev), 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(api_set_mask_impossible)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	u64 mask0;
	dma_addr_t h;
	void *cpu;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-32");
	REQUIRE(dev);
	mask0 = dma_get_mask(dev);
	/* 24 bits cannot reach ZONE_DMA (0x80000000..) of this board. */
	CHECK_EQ(dma_supported(dev, DMA_BIT_MASK(24)), 0);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_MASK, dma_set_mask(dev, DMA_BIT_MASK(24)) == -EIO);
	CHECK_EQ(dma_get_mask(dev), mask0);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_MASK,
		   dma_set_coherent_mask(dev, DMA_BIT_MASK(24)) == -EIO);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_MASK,
		   dma_set_mask_and_coherent(dev, DMA_BIT_MASK(24)) == -EIO);
	CHECK_EQ(dma_get_mask(dev), mask0);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_MASK_UNSUPPORTED), 3);
	/* The coherent mask is unchanged too: allocations still work. */
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	CHECK(cpu != NULL);
	CHECK(h + PAGE_SIZE - 1 <= DMA_BIT_MASK(32));
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	/* A mask that reaches ZONE_DMA is fine. */
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(32)), 0);
	dmamap_platform_destroy(p);
}

TEST(api_free_coherent_wrong_address)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	dma_addr_t h, h2;
	uint8_t pat[2 * PAGE_SIZE];
	void *cpu, *cpu2, *lin;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	fill_pattern(pat, sizeof(pat), 3);
	memcpy(cpu, pat, sizeof(pat));
	lin = dmamap_phys_to_virt(p, dmamap_dma_to_phys(dev, h));
	REQUIRE(lin);

	/* Inside the buffer but not its start. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, 2 * PAGE_SIZE, (char *)cpu + PAGE_SIZE, h)));
	/* The linear-map alias of the buffer, not the address it was given as. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, 2 * PAGE_SIZE, lin, h)));
	/* The right address with the wrong handle. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, h + PAGE_SIZE)));
	/* Not memory of this board at all. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, 2 * PAGE_SIZE, pat, h)));
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 4);

	/* Nothing was freed or touched: the buffer holds its bytes, and a new
	 * allocation does not land on it. */
	CHECK_MEM(cpu, pat, sizeof(pat));
	cpu2 = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h2, GFP_KERNEL);
	REQUIRE(cpu2);
	CHECK(h2 + 2 * PAGE_SIZE <= h || h + 2 * PAGE_SIZE <= h2);
	CHECK_MEM(cpu, pat, sizeof(pat));
	dma_free_coherent(dev, 2 * PAGE_SIZE, cpu2, h2);
	dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, h);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 4);
	dmamap_platform_destroy(p);
}

/*
 * Coherent memory comes in host pages (several simulated ones on a 16K or
 * 64K-page host): a size is wrong only when it names another number of
 * them, so the sizes here are counted in host pages.
 */
#define PG host_page()
#define PG_MAX 65536

TEST(api_free_coherent_wrong_size)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	dma_addr_t h, h2;
	static uint8_t pat_buf[4 * PG_MAX];
	uint8_t *pat = pat_buf;
	const size_t len = 4 * PG;
	void *cpu, *cpu2;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, len, &h, GFP_KERNEL);
	REQUIRE(cpu);
	fill_pattern(pat, len, 5);
	memcpy(cpu, pat, len);

	/* Smaller than allocated: the allocator does not know that block. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, PG, cpu, h)));
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_HANDLE,
		   VOIDCALL(dma_free_coherent(dev, 2 * PG, cpu, h)));
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 2);

	/* Not corrupted: the bytes are there, the block is still allocated,
	 * and allocating goes on working around it. */
	CHECK_MEM(cpu, pat, len);
	for (int i = 0; i < 4; i++) {
		cpu2 = dma_alloc_coherent(dev, PG, &h2, GFP_KERNEL);
		REQUIRE(cpu2);
		CHECK(h2 + PG <= h || h + len <= h2);
		memset(cpu2, 0xee, PG);
		dma_free_coherent(dev, PG, cpu2, h2);
	}
	CHECK_MEM(cpu, pat, len);
	/* The right size frees it, without a report. */
	dma_free_coherent(dev, len, cpu, h);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 2);
	dmamap_platform_destroy(p);
}

TEST(api_kfree_invalid)
{
	struct dmamap_platform *p = default_board();
	uint8_t stack_buf[64];
	void *a, *b, *big, *c;

	REQUIRE(p);
	a = dmamap_kmalloc(p, 32, 0);
	b = dmamap_kmalloc(p, 32, 0); /* keeps a's slab alive */
	big = dmamap_kmalloc(p, 5 * PAGE_SIZE, 0);
	REQUIRE(a && b && big);
	memset(b, 0x42, 32);

	dmamap_kfree(p, a);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 0);
	dmamap_kfree(p, a); /* double free */
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 1);
	dmamap_kfree(p, (char *)b + 8); /* inside an object */
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 2);
	dmamap_kfree(p, big);
	dmamap_kfree(p, big); /* double free of a large object */
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 3);
	dmamap_kfree(p, stack_buf); /* never from kmalloc */
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 4);
	dmamap_kfree(p, NULL); /* allowed */
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 4);

	/* b survived, and the allocator still works. */
	CHECK(all_bytes(b, 32, 0x42));
	c = dmamap_kmalloc(p, 32, 0);
	CHECK(c != NULL && c != b);
	dmamap_kfree(p, c);
	dmamap_kfree(p, b);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 4);
	dmamap_platform_destroy(p);
}

TEST(api_kmalloc_bad_size)
{
	struct dmamap_platform *p = default_board();
	struct dmamap_platform *h = host_platform();

	REQUIRE(p && h);
	CHECK(dmamap_kmalloc(p, 0, 0) == NULL);
	CHECK(dmamap_kmalloc(NULL, 64, 0) == NULL);
	/* Sizes that overflow when rounded up to a cache line. */
	CHECK(dmamap_kmalloc(p, SIZE_MAX - 10, DMAMAP_GFP_DMA_ALIGN) == NULL);
	CHECK(dmamap_kmalloc(p, SIZE_MAX - 10, __GFP_ZERO) == NULL);
	CHECK(dmamap_kmalloc(h, SIZE_MAX - 10, DMAMAP_GFP_DMA_ALIGN | __GFP_ZERO) == NULL);
	CHECK(dmamap_alloc_pages(p, 40, 0) == NULL);
	dmamap_platform_destroy(h);
	dmamap_platform_destroy(p);
}

TEST(api_map_stack_not_linear)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	struct scatterlist sg;
	uint8_t stack_buf[256];
	void *heap;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	memset(stack_buf, 1, sizeof(stack_buf));
	CHECK_ERRK(dev, DMAMAP_ERRK_NOT_LINEAR,
		   dma_map_single(dev, stack_buf, sizeof(stack_buf), DMA_TO_DEVICE) ==
			   DMA_MAPPING_ERROR);
	sg_init_one(&sg, stack_buf, sizeof(stack_buf));
	CHECK_ERRK(dev, DMAMAP_ERRK_NOT_LINEAR, dma_map_sg(dev, &sg, 1, DMA_TO_DEVICE) == 0);
	heap = malloc(512); /* host memory is not the board's RAM either */
	REQUIRE(heap);
	CHECK_ERRK(dev, DMAMAP_ERRK_NOT_LINEAR,
		   dma_map_single(dev, heap, 512, DMA_FROM_DEVICE) == DMA_MAPPING_ERROR);
	free(heap);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_NOT_LINEAR), 3);
	CHECK_EQ(stats_of(dev).maps, 0);
	dmamap_platform_destroy(p);
}
