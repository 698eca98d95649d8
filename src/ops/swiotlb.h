/* SPDX-License-Identifier: MIT */
/*
 * swiotlb's named helpers, for the direct backend (as Linux's
 * dma_direct_map_phys() calls swiotlb_map()) and for the platform's setup.
 * Nothing else calls into the bounce pools.
 */
#ifndef DMAMAP_OPS_SWIOTLB_H
#define DMAMAP_OPS_SWIOTLB_H

#include "../base/device.h"

/* The default pool, [@start, +@bytes), and the arm64 small-kmalloc bounce rule. 0 or -ENOMEM. */
int dmamap__swiotlb_init(struct dmamap_platform *p, phys_addr_t start, u64 bytes,
			 bool bounce_small_kmalloc);
void dmamap__swiotlb_fini(struct dmamap_platform *p);
/* Where the default pool is (size 0: none), so the page allocator keeps out of it. */
struct dmamap_ram_bank dmamap__swiotlb_area(const struct dmamap_platform *p);
/* A device's restricted pool goes with the device. */
void dmamap__swiotlb_release(struct device *dev);
/* Re-derive what @dev caches of its pools (bounce_start, bounce_len, bounce_all). */
void dmamap__swiotlb_refresh(struct device *dev);

/* Whether a mapping of @dev can bounce at all: a restricted pool, or the default one on. */
bool dmamap__swiotlb_active(const struct device *dev);
/* Whether every mapping of @dev bounces: a restricted pool, or swiotlb=force. */
bool dmamap__swiotlb_force_bounce(const struct device *dev);
/* Whether a reachable mapping must bounce anyway (force, restricted, small kmalloc). */
bool dmamap__swiotlb_wanted(const struct device *dev, phys_addr_t phys, size_t size,
			    enum dma_data_direction dir);
/* The largest mapping a device that may bounce can make (SIZE_MAX if it never bounces). */
size_t dmamap__swiotlb_max_mapping_size(const struct device *dev);

/* Bounce [@phys, +@size): the device address, or DMA_MAPPING_ERROR with *@errp set. */
dma_addr_t dmamap__swiotlb_map(struct device *dev, phys_addr_t phys, size_t size,
			       enum dma_data_direction dir, unsigned long attrs, int *errp);

struct dmamap_iotlb;
/* The pool holding @phys for this device, if it is a bounce address (is_swiotlb_buffer). */
struct dmamap_iotlb *dmamap__swiotlb_of(const struct device *dev, phys_addr_t phys);
void dmamap__swiotlb_unmap(struct device *dev, struct dmamap_iotlb *t, phys_addr_t tlb,
			   size_t size, enum dma_data_direction dir, unsigned long attrs);
void dmamap__swiotlb_sync(struct device *dev, struct dmamap_iotlb *t, phys_addr_t tlb,
			  size_t size, enum dma_data_direction dir, bool for_cpu);

/*
 * The host's short path for a device whose every mapping bounces (force or
 * a restricted pool) and needs nothing else: coherent, identity, the whole
 * pool within reach (dev->bounce_all names the pool). The direct backend
 * hands such mappings over whole when nothing watches them: these count
 * in the device's stats themselves, and hand anything unusual
 * (min_align_mask, oversize, a full area, an address that is not a live
 * slot) to the general path before changing anything.
 */
dma_addr_t dmamap__swiotlb_map_host(struct device *dev, phys_addr_t phys, size_t size,
				    unsigned long attrs);
void dmamap__swiotlb_unmap_host(struct device *dev, dma_addr_t addr, size_t size,
				enum dma_data_direction dir, unsigned long attrs);

/* Coherent allocations of a device restricted to its pool come from the pool. */
void *dmamap__swiotlb_alloc(struct device *dev, size_t size, dma_addr_t *dma);
bool dmamap__swiotlb_free(struct device *dev, void *vaddr, dma_addr_t dma);

#endif
