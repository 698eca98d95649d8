/* SPDX-License-Identifier: MIT */
/*
 * IOMMU-backed DMA: handles are IOVAs that the IO page
 * tables translate to the buffer; bytes arrive in each direction through
 * map_single, map_page and coherent allocations; resources are translated;
 * mmap and sg_table views of coherent memory match what the device sees.
 *
 * Every check compares bytes: what the device read at the returned IOVA,
 * what the CPU sees after unmap, or the memory view probed with
 * dmamap_sim_mem_read(). A fault must move nothing.
 */
#include "../helpers.h"

TEST(iommu_map_single_bytes_each_direction)
{
	struct dmamap_platform *p = quiet_board();
	const size_t len = 3000;
	uint8_t want[3000], dev_data[3000];
	struct device *dev;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	for (unsigned int k = 0; k < 3; k++) {
		enum dma_data_direction dir = dirs[k];
		uint8_t *buf = dmamap_kmalloc(p, len, DMAMAP_GFP_DMA_ALIGN);
		phys_addr_t phys;
		dma_addr_t h;

		REQUIRE(buf);
		phys = virt_to_phys(buf);
		fill_pattern(want, len, 10 + k);
		memcpy(buf, want, len);
		h = dma_map_single(dev, buf, len, dir);
		REQUIRE(!dma_mapping_error(dev, h));
		/* The handle is an IOVA that the IO page tables translate to the buffer. */
		CHECK_MSG(h != phys, "dir %d: handle 0x%llx is the physical address", dir,
			  (unsigned long long)h);
		CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h), phys);
		CHECK(iova_maps_to(dev, h, phys, len));
		if (dir != DMA_FROM_DEVICE)
			CHECK_MSG(dev_reads(dev, h, want, len),
				  "dir %d: device did not read the CPU's bytes at the IOVA", dir);
		if (dir != DMA_TO_DEVICE) {
			fill_pattern(dev_data, len, 50 + k);
			CHECK_EQ(dmamap_device_write(dev, h, dev_data, len), 0);
		}
		dma_unmap_single(dev, h, len, dir);
		if (dir != DMA_TO_DEVICE)
			CHECK_MSG(!memcmp(buf, dev_data, len),
				  "dir %d: CPU does not see the device's bytes after unmap", dir);
		else
			CHECK_MEM(buf, want, len);
		CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h), NO_PHYS);
		dmamap_kfree(p, buf);
	}
	CHECK(iommu_left_clean(dev));
	dmamap_platform_destroy(p);
}

TEST(iommu_map_page_bytes_each_direction)
{
	struct dmamap_platform *p = quiet_board();
	/* Not page aligned, and across a page boundary: two IO pages. */
	const size_t off = 100, len = 5000;
	uint8_t want[5000], dev_data[5000];
	struct device *dev;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	for (unsigned int k = 0; k < 3; k++) {
		enum dma_data_direction dir = dirs[k];
		struct page *pg = dmamap_alloc_pages(p, 1, 0);
		uint8_t *cpu;
		phys_addr_t phys;
		dma_addr_t h;

		REQUIRE(pg);
		cpu = (uint8_t *)page_address(pg) + off;
		phys = page_to_phys(pg) + off;
		fill_pattern(want, len, 20 + k);
		memcpy(cpu, want, len);
		h = dma_map_page(dev, pg, off, len, dir);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK(h != phys);
		CHECK_EQ(h & (PAGE_SIZE - 1), off);
		CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h), phys);
		CHECK(iova_maps_to(dev, h, phys, len));
		if (dir != DMA_FROM_DEVICE)
			CHECK_MSG(dev_reads(dev, h, want, len), "dir %d: device read", dir);
		if (dir != DMA_TO_DEVICE) {
			fill_pattern(dev_data, len, 60 + k);
			CHECK_EQ(dmamap_device_write(dev, h, dev_data, len), 0);
		}
		dma_unmap_page(dev, h, len, dir);
		if (dir != DMA_TO_DEVICE)
			CHECK_MSG(!memcmp(cpu, dev_data, len), "dir %d: CPU after unmap", dir);
		else
			CHECK_MEM(cpu, want, len);
		dmamap_free_pages(p, pg, 1);
	}
	CHECK(iommu_left_clean(dev));
	dmamap_platform_destroy(p);
}

TEST(iommu_alloc_coherent_bytes_both_ways)
{
	struct dmamap_platform *p = quiet_board();
	const size_t len = 3 * PAGE_SIZE;
	uint8_t *want = malloc(len), *back = malloc(len);
	struct device *dev;
	dma_addr_t h = 0;
	phys_addr_t phys;
	uint8_t *cpu;

	REQUIRE(p && want && back);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, len, &h, GFP_KERNEL);
	REQUIRE(cpu);
	REQUIRE(h != DMA_MAPPING_ERROR);
	phys = dmamap_iommu_iova_to_phys(dev, h);
	CHECK(phys != NO_PHYS);
	CHECK(h != phys);
	CHECK(iova_maps_to(dev, h, phys, len));
	/* Zeroed. */
	CHECK(all_bytes(cpu, len, 0));
	/* CPU -> device: the IOVA's physical pages are the allocation's. */
	fill_pattern(want, len, 3);
	memcpy(cpu, want, len);
	CHECK(mem_is_at(p, phys, want, len));
	CHECK_MSG(dev_reads(dev, h, want, len), "device does not read the CPU's bytes");
	/* device -> CPU */
	fill_pattern(want, len, 4);
	CHECK_EQ(dmamap_device_write(dev, h, want, len), 0);
	CHECK_MEM(cpu, want, len);
	dma_free_coherent(dev, len, cpu, h);
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h), NO_PHYS);
	memset(back, 0x5a, len);
	CHECK_EQ(dmamap_device_read(dev, h, back, len), -EFAULT);
	CHECK(all_bytes(back, len, 0x5a));
	CHECK(iommu_left_clean(dev));
	free(want);
	free(back);
	dmamap_platform_destroy(p);
}

TEST(iommu_map_resource_is_translated)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	h = dma_map_resource(dev, MMIO_PHYS, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK(h != MMIO_PHYS);
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h), MMIO_PHYS);
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h + PAGE_SIZE - 1), MMIO_PHYS + PAGE_SIZE - 1);
	dma_unmap_resource(dev, h, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h), NO_PHYS);
	/* An unaligned resource keeps its offset in the page. */
	h = dma_map_resource(dev, MMIO_PHYS + 0x1230, 0x100, DMA_TO_DEVICE, 0);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(h & (PAGE_SIZE - 1), 0x230);
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h), MMIO_PHYS + 0x1230);
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h + 0xff), MMIO_PHYS + 0x132f);
	dma_unmap_resource(dev, h, 0x100, DMA_TO_DEVICE, 0);
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h), NO_PHYS);
	CHECK(iommu_left_clean(dev));
	CHECK_EQ(stats_of(dev).cache_bytes_cleaned, 0);
	dmamap_platform_destroy(p);
}

TEST(iommu_mmap_and_sgtable_of_coherent)
{
	struct dmamap_platform *p = quiet_board();
	/* Two host pages: a user mapping is made of whole ones (one simulated page on a 4K host). */
	const size_t pg = host_page(), len = 2 * pg;
	struct vm_area_struct vma = { 0, len, 0, DMAMAP_PROT_READ | DMAMAP_PROT_WRITE };
	struct vm_area_struct vma1 = { 0, pg, pg / PAGE_SIZE, DMAMAP_PROT_READ };
	uint8_t *want = malloc(len), *um;
	struct sg_table sgt = { 0 };
	struct device *dev;
	phys_addr_t phys;
	dma_addr_t h = 0;
	uint8_t *cpu;
	int ret;

	REQUIRE(p && want);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, len, &h, GFP_KERNEL);
	REQUIRE(cpu);
	phys = dmamap_iommu_iova_to_phys(dev, h);
	REQUIRE(phys != NO_PHYS);

	ret = dma_mmap_coherent(dev, &vma, cpu, h, len);
	CHECK_EQ(ret, 0);
	if (!ret) {
		um = (uint8_t *)vma.vm_start;
		CHECK_EQ(vma.vm_end - vma.vm_start, len);
		/* Written through the user mapping, seen by the device at the IOVA. */
		fill_pattern(want, len, 19);
		memcpy(um, want, len);
		CHECK_MSG(dev_reads(dev, h, want, len),
			  "device does not see bytes written through dma_mmap_coherent");
		CHECK_MEM(cpu, want, len);
		/* Written by the device, seen through the user mapping. */
		fill_pattern(want, len, 20);
		CHECK_EQ(dmamap_device_write(dev, h, want, len), 0);
		CHECK_MEM(um, want, len);
		CHECK_EQ(dmamap_munmap(&vma), 0);
	}
	/* vm_pgoff picks the second page. */
	ret = dma_mmap_coherent(dev, &vma1, cpu, h, len);
	CHECK_EQ(ret, 0);
	if (!ret) {
		CHECK_MEM((uint8_t *)vma1.vm_start, want + pg, pg);
		CHECK_EQ(dmamap_munmap(&vma1), 0);
	}

	ret = dma_get_sgtable_attrs(dev, &sgt, cpu, h, len, 0);
	CHECK_EQ(ret, 0);
	if (!ret) {
		size_t covered = 0;
		struct scatterlist *s;
		int i;

		CHECK(sgt.orig_nents >= 1);
		/* The table describes the physical pages behind the IOVA range. */
		for_each_sgtable_sg(&sgt, s, i) {
			phys_addr_t sp = page_to_phys(sg_page(s)) + s->offset;

			CHECK_EQ(sp, dmamap_iommu_iova_to_phys(dev, h + covered));
			covered += s->length;
		}
		CHECK_EQ(covered, len);
		sg_free_table(&sgt);
	}
	dma_free_coherent(dev, len, cpu, h);
	CHECK(iommu_left_clean(dev));
	free(want);
	dmamap_platform_destroy(p);
}

/* A buffer that starts near a page's end needs both pages in the IO page tables. */
TEST(iommu_buffer_across_a_page_boundary)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = p ? dmamap_device_lookup(p, IOMMU_DEV) : NULL;
	uint8_t want[200], seen[200];
	struct page *pg;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(dev);
	pg = dmamap_alloc_pages(p, 1, GFP_KERNEL);
	REQUIRE(pg);
	buf = (uint8_t *)page_address(pg) + PAGE_SIZE - 100;
	fill_pattern(want, sizeof(want), 31);
	memcpy(buf, want, sizeof(want));
	h = dma_map_single(dev, buf, sizeof(want), DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(dmamap_device_read(dev, h, seen, sizeof(seen)), 0);
	CHECK_MEM(seen, want, sizeof(want));
	dma_unmap_single(dev, h, sizeof(want), DMA_TO_DEVICE);
	fill_pattern(want, sizeof(want), 32);
	h = dma_map_single(dev, buf, sizeof(want), DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(dmamap_device_write(dev, h, want, sizeof(want)), 0);
	dma_unmap_single(dev, h, sizeof(want), DMA_FROM_DEVICE);
	CHECK_MEM(buf, want, sizeof(want));
	dmamap_free_pages(p, pg, 1);
	dmamap_platform_destroy(p);
}
