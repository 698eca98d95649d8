/* SPDX-License-Identifier: MIT */
/*
 * A device's bus without an IOMMU: the window ranges that turn physical
 * addresses into device addresses and back, the limit the bus puts on
 * them, and a declared pool's own window.
 */
#ifndef DMAMAP_BASE_BUS_H
#define DMAMAP_BASE_BUS_H

#include "../lib/lib.h"
#include "device.h"

/* dmamap_phys_to_dma() for the map paths: a device without ranges needs neither a call nor a loop. */
static inline dma_addr_t dmamap__phys_to_dma(const struct device *dev, phys_addr_t phys)
{
	return likely(!dev->nr_ranges) ? phys : dmamap_phys_to_dma(dev, phys);
}

/* The highest device address RAM can be reached at under @mask: the bus may stop lower. */
static inline u64 dmamap__reach_limit(const struct device *dev, u64 mask)
{
	return dev->bus_dma_limit && dev->bus_dma_limit < mask ? dev->bus_dma_limit : mask;
}

/* dev->map_limit is dmamap__reach_limit() of the current mask, kept by dmamap__device_refresh(). */
static inline bool dmamap__dma_capable(const struct device *dev, dma_addr_t dma,
				       size_t size, bool is_ram)
{
	dma_addr_t end = dma + size - 1;

	return size && end >= dma && end <= (is_ram ? dev->map_limit : *dev->dma_mask);
}

/*
 * Whether device addresses [@dma, +@len) are RAM [@phys, +@len) as one run
 * through the window: one range, or ranges that continue each other on
 * both sides.
 */
bool dmamap__window_run(const struct device *dev, phys_addr_t phys, dma_addr_t dma, u64 len);

/*
 * Where the device reaches RAM [@phys, @phys + @size) as one run of
 * addresses at or under @limit (see dmamap__reach_limit()), or
 * DMA_MAPPING_ERROR when it cannot.
 */
static inline dma_addr_t dmamap__reach(const struct device *dev, phys_addr_t phys,
				       size_t size, u64 limit)
{
	dma_addr_t dma = dmamap__phys_to_dma(dev, phys);
	dma_addr_t end = dma + size - 1;

	/* With windows, the device must find the same run again at @dma (unmap, its accesses). */
	if (dma == DMA_MAPPING_ERROR || !size || end < dma || end > limit ||
	    (dev->nr_ranges && !dmamap__window_run(dev, phys, dma, size)))
		return DMA_MAPPING_ERROR;
	return dma;
}

/*
 * The RAM behind device addresses [@dma, @dma + @len) on the device's
 * bus: its declared pool's window first, then the window's ranges (one,
 * or several that continue each other). PHYS_NONE when they are not one
 * run of RAM the bus maps.
 */
phys_addr_t dmamap__bus_to_phys(const struct device *dev, dma_addr_t dma, u64 len);

#endif
