/* SPDX-License-Identifier: MIT */
/*
 * The core's own: what the entry points share (argument reports, the
 * device refresh it installs on every platform).
 */
#ifndef DMAMAP_CORE_CORE_H
#define DMAMAP_CORE_CORE_H

#include "../base/device.h"

/* Re-derive what the backends cache in @dev (the platform's refresh hook). */
void dmamap__core_refresh(struct device *dev);
/* A platform with its common parts set up (log, registry, refresh), named @name. NULL: no memory. */
struct dmamap_platform *dmamap__platform_alloc(const char *name);
/*
 * Report a call whose device, buffer, direction or size is bad (the first
 * that is), naming @func. Returns true when it reported.
 */
bool dmamap__bad_args(struct device *dev, const void *obj, size_t size, int dir,
		      const char *func);

#endif
