/* SPDX-License-Identifier: MIT */
/*
 * Fault injection: a failure in the middle of an sg list unwinds what was
 * mapped; an injected map or allocation failure fails that one call,
 * counted, and the next one works.
 */
#include "../helpers.h"

#define SG_N 8

TEST(api_sg_fault_unwind)
{
	struct dmamap_platform *p = default_board();
	struct scatterlist sg[SG_N];
	struct sg_table sgt = { sg, 0, SG_N };
	void *bufs[SG_N];
	struct device *dev;
	unsigned long fired = 0;
	int n;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	sg_init_table(sg, SG_N);
	for (int i = 0; i < SG_N; i++) {
		bufs[i] = dmamap_kmalloc(p, 200 + 300 * i, DMAMAP_GFP_DMA);
		REQUIRE(bufs[i]);
		sg_set_buf(&sg[i], bufs[i], 200 + 300 * i);
	}
	for (long k = 1; k <= SG_N; k++) {
		struct dmamap_device_stats s;

		dmamap_device_stats_reset(dev);
		dmamap_fault_inject(p, DMAMAP_FAULT_MAP, k);
		n = dma_map_sg(dev, sg, SG_N, DMA_BIDIRECTIONAL);
		CHECK_EQ(n, 0);
		CHECK_EQ(dmamap_fault_injected(p), ++fired);
		s = stats_of(dev);
		CHECK_MSG(s.maps == (uint64_t)(k - 1), "k=%ld: %llu entries mapped", k,
			  (unsigned long long)s.maps);
		CHECK_MSG(s.maps == s.unmaps, "k=%ld: %llu maps, %llu unmaps", k,
			  (unsigned long long)s.maps, (unsigned long long)s.unmaps);
		CHECK_EQ(s.sg_maps, 0);
		CHECK_EQ(s.errors_by_kind[DMAMAP_ERRK_NOMEM], 1);

		dmamap_fault_inject(p, DMAMAP_FAULT_MAP, k);
		CHECK_EQ(dma_map_sgtable(dev, &sgt, DMA_TO_DEVICE, 0), -ENOMEM);
		CHECK_EQ(dmamap_fault_injected(p), ++fired);
		CHECK_EQ(live_maps(dev), 0);
	}
	/* Disarmed after firing: the whole list maps now. */
	n = dma_map_sg(dev, sg, SG_N, DMA_BIDIRECTIONAL);
	CHECK_EQ(n, SG_N);
	CHECK_EQ(live_maps(dev), SG_N);
	for (int i = 0; i < SG_N; i++)
		CHECK_EQ(sg_dma_address(&sg[i]),
			 dmamap_phys_to_dma(dev, virt_to_phys(bufs[i])));
	dma_unmap_sg(dev, sg, SG_N, DMA_BIDIRECTIONAL);
	CHECK_EQ(live_maps(dev), 0);
	/* Allocator faults do not hit map paths. */
	dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, 1);
	CHECK_EQ(dma_map_sg(dev, sg, SG_N, DMA_TO_DEVICE), SG_N);
	dma_unmap_sg(dev, sg, SG_N, DMA_TO_DEVICE);
	dmamap_fault_inject(p, 0, 0);
	for (int i = 0; i < SG_N; i++)
		dmamap_kfree(p, bufs[i]);
	dmamap_platform_destroy(p);
}

TEST(api_map_single_fault)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	dma_addr_t h;
	void *buf;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-coh");
	buf = dmamap_kmalloc(p, 128, 0);
	REQUIRE(dev && buf);
	dmamap_fault_inject(p, DMAMAP_FAULT_MAP, 2);
	h = dma_map_single(dev, buf, 128, DMA_TO_DEVICE); /* point 1 */
	CHECK(h != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, h, 128, DMA_TO_DEVICE);
	CHECK_ERRK(dev, DMAMAP_ERRK_NOMEM,
		   dma_map_single(dev, buf, 128, DMA_TO_DEVICE) == DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_fault_injected(p), 1);
	dmamap_fault_inject(p, DMAMAP_FAULT_MAP, 1);
	CHECK(dma_map_resource(dev, MMIO_PHYS, 64, DMA_TO_DEVICE, 0) == DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_fault_injected(p), 2);
	h = dma_map_single(dev, buf, 128, DMA_TO_DEVICE);
	CHECK(h != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, h, 128, DMA_TO_DEVICE);
	CHECK_EQ(live_maps(dev), 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(api_alloc_fault_inject)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	struct page *pg;
	dma_addr_t h;
	void *cpu, *k, *keep;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);

	/* Each allocation point inside dma_alloc_coherent, in turn. */
	for (long n = 1;; n++) {
		unsigned long before = dmamap_fault_injected(p);

		REQUIRE(n < 16);
		dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, n);
		cpu = dma_alloc_coherent(dev, 3 * PAGE_SIZE, &h, GFP_KERNEL);
		if (dmamap_fault_injected(p) == before) {
			CHECK(cpu != NULL);
			dmamap_fault_inject(p, 0, 0);
			break;
		}
		CHECK_MSG(cpu == NULL, "point %ld fired but the allocation succeeded", n);
		CHECK_EQ(stats_of(dev).allocs, 0);
	}
	CHECK(stats_of(dev).errors_by_kind[DMAMAP_ERRK_NOMEM] >= 1);
	dma_free_coherent(dev, 3 * PAGE_SIZE, cpu, h);

	dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, 1);
	CHECK(dma_alloc_noncoherent(dev, PAGE_SIZE, &h, DMA_TO_DEVICE, GFP_KERNEL) == NULL);
	cpu = dma_alloc_noncoherent(dev, PAGE_SIZE, &h, DMA_TO_DEVICE, GFP_KERNEL);
	CHECK(cpu != NULL);
	dma_free_noncoherent(dev, PAGE_SIZE, cpu, h, DMA_TO_DEVICE);

	/* kmalloc is a point of its own, also when its slab has room. */
	keep = dmamap_kmalloc(p, 64, 0);
	REQUIRE(keep);
	dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, 1);
	CHECK(dmamap_kmalloc(p, 64, 0) == NULL);
	k = dmamap_kmalloc(p, 64, 0);
	CHECK(k != NULL);
	dmamap_kfree(p, k);
	dmamap_kfree(p, keep);

	dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, 1);
	CHECK(dmamap_alloc_pages(p, 2, 0) == NULL);
	pg = dmamap_alloc_pages(p, 2, 0);
	CHECK(pg != NULL);
	dmamap_free_pages(p, pg, 2);

	/* A countdown of 2: the next-but-one point fails. */
	dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, 2);
	pg = dmamap_alloc_pages(p, 0, 0);
	CHECK(pg != NULL);
	CHECK(dmamap_alloc_pages(p, 0, 0) == NULL);
	dmamap_free_pages(p, pg, 0);
	/* Map faults do not hit allocators. */
	dmamap_fault_inject(p, DMAMAP_FAULT_MAP, 1);
	k = dmamap_kmalloc(p, 64, 0);
	CHECK(k != NULL);
	dmamap_kfree(p, k);
	dmamap_fault_inject(p, 0, 0);
	CHECK_EQ(dmamap_fault_injected(p), 6);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID), 0);
	dmamap_platform_destroy(p);
}
