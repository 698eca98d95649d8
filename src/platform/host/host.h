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
 * coherency; the line the operations step by (0: cannot); clean, and
 * clean+invalidate, every line of a range: how many lines (0, nothing
 * touched, for a range not all mapped in the process).
 */
bool dmamap__host_can_maintain_cache(void);
unsigned int dmamap__host_cache_line(void);
unsigned long dmamap__host_clean(uintptr_t addr, size_t size);
unsigned long dmamap__host_flush(uintptr_t addr, size_t size);

/* The arena, @size bytes, as the platform's one RAM bank. */
int dmamap__host_init(struct dmamap_platform *p, u64 size);
void dmamap__host_fini(struct dmamap_platform *p);

#endif
