/* SPDX-License-Identifier: MIT */
/*
 * The direct backend, as the core and the tables built on it see it. The
 * core calls it without an indirect call for devices with no ops table
 * (as Linux's dma_map_direct()); dmabounce reuses its allocation entries.
 */
#ifndef DMAMAP_OPS_DIRECT_H
#define DMAMAP_OPS_DIRECT_H

#include "../lib/lib.h"
#include "../base/device.h"

/*
 * Re-derive what the direct backend caches in @dev: whether mapping is
 * only a limit check, the pointer being the device address (the host's
 * memory, no window, coherent, nothing that bounces: dev->direct_identity),
 * and what swiotlb keeps for it (dmamap__swiotlb_refresh()).
 */
void dmamap__direct_refresh(struct device *dev);

/* Whether a direct mapping of RAM [@phys, +@size) uses the memory itself: no bounce (what map_phys() decides). */
bool dmamap__direct_in_place(const struct device *dev, phys_addr_t phys, size_t size);

dma_addr_t dmamap__direct_map_slow(struct device *dev, void *ptr, size_t size,
				   enum dma_data_direction dir, unsigned long attrs, int *errp);
void dmamap__direct_unmap_slow(struct device *dev, dma_addr_t addr, size_t size,
			       enum dma_data_direction dir, unsigned long attrs);

/* Whether mapping [@ptr, +@size) is the identity: no work, the pointer is the address. */
static inline bool dmamap__direct_map_identity(const struct device *dev, const void *ptr,
					       size_t size)
{
	dma_addr_t addr = (dma_addr_t)(uintptr_t)ptr;

	return dev->direct_identity && addr + size - 1 >= addr && addr + size - 1 <= dev->map_limit;
}

/*
 * Map @size bytes at @ptr, a linear-map address. On failure,
 * DMA_MAPPING_ERROR with *@errp set (if @errp is not NULL): -EINVAL for
 * memory that is not RAM of the board, -EIO for memory the device cannot
 * reach with nothing to bounce it, -ENOMEM when the bounce pool is full
 * (each reported and counted). The identity case is inline; everything
 * else (windows, cache maintenance, bouncing) is out of line.
 */
static inline dma_addr_t dmamap__direct_map(struct device *dev, void *ptr, size_t size,
					    enum dma_data_direction dir, unsigned long attrs,
					    int *errp)
{
	if (likely(dmamap__direct_map_identity(dev, ptr, size)))
		return (dma_addr_t)(uintptr_t)ptr;
	return dmamap__direct_map_slow(dev, ptr, size, dir, attrs, errp);
}

/* Whether @addr can only be an identity mapping's: not in the default bounce pool. */
static inline bool dmamap__direct_identity_handle(const struct device *dev, dma_addr_t addr)
{
	return dev->direct_identity && addr - dev->bounce_start >= dev->bounce_len;
}

static inline void dmamap__direct_unmap(struct device *dev, dma_addr_t addr, size_t size,
					enum dma_data_direction dir, unsigned long attrs)
{
	if (likely(dmamap__direct_identity_handle(dev, addr)))
		return; /* coherent, nothing bounced: nothing to do */
	dmamap__direct_unmap_slow(dev, addr, size, dir, attrs);
}

/*
 * Whether every mapping of @dev bounces through swiotlb's short path (on
 * the host: forced, or a restricted pool; dev->bounce_all). Such mappings
 * go to it whole, counted there, when nothing is watching: through the
 * core's general path a 4 KiB bounce runs at 51 % of memcpy, not 77 %
 * (make bench).
 */
static inline bool dmamap__direct_bounces_all(const struct device *dev)
{
	return dev->bounce_all != NULL;
}

dma_addr_t dmamap__direct_map_bounced(struct device *dev, void *ptr, size_t size,
				      unsigned long attrs);
void dmamap__direct_unmap_bounced(struct device *dev, dma_addr_t addr, size_t size,
				  enum dma_data_direction dir, unsigned long attrs);

void dmamap__direct_sync_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
				 enum dma_data_direction dir);
void dmamap__direct_sync_for_device(struct device *dev, dma_addr_t addr, size_t size,
				    enum dma_data_direction dir);

static inline void dmamap__direct_sync(struct device *dev, dma_addr_t addr, size_t size,
				       enum dma_data_direction dir, bool for_cpu)
{
	/* Coherent, not bounced, not wrapping: nothing to move. */
	if (likely(dmamap__direct_identity_handle(dev, addr) && addr + size - 1 >= addr))
		return;
	if (for_cpu)
		dmamap__direct_sync_for_cpu(dev, addr, size, dir);
	else
		dmamap__direct_sync_for_device(dev, addr, size, dir);
}

/* The direct table's allocation entries, for tables that reuse them (dmabounce). */
void *dmamap__direct_alloc(struct device *dev, size_t size, dma_addr_t *dma_handle,
			   gfp_t gfp, unsigned long attrs);
void dmamap__direct_free(struct device *dev, size_t size, void *cpu_addr,
			 dma_addr_t dma_handle, unsigned long attrs);
int dmamap__direct_mmap(struct device *dev, struct vm_area_struct *vma, void *cpu_addr,
			dma_addr_t dma_addr, size_t size, unsigned long attrs);
int dmamap__direct_get_sgtable(struct device *dev, struct sg_table *sgt, void *cpu_addr,
			       dma_addr_t dma_addr, size_t size, unsigned long attrs);
void *dmamap__direct_alloc_noncoherent(struct device *dev, size_t size,
				       dma_addr_t *dma_handle, enum dma_data_direction dir,
				       gfp_t gfp);
void dmamap__direct_free_noncoherent(struct device *dev, size_t size, void *vaddr,
				     dma_addr_t dma_handle, enum dma_data_direction dir);
int dmamap__direct_supported(struct device *dev, u64 mask);

/* What the device reaches (direct_limits.c), as Linux's dma-direct answers. */
u64 dmamap__direct_required_mask(struct device *dev);
/* Every byte of every RAM bank has a device address through the device's window. */
bool dmamap__direct_all_ram_mapped(struct device *dev);
/* The mask or the bus limit falls short of RAM, or the window misses some of it. */
bool dmamap__direct_addressing_limited(struct device *dev);
size_t dmamap__direct_max_mapping_size(struct device *dev);
/* Whether a sync of the mapping at @addr does anything: not coherent, or bounced. */
bool dmamap__direct_need_sync(struct device *dev, dma_addr_t addr);
/* Whether any mapping of @dev may bounce (forced, restricted, addressing-limited). */
bool dmamap__direct_may_bounce(struct device *dev);

#endif
