/* SPDX-License-Identifier: MIT */
/* The core's own: the device refresh it installs on every platform. */
#ifndef DMAMAP_CORE_CORE_H
#define DMAMAP_CORE_CORE_H

#include "../base/device.h"

/* Re-derive what the backends cache in @dev (the platform's refresh hook). */
void dmamap__core_refresh(struct device *dev);

#endif
