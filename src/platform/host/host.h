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

/*
 * The smallest alignment at which DMA to a buffer cannot share a cache line
 * with other data: Linux's ARCH_DMA_MINALIGN (arm64 sizes it for 128-byte
 * lines; x86, 32-bit ARM and RISC-V for 64).
 */
#if defined(__aarch64__)
#define HOST_DMA_MINALIGN_SHIFT 7
#else
#define HOST_DMA_MINALIGN_SHIFT 6
#endif

/*
 * The real data cache, for a device that does not snoop it (cache.c).
 * Whether this architecture's user space can maintain it to the point of
 * coherency; clean (or, @invalidate, clean and invalidate) every line of
 * a range: the bytes of whole lines done (0, nothing touched, for a range
 * not all mapped in the process, or where the host cannot).
 */
bool dmamap__host_can_maintain_cache(void);
u64 dmamap__host_maintain(uintptr_t addr, size_t size, bool invalidate);

/* The arena, @size bytes, as the platform's one RAM bank. */
int dmamap__host_init(struct dmamap_platform *p, u64 size);
void dmamap__host_fini(struct dmamap_platform *p);

#endif
