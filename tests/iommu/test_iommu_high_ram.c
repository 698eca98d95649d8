/* SPDX-License-Identifier: MIT */
/*
 * RAM above 4 GiB behind an IOMMU (the arm64-server board): a 32-bit
 * device reaches it through IOVAs below 4 GiB, and the bytes arrive. On a
 * 32-bit host this is where a physical address narrowed to a pointer-sized
 * integer would show.
 */
#include "../helpers.h"

TEST(iommu_ram_above_4g_bytes_each_direction)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	struct device *dev;
	const size_t len = 6000;
	uint8_t want[6000], dev_data[6000];
	unsigned int high = 0;

	p = quiet(dmamap_platform_builtin("arm64-server", &err));
	SKIP_WITHOUT_FDT(err);
	REQUIRE_MSG(p, "%s", err.msg);
	dev = dmamap_device_lookup(p, "pcie-dma@40000000");
	REQUIRE(dev);
	for (unsigned int k = 0; k < 3; k++) {
		enum dma_data_direction dir = dirs[k];
		/* Pages from the top bank: the low one is ZONE_DMA and last to be used. */
		struct page *pg = dmamap_alloc_pages(p, 1, 0);
		uint8_t *buf;
		dma_addr_t h;

		REQUIRE(pg);
		buf = page_address(pg);
		if (page_to_phys(pg) >= (1ULL << 32))
			high++;
		fill_pattern(want, len, 20 + k);
		memcpy(buf, want, len);
		h = dma_map_single(dev, buf, len, dir);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK(h + len - 1 <= 0xffffffffULL);
		CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h), page_to_phys(pg));
		if (dir != DMA_FROM_DEVICE)
			CHECK_MSG(dev_reads(dev, h, want, len),
				  "dir %d: device did not read the CPU's bytes above 4 GiB", dir);
		if (dir != DMA_TO_DEVICE) {
			fill_pattern(dev_data, len, 60 + k);
			CHECK_EQ(dmamap_device_write(dev, h, dev_data, len), 0);
		}
		dma_unmap_single(dev, h, len, dir);
		CHECK_MEM(buf, dir != DMA_TO_DEVICE ? dev_data : want, len);
		dmamap_free_pages(p, pg, 1);
	}
	CHECK_MSG(high == 3, "%u of 3 buffers above 4 GiB: the test did not reach high RAM", high);
	dmamap_platform_destroy(p);
}
