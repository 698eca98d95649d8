/* SPDX-License-Identifier: MIT */
/*
 * Domains: devices of one IOMMU group share one, group 0 gets its own; a
 * host device behind an IOMMU uses IOVAs, not its identity addresses; a new
 * domain is never served by an old one's cached page table; the IOMMU calls
 * on a device that is not behind one.
 *
 * Every check compares bytes: what the device read at the returned IOVA,
 * what the CPU sees after unmap, or the memory view probed with
 * dmamap_sim_mem_read(). A fault must move nothing.
 */
#include "../helpers.h"

TEST(iommu_group_shares_domain_group0_isolated)
{
	struct dmamap_platform *p = quiet_board();
	struct device *a, *b, *c, *d, *e;
	uint8_t want[300], other[300], rd[300];
	struct page *pg;
	phys_addr_t phys;
	dma_addr_t h;

	REQUIRE(p);
	a = iommu_device(p, "grp-a", "smmu1", 7, 0, false);
	b = iommu_device(p, "grp-b", "smmu1", 7, 0, false);
	c = iommu_device(p, "solo-c", "smmu1", 0, 0, false);
	d = iommu_device(p, "solo-d", "smmu1", 0, 0, false);
	e = iommu_device(p, "other-e", "smmu2", 7, 0, false); /* same group number, other IOMMU */
	REQUIRE(a && b && c && d && e);
	pg = dmamap_alloc_pages(p, 0, 0);
	REQUIRE(pg);
	phys = page_to_phys(pg);
	fill_pattern(want, sizeof(want), 21);
	fill_pattern(other, sizeof(other), 22);

	/* One group: a mapping made through a is reachable through b. */
	memcpy(page_address(pg), want, sizeof(want));
	h = dma_map_page(a, pg, 0, sizeof(want), DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(a, h));
	CHECK_EQ(dmamap_iommu_iova_to_phys(b, h), phys);
	CHECK_MSG(dev_reads(b, h, want, sizeof(want)),
		  "a device of the same group does not reach the mapping");
	CHECK_EQ(dmamap_device_write(b, h, other, sizeof(other)), 0);
	CHECK(dev_reads(a, h, other, sizeof(other)));
	/* Other domains do not see it. */
	memset(rd, 0x44, sizeof(rd));
	CHECK_EQ(dmamap_device_read(c, h, rd, sizeof(rd)), -EFAULT);
	CHECK_EQ(dmamap_device_read(e, h, rd, sizeof(rd)), -EFAULT);
	CHECK(all_bytes(rd, sizeof(rd), 0x44));
	CHECK_EQ(dmamap_iommu_iova_to_phys(c, h), NO_PHYS);
	CHECK_EQ(dmamap_iommu_iova_to_phys(e, h), NO_PHYS);
	dma_unmap_page(a, h, sizeof(want), DMA_BIDIRECTIONAL);
	CHECK_MEM(page_address(pg), other, sizeof(other));
	CHECK_EQ(dmamap_iommu_iova_to_phys(b, h), NO_PHYS);
	CHECK_EQ(dmamap_device_read(b, h, rd, sizeof(rd)), -EFAULT);

	/* Group 0: each device is alone, even on the same IOMMU. */
	memcpy(page_address(pg), want, sizeof(want));
	h = dma_map_page(c, pg, 0, sizeof(want), DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(c, h));
	CHECK(dev_reads(c, h, want, sizeof(want)));
	memset(rd, 0x55, sizeof(rd));
	CHECK_MSG(dmamap_device_read(d, h, rd, sizeof(rd)) == -EFAULT,
		  "a group-0 device reaches another device's mapping");
	CHECK(all_bytes(rd, sizeof(rd), 0x55));
	CHECK_EQ(dmamap_iommu_iova_to_phys(d, h), NO_PHYS);
	CHECK_EQ(dmamap_device_write(d, h, other, sizeof(other)), -EFAULT);
	CHECK(dev_reads(c, h, want, sizeof(want)));
	dma_unmap_page(c, h, sizeof(want), DMA_BIDIRECTIONAL);
	CHECK_MEM(page_address(pg), want, sizeof(want));

	/* The shared domain outlives one of its devices. */
	dmamap_device_destroy(a);
	memcpy(page_address(pg), want, sizeof(want));
	h = dma_map_page(b, pg, 0, sizeof(want), DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(b, h));
	CHECK(dev_reads(b, h, want, sizeof(want)));
	dma_unmap_page(b, h, sizeof(want), DMA_TO_DEVICE);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

TEST(iommu_host_device_uses_iovas)
{
	struct dmamap_platform *p = quiet(host_platform());
	const size_t len = 6000, off = 123;
	uint8_t *buf = aligned_alloc(PAGE_SIZE, 2 * PAGE_SIZE);
	uint8_t want[6000], rd[6000];
	struct device *dev;
	dma_addr_t h = 0;
	uint8_t *coh;

	REQUIRE(p && buf);
	dev = iommu_device(p, "host-iommu", "iommu0", 0, 0, true);
	REQUIRE(dev);
	CHECK_EQ(dmamap_iommu_stats(dev, &(struct dmamap_iommu_stats){ 0 }), 0);
	/* CPU -> device */
	fill_pattern(want, len, 23);
	memcpy(buf + off, want, len);
	h = dma_map_single(dev, buf + off, len, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK(h != (dma_addr_t)(uintptr_t)(buf + off));
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h), (uintptr_t)(buf + off));
	CHECK(iova_maps_to(dev, h, (uintptr_t)(buf + off), len));
	CHECK(dev_reads(dev, h, want, len));
	/* The identity address is not mapped for this device. */
	memset(rd, 0x66, len);
	CHECK_EQ(dmamap_device_read(dev, (uintptr_t)(buf + off), rd, len), -EFAULT);
	CHECK(all_bytes(rd, len, 0x66));
	/* Read-only mapping: a device write faults and changes nothing. */
	CHECK_EQ(dmamap_device_write(dev, h, rd, len), -EFAULT);
	CHECK_MEM(buf + off, want, len);
	dma_unmap_single(dev, h, len, DMA_TO_DEVICE);
	/* device -> CPU */
	h = dma_map_single(dev, buf + off, len, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	fill_pattern(want, len, 24);
	CHECK_EQ(dmamap_device_write(dev, h, want, len), 0);
	dma_unmap_single(dev, h, len, DMA_FROM_DEVICE);
	CHECK_MEM(buf + off, want, len);
	CHECK_EQ(dmamap_device_read(dev, h, rd, 16), -EFAULT);
	/* Coherent memory through the IOMMU. */
	coh = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h, GFP_KERNEL);
	CHECK(coh != NULL);
	if (coh) {
		CHECK(h != (dma_addr_t)(uintptr_t)coh);
		/* Scattered pages, remapped contiguously: the IOVA reaches what the CPU sees. */
		CHECK(dmamap_iommu_iova_to_phys(dev, h) != (phys_addr_t)-1);
		fill_pattern(want, len, 25); /* len < 2 pages */
		CHECK_EQ(dmamap_device_write(dev, h, want, len), 0);
		CHECK_MEM(coh, want, len);
		dma_free_coherent(dev, 2 * PAGE_SIZE, coh, h);
	}
	CHECK(iommu_left_clean(dev));
	free(buf);
	dmamap_platform_destroy(p);
}

/*
 * Map and unmap remember the last leaf table per thread. A domain torn down
 * and another made in its place (same addresses, likely) must not reach the
 * old tables: the second device's mapping has to be in its own page table.
 */
TEST(iommu_new_domain_not_served_by_old_leaf_table)
{
	uint8_t *buf = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	uint8_t want[256];
	dma_addr_t first = 0;

	REQUIRE(buf);
	for (int round = 0; round < 3; round++) {
		struct dmamap_platform *p = quiet(host_platform());
		struct device *dev = p ? iommu_device(p, "again", "iommu0", 0, 0, true) : NULL;
		dma_addr_t h;

		REQUIRE(dev);
		fill_pattern(want, sizeof(want), 40 + round);
		memcpy(buf, want, sizeof(want));
		h = dma_map_single(dev, buf, PAGE_SIZE, DMA_TO_DEVICE);
		REQUIRE(!dma_mapping_error(dev, h));
		if (!round)
			first = h;
		/* Same IOVA each time: the cached leaf would match if it were not scoped. */
		CHECK_EQ(h, first);
		CHECK_EQ(istats(dev).pages_mapped, 1);
		CHECK(dev_reads(dev, h, want, sizeof(want)));
		dma_unmap_single(dev, h, PAGE_SIZE, DMA_TO_DEVICE);
		CHECK_EQ(istats(dev).pages_mapped, 0);
		dmamap_platform_destroy(p);
	}
	free(buf);
}

TEST(iommu_api_not_behind_iommu)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_iommu_stats s;
	struct device *dev;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-coh");
	REQUIRE(dev);
	CHECK_EQ(dmamap_iommu_stats(dev, &s), -ENODEV);
	CHECK_EQ(dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_LAZY), -ENODEV);
	CHECK_EQ(dmamap_iommu_flush(dev), -ENODEV);
	CHECK_EQ(dmamap_iommu_set_fault_handler(dev, fault_fn, NULL), -ENODEV);
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, 0x100000), NO_PHYS);
	CHECK_EQ(dmamap_iommu_stats(NULL, &s), -EINVAL);
	CHECK_EQ(dmamap_iommu_stats(dmamap_device_lookup(p, IOMMU_DEV), NULL), -EINVAL);
	CHECK_EQ(dmamap_iommu_flush(NULL), -EINVAL);
	CHECK_EQ(dmamap_iommu_set_flush(NULL, DMAMAP_IOMMU_LAZY), -EINVAL);
	CHECK_EQ(dmamap_iommu_iova_to_phys(NULL, 0x100000), NO_PHYS);
	dmamap_platform_destroy(p);
}
