/* SPDX-License-Identifier: MIT */
/*
 * Basic types shared by every dmamap header: kernel names, fixed widths.
 * dma_addr_t and phys_addr_t are 64-bit on every host, 32-bit hosts too,
 * because simulated boards put RAM and windows above 4 GiB.
 */
#ifndef DMAMAP_TYPES_H
#define DMAMAP_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define DMAMAP_API __attribute__((visibility("default")))
#else
#define DMAMAP_API
#endif

typedef uint64_t dma_addr_t;
typedef uint64_t phys_addr_t;
typedef uint64_t u64;
typedef unsigned int gfp_t;

/* Opaque handles. A struct page pointer names one page of CPU-visible memory. */
struct device;
struct page;
struct dmamap_platform;

#ifndef PAGE_SHIFT
#define PAGE_SHIFT 12
#endif
#define PAGE_SIZE (1UL << PAGE_SHIFT)
/*
 * Signed, so that it widens with ones: phys & PAGE_MASK keeps the upper
 * half of a 64-bit physical or DMA address on a 32-bit host, where an
 * unsigned long mask would clear it (Linux's 32-bit x86 needs a separate
 * PHYSICAL_PAGE_MASK for this).
 */
#define PAGE_MASK (~(long)(PAGE_SIZE - 1))
#define PAGE_ALIGN(x) (((x) + PAGE_SIZE - 1) & PAGE_MASK)

/* Allocation flags, kernel names. Zone modifiers select where pages come from. */
#define __GFP_DMA 0x01u
#define __GFP_HIGHMEM 0x02u
#define __GFP_DMA32 0x04u
#define __GFP_ZERO 0x100u
#define __GFP_NOWARN 0x200u
#define __GFP_DIRECT_RECLAIM 0x400u
#define __GFP_HIGH 0x800u
#define GFP_KERNEL (__GFP_DIRECT_RECLAIM)
#define GFP_ATOMIC (__GFP_HIGH)
#define GFP_NOWAIT 0u
#define GFP_DMA __GFP_DMA
#define GFP_DMA32 __GFP_DMA32
/* dmamap_kmalloc(): the kmalloc flags. */
#define DMAMAP_GFP_DMA __GFP_DMA
/* dmamap_kmalloc(): align the object to the platform's ARCH_DMA_MINALIGN. */
#define DMAMAP_GFP_DMA_ALIGN 0x1000u

#ifdef __cplusplus
}
#endif
#endif
