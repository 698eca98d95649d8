/* SPDX-License-Identifier: MIT */
/*
 * swiotlb: bounce buffers for devices that cannot reach a buffer (beyond
 * their mask or window), for sub-cache-line kmalloc buffers on non-coherent
 * devices, for every mapping in force mode, and for devices restricted to a
 * pool of their own. Slots of 2 KiB, mappings of at most 128 slots
 * (256 KiB), in areas with their own locks.
 */
#ifndef DMAMAP_SWIOTLB_H
#define DMAMAP_SWIOTLB_H

#include <dmamap/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IO_TLB_SHIFT 11
#define IO_TLB_SIZE (1UL << IO_TLB_SHIFT)
#define IO_TLB_SEGSIZE 128
#define DMAMAP_SWIOTLB_MAX_MAPPING (IO_TLB_SIZE * IO_TLB_SEGSIZE)

struct dmamap_swiotlb_stats {
	char name[DMAMAP_NAME_MAX]; /* "swiotlb" or "restricted@0x<start>" */
	phys_addr_t start;          /* physical address of the pool */
	uint64_t slot_size;
	uint64_t total_slots;
	uint64_t used_slots;        /* held by live mappings */
	/*
	 * Most slots ever used at once: exact while one thread does the
	 * mapping; once several have, an area another thread allocated from
	 * last counts at its own peak (and a run another thread parked as
	 * used), so the figure may overstate, never understate.
	 */
	uint64_t high_water;
	/*
	 * Longest run of slots a mapping could use: free ones, and runs the
	 * host's short path parked for a thread's next map, which a mapping
	 * that needs them takes back.
	 */
	uint64_t largest_free_run;
	uint64_t bounced_maps;      /* mappings that went through the pool */
	uint64_t bytes_to_device;   /* copied original -> pool */
	uint64_t bytes_from_device; /* copied pool -> original */
	uint64_t failures;          /* mappings refused: pool full or too large */
};

/**
 * dmamap_swiotlb_stats() - a bounce pool's counters
 * @p: platform (its default pool), used when @dev is NULL
 * @dev: a device: its restricted pool if it has one, else the default pool
 * @s: receives the counters
 *
 * Return: 0; -EINVAL when @p and @dev are both NULL, or @s is NULL;
 * -ENODEV if there is no such pool (a board made with swiotlb_size ~0,
 * for a device without a restricted pool).
 */
DMAMAP_API int dmamap_swiotlb_stats(struct dmamap_platform *p,
				    struct device *dev,
				    struct dmamap_swiotlb_stats *s);

enum dmamap_swiotlb_mode {
	DMAMAP_SWIOTLB_ON = 0,  /* bounce what a device cannot reach (default) */
	DMAMAP_SWIOTLB_FORCE,   /* swiotlb=force: bounce every direct mapping */
	DMAMAP_SWIOTLB_NOFORCE, /* swiotlb=noforce: never; unreachable buffers fail */
};

/**
 * dmamap_swiotlb_set_mode() - the kernel's swiotlb= switch for a platform
 * @p: platform
 * @mode: DMAMAP_SWIOTLB_*
 *
 * Devices with a restricted pool bounce through it whatever the mode.
 *
 * Return: 0; -EINVAL for NULL or a bad mode; -ENODEV if the platform has no
 * default pool (only DMAMAP_SWIOTLB_NOFORCE is then accepted).
 */
DMAMAP_API int dmamap_swiotlb_set_mode(struct dmamap_platform *p,
				       enum dmamap_swiotlb_mode mode);

/**
 * dmamap_swiotlb_restricted_pool() - make a device bounce through its own pool
 * @dev: device (not behind an IOMMU)
 * @phys: physical address of the pool (board RAM, page aligned)
 * @size: bytes (a multiple of 256 KiB)
 *
 * Every streaming mapping of @dev then bounces through the pool, and its
 * coherent allocations come from it, as with a restricted-dma-pool.
 * Devices given the same range share one pool, as devices naming the same
 * restricted-dma-pool region share its io_tlb_mem in Linux: no slot goes
 * to two of them, and the pool lives until the last of them goes. A new
 * pool starts zeroed.
 * Nothing keeps the page allocator, CMA or the default pool out of the
 * range: give memory the board reserves. A device behind an IOMMU is
 * accepted, but the IOMMU's table neither bounces through the pool nor
 * allocates from it.
 *
 * Return: 0; -EINVAL for a NULL @dev, a zero @size, a @phys that is not
 * page aligned, a @size that is not a multiple of 256 KiB, or, on a
 * simulated board, a range that is not inside one RAM bank (on the host
 * any memory will do), a range that overlaps another device's pool
 * without being it; -EBUSY if the device already has one; -ENOMEM when
 * the pool's bookkeeping cannot be allocated. Nothing is reported.
 */
DMAMAP_API int dmamap_swiotlb_restricted_pool(struct device *dev,
					      phys_addr_t phys, size_t size);

/**
 * dmamap_swiotlb_is_bounce() - whether a device address is in a bounce pool
 * @dev: device
 * @dma: device address
 *
 * Return: true if @dma points into the default or the device's pool;
 * false if not, or @dev is NULL.
 */
DMAMAP_API bool dmamap_swiotlb_is_bounce(struct device *dev, dma_addr_t dma);

#ifdef __cplusplus
}
#endif
#endif
