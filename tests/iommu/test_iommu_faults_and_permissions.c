/* SPDX-License-Identifier: MIT */
/*
 * A device access with no translation, or without the permission the
 * mapping's direction gives, faults: the fault handler hears of it and no
 * byte moves, not even of the part that was mapped.
 *
 * Every check compares bytes: what the device read at the returned IOVA,
 * what the CPU sees after unmap, or the memory view probed with
 * dmamap_sim_mem_read(). A fault must move nothing.
 */
#include "../helpers.h"

/*
 * The default board (quiet, in *@p) and its device behind smmu0
 * (returned), whose faults are told to @fl.
 */
static struct device *faulting_dev(struct dmamap_platform **p, struct fault_log *fl)
{
	struct device *dev;

	*p = quiet_board();
	dev = *p ? lookup(*p, IOMMU_DEV) : NULL;
	if (dev)
		CHECK_EQ(dmamap_iommu_set_fault_handler(dev, fault_fn, fl), 0);
	return dev;
}

TEST(iommu_unmapped_iova_faults_moves_nothing)
{
	struct fault_log fl = { 0 };
	struct dmamap_iommu_stats s0, s1;
	struct dmamap_fault f;
	uint8_t want[256], rd[256];
	struct dmamap_platform *p;
	struct device *dev = faulting_dev(&p, &fl);
	struct page *pg;
	phys_addr_t phys;
	unsigned long rep0;
	uint64_t faults0;

	REQUIRE(dev);
	pg = dmamap_alloc_pages(p, 0, 0);
	REQUIRE(pg);
	phys = page_to_phys(pg);
	REQUIRE(phys < (1ULL << 32)); /* an address the device's mask reaches */
	fill_pattern(want, sizeof(want), 1);
	memcpy(page_address(pg), want, sizeof(want));
	/* Put the bytes in memory so a direct access would find them there. */
	dma_unmap_single(dev, dma_map_single(dev, page_address(pg), sizeof(want),
					     DMA_TO_DEVICE),
			 sizeof(want), DMA_TO_DEVICE);
	REQUIRE(mem_is_at(p, phys, want, sizeof(want)));
	REQUIRE(dmamap_iommu_iova_to_phys(dev, phys) == NO_PHYS);

	/* A read at the buffer's physical address: nothing is mapped there. */
	s0 = istats(dev);
	faults0 = stats_of(dev).faults;
	rep0 = dmamap_report_count(p, DMAMAP_DBG_DEVICE_FAULT);
	memset(rd, 0xa5, sizeof(rd));
	CHECK_EQ(dmamap_device_read(dev, phys, rd, sizeof(rd)), -EFAULT);
	CHECK_MSG(all_bytes(rd, sizeof(rd), 0xa5), "a faulting read transferred bytes");
	s1 = istats(dev);
	CHECK_EQ(s1.translation_faults, s0.translation_faults + 1);
	CHECK_EQ(s1.permission_faults, s0.permission_faults);
	CHECK_EQ(stats_of(dev).faults, faults0 + 1);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_DEVICE_FAULT), rep0 + 1);
	REQUIRE(dmamap_device_last_fault(dev, &f) == 0);
	CHECK_EQ(f.addr, phys);
	CHECK(!f.write);
	CHECK_MSG(f.reason && strstr(f.reason, "IOMMU translation fault"),
		  "reason: %s", f.reason ? f.reason : "(null)");
	CHECK_EQ(fl.calls, 1);
	CHECK_EQ(fl.iova, phys);
	CHECK(!fl.write);
	CHECK(fl.dev == dev);
	CHECK_MSG(strstr(fl.reason, "IOMMU translation fault"), "handler reason: %s",
		  fl.reason);

	/* A write there changes nothing in memory. */
	memset(rd, 0x3c, sizeof(rd));
	CHECK_EQ(dmamap_device_write(dev, phys, rd, sizeof(rd)), -EFAULT);
	CHECK(mem_is_at(p, phys, want, sizeof(want)));
	CHECK_EQ(istats(dev).translation_faults, s0.translation_faults + 2);
	CHECK_EQ(fl.calls, 2);
	CHECK(fl.write);
	REQUIRE(dmamap_device_last_fault(dev, &f) == 0);
	CHECK(f.write);
	CHECK_EQ(f.addr, phys);
	CHECK_MEM(page_address(pg), want, sizeof(want));

	/* The handler can be removed. */
	CHECK_EQ(dmamap_iommu_set_fault_handler(dev, NULL, NULL), 0);
	CHECK_EQ(dmamap_device_read(dev, phys, rd, 8), -EFAULT);
	CHECK_EQ(fl.calls, 2);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

/* An access half inside a mapping, half outside: nothing at all moves. */
TEST(iommu_partial_fault_moves_nothing)
{
	struct fault_log fl = { 0 };
	uint8_t *want = malloc(2 * PAGE_SIZE), *rd = malloc(2 * PAGE_SIZE);
	struct dmamap_fault f;
	struct dmamap_platform *p;
	struct device *dev = faulting_dev(&p, &fl);
	struct page *pg;
	phys_addr_t phys;
	dma_addr_t h;

	REQUIRE(dev && want && rd);
	pg = dmamap_alloc_pages(p, 0, 0);
	REQUIRE(pg);
	phys = page_to_phys(pg);
	fill_pattern(want, PAGE_SIZE, 2);
	memcpy(page_address(pg), want, PAGE_SIZE);
	h = dma_map_page(dev, pg, 0, PAGE_SIZE, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	REQUIRE(dmamap_iommu_iova_to_phys(dev, h + PAGE_SIZE) == NO_PHYS);
	REQUIRE(mem_is_at(p, phys, want, PAGE_SIZE));

	fill_pattern(rd, 2 * PAGE_SIZE, 99);
	CHECK_EQ(dmamap_device_write(dev, h, rd, 2 * PAGE_SIZE), -EFAULT);
	CHECK_MSG(mem_is_at(p, phys, want, PAGE_SIZE),
		  "the mapped first page was written by a faulting access");
	CHECK_EQ(fl.calls, 1);
	CHECK_EQ(fl.iova, h + PAGE_SIZE);
	REQUIRE(dmamap_device_last_fault(dev, &f) == 0);
	CHECK_EQ(f.addr, h);
	CHECK_EQ(f.len, 2 * PAGE_SIZE);
	memset(rd, 0xee, 2 * PAGE_SIZE);
	CHECK_EQ(dmamap_device_read(dev, h + 100, rd, PAGE_SIZE), -EFAULT);
	CHECK_MSG(all_bytes(rd, 2 * PAGE_SIZE, 0xee), "a faulting read transferred bytes");
	CHECK_EQ(fl.calls, 2);
	CHECK_EQ(fl.iova, h + PAGE_SIZE);
	/* The mapped part alone works. */
	CHECK(dev_reads(dev, h, want, PAGE_SIZE));
	dma_unmap_page(dev, h, PAGE_SIZE, DMA_BIDIRECTIONAL);
	CHECK_MEM(page_address(pg), want, PAGE_SIZE);
	dmamap_free_pages(p, pg, 0);
	free(want);
	free(rd);
	dmamap_platform_destroy(p);
}

TEST(iommu_permissions_from_direction)
{
	struct fault_log fl = { 0 };
	uint8_t want[512], other[512], rd[512];
	struct dmamap_iommu_stats s0;
	struct dmamap_fault f;
	struct dmamap_platform *p;
	struct device *dev = faulting_dev(&p, &fl);
	uint8_t *buf;
	phys_addr_t phys;
	dma_addr_t h;

	REQUIRE(dev);
	buf = dmamap_kmalloc(p, sizeof(want), DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	phys = virt_to_phys(buf);
	fill_pattern(want, sizeof(want), 7);
	fill_pattern(other, sizeof(other), 8);

	/* TO_DEVICE: the device may read, not write. */
	h = fill_map(dev, buf, want, sizeof(want), DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK(dev_reads(dev, h, want, sizeof(want)));
	s0 = istats(dev);
	CHECK_EQ(dmamap_device_write(dev, h, other, sizeof(other)), -EFAULT);
	CHECK_EQ(istats(dev).permission_faults, s0.permission_faults + 1);
	CHECK_EQ(istats(dev).translation_faults, s0.translation_faults);
	CHECK_MSG(mem_is_at(p, phys, want, sizeof(want)),
		  "a write into a DMA_TO_DEVICE mapping changed memory");
	REQUIRE(dmamap_device_last_fault(dev, &f) == 0);
	CHECK(f.write);
	CHECK_EQ(f.addr, h);
	CHECK_MSG(f.reason && strstr(f.reason, "IOMMU permission fault"), "reason: %s",
		  f.reason ? f.reason : "(null)");
	CHECK_EQ(fl.calls, 1);
	CHECK(fl.write);
	CHECK_EQ(fl.iova, h);
	CHECK(strstr(fl.reason, "IOMMU permission fault"));
	dma_unmap_single(dev, h, sizeof(want), DMA_TO_DEVICE);
	CHECK_MEM(buf, want, sizeof(want));

	/* FROM_DEVICE: the device may write, not read. */
	h = dma_map_single(dev, buf, sizeof(want), DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	s0 = istats(dev);
	memset(rd, 0x77, sizeof(rd));
	CHECK_EQ(dmamap_device_read(dev, h, rd, sizeof(rd)), -EFAULT);
	CHECK_MSG(all_bytes(rd, sizeof(rd), 0x77), "a read of a DMA_FROM_DEVICE mapping moved bytes");
	CHECK_EQ(istats(dev).permission_faults, s0.permission_faults + 1);
	REQUIRE(dmamap_device_last_fault(dev, &f) == 0);
	CHECK(!f.write);
	CHECK(f.reason && strstr(f.reason, "IOMMU permission fault"));
	CHECK_EQ(fl.calls, 2);
	CHECK(!fl.write);
	CHECK_EQ(dmamap_device_write(dev, h, other, sizeof(other)), 0);
	dma_unmap_single(dev, h, sizeof(want), DMA_FROM_DEVICE);
	CHECK_MEM(buf, other, sizeof(other));

	/* BIDIRECTIONAL: both. */
	h = fill_map(dev, buf, want, sizeof(want), DMA_BIDIRECTIONAL);
	REQUIRE(h != DMA_MAPPING_ERROR);
	s0 = istats(dev);
	CHECK(dev_reads(dev, h, want, sizeof(want)));
	CHECK_EQ(dmamap_device_write(dev, h, other, sizeof(other)), 0);
	CHECK_EQ(istats(dev).permission_faults, s0.permission_faults);
	CHECK_EQ(fl.calls, 2);
	dma_unmap_single(dev, h, sizeof(want), DMA_BIDIRECTIONAL);
	CHECK_MEM(buf, other, sizeof(other));
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

/*
 * DMA_ATTR_PRIVILEGED: the IOMMU lets only privileged transactions use the
 * mapping, as an SMMU's privileged-only permission; an ordinary device
 * access faults and moves no byte.
 */
TEST(iommu_privileged_mappings_fault_unprivileged_accesses)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, IOMMU_DEV);
	uint8_t *buf = dbuf(p, 256), want[256], got[256];
	uint64_t faults;
	dma_addr_t priv, plain, ch;
	void *cpu;

	REQUIRE(dev && buf);
	pattern(want, sizeof(want), 60);
	memcpy(buf, want, sizeof(want));
	priv = dma_map_single_attrs(dev, buf, 256, DMA_TO_DEVICE, DMA_ATTR_PRIVILEGED);
	plain = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, priv) && !dma_mapping_error(dev, plain));
	faults = istats(dev).permission_faults;
	memset(got, 0, sizeof(got));
	CHECK_EQ(dmamap_device_read(dev, priv, got, sizeof(got)), -EFAULT);
	CHECK_EQ(istats(dev).permission_faults, faults + 1);
	CHECK_EQ(ndiff(got, (uint8_t[256]){ 0 }, sizeof(got)), 0); /* nothing moved */
	CHECK(dev_reads(dev, plain, want, sizeof(want)));
	/* A privileged transaction uses both. */
	dmamap_device_set_privileged(dev, true);
	CHECK(dev_reads(dev, priv, want, sizeof(want)));
	CHECK(dev_reads(dev, plain, want, sizeof(want)));
	dmamap_device_set_privileged(dev, false);
	dma_unmap_single_attrs(dev, priv, 256, DMA_TO_DEVICE, DMA_ATTR_PRIVILEGED);
	dma_unmap_single(dev, plain, 256, DMA_TO_DEVICE);
	/* Coherent memory too. */
	cpu = dma_alloc_attrs(dev, 2 * PAGE_SIZE, &ch, GFP_KERNEL, DMA_ATTR_PRIVILEGED);
	REQUIRE(cpu);
	CHECK_EQ(dmamap_device_write(dev, ch, want, sizeof(want)), -EFAULT);
	dmamap_device_set_privileged(dev, true);
	CHECK_EQ(dmamap_device_write(dev, ch, want, sizeof(want)), 0);
	CHECK_MEM(cpu, want, sizeof(want));
	dma_free_attrs(dev, 2 * PAGE_SIZE, cpu, ch, DMA_ATTR_PRIVILEGED);
	dmamap_platform_destroy(p);
}
