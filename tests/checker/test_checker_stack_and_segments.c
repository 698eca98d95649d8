/* SPDX-License-Identifier: MIT */
/*
 * The checker on what is mapped: the stack (on the host, as dma-debug's
 * check_for_stack; on a board it is not RAM at all), sg entries longer than
 * the device's max segment size or across its segment boundary.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked(), checked_scene()) and calls dma_mapping_error() on
 * every handle it maps, else it would also get MAP_ERR_NOT_CHECKED;
 * device-writable mappings on non-coherent devices use line-aligned buffers,
 * else MAP_UNALIGNED; except where that is the mistake under test.
 */
#include "../helpers.h"

TEST(checker_map_stack)
{
	struct dmamap_platform *p = host_board();
	volatile uint8_t stack_buf[256];
	uint8_t *heap;
	struct device *dev;
	dma_addr_t h;

	REQUIRE(p);
	dev = host_device(p, "h0", NULL);
	heap = malloc(256);
	REQUIRE(dev && heap);
	memset((void *)stack_buf, 1, sizeof(stack_buf));
	/* The heap is fine. */
	h = map_ok(dev, heap, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* The stack of this thread is not (as dma-debug's check_for_stack). */
	h = dma_map_single(dev, (void *)stack_buf, sizeof(stack_buf), DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_STACK);
	CHECK(!strcmp(rec.r[0].device, "h0"));
	/* dma-debug warns; the mapping itself is made. */
	CHECK(!dma_mapping_error(dev, h));
	if (h != DMA_MAPPING_ERROR)
		dma_unmap_single(dev, h, sizeof(stack_buf), DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_STACK);
	free(heap);
	DESTROY_CLEAN(p);
}

/* Constants and code of this test binary: read-only segments of the image. */
void checker_map_rodata_and_text_fn_marker(void);
void checker_map_rodata_and_text_fn_marker(void)
{
}

static const uint8_t table_in_rodata[512] = { 1, 2, 3 };
static uint8_t table_in_data[512] = { 1, 2, 3 };

/* The image's read-only segments are no DMA buffer (as dma-debug's check_for_illegal_area). */
TEST(checker_map_rodata_and_text)
{
	struct dmamap_platform *p = host_board();
	struct scatterlist sg[1];
	struct device *dev;
	void *text = (void *)(uintptr_t)&checker_map_rodata_and_text_fn_marker;
	dma_addr_t h;

	REQUIRE(p);
	dev = host_device(p, "h0", NULL);
	REQUIRE(dev);
	/* Writable data is fine (a static DMA buffer is legal, if unusual). */
	h = map_ok(dev, table_in_data, sizeof(table_in_data), DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, h, sizeof(table_in_data), DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* Read-only data: reported, and (as dma-debug) mapped anyway. */
	h = dma_map_single(dev, (void *)table_in_rodata, sizeof(table_in_rodata), DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_RODATA);
	CHECK(!dma_mapping_error(dev, h));
	dma_unmap_single(dev, h, sizeof(table_in_rodata), DMA_TO_DEVICE);
	/* Code, through a page mapping. */
	rec_reset();
	h = dma_map_page(dev, virt_to_page(text), offset_in_page(text), 64, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_RODATA);
	CHECK(!dma_mapping_error(dev, h));
	dma_unmap_page(dev, h, 64, DMA_TO_DEVICE);
	/* And an sg entry. */
	rec_reset();
	sg_init_one(sg, table_in_rodata, 128);
	CHECK_EQ(dma_map_sg(dev, sg, 1, DMA_TO_DEVICE), 1);
	EXPECT_KINDS(DMAMAP_DBG_MAP_RODATA);
	dma_unmap_sg(dev, sg, 1, DMA_TO_DEVICE);
	/* Heap after all that: the thread's cached gap still says nothing. */
	rec_reset();
	{
		uint8_t *heap = malloc(256);

		REQUIRE(heap);
		h = map_ok(dev, heap, 256, DMA_TO_DEVICE);
		dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
		free(heap);
	}
	EXPECT_NO_REPORTS();
	dmamap_platform_destroy(p);
}

TEST(checker_map_stack_on_sim_is_not_linear)
{
	uint8_t stack_buf[256];
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 0));
	memset(stack_buf, 1, sizeof(stack_buf));
	/* On a board, the stack is not RAM of the board: an API error only. */
	CHECK_EQ(dma_map_single(s.dev, stack_buf, sizeof(stack_buf), DMA_TO_DEVICE),
		 DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_NOT_LINEAR);
	scene_end_clean(&s);
}

/*
 * dma-debug warns about the list and maps it anyway: mapping @nents
 * entries @dir reports @k once, naming the device (@name), and maps them
 * all; the unmap reports nothing more.
 */
static void sg_warned_but_mapped(struct device *dev, const char *name,
				 struct scatterlist *sg, int nents,
				 enum dma_data_direction dir, enum dmamap_dbg_kind k)
{
	int n;

	rec_reset();
	n = dma_map_sg(dev, sg, nents, dir);
	EXPECT_KINDS(k);
	CHECK(!strcmp(rec.r[0].device, name));
	CHECK_EQ(n, nents);
	if (n > 0)
		dma_unmap_sg(dev, sg, nents, dir);
	EXPECT_KINDS(k);
}

TEST(checker_sg_segment_too_long)
{
	struct dmamap_platform *p = host_board();
	struct dmamap_device_desc small = { .name = "h-seg4k", .max_segment_size = 4096 };
	struct device *def, *seg;
	struct scatterlist sg[2];
	uint8_t *buf;
	int n;

	REQUIRE(p);
	def = host_device(p, "h-default", NULL);
	seg = new_device(p, &small);
	buf = aligned_alloc(4096, 256 * 1024);
	REQUIRE(def && seg && buf);

	/* Default limit, 64 KiB: an entry of exactly 64 KiB is fine... */
	sg_init_one(sg, buf, 65536);
	n = dma_map_sg(def, sg, 1, DMA_TO_DEVICE);
	REQUIRE(n == 1);
	dma_unmap_sg(def, sg, 1, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* ...one of 64 KiB + 1 is not (dma-debug warns, the map is made). */
	sg_init_one(sg, buf, 65537);
	sg_warned_but_mapped(def, "h-default", sg, 1, DMA_TO_DEVICE,
			     DMAMAP_DBG_SG_SEGMENT_TOO_LONG);

	/* The device's own limit: the second entry is 4097 bytes. */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 4096);
	sg_set_buf(&sg[1], buf + 8192, 4097);
	sg_warned_but_mapped(seg, "h-seg4k", sg, 2, DMA_BIDIRECTIONAL,
			     DMAMAP_DBG_SG_SEGMENT_TOO_LONG);
	free(buf);
	DESTROY_CLEAN(p);
}

TEST(checker_sg_segment_boundary)
{
	struct dmamap_platform *p = host_board();
	struct dmamap_device_desc d = { .name = "h-bound", .segment_boundary_mask = 0xffff };
	struct scatterlist sg[2];
	struct device *dev;
	uint8_t *buf;
	int n;

	REQUIRE(p);
	dev = new_device(p, &d);
	buf = aligned_alloc(65536, 4 * 65536);
	REQUIRE(dev && buf);
	/* Host device addresses are the pointers: 64 KiB-aligned buf is a boundary. */
	REQUIRE(((uintptr_t)buf & 0xffff) == 0);

	/* Up to the boundary, and from it: fine. */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf + 65536 - 512, 512);
	sg_set_buf(&sg[1], buf + 65536 + 1024, 512);
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	REQUIRE(n == 2);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* Across it. */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 512);
	sg_set_buf(&sg[1], buf + 2 * 65536 - 256, 512);
	sg_warned_but_mapped(dev, "h-bound", sg, 2, DMA_TO_DEVICE,
			     DMAMAP_DBG_SG_SEGMENT_BOUNDARY);
	free(buf);
	DESTROY_CLEAN(p);
}
