/* SPDX-License-Identifier: MIT */
/* The process-wide registry of simulated linear maps (virt_to_phys()). Private to src/platform/. */
#ifndef DMAMAP_PLATFORM_MEMORY_H
#define DMAMAP_PLATFORM_MEMORY_H

#include "../base/device.h"
#include "port.h"

void dmamap__linear_register(struct dmamap_platform *p);
void dmamap__linear_unregister(struct dmamap_platform *p);
/* The platform whose linear map holds @addr, or NULL. */
struct dmamap_platform *dmamap__linear_owner(const void *addr);

/* The uncached or write-combining alias holding @addr (alias.c): its physical address and view. */
bool dmamap__alias_lookup(struct dmamap_platform *p, const void *addr, phys_addr_t *phys,
			  enum dmamap_view *view);
/* Unmaps the aliases still live when a board goes. */
void dmamap__aliases_fini(struct dmamap_platform *p);

#endif
