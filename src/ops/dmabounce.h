/* SPDX-License-Identifier: MIT */
/* dmabounce, as the platform's setup sees it: a device registered by its board's rule. */
#ifndef DMAMAP_OPS_DMABOUNCE_H
#define DMAMAP_OPS_DMABOUNCE_H

#include "../base/device.h"

/* Register @dev with pools of @small and @large blocks, bouncing what lies at or above @above. */
int dmamap__dmabounce_register_above(struct device *dev, unsigned long small,
				     unsigned long large, phys_addr_t above);
/* Whether a mapping of RAM [@phys, +@size) would take a safe buffer (the device's rule says so). */
bool dmamap__dmabounce_would_bounce(struct device *dev, phys_addr_t phys, size_t size);
/* The board's rule: the first address that bounces; 0 when the rule is another (or none). */
phys_addr_t dmamap__dmabounce_above(const struct device *dev);
/* Unregister @dev, reporting safe buffers still mapped. */
void dmamap__dmabounce_release(struct device *dev);

#endif
