/* SPDX-License-Identifier: MIT */
/*
 * The simulated hardware on a platform's bus, as the layers above see it:
 * where a device address lands in RAM, and a device's model.
 */
#ifndef DMAMAP_HW_HW_H
#define DMAMAP_HW_HW_H

#include "../base/device.h"

/*
 * The RAM behind device addresses [@dma, +@len) of @dev: through its
 * IOMMU's page table (the first page's translation), else its bus.
 * PHYS_NONE when nothing is there.
 */
phys_addr_t dmamap__dev_dma_to_phys(const struct device *dev, dma_addr_t dma, u64 len);

/* Give @dev the model registered as @name and probe it; -EINVAL if unknown, else the probe's error. */
int dmamap__model_attach(struct device *dev, const char *name);
void dmamap__model_detach(struct device *dev);

#endif
