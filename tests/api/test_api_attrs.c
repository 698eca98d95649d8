/* SPDX-License-Identifier: MIT */
/*
 * The _attrs entry points called directly: DMA_ATTR_SKIP_CPU_SYNC really
 * skips the cache maintenance on a non-coherent device (the device reads
 * stale bytes, the CPU keeps stale bytes), and without it the same calls
 * deliver the right bytes. Plus valid_dma_direction's kernel values.
 */
#include <dmamap/dmamap.h>
#include "../helpers.h"

static void fill(uint8_t *b, size_t n, uint8_t v)
{
	memset(b, v, n);
}

TEST(attrs_page_attrs_skip_cpu_sync)
{
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_builtin("default", &err);
	struct device *nc;
	uint8_t *buf, got[256], put[256];
	dma_addr_t h;

	REQUIRE(p);
	nc = dmamap_device_lookup(p, "dma-nc");
	buf = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA_ALIGN | DMAMAP_GFP_DMA);
	REQUIRE(nc && buf);

	/* Without the attribute: the map cleans, the device sees 0x11. */
	fill(buf, 256, 0x11);
	h = dma_map_page_attrs(nc, virt_to_page(buf), offset_in_page(buf), 256,
			       DMA_BIDIRECTIONAL, 0);
	REQUIRE(!dma_mapping_error(nc, h));
	CHECK_EQ(dmamap_device_read(nc, h, got, 256), 0);
	CHECK(got[0] == 0x11 && got[255] == 0x11);
	fill(put, 256, 0x22);
	CHECK_EQ(dmamap_device_write(nc, h, put, 256), 0);
	dma_unmap_page_attrs(nc, h, 256, DMA_BIDIRECTIONAL, 0);
	CHECK(buf[0] == 0x22 && buf[255] == 0x22);

	/* With it: no clean at map (device reads 0x22 still), no invalidate at unmap. */
	fill(buf, 256, 0x33);
	h = dma_map_page_attrs(nc, virt_to_page(buf), offset_in_page(buf), 256,
			       DMA_BIDIRECTIONAL, DMA_ATTR_SKIP_CPU_SYNC);
	REQUIRE(!dma_mapping_error(nc, h));
	CHECK_EQ(dmamap_device_read(nc, h, got, 256), 0);
	CHECK(got[0] == 0x22 && got[255] == 0x22);
	fill(put, 256, 0x44);
	CHECK_EQ(dmamap_device_write(nc, h, put, 256), 0);
	dma_unmap_page_attrs(nc, h, 256, DMA_BIDIRECTIONAL, DMA_ATTR_SKIP_CPU_SYNC);
	CHECK(buf[0] == 0x33 && buf[255] == 0x33);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(attrs_sg_attrs_skip_cpu_sync)
{
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_builtin("default", &err);
	struct scatterlist sg[2];
	struct device *nc;
	uint8_t *a, *b, got[128];

	REQUIRE(p);
	nc = dmamap_device_lookup(p, "dma-nc");
	a = dmamap_kmalloc(p, 128, DMAMAP_GFP_DMA_ALIGN | DMAMAP_GFP_DMA);
	b = dmamap_kmalloc(p, 128, DMAMAP_GFP_DMA_ALIGN | DMAMAP_GFP_DMA);
	REQUIRE(nc && a && b);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], a, 128);
	sg_set_buf(&sg[1], b, 128);
	fill(a, 128, 0x55);
	fill(b, 128, 0x66);
	CHECK_EQ(dma_map_sg_attrs(nc, sg, 2, DMA_TO_DEVICE, 0), 2);
	CHECK_EQ(dmamap_device_read(nc, sg_dma_address(&sg[1]), got, 128), 0);
	CHECK(got[0] == 0x66);
	dma_unmap_sg_attrs(nc, sg, 2, DMA_TO_DEVICE, 0);
	fill(b, 128, 0x77);
	CHECK_EQ(dma_map_sg_attrs(nc, sg, 2, DMA_TO_DEVICE, DMA_ATTR_SKIP_CPU_SYNC), 2);
	CHECK_EQ(dmamap_device_read(nc, sg_dma_address(&sg[1]), got, 128), 0);
	CHECK(got[0] == 0x66); /* not cleaned: the device still sees the old bytes */
	dma_unmap_sg_attrs(nc, sg, 2, DMA_TO_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	CHECK_EQ(dma_map_sg_attrs(nc, sg, 0, DMA_TO_DEVICE, 0), 0);
	dmamap_kfree(p, a);
	dmamap_kfree(p, b);
	dmamap_platform_destroy(p);
}

TEST(attrs_valid_dma_direction_kernel_values)
{
	CHECK_EQ(DMA_BIDIRECTIONAL, 0);
	CHECK_EQ(DMA_TO_DEVICE, 1);
	CHECK_EQ(DMA_FROM_DEVICE, 2);
	CHECK_EQ(DMA_NONE, 3);
	CHECK(valid_dma_direction(DMA_BIDIRECTIONAL));
	CHECK(valid_dma_direction(DMA_TO_DEVICE));
	CHECK(valid_dma_direction(DMA_FROM_DEVICE));
	CHECK(!valid_dma_direction(DMA_NONE));
	CHECK(!valid_dma_direction(-1));
	CHECK(!valid_dma_direction(4));
	CHECK_EQ(DMA_BIT_MASK(64), ~0ULL);
	CHECK_EQ(DMA_BIT_MASK(32), 0xffffffffULL);
	CHECK_EQ(DMA_MAPPING_ERROR, ~(dma_addr_t)0);
	CHECK_EQ(sizeof(dma_addr_t), 8);
	CHECK_EQ(sizeof(phys_addr_t), 8);
}
