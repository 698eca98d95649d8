/* SPDX-License-Identifier: MIT */
/*
 * IOMMU-backed DMA: a device behind an IOMMU reaches
 * memory only through its domain's IO page tables and IOTLB. Mappings get
 * IOVAs from an allocator with per-thread caches; permissions come from the
 * direction; unmapped IOVAs are invalidated in the IOTLB at once (strict)
 * or in batches from a flush queue (lazy), whose stale window the checker
 * reports when a device uses it.
 */
#ifndef DMAMAP_IOMMU_H
#define DMAMAP_IOMMU_H

#include <dmamap/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

enum dmamap_iommu_flush {
	DMAMAP_IOMMU_STRICT = 0, /* IOTLB invalidated at every unmap */
	DMAMAP_IOMMU_LAZY = 1,   /* unmapped IOVAs queued, invalidated in batches */
};

/* What the IOMMU hardware did for one device's domain. */
struct dmamap_iommu_stats {
	uint64_t pages_mapped;     /* IO page table entries live now */
	uint64_t map_calls, unmap_calls;
	uint64_t iotlb_hits, iotlb_misses;
	uint64_t iotlb_invalidations; /* invalidation commands sent */
	uint64_t queue_flushes;    /* lazy mode: batches flushed */
	uint64_t queued;           /* lazy mode: IOVA ranges waiting now */
	uint64_t translation_faults, permission_faults;
	uint64_t iova_allocs, iova_cache_hits, iova_failures;
};

typedef void (*dmamap_iommu_fault_fn)(void *ctx, struct device *dev,
				      dma_addr_t iova, bool write,
				      const char *reason);

/**
 * dmamap_iommu_stats() - a device's IOMMU domain counters
 * @dev: a device behind an IOMMU
 * @s: receives them
 *
 * The counters are the domain's: devices that share it share them.
 *
 * Return: 0; -EINVAL for a NULL @dev or @s; -ENODEV if @dev is not behind
 * an IOMMU.
 */
DMAMAP_API int dmamap_iommu_stats(struct device *dev, struct dmamap_iommu_stats *s);

/**
 * dmamap_iommu_set_flush() - strict or lazy IOTLB invalidation
 * @dev: a device behind an IOMMU (its domain changes for all its devices)
 * @mode: DMAMAP_IOMMU_STRICT or DMAMAP_IOMMU_LAZY
 *
 * Going strict drains the flush queues first.
 *
 * Return: 0; -EINVAL for a NULL @dev or another @mode; -ENODEV if @dev is
 * not behind an IOMMU.
 */
DMAMAP_API int dmamap_iommu_set_flush(struct device *dev,
				      enum dmamap_iommu_flush mode);

/**
 * dmamap_iommu_flush() - drain a lazy domain's flush queue now
 * @dev: a device behind an IOMMU
 *
 * A strict domain has nothing queued: the call does nothing there.
 *
 * Return: 0; -EINVAL for a NULL @dev; -ENODEV if @dev is not behind an
 * IOMMU.
 */
DMAMAP_API int dmamap_iommu_flush(struct device *dev);

/**
 * dmamap_iommu_set_fault_handler() - called on every translation or permission fault
 * @dev: a device behind an IOMMU (the handler is its domain's)
 * @fn: handler, or NULL to remove it
 * @ctx: passed to @fn
 *
 * Return: 0; -EINVAL for a NULL @dev; -ENODEV if @dev is not behind an
 * IOMMU.
 */
DMAMAP_API int dmamap_iommu_set_fault_handler(struct device *dev,
					      dmamap_iommu_fault_fn fn, void *ctx);

/**
 * dmamap_iommu_iova_to_phys() - walk the IO page tables, as the hardware does
 * @dev: a device behind an IOMMU
 * @iova: IO virtual address
 *
 * Return: the physical address, or (phys_addr_t)-1 if nothing is mapped
 * there, @dev is not behind an IOMMU or is NULL.
 */
DMAMAP_API phys_addr_t dmamap_iommu_iova_to_phys(struct device *dev,
						 dma_addr_t iova);

#ifdef __cplusplus
}
#endif
#endif
