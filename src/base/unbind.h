/* SPDX-License-Identifier: MIT */
/*
 * How a device that goes away lets go of its driver: the driver model
 * (src/driver/, a layer above) registers what releases a bound device,
 * and the core calls it first when it destroys one, so that a board
 * destroyed with drivers bound still calls their remove() and leaves
 * nothing pointing at it. Declared apart from device.h: the driver model
 * knows a device only as the public headers give it.
 */
#ifndef DMAMAP_BASE_UNBIND_H
#define DMAMAP_BASE_UNBIND_H

struct device;

/* Set once (any later call replaces it); NULL: nothing to release. */
void dmamap__set_unbind_hook(void (*release)(struct device *dev));
/* Release @dev's driver, if a hook is set: the core, before it destroys @dev. */
void dmamap__device_unbind(struct device *dev);

#endif
