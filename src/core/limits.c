/* SPDX-License-Identifier: MIT */
/*
 * A device's segment limits and what a driver may ask of its table:
 * alignment, sizes, merging, mmap, whether syncs and unmaps do anything.
 * Each answer is Linux's, for the table the device has.
 */
#include <limits.h>
#include <stdint.h>
#include "../base/report.h"
#include "../debug/checker.h"
#include "../ops/direct.h"
#include "core.h"

int dma_get_cache_alignment(void)
{
	return DMAMAP_MAX_CACHE_LINE;
}

int dma_set_max_seg_size(struct device *dev, unsigned int size)
{
	if (!dev || !size)
		return -EINVAL;
	dev->dma_parms.max_segment_size = size;
	return 0;
}

unsigned int dma_get_max_seg_size(struct device *dev)
{
	if (!dev || !dev->dma_parms.max_segment_size)
		return 65536;
	return dev->dma_parms.max_segment_size;
}

int dma_set_seg_boundary(struct device *dev, unsigned long mask)
{
	if (!dev)
		return -EINVAL;
	dev->dma_parms.segment_boundary_mask = mask;
	return 0;
}

unsigned long dma_get_seg_boundary(struct device *dev)
{
	if (!dev || !dev->dma_parms.segment_boundary_mask)
		return ULONG_MAX;
	return dev->dma_parms.segment_boundary_mask;
}

unsigned long dma_get_seg_boundary_nr_pages(struct device *dev, unsigned int page_shift)
{
	if (page_shift >= sizeof(unsigned long) * CHAR_BIT)
		return 1;
	if (!dev)
		return ((unsigned long)UINT32_MAX >> page_shift) + 1;
	return (dma_get_seg_boundary(dev) >> page_shift) + 1;
}

size_t dma_opt_mapping_size(struct device *dev)
{
	const struct dma_map_ops *ops = get_dma_ops(dev);
	size_t size = SIZE_MAX;

	if (!ops)
		return 0;
	if (ops->opt_mapping_size)
		size = ops->opt_mapping_size();
	return MIN(size, dma_max_mapping_size(dev));
}

unsigned long dma_get_merge_boundary(struct device *dev)
{
	const struct dma_map_ops *ops = get_dma_ops(dev);

	if (!ops || !ops->get_merge_boundary)
		return 0;
	return ops->get_merge_boundary(dev);
}

bool dma_can_mmap(struct device *dev)
{
	const struct dma_map_ops *ops = get_dma_ops(dev);

	return ops && ops->mmap;
}

bool dma_need_sync(struct device *dev, dma_addr_t dma_addr)
{
	if (!dev)
		return false;
	if (dev->dma_ops)
		return true;
	return dmamap__direct_need_sync(dev, dma_addr);
}

bool dma_need_unmap(struct device *dev)
{
	if (!dev || dev->dma_ops || !dev->coherent || dmamap__dbg_on(dev))
		return true;
	return dmamap__direct_may_bounce(dev);
}
