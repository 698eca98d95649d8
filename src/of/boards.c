/* SPDX-License-Identifier: MIT */
/*
 * Boards built into the library. "default" is an ARMv7-like SoC with a
 * non-coherent CPU cache, 64-byte lines, RAM at 0x80000000 (and a bank above
 * 4 GiB, as LPAE boards have, which is high memory), and three DMA masters that each show one kind
 * of diversity: a cache-coherent one, a non-coherent one whose bus sees RAM
 * at 0x0, and a non-coherent one limited to 32-bit addresses.
 */
#include <string.h>
#include <dmamap/platform.h>
#include "of.h"

#define MiB (1ULL << 20)

static const struct dmamap_device_desc default_devices[] = {
	{
		.name = "dma-coh",
		.model = "memcpy",
		.dma_mask = DMA_BIT_MASK(40),
		.coherent = true,
	},
	{
		.name = "dma-nc",
		.model = "memcpy",
		.dma_mask = DMA_BIT_MASK(32),
		.coherent = false,
		.nr_ranges = 1,
		.ranges = { { .cpu_start = 0x80000000ULL, .dma_start = 0,
			      .size = 128 * MiB } },
	},
	{
		.name = "dma-32",
		.model = "memcpy",
		.dma_mask = DMA_BIT_MASK(32),
		.coherent = false,
	},
	/* An ISA-style 24-bit master: sees the first 16 MiB of RAM at 0, bounces the rest. */
	{
		.name = "dma-24",
		.model = "memcpy",
		.dma_mask = DMA_BIT_MASK(24),
		.coherent = false,
		.nr_ranges = 1,
		.ranges = { { .cpu_start = 0x80000000ULL, .dma_start = 0, .size = 16 * MiB } },
	},
	/*
	 * An IXP4xx-like PCI master: its bus only works in the first 64 MiB of
	 * RAM, so dmabounce copies everything above through its pools.
	 */
	{
		.name = "ixp-pci",
		.model = "memcpy",
		.dma_mask = DMA_BIT_MASK(32),
		.coherent_dma_mask = DMA_BIT_MASK(26),
		.coherent = false,
		.nr_ranges = 1,
		.ranges = { { .cpu_start = 0x80000000ULL, .dma_start = 0, .size = 128 * MiB } },
		.dmabounce_above = 0x80000000ULL + 64 * MiB,
		.dmabounce_small = 512,
		.dmabounce_large = 4096,
	},
	/* A non-coherent master behind an SMMU: it sees only what is mapped for it. */
	{
		.name = "dma-iommu",
		.model = "memcpy",
		.dma_mask = DMA_BIT_MASK(32),
		.coherent = false,
		.iommu = "smmu0",
	},
	/* A NIC and a disk controller in four of those places each. */
	{ .name = "nic-coh", .model = "nic", .dma_mask = DMA_BIT_MASK(40), .coherent = true },
	{ .name = "blk-coh", .model = "blk", .dma_mask = DMA_BIT_MASK(40), .coherent = true },
	{
		.name = "nic-nc",
		.model = "nic",
		.dma_mask = DMA_BIT_MASK(32),
		.nr_ranges = 1,
		.ranges = { { .cpu_start = 0x80000000ULL, .dma_start = 0, .size = 128 * MiB } },
	},
	{
		.name = "blk-nc",
		.model = "blk",
		.dma_mask = DMA_BIT_MASK(32),
		.nr_ranges = 1,
		.ranges = { { .cpu_start = 0x80000000ULL, .dma_start = 0, .size = 128 * MiB } },
	},
	{
		.name = "nic-24",
		.model = "nic",
		.dma_mask = DMA_BIT_MASK(24),
		.nr_ranges = 1,
		.ranges = { { .cpu_start = 0x80000000ULL, .dma_start = 0, .size = 16 * MiB } },
	},
	{
		.name = "blk-24",
		.model = "blk",
		.dma_mask = DMA_BIT_MASK(24),
		.nr_ranges = 1,
		.ranges = { { .cpu_start = 0x80000000ULL, .dma_start = 0, .size = 16 * MiB } },
	},
	{ .name = "nic-iommu", .model = "nic", .dma_mask = DMA_BIT_MASK(32), .iommu = "smmu0" },
	{ .name = "blk-iommu", .model = "blk", .dma_mask = DMA_BIT_MASK(32), .iommu = "smmu0" },
};

/* RAM, zones and devices shared by the boards built on this SoC. */
#define DEFAULT_SOC                                                          \
	.edge_policy = DMAMAP_EDGE_CLEAN_INVALIDATE,                         \
	.nr_banks = 2,                                                       \
	.banks = { { 0x80000000ULL, 128 * MiB }, { 0x880000000ULL, 64 * MiB } }, \
	.zone_dma_limit = 0x80000000ULL + 64 * MiB - 1,                      \
	.highmem_start = 0x880000000ULL,                                     \
	.cma_size = 16 * MiB,                                                \
	.nr_devices = 14,                                                    \
	.devices = default_devices

static const struct dmamap_board board_default = {
	.name = "default",
	.cache_line_size = 64,
	.arch = DMAMAP_CACHE_ARM64,
	DEFAULT_SOC,
};

/* The same SoC with an ARMv5 (ARM926-like) core: no speculation, different rules. */
static const struct dmamap_board board_armv5 = {
	.name = "armv5",
	.cache_line_size = 32,
	.arch = DMAMAP_CACHE_ARMV5,
	DEFAULT_SOC,
};

const char *const dmamap__builtin_board_names[] = { "default", "armv5", NULL };

const struct dmamap_board *dmamap__builtin_board(const char *name)
{
	if (!strcmp(name, "default"))
		return &board_default;
	if (!strcmp(name, "armv5"))
		return &board_armv5;
	return NULL;
}
