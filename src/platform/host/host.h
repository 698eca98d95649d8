/* SPDX-License-Identifier: MIT */
/*
 * The host behind the port: this process's memory. Coherent allocations
 * come from an arena (one memfd, so they can be mmap()ed again); every
 * other address is memory at its own physical address. Private to
 * src/platform/.
 */
#ifndef DMAMAP_PLATFORM_HOST_HOST_H
#define DMAMAP_PLATFORM_HOST_HOST_H

#include "../../base/device.h"

/* The arena, @size bytes, as the platform's one RAM bank. */
int dmamap__host_init(struct dmamap_platform *p, u64 size);
void dmamap__host_fini(struct dmamap_platform *p);

#endif
