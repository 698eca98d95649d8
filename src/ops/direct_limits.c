/* SPDX-License-Identifier: MIT */
/*
 * What a device on the direct backend reaches: the mask that covers RAM,
 * whether its window misses some RAM, and so whether it may bounce, which
 * bounds the size of one mapping. Each answer is Linux's dma-direct rule.
 */
#include <stdint.h>
#include "../lib/lib.h"
#include "../base/bus.h"
#include "../platform/port.h"
#include "direct.h"
#include "swiotlb.h"

u64 dmamap__direct_required_mask(struct device *dev)
{
	phys_addr_t top = dmamap__port_ram_last(dev->plat) & ~(phys_addr_t)(PAGE_SIZE - 1);
	dma_addr_t max_dma = dmamap_phys_to_dma(dev, top);

	/* The top of RAM outside the window: as Linux, only all 64 bits will do. */
	if (max_dma == DMA_MAPPING_ERROR)
		return DMA_BIT_MASK(64);
	return DMA_BIT_MASK(64 - __builtin_clzll(max_dma | 1));
}

/* Whether the window ranges of @dev cover [start, last] without a hole. */
static bool window_covers(const struct device *dev, phys_addr_t start, phys_addr_t last)
{
	phys_addr_t pos = start;

	for (;;) {
		const struct dmamap_dma_range *hit = NULL;

		for (unsigned int i = 0; i < dev->nr_ranges && !hit; i++) {
			const struct dmamap_dma_range *r = &dev->ranges[i];

			if (r->size && pos >= r->cpu_start && pos - r->cpu_start < r->size)
				hit = r;
		}
		if (!hit)
			return false;
		if (last - hit->cpu_start < hit->size)
			return true;
		pos = hit->cpu_start + hit->size;
	}
}

bool dmamap__direct_all_ram_mapped(struct device *dev)
{
	struct dmamap_ram_bank ram[DMAMAP_MAX_BANKS];
	unsigned int n;

	if (!dev->nr_ranges)
		return true;
	n = dmamap__port_ram_ranges(dev->plat, ram, DMAMAP_MAX_BANKS);
	for (unsigned int i = 0; i < n && i < DMAMAP_MAX_BANKS; i++)
		if (ram[i].size && !window_covers(dev, ram[i].start, ram[i].start + ram[i].size - 1))
			return false;
	return true;
}

bool dmamap__direct_addressing_limited(struct device *dev)
{
	u64 mask = dev->dma_mask && *dev->dma_mask ? *dev->dma_mask : DMA_BIT_MASK(32);
	u64 reach = dev->bus_dma_limit ? MIN(mask, dev->bus_dma_limit) : mask;

	return reach < dmamap__direct_required_mask(dev) || !dmamap__direct_all_ram_mapped(dev);
}

bool dmamap__direct_may_bounce(struct device *dev)
{
	return dmamap__swiotlb_active(dev) &&
	       (dmamap__swiotlb_force_bounce(dev) || dmamap__direct_addressing_limited(dev));
}

/* Only a device that may bounce is bound by the bounce pool's largest mapping. */
size_t dmamap__direct_max_mapping_size(struct device *dev)
{
	if (dmamap__direct_may_bounce(dev))
		return dmamap__swiotlb_max_mapping_size(dev);
	return SIZE_MAX;
}

bool dmamap__direct_need_sync(struct device *dev, dma_addr_t addr)
{
	phys_addr_t phys;

	if (!dev->coherent)
		return true;
	phys = dmamap__bus_to_phys(dev, addr, 1);
	return phys != PHYS_NONE && dmamap__swiotlb_of(dev, phys) != NULL;
}
