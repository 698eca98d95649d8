/* SPDX-License-Identifier: MIT */
/*
 * dmabounce: the ARM bounce layer of the 2011 series (IXP4xx, SA-1111), as
 * its own ops table. A registered device bounces the buffers its
 * needs_bounce callback names through small and large pools carved from
 * memory it can reach; other buffers take the direct path, with its cache
 * maintenance.
 */
#ifndef DMAMAP_DMABOUNCE_H
#define DMAMAP_DMABOUNCE_H

#include <dmamap/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return non-zero if [dma_addr, dma_addr+size) cannot be used by the device. */
typedef int (*dmabounce_needs_bounce_fn)(struct device *dev, dma_addr_t dma_addr,
					 size_t size);

/**
 * dmabounce_register_dev() - put a device behind dmabounce
 * @dev: device
 * @small_buffer_size: block size of the small pool (e.g. 512)
 * @large_buffer_size: block size of the large pool (0: none)
 * @needs_bounce: which mappings must bounce (NULL: all)
 *
 * Installs the dmabounce ops table on @dev, in place of whatever table it
 * had, an IOMMU's included. Buffers larger than the large pool's blocks
 * get a coherent allocation of their own. Safe buffers are allocated when
 * a mapping needs one, not here.
 *
 * Return: 0; -EINVAL for a NULL @dev, a zero @small_buffer_size, or one
 * above a non-zero @large_buffer_size; -EBUSY if @dev is already
 * registered; -ENOMEM when out of memory or an injected
 * DMAMAP_FAULT_ALLOC fires. Nothing is reported.
 */
DMAMAP_API int dmabounce_register_dev(struct device *dev,
				      unsigned long small_buffer_size,
				      unsigned long large_buffer_size,
				      dmabounce_needs_bounce_fn needs_bounce);

/**
 * dmabounce_unregister_dev() - undo dmabounce_register_dev()
 * @dev: device; NULL, or a device not registered, is ignored
 *
 * Puts the direct table back (the platform's default), whatever table the
 * device had before it was registered. Live bounced mappings are reported
 * as a LEAK and their safe buffers freed: their device addresses are no
 * longer valid.
 */
DMAMAP_API void dmabounce_unregister_dev(struct device *dev);

struct dmamap_dmabounce_stats {
	uint64_t small_allocs;    /* safe buffers from the small pool */
	uint64_t large_allocs;    /* from the large pool */
	uint64_t coherent_allocs; /* larger than both: their own allocation */
	uint64_t map_ops;         /* every map through the table */
	uint64_t bounced;         /* maps that bounced */
	uint64_t bytes_to_device;
	uint64_t bytes_from_device;
	uint64_t failures;
	uint64_t live;            /* safe buffers in use now */
};

/**
 * dmamap_dmabounce_stats() - a dmabounce device's counters
 * @dev: device registered with dmabounce_register_dev()
 * @s: receives the counters
 *
 * Return: 0; -EINVAL for a NULL @dev or @s; -ENODEV if @dev is not
 * registered.
 */
DMAMAP_API int dmamap_dmabounce_stats(struct device *dev,
				      struct dmamap_dmabounce_stats *s);

#ifdef __cplusplus
}
#endif
#endif
