/* SPDX-License-Identifier: MIT */
/* Bus address translation, and its public helpers for backend writers. */
#include "../lib/lib.h"
#include "bus.h"

dma_addr_t dmamap_phys_to_dma(const struct device *dev, phys_addr_t phys)
{
	if (!dev)
		return DMA_MAPPING_ERROR;
	if (!dev->nr_ranges)
		return phys;
	for (unsigned int i = 0; i < dev->nr_ranges; i++) {
		const struct dmamap_dma_range *r = &dev->ranges[i];

		if (phys >= r->cpu_start && phys - r->cpu_start < r->size)
			return r->dma_start + (phys - r->cpu_start);
	}
	return DMA_MAPPING_ERROR;
}

/* [dma, dma+len) inside @r: its physical address, else PHYS_NONE. */
static phys_addr_t in_range(const struct dmamap_dma_range *r, dma_addr_t dma, u64 len)
{
	if (dma >= r->dma_start && dma - r->dma_start < r->size &&
	    len <= r->size - (dma - r->dma_start))
		return r->cpu_start + (dma - r->dma_start);
	return PHYS_NONE;
}

/*
 * [dma, dma+len) as one run of RAM addresses: in one window range, or
 * across ranges that continue each other on both sides (the same run
 * dmamap__reach() hands out); PHYS_NONE otherwise.
 */
static phys_addr_t window_to_phys(const struct device *dev, dma_addr_t dma, u64 len)
{
	phys_addr_t start = PHYS_NONE;
	dma_addr_t at = dma;

	if (!dev->nr_ranges)
		return dma + len - 1 >= dma ? dma : PHYS_NONE;
	if (!len || dma + len - 1 < dma)
		return PHYS_NONE;
	while (len) {
		const struct dmamap_dma_range *r = NULL;
		phys_addr_t phys;
		u64 chunk;

		for (unsigned int i = 0; i < dev->nr_ranges && !r; i++)
			if (in_range(&dev->ranges[i], at, 1) != PHYS_NONE)
				r = &dev->ranges[i];
		if (!r)
			return PHYS_NONE;
		phys = r->cpu_start + (at - r->dma_start);
		if (start == PHYS_NONE)
			start = phys;
		else if (phys != start + (at - dma))
			return PHYS_NONE;
		chunk = MIN(len, r->size - (at - r->dma_start));
		at += chunk;
		len -= chunk;
	}
	return start;
}

bool dmamap__window_run(const struct device *dev, phys_addr_t phys, dma_addr_t dma, u64 len)
{
	return window_to_phys(dev, dma, len) == phys;
}

phys_addr_t dmamap_dma_to_phys(const struct device *dev, dma_addr_t dma)
{
	if (!dev)
		return PHYS_NONE;
	return window_to_phys(dev, dma, 1);
}

phys_addr_t dmamap__bus_to_phys(const struct device *dev, dma_addr_t dma, u64 len)
{
	if (unlikely(dev->dma_mem_window.size)) {
		phys_addr_t phys = in_range(&dev->dma_mem_window, dma, len);

		if (phys != PHYS_NONE)
			return phys;
	}
	return window_to_phys(dev, dma, len);
}

u64 dmamap_bus_dma_limit(const struct device *dev)
{
	return dev ? dev->bus_dma_limit : 0;
}

bool dmamap_dma_capable(const struct device *dev, dma_addr_t dma, size_t size,
			bool is_ram)
{
	return dev && dmamap__dma_capable(dev, dma, size, is_ram);
}
