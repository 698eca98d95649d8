/* SPDX-License-Identifier: MIT */
/*
 * Dispatch: dma_map_single is dma_map_page of its page and offset; a device
 * with an ops table of its own gets every map, unmap and mask call with the
 * right arguments (sg lists unwound through it on failure); resources are
 * mapped as given, never bounced.
 */
#include "../helpers.h"

TEST(api_map_resource)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	dma_addr_t h;
	void *buf;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-32");
	REQUIRE(dev);
	buf = dmamap_kmalloc(p, 64, DMAMAP_GFP_DMA);
	REQUIRE(buf);
	/* RAM is not a resource. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   dma_map_resource(dev, virt_to_phys(buf), 64, DMA_TO_DEVICE, 0) ==
			   DMA_MAPPING_ERROR);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   dma_map_resource(dev, BANK1_START + PAGE_SIZE, PAGE_SIZE,
				    DMA_FROM_DEVICE, 0) == DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_INVALID_ARGUMENT), 2);
	CHECK_EQ(stats_of(dev).maps, 0);
	/* An MMIO address the mask reaches maps untranslated, without cache work. */
	h = dma_map_resource(dev, MMIO_PHYS, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	CHECK_EQ(h, MMIO_PHYS);
	CHECK_EQ(live_maps(dev), 1);
	dma_unmap_resource(dev, h, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	CHECK_EQ(live_maps(dev), 0);
	/* Beyond a 32-bit mask: unreachable. */
	CHECK_ERRK(dev, DMAMAP_ERRK_UNREACHABLE,
		   dma_map_resource(dev, 0x100000000ULL, PAGE_SIZE, DMA_TO_DEVICE, 0) ==
			   DMA_MAPPING_ERROR);
	CHECK_EQ(stats_of(dev).cache_bytes_cleaned, 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(api_single_is_page)
{
	struct dmamap_platform *p = default_board();
	const char *names[] = { "dma-nc", "dma-coh", "dma-32" };
	uint8_t *buf;

	REQUIRE(p);
	buf = dmamap_kmalloc(p, 3 * PAGE_SIZE, DMAMAP_GFP_DMA);
	REQUIRE(buf);
	for (unsigned int i = 0; i < 3; i++) {
		struct device *dev = dmamap_device_lookup(p, names[i]);
		uint8_t *ptr = buf + PAGE_SIZE + 100; /* not page aligned */
		dma_addr_t hs, hp;

		REQUIRE(dev);
		hs = dma_map_single(dev, ptr, 1000, DMA_TO_DEVICE);
		hp = dma_map_page(dev, virt_to_page(ptr), offset_in_page(ptr), 1000,
				  DMA_TO_DEVICE);
		CHECK(hs != DMA_MAPPING_ERROR);
		CHECK_EQ(hs, hp);
		CHECK_EQ(hs, dmamap_phys_to_dma(dev, virt_to_phys(ptr)));
		CHECK_EQ(stats_of(dev).maps, 2);
		dma_unmap_single(dev, hs, 1000, DMA_TO_DEVICE);
		dma_unmap_page(dev, hp, 1000, DMA_TO_DEVICE);
		CHECK_EQ(live_maps(dev), 0);
	}
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

#define REC_ADDR 0x5a000000ULL
#define RECORDER_MAX 16

static struct {
	int map_calls, unmap_calls, mask_calls;
	int fail_at; /* map call number that fails, 0: none */
	struct page *page[RECORDER_MAX];
	unsigned long offset[RECORDER_MAX];
	size_t size[RECORDER_MAX];
	enum dma_data_direction dir[RECORDER_MAX];
	dma_addr_t unmapped[RECORDER_MAX];
	u64 mask;
} recorder;

static dma_addr_t recorder_map_page(struct device *dev, struct page *page,
			       unsigned long offset, size_t size,
			       enum dma_data_direction dir, unsigned long attrs)
{
	int i = recorder.map_calls++;

	(void)dev;
	(void)attrs;
	if (recorder.fail_at && recorder.map_calls == recorder.fail_at)
		return DMA_MAPPING_ERROR;
	if (i < RECORDER_MAX) {
		recorder.page[i] = page;
		recorder.offset[i] = offset;
		recorder.size[i] = size;
		recorder.dir[i] = dir;
	}
	return REC_ADDR + (dma_addr_t)i * 0x10000 + offset;
}

static void recorder_unmap_page(struct device *dev, dma_addr_t handle, size_t size,
			   enum dma_data_direction dir, unsigned long attrs)
{
	(void)dev;
	(void)size;
	(void)dir;
	(void)attrs;
	if (recorder.unmap_calls < RECORDER_MAX)
		recorder.unmapped[recorder.unmap_calls] = handle;
	recorder.unmap_calls++;
}

static int recorder_set_dma_mask(struct device *dev, u64 mask)
{
	(void)dev;
	recorder.mask_calls++;
	recorder.mask = mask;
	return mask < DMA_BIT_MASK(28) ? -EIO : 0;
}

static const struct dma_map_ops recorder_ops = {
	.name = "recorder",
	.map_page = recorder_map_page,
	.unmap_page = recorder_unmap_page,
	.set_dma_mask = recorder_set_dma_mask,
};

TEST(api_custom_ops)
{
	struct dmamap_platform *p = default_board();
	struct scatterlist sg[3];
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;
	int n;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	buf = dmamap_kmalloc(p, 2 * PAGE_SIZE, DMAMAP_GFP_DMA);
	REQUIRE(dev && buf);
	CHECK(get_dma_ops(dev) == &dmamap_direct_ops);
	set_dma_ops(dev, &recorder_ops);
	CHECK(get_dma_ops(dev) == &recorder_ops);

	/* single goes through the table's map_page with page + offset. */
	h = dma_map_single(dev, buf + 300, 700, DMA_TO_DEVICE);
	CHECK_EQ(recorder.map_calls, 1);
	CHECK(recorder.page[0] == virt_to_page(buf + 300));
	CHECK_EQ(recorder.offset[0], offset_in_page(buf + 300));
	CHECK_EQ(recorder.size[0], 700);
	CHECK_EQ(recorder.dir[0], DMA_TO_DEVICE);
	CHECK_EQ(h, REC_ADDR + offset_in_page(buf + 300));
	dma_unmap_single(dev, h, 700, DMA_TO_DEVICE);
	CHECK_EQ(recorder.unmap_calls, 1);
	CHECK_EQ(recorder.unmapped[0], h);

	h = dma_map_page(dev, virt_to_page(buf + PAGE_SIZE), 8, 64, DMA_FROM_DEVICE);
	CHECK_EQ(recorder.map_calls, 2);
	CHECK(recorder.page[1] == virt_to_page(buf + PAGE_SIZE));
	CHECK_EQ(recorder.dir[1], DMA_FROM_DEVICE);
	CHECK_EQ(h, REC_ADDR + 0x10000 + 8);
	dma_unmap_page(dev, h, 64, DMA_FROM_DEVICE);
	CHECK_EQ(recorder.unmap_calls, 2);

	/* No .map_sg: the core builds sg on map_page, one call per entry. */
	sg_init_table(sg, 3);
	for (int i = 0; i < 3; i++)
		sg_set_buf(&sg[i], buf + i * 1000, 1000);
	n = dma_map_sg(dev, sg, 3, DMA_BIDIRECTIONAL);
	CHECK_EQ(n, 3);
	CHECK_EQ(recorder.map_calls, 5);
	for (int i = 0; i < 3; i++) {
		CHECK(recorder.page[2 + i] == virt_to_page(buf + i * 1000));
		CHECK_EQ(sg_dma_address(&sg[i]),
			 REC_ADDR + (dma_addr_t)(2 + i) * 0x10000 + offset_in_page(buf + i * 1000));
		CHECK_EQ(sg_dma_len(&sg[i]), 1000);
	}
	dma_unmap_sg(dev, sg, 3, DMA_BIDIRECTIONAL);
	CHECK_EQ(recorder.unmap_calls, 5);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(recorder.unmapped[2 + i], sg_dma_address(&sg[i]));

	/* A failure in the table's map_page at entry 2 unwinds entry 1 through it. */
	recorder.fail_at = recorder.map_calls + 2;
	CHECK_EQ(dma_map_sg(dev, sg, 3, DMA_BIDIRECTIONAL), 0);
	CHECK_EQ(recorder.map_calls, 7);
	CHECK_EQ(recorder.unmap_calls, 6);
	CHECK_EQ(live_maps(dev), 0);
	recorder.fail_at = 0;

	/* dma_set_mask asks the table. */
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(40)), 0);
	CHECK_EQ(recorder.mask_calls, 1);
	CHECK_EQ(recorder.mask, DMA_BIT_MASK(40));
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(20)), -EIO);
	CHECK_EQ(recorder.mask_calls, 2);
	CHECK_EQ(errk(dev, DMAMAP_ERRK_BAD_MASK), 1);

	/* Back to the platform default: the direct table. */
	set_dma_ops(dev, NULL);
	CHECK(get_dma_ops(dev) == &dmamap_direct_ops);
	h = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);
	CHECK_EQ(h, dmamap_phys_to_dma(dev, virt_to_phys(buf)));
	dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	CHECK_EQ(recorder.map_calls, 7);
	CHECK_EQ(recorder.unmap_calls, 6);
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(32)), 0);
	CHECK_EQ(recorder.mask_calls, 2);
	/* Installing the direct table by name is the same as NULL. */
	set_dma_ops(dev, &dmamap_direct_ops);
	CHECK(get_dma_ops(dev) == &dmamap_direct_ops);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

/* A table whose author forgot map_page: every single/page map would call NULL. */
static const struct dma_map_ops no_map_page_ops = {
	.name = "incomplete",
	.unmap_page = recorder_unmap_page,
};

TEST(api_set_dma_ops_refuses_a_table_without_map_page)
{
	struct dmamap_platform *p = quiet(default_board());
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	buf = dmamap_kmalloc(p, 64, DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(dev && buf);
	reps.n = 0;
	set_dma_ops(dev, &no_map_page_ops);
	/* Refused: the table in force is still the direct one, and it is said. */
	CHECK(get_dma_ops(dev) == &dmamap_direct_ops);
	CHECK_EQ(reps.n, 1);
	CHECK_EQ(reps.last.kind, DMAMAP_DBG_INVALID_ARGUMENT);
	CHECK_MSG(strstr(reps.last.text, "map_page"), "report: %s", reps.last.text);
	CHECK_MSG(strstr(reps.last.text, "incomplete"), "report: %s", reps.last.text);
	CHECK_EQ(errk(dev, DMAMAP_ERRK_BAD_ARG), 1);
	/* And the device still maps, through the direct table. */
	h = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);
	CHECK(!dma_mapping_error(dev, h));
	CHECK_EQ(h, dmamap_phys_to_dma(dev, virt_to_phys(buf)));
	dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	/* A complete table replaces it as before; an incomplete one then leaves that. */
	set_dma_ops(dev, &recorder_ops);
	set_dma_ops(dev, &no_map_page_ops);
	CHECK(get_dma_ops(dev) == &recorder_ops);
	set_dma_ops(dev, NULL);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}
