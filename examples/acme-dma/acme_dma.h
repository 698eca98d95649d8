/* SPDX-License-Identifier: MIT */
/* The ACME copy engine driver: what its tests (and the rest of a kernel) call. */
#ifndef ACME_DMA_H
#define ACME_DMA_H

#include <stddef.h>

struct acme_dma;

/*
 * Copy @len bytes from @src to @dst with the engine. Both are CPU
 * buffers of the board's linear map (kmalloc memory); the driver maps
 * them for the transfer. Copies of up to ACME_SMALL bytes go through
 * buffers the driver keeps mapped, as network drivers copy small packets.
 * 0, -ENOMEM when a buffer cannot be mapped, -EIO when the engine
 * faulted, -ETIMEDOUT when it never finished.
 */
int acme_copy(struct acme_dma *a, void *dst, const void *src, size_t len);

#define ACME_SMALL 256

#endif
