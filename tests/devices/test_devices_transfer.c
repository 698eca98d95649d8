/* SPDX-License-Identifier: MIT */
/*
 * dmamap_device_transfer(): a bus master's memory-to-memory copy, as the
 * memcpy engine makes it: the bytes land, the caches see what they would
 * see of a read then a write, and faults and reports are those of the two.
 */
#include "../helpers.h"

static void roundtrip(const char *name)
{
	struct dmamap_platform *p = checked(quiet_board());
	struct device *dev;
	uint8_t *src, *dst, want[5000];
	dma_addr_t s, d;

	REQUIRE(p && (dev = lookup(p, name)));
	src = dmamap_kmalloc(p, sizeof(want), DMAMAP_GFP_DMA_ALIGN);
	dst = dmamap_kmalloc(p, sizeof(want), DMAMAP_GFP_DMA_ALIGN | __GFP_ZERO);
	REQUIRE(src && dst);
	pattern(want, sizeof(want), 11);
	memcpy(src, want, sizeof(want));
	s = dma_map_single(dev, src, sizeof(want), DMA_TO_DEVICE);
	d = dma_map_single(dev, dst, sizeof(want), DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, s) && !dma_mapping_error(dev, d));
	CHECK_EQ(dmamap_device_transfer(dev, d, s, sizeof(want)), 0);
	dma_unmap_single(dev, d, sizeof(want), DMA_FROM_DEVICE);
	dma_unmap_single(dev, s, sizeof(want), DMA_TO_DEVICE);
	CHECK_MSG(!memcmp(dst, want, sizeof(want)), "%s: %zu bytes differ", name,
		  ndiff(dst, want, sizeof(want)));
	CHECK_EQ(stats_of(dev).dev_bytes_read, sizeof(want));
	CHECK_EQ(stats_of(dev).dev_bytes_written, sizeof(want));
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, src);
	dmamap_kfree(p, dst);
	dmamap_platform_destroy(p);
}

TEST(transfer_moves_the_bytes_on_every_kind_of_device)
{
	roundtrip(COH);
	roundtrip(NC);
	roundtrip(D24);
	roundtrip(IXP);
	roundtrip(IOMMU_DEV);
}

/* A coherent device's write is in the CPU's cache at once: no unmap needed to see it. */
TEST(transfer_by_a_coherent_device_is_snooped)
{
	struct dmamap_platform *p = checked(quiet_board());
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p && (dev = lookup(p, COH)));
	buf = dmamap_kmalloc(p, 8192, DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	memset(buf, 0x11, 4096);
	memset(buf + 4096, 0, 4096);
	h = dma_map_single(dev, buf, 8192, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(dmamap_device_transfer(dev, h + 4096, h, 4096), 0);
	CHECK(all_bytes(buf + 4096, 4096, 0x11));
	dma_unmap_single(dev, h, 8192, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(transfer_faults_and_reports_as_a_read_and_a_write)
{
	struct dmamap_platform *p = checked(quiet_board());
	struct device *dev, *io;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p && (dev = lookup(p, NC)) && (io = lookup(p, IOMMU_DEV)));
	buf = dmamap_kmalloc(p, 8192, DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	CHECK_EQ(dmamap_device_transfer(NULL, 0, 0, 1), -EINVAL);
	CHECK_EQ(dmamap_device_transfer(dev, 0, 0, 0), -EINVAL);
	h = dma_map_single(dev, buf, 8192, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	/* Writing what was mapped for the device to read. */
	EXPECT_ONLY(DMAMAP_DBG_DEVICE_WRITE_READONLY,
		    CHECK_EQ(dmamap_device_transfer(dev, h + 4096, h, 64), 0));
	/* Outside the window: the read faults, nothing moves. */
	rec_reset();
	CHECK_EQ(dmamap_device_transfer(dev, h, 0x10000000, 64), -EFAULT);
	CHECK(rec.n > 0 && rec.r[0].kind == DMAMAP_DBG_DEVICE_FAULT);
	dma_unmap_single(dev, h, 8192, DMA_TO_DEVICE);
	/* Behind the IOMMU, an IOVA nobody mapped. */
	rec_reset();
	CHECK_EQ(dmamap_device_transfer(io, 0x7000000, 0x7001000, 64), -EFAULT);
	CHECK_EQ(stats_of(io).faults, 1);
	stop_checking(p);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}
