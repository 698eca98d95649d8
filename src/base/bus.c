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

/* [dma, dma+len) inside one window range; PHYS_NONE otherwise. */
static phys_addr_t window_to_phys(const struct device *dev, dma_addr_t dma, u64 len)
{
	if (!dev->nr_ranges)
		return dma + len - 1 >= dma ? dma : PHYS_NONE;
	for (unsigned int i = 0; i < dev->nr_ranges; i++) {
		phys_addr_t phys = in_range(&dev->ranges[i], dma, len);

		if (phys != PHYS_NONE)
			return phys;
	}
	return PHYS_NONE;
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
