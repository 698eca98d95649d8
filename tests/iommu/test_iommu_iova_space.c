/* SPDX-License-Identifier: MIT */
/*
 * The IOVA space: it runs out cleanly and recovers, IOVAs stay within the
 * device's mask, a thread's IOVAs come in blocks that fill whole page table
 * lines, and space freed over many rounds really comes back.
 *
 * Every check compares bytes: what the device read at the returned IOVA,
 * what the CPU sees after unmap, or the memory view probed with
 * dmamap_sim_mem_read(). A fault must move nothing.
 */
#include <pthread.h>
#include "../helpers.h"

struct report_log {
	unsigned int n;
	enum dmamap_dbg_kind kind;
	char text[480];
};

static void report_fn(void *ctx, const struct dmamap_report *r)
{
	struct report_log *l = ctx;

	l->n++;
	l->kind = r->kind;
	snprintf(l->text, sizeof(l->text), "%s", r->text);
}

#define BIG_ORDER 9 /* 2 MiB */
#define MAX_BIG 4096

TEST(iommu_iova_exhaustion_and_recovery)
{
	struct dmamap_platform *p = quiet_board();
	const size_t big = PAGE_SIZE << BIG_ORDER;
	struct report_log rl = { 0 };
	struct scatterlist sg[1];
	struct sg_table sgt = { 0 };
	dma_addr_t *h = calloc(MAX_BIG, sizeof(*h));
	uint64_t nomem0, fail0;
	struct device *dev;
	struct page *pg;
	uint8_t want[64];
	int n = 0;

	REQUIRE(p && h);
	/* Coherent: no cache work on 4 GiB of mappings. */
	dev = iommu_device(p, "iova-hog", "smmu-hog", 0, 0, true);
	REQUIRE(dev);
	pg = dmamap_alloc_pages(p, BIG_ORDER, 0);
	REQUIRE(pg);
	fill_pattern(want, sizeof(want), 18);
	memcpy(page_address(pg), want, sizeof(want));
	dmamap_set_report_hook(p, report_fn, &rl);
	nomem0 = errk(dev, DMAMAP_ERRK_NOMEM);
	fail0 = istats(dev).iova_failures;
	/* Each mapping takes its own 2 MiB of the [1 MiB, 4 GiB) space. */
	while (n < MAX_BIG) {
		dma_addr_t d = dma_map_page(dev, pg, 0, big, DMA_TO_DEVICE);

		if (d == DMA_MAPPING_ERROR)
			break;
		h[n++] = d;
	}
	CHECK_MSG(n == 2047, "%d mappings of 2 MiB before the IOVA space ran out", n);
	REQUIRE(n < MAX_BIG);
	/* Reported and counted. */
	CHECK(rl.n >= 1);
	CHECK_EQ(rl.kind, DMAMAP_DBG_ALLOC_FAILED);
	CHECK_MSG(strstr(rl.text, "IOVA"), "report text: %s", rl.text);
	CHECK_EQ(istats(dev).iova_failures, fail0 + 1);
	CHECK_EQ(errk(dev, DMAMAP_ERRK_NOMEM), nomem0 + 1);
	/* Every live mapping still translates to the buffer. */
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h[0]), page_to_phys(pg));
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h[n - 1] + big - 1),
		 page_to_phys(pg) + big - 1);
	CHECK(dev_reads(dev, h[n - 1], want, sizeof(want)));
	/* An sg list needing another 2 MiB range fails cleanly too. */
	sg_init_table(sg, 1);
	sg_set_page(&sg[0], pg, (unsigned int)big, 0);
	CHECK_EQ(dma_map_sg(dev, sg, 1, DMA_TO_DEVICE), 0);
	sgt.sgl = sg;
	sgt.orig_nents = 1;
	CHECK_EQ(dma_map_sgtable(dev, &sgt, DMA_TO_DEVICE, 0), -ENOMEM);
	/* Release everything: the space is whole again. */
	for (int i = 0; i < n; i++)
		dma_unmap_page(dev, h[i], big, DMA_TO_DEVICE);
	CHECK_EQ(istats(dev).pages_mapped, 0);
	h[0] = dma_map_page(dev, pg, 0, big, DMA_TO_DEVICE);
	CHECK(!dma_mapping_error(dev, h[0]));
	if (h[0] != DMA_MAPPING_ERROR) {
		CHECK(dev_reads(dev, h[0], want, sizeof(want)));
		dma_unmap_page(dev, h[0], big, DMA_TO_DEVICE);
	}
	/* And 2047 fit again. */
	n = 0;
	while (n < MAX_BIG) {
		dma_addr_t d = dma_map_page_attrs(dev, pg, 0, big, DMA_TO_DEVICE,
						  DMA_ATTR_NO_WARN);

		if (d == DMA_MAPPING_ERROR)
			break;
		h[n++] = d;
	}
	CHECK_EQ(n, 2047);
	for (int i = 0; i < n; i++)
		dma_unmap_page(dev, h[i], big, DMA_TO_DEVICE);
	CHECK_EQ(istats(dev).pages_mapped, 0);
	CHECK_EQ(live_maps(dev), 0);
	dmamap_set_report_hook(p, NULL, NULL);
	dmamap_free_pages(p, pg, BIG_ORDER);
	free(h);
	dmamap_platform_destroy(p);
}

/*
 * A device with a small mask behind an IOMMU: every IOVA handed out,
 * for pages and for sg lists alike, is one the device can generate.
 */
TEST(iommu_iovas_within_dma_mask)
{
	struct dmamap_platform *p = quiet_board();
	const u64 mask = DMA_BIT_MASK(24); /* 16 MiB of IOVA: [1 MiB, 16 MiB) usable */
	const size_t chunk = 1 << 20;
	struct dmamap_device_desc d = {
		.name = "smmu-m24", .iommu = "smmuM", .coherent = true,
		.dma_mask = mask,
	};
	struct scatterlist sg[24];
	dma_addr_t h[24];
	int nsg = 0, npg = 0;
	struct device *dev;
	struct page *pg;
	uint8_t want[16], rd[16];

	REQUIRE(p);
	dev = dmamap_device_create(p, &d, NULL);
	REQUIRE(dev);
	pg = dmamap_alloc_pages(p, 8, 0); /* 1 MiB */
	REQUIRE(pg);
	fill_pattern(want, sizeof(want), 83);
	memcpy((uint8_t *)page_address(pg) + chunk - sizeof(want), want, sizeof(want));
	/* sg lists of one 1 MiB entry until the space under the mask is used up. */
	for (; nsg < 24; nsg++) {
		dma_addr_t a;

		sg_init_table(&sg[nsg], 1);
		sg_set_page(&sg[nsg], pg, (unsigned int)chunk, 0);
		if (dma_map_sg(dev, &sg[nsg], 1, DMA_TO_DEVICE) != 1)
			break;
		a = sg_dma_address(&sg[nsg]);
		CHECK_MSG(a + chunk - 1 <= mask,
			  "sg list %d mapped at IOVA [0x%llx +1 MiB] beyond the 24-bit mask", nsg,
			  (unsigned long long)a);
		memset(rd, 0, sizeof(rd));
		CHECK_MSG(dmamap_device_read(dev, a + chunk - sizeof(rd), rd, sizeof(rd)) == 0 &&
				  !memcmp(rd, want, sizeof(rd)),
			  "sg list %d: the device cannot read its own segment", nsg);
		if (a + chunk - 1 > mask) {
			nsg++;
			break;
		}
	}
	CHECK(nsg >= 1 && nsg < 24);
	for (int i = 0; i < nsg; i++)
		dma_unmap_sg(dev, &sg[i], 1, DMA_TO_DEVICE);
	/* The same with dma_map_page. */
	for (; npg < 24; npg++) {
		h[npg] = dma_map_page_attrs(dev, pg, 0, chunk, DMA_TO_DEVICE, DMA_ATTR_NO_WARN);
		if (h[npg] == DMA_MAPPING_ERROR)
			break;
		CHECK(h[npg] + chunk - 1 <= mask);
		CHECK(dev_reads(dev, h[npg] + chunk - sizeof(want), want, sizeof(want)));
	}
	CHECK(npg >= 1 && npg < 24);
	for (int i = 0; i < npg; i++)
		dma_unmap_page(dev, h[i], chunk, DMA_TO_DEVICE);
	CHECK_EQ(istats(dev).pages_mapped, 0);
	CHECK_EQ(stats_of(dev).faults, 0);
	dmamap_free_pages(p, pg, 8);
	dmamap_platform_destroy(p);
}

/*
 * A thread's IOVAs come in naturally aligned blocks of eight pages, so its
 * IO page table entries fill cache lines of their own: single pages picked
 * from a fragmented space would interleave with other threads' entries and
 * bounce those lines on every map and unmap.
 */
struct block_taker {
	struct device *dev;
	void *buf;
	dma_addr_t h[8];
};

static void *take_eight(void *arg)
{
	struct block_taker *t = arg;

	for (int i = 0; i < 8; i++)
		t->h[i] = dma_map_single(t->dev, t->buf, PAGE_SIZE, DMA_TO_DEVICE);
	for (int i = 0; i < 8; i++)
		if (!dma_mapping_error(t->dev, t->h[i]))
			dma_unmap_single(t->dev, t->h[i], PAGE_SIZE, DMA_TO_DEVICE);
	return NULL;
}

TEST(iommu_thread_iovas_fill_whole_page_table_lines)
{
	enum { N = 600 };
	struct dmamap_platform *p = quiet(host_platform());
	struct device *dev = p ? iommu_device(p, "blocks", "iommu0", 0, 0, true) : NULL;
	uint8_t *buf = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	static dma_addr_t h[N];
	struct block_taker t = { 0 };
	pthread_t th;

	REQUIRE(dev && buf);
	/* Fragment: more single-page holes than this thread's magazine keeps. */
	for (int i = 0; i < N; i++) {
		h[i] = dma_map_single(dev, buf, PAGE_SIZE, DMA_TO_DEVICE);
		REQUIRE(!dma_mapping_error(dev, h[i]));
	}
	for (int i = 0; i < N; i += 2)
		dma_unmap_single(dev, h[i], PAGE_SIZE, DMA_TO_DEVICE);
	t.dev = dev;
	t.buf = buf;
	REQUIRE(pthread_create(&th, NULL, take_eight, &t) == 0);
	pthread_join(th, NULL);
	for (int i = 0; i < 8; i++) {
		CHECK(!dma_mapping_error(dev, t.h[i]));
		CHECK_MSG(t.h[i] >> (PAGE_SHIFT + 3) == t.h[0] >> (PAGE_SHIFT + 3),
			  "IOVA %d 0x%llx outside the first one's 8-page block 0x%llx", i,
			  (unsigned long long)t.h[i], (unsigned long long)t.h[0]);
	}
	for (int i = 1; i < N; i += 2)
		dma_unmap_single(dev, h[i], PAGE_SIZE, DMA_TO_DEVICE);
	CHECK(iommu_left_clean(dev));
	free(buf);
	dmamap_platform_destroy(p);
}

/*
 * Single pages mapped and unmapped in rounds larger than a thread's
 * magazine: what the magazine cannot keep goes back to the allocator, and
 * must really go back, or the 4 GiB space runs out after a few thousand
 * rounds (pages handed out from split blocks once could not be returned).
 */
TEST(iommu_iova_space_not_lost_over_many_rounds)
{
	enum { PER_ROUND = 512, ROUNDS = 5000 };
	struct dmamap_platform *p = quiet(host_platform());
	struct device *dev = p ? iommu_device(p, "rounds", "iommu0", 0, 0, true) : NULL;
	uint8_t *buf = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	static dma_addr_t h[PER_ROUND];
	int failed_round = -1;

	REQUIRE(dev && buf);
	for (int r = 0; r < ROUNDS && failed_round < 0; r++) {
		int n = 0;

		for (; n < PER_ROUND; n++) {
			h[n] = dma_map_single(dev, buf, PAGE_SIZE, DMA_TO_DEVICE);
			if (dma_mapping_error(dev, h[n])) {
				failed_round = r;
				break;
			}
		}
		for (int i = 0; i < n; i++)
			dma_unmap_single(dev, h[i], PAGE_SIZE, DMA_TO_DEVICE);
	}
	CHECK_MSG(failed_round < 0, "IOVA space ran out in round %d", failed_round);
	CHECK_EQ(istats(dev).iova_failures, 0);
	CHECK_EQ(istats(dev).pages_mapped, 0);
	free(buf);
	dmamap_platform_destroy(p);
}

/*
 * A coherent allocation behind the IOMMU gets an IOVA under the coherent
 * mask, or none: it used to get one anywhere in the domain (found by the
 * board fuzzer: a 16-bit device given 0x80810000).
 */
TEST(iommu_coherent_iova_stays_under_the_coherent_mask)
{
	struct dmamap_platform *p = quiet_board();
	const struct dmamap_device_desc d = { .name = "narrow", .iommu = "smmu0",
					      .dma_mask = DMA_BIT_MASK(32),
					      .coherent_dma_mask = DMA_BIT_MASK(16) };
	struct dmamap_error err = { 0 };
	struct device *dev;
	dma_addr_t h = 0;
	void *cpu;

	REQUIRE(p);
	dev = dmamap_device_create(p, &d, &err);
	REQUIRE_MSG(dev, "%s", err.msg);
	cpu = dma_alloc_coherent(dev, 8192, &h, GFP_KERNEL);
	CHECK_MSG(!cpu || h + 8191 <= DMA_BIT_MASK(16), "allocated at 0x%llx",
		  (unsigned long long)h);
	if (cpu)
		dma_free_coherent(dev, 8192, cpu, h);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	dmamap_platform_destroy(p);
}
