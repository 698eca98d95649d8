/* SPDX-License-Identifier: MIT */
/* dmabounce, as the platform's setup sees it: a device registered by its board's rule. */
#ifndef DMAMAP_OPS_DMABOUNCE_H
#define DMAMAP_OPS_DMABOUNCE_H

#include "../base/device.h"

/* Register @dev with pools of @small and @large blocks, bouncing what lies at or above @above. */
int dmamap__dmabounce_register_above(struct device *dev, unsigned long small,
				     unsigned long large, phys_addr_t above);
/* Unregister @dev, reporting safe buffers still mapped. */
void dmamap__dmabounce_release(struct device *dev);

#endif
