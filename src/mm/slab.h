/* SPDX-License-Identifier: MIT */
#ifndef DMAMAP_MM_SLAB_H
#define DMAMAP_MM_SLAB_H
#include "../internal.h"

int dmamap__slab_init(struct dmamap_platform *p);
void dmamap__slab_fini(struct dmamap_platform *p);
struct dmamap_arena *dmamap__arena_of(struct dmamap_platform *p,
				      phys_addr_t phys);
#endif
