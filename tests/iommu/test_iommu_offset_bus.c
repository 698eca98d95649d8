/* SPDX-License-Identifier: MIT */
/*
 * A device behind an IOMMU whose bus also has a dma-ranges offset (RAM at
 * 0x80000000 seen at 0): the IOMMU maps physical pages, so every kind of
 * coherent allocation must land where the CPU looks, move bytes both ways
 * through the IOVA, show the same bytes through mmap, and go back to the
 * allocator on free without a report. Mapping a device address as if it
 * were physical sends the device to memory that is not there.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "../helpers.h"

static struct device *offset_iommu_device(struct dmamap_platform *p, bool coherent)
{
	struct dmamap_device_desc d = {
		.name = "iommu-offset",
		.coherent = coherent,
		.iommu = "smmu-offset",
		.nr_ranges = 1,
		.ranges = { { .cpu_start = BANK0_START, .dma_start = 0, .size = BANK0_SIZE } },
	};
	struct dmamap_error err = { 0 };
	struct device *dev = dmamap_device_create(p, &d, &err);

	if (!dev)
		printf("#   device: %d %s\n", err.code, err.msg);
	return dev;
}

/* Bytes written by the device at @h read back by the CPU at @cpu, and the other way round. */
static void moves_bytes(struct device *dev, uint8_t *cpu, dma_addr_t h, size_t len, int seed)
{
	uint8_t *want = malloc(len), *got = malloc(len);

	REQUIRE(want && got);
	fill_pattern(want, len, seed);
	CHECK_EQ(dmamap_device_write(dev, h, want, len), 0);
	CHECK_MEM(cpu, want, len);
	fill_pattern(want, len, seed + 1);
	memcpy(cpu, want, len);
	CHECK_EQ(dmamap_device_read(dev, h, got, len), 0);
	CHECK_MEM(got, want, len);
	free(want);
	free(got);
}

/* The same bytes through a user mapping of the allocation. */
static void mmap_shows(struct device *dev, uint8_t *cpu, dma_addr_t h, size_t len, int seed)
{
	struct vm_area_struct vma = { 0, len, 0, DMAMAP_PROT_READ | DMAMAP_PROT_WRITE };
	uint8_t *want = malloc(len);

	REQUIRE(want);
	REQUIRE(dma_mmap_attrs(dev, &vma, cpu, h, len, 0) == 0);
	fill_pattern(want, len, seed);
	CHECK_EQ(dmamap_device_write(dev, h, want, len), 0);
	CHECK_MEM((uint8_t *)vma.vm_start, want, len);
	CHECK_EQ(dmamap_munmap(&vma), 0);
	free(want);
}

static void alloc_move_mmap_free(size_t len, unsigned long attrs, bool coherent, int seed)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_cma_stats before, after;
	struct device *dev;
	dma_addr_t h = 0;
	uint8_t *cpu;

	REQUIRE(p);
	dev = offset_iommu_device(p, coherent);
	REQUIRE(dev);
	REQUIRE(dmamap_cma_stats(p, &before) == 0);
	cpu = dma_alloc_attrs(dev, len, &h, GFP_KERNEL, attrs);
	REQUIRE(cpu);
	/* The IOMMU holds a physical page of the board's RAM, the one the CPU reaches. */
	CHECK(dmamap_iommu_iova_to_phys(dev, h) >= BANK0_START);
	CHECK(dmamap_phys_to_virt(p, dmamap_iommu_iova_to_phys(dev, h)) != NULL);
	moves_bytes(dev, cpu, h, len, seed);
	mmap_shows(dev, cpu, h, len, seed + 2);
	dma_free_attrs(dev, len, cpu, h, attrs);
	CHECK_EQ(stats_of(dev).errors, 0);
	CHECK_EQ(stats_of(dev).faults, 0);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	/* Given back: CMA is where it was. */
	REQUIRE(dmamap_cma_stats(p, &after) == 0);
	CHECK_EQ(after.used_pages, before.used_pages);
	dmamap_platform_destroy(p);
}

TEST(iommu_offset_bus_one_page_coherent)
{
	alloc_move_mmap_free(PAGE_SIZE, 0, false, 31);
}

TEST(iommu_offset_bus_one_page_snooping)
{
	alloc_move_mmap_free(PAGE_SIZE, 0, true, 33);
}

TEST(iommu_offset_bus_force_contiguous_from_cma)
{
	alloc_move_mmap_free(8 * PAGE_SIZE, DMA_ATTR_FORCE_CONTIGUOUS, false, 35);
}

TEST(iommu_offset_bus_scattered_pages)
{
	alloc_move_mmap_free(4 * PAGE_SIZE, 0, false, 37);
}

/* Non-coherent allocations: cached pages the driver syncs, mapped at an IOVA. */
TEST(iommu_offset_bus_noncoherent_alloc)
{
	struct dmamap_platform *p = quiet_board();
	const size_t len = 2 * PAGE_SIZE;
	struct device *dev;
	dma_addr_t h = 0;
	uint8_t *cpu, *want = malloc(len);

	REQUIRE(p && want);
	dev = offset_iommu_device(p, false);
	REQUIRE(dev);
	cpu = dma_alloc_noncoherent(dev, len, &h, DMA_BIDIRECTIONAL, GFP_KERNEL);
	REQUIRE(cpu);
	fill_pattern(want, len, 39);
	memcpy(cpu, want, len);
	dma_sync_single_for_device(dev, h, len, DMA_BIDIRECTIONAL);
	{
		uint8_t *got = malloc(len);

		REQUIRE(got);
		CHECK_EQ(dmamap_device_read(dev, h, got, len), 0);
		CHECK_MEM(got, want, len);
		free(got);
	}
	dma_free_noncoherent(dev, len, cpu, h, DMA_BIDIRECTIONAL);
	CHECK_EQ(stats_of(dev).errors, 0);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	free(want);
	dmamap_platform_destroy(p);
}
