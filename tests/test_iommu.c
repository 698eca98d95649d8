/* SPDX-License-Identifier: MIT */
/*
 * IOMMU-backed DMA (SPEC §5 "iommu") through the driver API and the device
 * side: a device behind an IOMMU reaches memory only at the IOVAs mapped
 * for it, with the permissions the direction allows; strict and lazy
 * invalidation differ exactly by the stale IOTLB window; scatterlists
 * become one IOVA range; groups share a domain.
 *
 * Every check compares bytes: what the device read at the returned IOVA,
 * what the CPU sees after unmap, or the memory view probed with
 * dmamap_sim_mem_read(). A fault must move nothing.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "helpers.h"

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

/* ---- 1. bytes in each direction, handles are IOVAs ------------------------ */

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
	CHECK_EQ(stats_of(dev).errors, 0);
	CHECK_EQ(istats(dev).pages_mapped, 0);
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
	CHECK_EQ(stats_of(dev).errors, 0);
	CHECK_EQ(istats(dev).pages_mapped, 0);
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
	CHECK_EQ(stats_of(dev).errors, 0);
	CHECK_EQ(istats(dev).pages_mapped, 0);
	free(want);
	free(back);
	dmamap_platform_destroy(p);
}

/* ---- 2. scatterlists ------------------------------------------------------ */

#define SG_PAGES 8

/* @n pages of which no two consecutive ones are physically adjacent. */
static bool scattered_pages(struct dmamap_platform *p, struct page **out, int n,
			    struct page **pool, int npool)
{
	int got = 0;

	for (int i = 0; i < npool; i++) {
		pool[i] = dmamap_alloc_pages(p, 0, 0);
		if (!pool[i])
			return false;
	}
	for (int i = 0; i < npool && got < n; i++) {
		if (got && page_to_phys(pool[i]) == page_to_phys(out[got - 1]) + PAGE_SIZE)
			continue;
		if (got && page_to_phys(pool[i]) + PAGE_SIZE == page_to_phys(out[got - 1]))
			continue;
		out[got++] = pool[i];
	}
	return got == n;
}

TEST(iommu_sg_scattered_pages_one_segment)
{
	struct dmamap_platform *p = quiet_board();
	const size_t total = SG_PAGES * PAGE_SIZE;
	struct page *pool[32], *pg[SG_PAGES];
	struct scatterlist sg[SG_PAGES];
	uint8_t *want = malloc(total), *dev_data = malloc(total);
	struct device *dev;

	REQUIRE(p && want && dev_data);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	REQUIRE(scattered_pages(p, pg, SG_PAGES, pool, 32));
	for (unsigned int k = 0; k < 3; k++) {
		enum dma_data_direction dir = dirs[k];
		dma_addr_t seg;
		int n;

		fill_pattern(want, total, 30 + k);
		sg_init_table(sg, SG_PAGES);
		for (int i = 0; i < SG_PAGES; i++) {
			memcpy(page_address(pg[i]), want + i * PAGE_SIZE, PAGE_SIZE);
			sg_set_page(&sg[i], pg[i], PAGE_SIZE, 0);
		}
		n = dma_map_sg(dev, sg, SG_PAGES, dir);
		CHECK_MSG(n == 1, "dir %d: %d device segments, want 1", dir, n);
		REQUIRE(n >= 1);
		seg = sg_dma_address(&sg[0]);
		CHECK_EQ(sg_dma_len(&sg[0]), total);
		/* One IOVA range whose pages are the list's pages, in order. */
		for (int i = 0; i < SG_PAGES; i++)
			CHECK_EQ(dmamap_iommu_iova_to_phys(dev, seg + i * PAGE_SIZE),
				 page_to_phys(pg[i]));
		if (n == 1 && dir != DMA_FROM_DEVICE)
			CHECK_MSG(dev_reads(dev, seg, want, total),
				  "dir %d: device read of the merged segment", dir);
		if (n == 1 && dir != DMA_TO_DEVICE) {
			fill_pattern(dev_data, total, 70 + k);
			CHECK_EQ(dmamap_device_write(dev, seg, dev_data, total), 0);
		}
		dma_unmap_sg(dev, sg, SG_PAGES, dir);
		for (int i = 0; i < SG_PAGES; i++) {
			const uint8_t *exp = (dir != DMA_TO_DEVICE ? dev_data : want) +
					     i * PAGE_SIZE;

			CHECK_MSG(!memcmp(page_address(pg[i]), exp, PAGE_SIZE),
				  "dir %d: page %d after unmap", dir, i);
		}
		CHECK_EQ(dmamap_iommu_iova_to_phys(dev, seg), NO_PHYS);
	}
	CHECK_EQ(istats(dev).pages_mapped, 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	for (int i = 0; i < 32; i++)
		dmamap_free_pages(p, pool[i], 0);
	free(want);
	free(dev_data);
	dmamap_platform_destroy(p);
}

TEST(iommu_sg_split_at_max_segment_size)
{
	struct dmamap_platform *p = quiet_board();
	const size_t total = SG_PAGES * PAGE_SIZE, max_seg = 2 * PAGE_SIZE;
	struct page *pool[32], *pg[SG_PAGES];
	struct scatterlist sg[SG_PAGES];
	uint8_t *want = malloc(total), *dev_data = malloc(total);
	struct device *dev;
	size_t seen = 0;
	int n;

	REQUIRE(p && want && dev_data);
	dev = iommu_device(p, "smmux-dev", "smmuX", 0, (unsigned int)max_seg, false);
	REQUIRE(dev);
	REQUIRE(scattered_pages(p, pg, SG_PAGES, pool, 32));
	fill_pattern(want, total, 5);
	sg_init_table(sg, SG_PAGES);
	for (int i = 0; i < SG_PAGES; i++) {
		memcpy(page_address(pg[i]), want + i * PAGE_SIZE, PAGE_SIZE);
		sg_set_page(&sg[i], pg[i], PAGE_SIZE, 0);
	}
	n = dma_map_sg(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	CHECK_EQ(n, (int)(total / max_seg));
	REQUIRE(n > 0);
	fill_pattern(dev_data, total, 6);
	for (int i = 0; i < n; i++) {
		size_t l = sg_dma_len(&sg[i]);

		CHECK_MSG(l <= max_seg, "segment %d is %zu bytes, max %zu", i, l, max_seg);
		CHECK(l > 0);
		if (!l || seen + l > total)
			break;
		CHECK_MSG(dev_reads(dev, sg_dma_address(&sg[i]), want + seen, l),
			  "segment %d: device read", i);
		CHECK_EQ(dmamap_device_write(dev, sg_dma_address(&sg[i]), dev_data + seen, l), 0);
		seen += l;
	}
	CHECK_EQ(seen, total);
	dma_unmap_sg(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	for (int i = 0; i < SG_PAGES; i++)
		CHECK_MSG(!memcmp(page_address(pg[i]), dev_data + i * PAGE_SIZE, PAGE_SIZE),
			  "page %d after unmap", i);
	CHECK_EQ(istats(dev).pages_mapped, 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	for (int i = 0; i < 32; i++)
		dmamap_free_pages(p, pool[i], 0);
	free(want);
	free(dev_data);
	dmamap_platform_destroy(p);
}

/*
 * dma_sync_sg_*() take the nents given to dma_map_sg(), not the segment
 * count: a correct driver syncing a merged list must get the device's
 * bytes and no checker report about the entries that were merged away.
 */
TEST(iommu_sg_merged_sync_no_false_reports)
{
	struct dmamap_platform *p = quiet_board();
	const size_t total = SG_PAGES * PAGE_SIZE;
	struct page *pool[32], *pg[SG_PAGES];
	struct scatterlist sg[SG_PAGES];
	uint8_t *dev_data = malloc(total);
	struct device *dev;
	dma_addr_t seg;
	int n;

	REQUIRE(p && dev_data);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	REQUIRE(scattered_pages(p, pg, SG_PAGES, pool, 32));
	dmamap_debug_enable(p, true);
	sg_init_table(sg, SG_PAGES);
	for (int i = 0; i < SG_PAGES; i++)
		sg_set_page(&sg[i], pg[i], PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, SG_PAGES, DMA_FROM_DEVICE);
	REQUIRE(n == 1);
	seg = sg_dma_address(&sg[0]);
	REQUIRE(!dma_mapping_error(dev, seg));
	fill_pattern(dev_data, total, 80);
	CHECK_EQ(dmamap_device_write(dev, seg, dev_data, total), 0);
	dma_sync_sg_for_cpu(dev, sg, SG_PAGES, DMA_FROM_DEVICE);
	for (int i = 0; i < SG_PAGES; i++)
		CHECK_MSG(!memcmp(page_address(pg[i]), dev_data + i * PAGE_SIZE, PAGE_SIZE),
			  "page %d after dma_sync_sg_for_cpu", i);
	CHECK_MSG(dmamap_report_count(p, 0) == 0,
		  "syncing a merged list (nents %d, 1 segment): %lu reports, last: %s",
		  SG_PAGES, dmamap_report_count(p, 0), logs.last);
	dma_sync_sg_for_device(dev, sg, SG_PAGES, DMA_FROM_DEVICE);
	fill_pattern(dev_data, total, 81);
	CHECK_EQ(dmamap_device_write(dev, seg, dev_data, total), 0);
	dma_unmap_sg(dev, sg, SG_PAGES, DMA_FROM_DEVICE);
	for (int i = 0; i < SG_PAGES; i++)
		CHECK(!memcmp(page_address(pg[i]), dev_data + i * PAGE_SIZE, PAGE_SIZE));
	CHECK_EQ(dmamap_report_count(p, 0), 0);

	/* The same list, first mapped as 8 segments, then remapped as one. */
	dmamap_report_reset(p);
	for (int i = 0; i < SG_PAGES; i++)
		sg_set_page(&sg[i], pg[i], 100, 0);
	n = dma_map_sg(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	CHECK_EQ(n, SG_PAGES);
	if (n)
		dma_unmap_sg(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	for (int i = 0; i < SG_PAGES; i++)
		sg_set_page(&sg[i], pg[i], PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	REQUIRE(n == 1);
	dma_mapping_error(dev, sg_dma_address(&sg[0]));
	dma_sync_sg_for_cpu(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	dma_sync_sg_for_device(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	dma_unmap_sg(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	CHECK_MSG(dmamap_report_count(p, 0) == 0,
		  "remapped list: %lu reports, last: %s", dmamap_report_count(p, 0),
		  logs.last);
	dmamap_debug_enable(p, false);
	for (int i = 0; i < 32; i++)
		dmamap_free_pages(p, pool[i], 0);
	free(dev_data);
	dmamap_platform_destroy(p);
}

/* Merged segments never cross the device's segment boundary. */
TEST(iommu_sg_merge_respects_segment_boundary)
{
	struct dmamap_platform *p = quiet_board();
	const unsigned long boundary = 4 * PAGE_SIZE - 1; /* 16 KiB windows */
	const size_t total = SG_PAGES * PAGE_SIZE;
	struct dmamap_device_desc d = {
		.name = "smmu-bound", .iommu = "smmuB",
		.segment_boundary_mask = boundary,
	};
	struct page *pool[32], *pg[SG_PAGES];
	struct scatterlist sg[SG_PAGES];
	uint8_t *want = malloc(total);
	struct device *dev;
	size_t seen = 0;
	int n;

	REQUIRE(p && want);
	dev = dmamap_device_create(p, &d, NULL);
	REQUIRE(dev);
	REQUIRE(scattered_pages(p, pg, SG_PAGES, pool, 32));
	dmamap_debug_enable(p, true);
	fill_pattern(want, total, 82);
	sg_init_table(sg, SG_PAGES);
	for (int i = 0; i < SG_PAGES; i++) {
		memcpy(page_address(pg[i]), want + i * PAGE_SIZE, PAGE_SIZE);
		sg_set_page(&sg[i], pg[i], PAGE_SIZE, 0);
	}
	n = dma_map_sg(dev, sg, SG_PAGES, DMA_TO_DEVICE);
	REQUIRE(n > 0);
	for (int i = 0; i < n; i++) {
		dma_addr_t a = sg_dma_address(&sg[i]);
		size_t l = sg_dma_len(&sg[i]);

		dma_mapping_error(dev, a);
		CHECK_MSG((a & ~(dma_addr_t)boundary) == ((a + l - 1) & ~(dma_addr_t)boundary),
			  "segment %d [0x%llx +%zu] crosses the 16 KiB boundary", i,
			  (unsigned long long)a, l);
		if (seen + l <= total)
			CHECK(dev_reads(dev, a, want + seen, l));
		seen += l;
	}
	CHECK_EQ(seen, total);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_SG_SEGMENT_BOUNDARY), 0);
	dma_unmap_sg(dev, sg, SG_PAGES, DMA_TO_DEVICE);
	CHECK_EQ(istats(dev).pages_mapped, 0);
	dmamap_debug_enable(p, false);
	for (int i = 0; i < 32; i++)
		dmamap_free_pages(p, pool[i], 0);
	free(want);
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

/* ---- 3. faults ------------------------------------------------------------ */

TEST(iommu_unmapped_iova_faults_moves_nothing)
{
	struct dmamap_platform *p = quiet_board();
	struct fault_log fl = { 0 };
	struct dmamap_iommu_stats s0, s1;
	struct dmamap_fault f;
	uint8_t want[256], rd[256];
	struct device *dev;
	struct page *pg;
	phys_addr_t phys;
	unsigned long rep0;
	uint64_t faults0;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	CHECK_EQ(dmamap_iommu_set_fault_handler(dev, fault_fn, &fl), 0);
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
	struct dmamap_platform *p = quiet_board();
	struct fault_log fl = { 0 };
	uint8_t *want = malloc(2 * PAGE_SIZE), *rd = malloc(2 * PAGE_SIZE);
	struct dmamap_fault f;
	struct device *dev;
	struct page *pg;
	phys_addr_t phys;
	dma_addr_t h;

	REQUIRE(p && want && rd);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	CHECK_EQ(dmamap_iommu_set_fault_handler(dev, fault_fn, &fl), 0);
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

/* ---- 4. permissions from the direction ------------------------------------ */

TEST(iommu_permissions_from_direction)
{
	struct dmamap_platform *p = quiet_board();
	struct fault_log fl = { 0 };
	uint8_t want[512], other[512], rd[512];
	struct dmamap_iommu_stats s0;
	struct dmamap_fault f;
	struct device *dev;
	uint8_t *buf;
	phys_addr_t phys;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	CHECK_EQ(dmamap_iommu_set_fault_handler(dev, fault_fn, &fl), 0);
	buf = dmamap_kmalloc(p, sizeof(want), DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	phys = virt_to_phys(buf);
	fill_pattern(want, sizeof(want), 7);
	fill_pattern(other, sizeof(other), 8);

	/* TO_DEVICE: the device may read, not write. */
	memcpy(buf, want, sizeof(want));
	h = dma_map_single(dev, buf, sizeof(want), DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
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
	memcpy(buf, want, sizeof(want));
	h = dma_map_single(dev, buf, sizeof(want), DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
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

/* ---- 5. strict and lazy invalidation --------------------------------------- */

/*
 * Map a page, let the device read it (the IOTLB now caches it), unmap.
 * Returns the stale IOVA; *phys receives the page's physical address.
 */
static dma_addr_t map_touch_unmap(struct dmamap_platform *p, struct device *dev,
				  struct page *pg, const uint8_t *want, size_t len,
				  bool touch)
{
	dma_addr_t h;

	(void)p;
	memcpy(page_address(pg), want, len);
	h = dma_map_page(dev, pg, 0, len, DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dev, h))
		return DMA_MAPPING_ERROR;
	if (touch && !dev_reads(dev, h, want, len))
		return DMA_MAPPING_ERROR;
	dma_unmap_page(dev, h, len, DMA_BIDIRECTIONAL);
	return h;
}

TEST(iommu_strict_unmap_faults_at_once)
{
	struct dmamap_platform *p = quiet_board();
	uint8_t want[256], rd[256];
	struct dmamap_iommu_stats s0, s1;
	struct device *dev;
	struct page *pg;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	pg = dmamap_alloc_pages(p, 0, 0);
	REQUIRE(pg);
	fill_pattern(want, sizeof(want), 11);
	s0 = istats(dev);
	h = map_touch_unmap(p, dev, pg, want, sizeof(want), true);
	REQUIRE(h != DMA_MAPPING_ERROR);
	s1 = istats(dev);
	CHECK(s1.iotlb_invalidations > s0.iotlb_invalidations);
	CHECK_EQ(s1.queued, 0);
	CHECK_EQ(s1.queue_flushes, s0.queue_flushes);
	memset(rd, 0x11, sizeof(rd));
	CHECK_MSG(dmamap_device_read(dev, h, rd, sizeof(rd)) == -EFAULT,
		  "strict: the device still reaches an unmapped IOVA");
	CHECK(all_bytes(rd, sizeof(rd), 0x11));
	CHECK_EQ(istats(dev).translation_faults, s1.translation_faults + 1);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

TEST(iommu_lazy_stale_window_until_flush)
{
	struct dmamap_platform *p = quiet_board();
	uint8_t want[256], rd[256];
	struct dmamap_iommu_stats s0, s1;
	struct device *dev;
	struct page *pg;
	unsigned long unmapped0;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	CHECK_EQ(dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_LAZY), 0);
	dmamap_debug_enable(p, true);
	pg = dmamap_alloc_pages(p, 0, 0);
	REQUIRE(pg);
	fill_pattern(want, sizeof(want), 12);
	s0 = istats(dev);
	h = map_touch_unmap(p, dev, pg, want, sizeof(want), true);
	REQUIRE(h != DMA_MAPPING_ERROR);
	s1 = istats(dev);
	CHECK_EQ(s1.queued, s0.queued + 1);
	CHECK_EQ(s1.queue_flushes, s0.queue_flushes);
	/* The page table no longer maps it... */
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h), NO_PHYS);
	/* ...but the IOTLB still does: the stale window. */
	unmapped0 = dmamap_report_count(p, DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED);
	memset(rd, 0, sizeof(rd));
	CHECK_MSG(dmamap_device_read(dev, h, rd, sizeof(rd)) == 0,
		  "lazy: no stale IOTLB entry after unmap");
	CHECK_MEM(rd, want, sizeof(rd));
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED), unmapped0 + 1);
	CHECK_EQ(istats(dev).translation_faults, s1.translation_faults);

	/* Flushing the queue closes the window. */
	CHECK_EQ(dmamap_iommu_flush(dev), 0);
	s1 = istats(dev);
	CHECK_EQ(s1.queued, 0);
	CHECK_EQ(s1.queue_flushes, s0.queue_flushes + 1);
	memset(rd, 0x22, sizeof(rd));
	CHECK_EQ(dmamap_device_read(dev, h, rd, sizeof(rd)), -EFAULT);
	CHECK(all_bytes(rd, sizeof(rd), 0x22));
	CHECK_EQ(istats(dev).translation_faults, s1.translation_faults + 1);
	/* Nothing left in the queue: a second flush is not a batch. */
	CHECK_EQ(dmamap_iommu_flush(dev), 0);
	CHECK_EQ(istats(dev).queue_flushes, s1.queue_flushes);
	dmamap_debug_enable(p, false);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

/* Lazy: a translation never cached has no stale window. */
TEST(iommu_lazy_uncached_translation_faults)
{
	struct dmamap_platform *p = quiet_board();
	uint8_t want[128], rd[128];
	struct device *dev;
	struct page *pg;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	CHECK_EQ(dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_LAZY), 0);
	pg = dmamap_alloc_pages(p, 0, 0);
	REQUIRE(pg);
	fill_pattern(want, sizeof(want), 13);
	h = map_touch_unmap(p, dev, pg, want, sizeof(want), false);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(istats(dev).queued, 1);
	memset(rd, 0x33, sizeof(rd));
	CHECK_EQ(dmamap_device_read(dev, h, rd, sizeof(rd)), -EFAULT);
	CHECK(all_bytes(rd, sizeof(rd), 0x33));
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

/*
 * Lazy: a queued IOVA is not handed out again before its batch is
 * invalidated, or the stale IOTLB entry would send the new mapping's
 * device writes into the old buffer.
 */
TEST(iommu_lazy_queued_iova_not_reused)
{
	struct dmamap_platform *p = quiet_board();
	uint8_t a_bytes[256], b_bytes[256], dev_data[256];
	struct device *dev;
	struct page *pa, *pb;
	dma_addr_t ha, hb;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	CHECK_EQ(dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_LAZY), 0);
	pa = dmamap_alloc_pages(p, 0, 0);
	pb = dmamap_alloc_pages(p, 0, 0);
	REQUIRE(pa && pb);
	fill_pattern(a_bytes, sizeof(a_bytes), 14);
	fill_pattern(b_bytes, sizeof(b_bytes), 15);
	fill_pattern(dev_data, sizeof(dev_data), 16);
	ha = map_touch_unmap(p, dev, pa, a_bytes, sizeof(a_bytes), true);
	REQUIRE(ha != DMA_MAPPING_ERROR);
	memcpy(page_address(pb), b_bytes, sizeof(b_bytes));
	hb = dma_map_page(dev, pb, 0, sizeof(b_bytes), DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, hb));
	CHECK_MSG((ha & PAGE_MASK) != (hb & PAGE_MASK),
		  "IOVA 0x%llx reused while still queued", (unsigned long long)ha);
	CHECK_EQ(dmamap_device_write(dev, hb, dev_data, sizeof(dev_data)), 0);
	dma_unmap_page(dev, hb, sizeof(b_bytes), DMA_BIDIRECTIONAL);
	CHECK_MSG(!memcmp(page_address(pb), dev_data, sizeof(dev_data)),
		  "the device's write did not reach the new mapping's buffer");
	CHECK_MSG(!memcmp(page_address(pa), a_bytes, sizeof(a_bytes)),
		  "the device's write landed in the old (unmapped) buffer");
	CHECK(mem_is_at(p, page_to_phys(pa), a_bytes, sizeof(a_bytes)));
	dmamap_free_pages(p, pa, 0);
	dmamap_free_pages(p, pb, 0);
	dmamap_platform_destroy(p);
}

/* Lazy: the flush queue drains itself in batches; the desc flag starts lazy. */
TEST(iommu_lazy_queue_batches_and_desc_flag)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_device_desc d = {
		.name = "lazy-dev", .coherent = true, .iommu = "smmu-lazy",
		.iommu_lazy = true,
	};
	uint8_t want[64], rd[64];
	struct dmamap_iommu_stats s;
	struct device *dev;
	struct page *pg;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_create(p, &d, NULL);
	REQUIRE(dev);
	pg = dmamap_alloc_pages(p, 0, 0);
	REQUIRE(pg);
	fill_pattern(want, sizeof(want), 17);
	/* Lazy from the start: the stale window is there without set_flush. */
	h = map_touch_unmap(p, dev, pg, want, sizeof(want), true);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(istats(dev).queued, 1);
	CHECK_EQ(dmamap_device_read(dev, h, rd, sizeof(rd)), 0);
	CHECK_MEM(rd, want, sizeof(rd));
	/* Many unmaps: the queue flushes itself when full and stays bounded. */
	for (int i = 0; i < 1000; i++) {
		h = dma_map_page(dev, pg, 0, PAGE_SIZE, DMA_TO_DEVICE);
		REQUIRE(!dma_mapping_error(dev, h));
		dma_unmap_page(dev, h, PAGE_SIZE, DMA_TO_DEVICE);
	}
	s = istats(dev);
	CHECK(s.queue_flushes >= 1);
	CHECK(s.queued < 1000);
	CHECK_EQ(s.map_calls, 1001);
	CHECK_EQ(s.unmap_calls, 1001);
	CHECK_EQ(s.pages_mapped, 0);
	/* Back to strict: the queue is drained. */
	CHECK_EQ(dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_STRICT), 0);
	CHECK_EQ(istats(dev).queued, 0);
	h = map_touch_unmap(p, dev, pg, want, sizeof(want), true);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_device_read(dev, h, rd, sizeof(rd)), -EFAULT);
	CHECK_EQ(dmamap_iommu_set_flush(dev, (enum dmamap_iommu_flush)7), -EINVAL);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

/* ---- 6. IOVA exhaustion ------------------------------------------------------ */

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

/* ---- 7. threads ---------------------------------------------------------- */

#define T_ROUNDS 2000

struct iworker {
	struct dmamap_platform *p;
	struct device *dev;
	unsigned int seed;
	long wrong, errors;
};

static void *iommu_work(void *arg)
{
	struct iworker *w = arg;
	struct page *pg = dmamap_alloc_pages(w->p, 0, 0);
	uint8_t pat[PAGE_SIZE], back[PAGE_SIZE];
	uint8_t *buf;

	if (!pg) {
		w->errors++;
		return NULL;
	}
	buf = page_address(pg);
	for (int r = 0; r < T_ROUNDS; r++) {
		size_t len = 64 + (size_t)((r * 97 + w->seed * 13) % (PAGE_SIZE - 64));
		dma_addr_t d;

		for (size_t i = 0; i < len; i++)
			pat[i] = (uint8_t)(w->seed * 31 + r + i);
		memcpy(buf, pat, len);
		d = dma_map_single(w->dev, buf, len, DMA_BIDIRECTIONAL);
		if (dma_mapping_error(w->dev, d)) {
			w->errors++;
			continue;
		}
		/* The device reads what the CPU wrote, then writes its own bytes. */
		if (dmamap_device_read(w->dev, d, back, len))
			w->errors++;
		else
			w->wrong += memcmp(back, pat, len) != 0;
		for (size_t i = 0; i < len; i++)
			pat[i] = (uint8_t)~pat[i];
		if (dmamap_device_write(w->dev, d, pat, len))
			w->errors++;
		dma_unmap_single(w->dev, d, len, DMA_BIDIRECTIONAL);
		w->wrong += memcmp(buf, pat, len) != 0;
	}
	dmamap_free_pages(w->p, pg, 0);
	return NULL;
}

static void iommu_threads(bool lazy)
{
	struct dmamap_platform *p = quiet_board();
	struct iworker w[2];
	struct dmamap_iommu_stats s0, s1;
	struct device *dev;
	pthread_t t[2];

	REQUIRE(p);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	if (lazy)
		CHECK_EQ(dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_LAZY), 0);
	s0 = istats(dev);
	for (int i = 0; i < 2; i++)
		w[i] = (struct iworker){ p, dev, (unsigned int)i + 1, 0, 0 };
	for (int i = 0; i < 2; i++)
		REQUIRE(pthread_create(&t[i], NULL, iommu_work, &w[i]) == 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(w[i].errors, 0);
		CHECK_EQ(w[i].wrong, 0);
	}
	s1 = istats(dev);
	CHECK_EQ(s1.map_calls - s0.map_calls, 2 * T_ROUNDS);
	CHECK_EQ(s1.unmap_calls - s0.unmap_calls, 2 * T_ROUNDS);
	CHECK_EQ(s1.map_calls, s1.unmap_calls);
	CHECK_EQ(s1.pages_mapped, s0.pages_mapped);
	CHECK_EQ(s1.translation_faults, s0.translation_faults);
	CHECK_EQ(s1.permission_faults, s0.permission_faults);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	CHECK_EQ(stats_of(dev).faults, 0);
	if (lazy) {
		CHECK(s1.queue_flushes > s0.queue_flushes);
		CHECK_EQ(dmamap_iommu_flush(dev), 0);
		CHECK_EQ(istats(dev).queued, 0);
	}
	dmamap_platform_destroy(p);
}

TEST(iommu_threads_map_unmap_strict)
{
	iommu_threads(false);
}

TEST(iommu_threads_map_unmap_lazy)
{
	iommu_threads(true);
}

/* ---- 8. resources, mmap, sg_table ---------------------------------------- */

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
	CHECK_EQ(istats(dev).pages_mapped, 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	CHECK_EQ(stats_of(dev).cache_bytes_cleaned, 0);
	dmamap_platform_destroy(p);
}

TEST(iommu_mmap_and_sgtable_of_coherent)
{
	struct dmamap_platform *p = quiet_board();
	const size_t len = 2 * PAGE_SIZE;
	struct vm_area_struct vma = { 0, len, 0, DMAMAP_PROT_READ | DMAMAP_PROT_WRITE };
	struct vm_area_struct vma1 = { 0, PAGE_SIZE, 1, DMAMAP_PROT_READ };
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
		CHECK_MEM((uint8_t *)vma1.vm_start, want + PAGE_SIZE, PAGE_SIZE);
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
	CHECK_EQ(istats(dev).pages_mapped, 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	free(want);
	dmamap_platform_destroy(p);
}

/* ---- 9. groups ------------------------------------------------------------ */

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

/* ---- 10. host platform ----------------------------------------------------- */

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
	CHECK_EQ(istats(dev).pages_mapped, 0);
	CHECK_EQ(stats_of(dev).errors, 0);
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
	CHECK_EQ(istats(dev).pages_mapped, 0);
	CHECK_EQ(stats_of(dev).errors, 0);
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

/* ---- 11. the API around it ------------------------------------------------ */

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
