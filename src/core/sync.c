/* SPDX-License-Identifier: MIT */
/*
 * Syncs: ownership of a live mapping handed to the CPU or back to the
 * device. The direct backend has nothing to do for a coherent identity
 * mapping; otherwise it (or the table) moves bytes or maintains caches.
 */
#include "../lib/lib.h"
#include "../debug/checker.h"
#include "../ops/direct.h"
#include "../base/trace.h"
#include "core.h"

static inline void sync_one(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir, bool for_cpu)
{
	const struct dma_map_ops *ops = dev->dma_ops;

	if (likely(!ops))
		dmamap__direct_sync(dev, addr, size, dir, for_cpu);
	else if (for_cpu && ops->sync_single_for_cpu)
		ops->sync_single_for_cpu(dev, addr, size, dir);
	else if (!for_cpu && ops->sync_single_for_device)
		ops->sync_single_for_device(dev, addr, size, dir);
	dmamap__stat_add(dev, for_cpu ? ST_SYNC_CPU : ST_SYNC_DEV, 1);
}

/* Whether the checker wants dmamap__dbg_synced() after the backend's work. */
static __attribute__((noinline)) bool dbg_sync(struct device *dev, dma_addr_t addr,
					       size_t size, int dir, bool for_cpu)
{
	return !dmamap__backend_reports(dev, addr, size) &&
	       dmamap__dbg_sync(dev, addr, size, dir, for_cpu, 0);
}

static inline __attribute__((always_inline)) void
sync_single(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir,
	    bool for_cpu, const char *func)
{
	bool after = false;

	if (unlikely(!dmamap__handle_args_ok(dev, addr, size, dir))) {
		dmamap__bad_handle(dev, addr, size, dir, func);
		return;
	}
	/* One test of the word the hooks share: busy devices step, the tracer and the checker look. */
	if (dmamap__hooks_on(dev)) {
		dmamap__api_yield(dev);
		DMAMAP__TRACE(dev->plat, .dev = dev, .dma_addr = addr, .size = size, .dir = dir,
			      .id = for_cpu ? DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_CPU :
					      DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_DEVICE);
		if (dmamap__dbg_on(dev))
			after = dbg_sync(dev, addr, size, dir, for_cpu);
	}
	sync_one(dev, addr, size, dir, for_cpu);
	/* After the backend's copy or maintenance: what the checker follows changed hands. */
	if (unlikely(after))
		dmamap__dbg_synced(dev, addr, size, for_cpu);
}

void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir)
{
	sync_single(dev, addr, size, dir, true, __func__);
}

void dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir)
{
	sync_single(dev, addr, size, dir, false, __func__);
}

void dma_sync_single_range_for_cpu(struct device *dev, dma_addr_t addr,
				   unsigned long offset, size_t size,
				   enum dma_data_direction dir)
{
	sync_single(dev, addr + offset, size, dir, true, __func__);
}

void dma_sync_single_range_for_device(struct device *dev, dma_addr_t addr,
				      unsigned long offset, size_t size,
				      enum dma_data_direction dir)
{
	sync_single(dev, addr + offset, size, dir, false, __func__);
}

/* Each device segment, after the sync's backend work (dmamap__dbg_synced()). */
static void synced_sg(struct device *dev, struct scatterlist *sgl, int nelems, bool for_cpu)
{
	int mapped = dmamap__dbg_sg_mapped_ents(dev, sg_dma_address(sgl));
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, mapped ? MIN(mapped, nelems) : nelems, i) {
		if (!sg)
			break;
		dmamap__dbg_synced(dev, sg_dma_address(sg), sg_dma_len(sg), for_cpu);
	}
}

static void sync_sg(struct device *dev, struct scatterlist *sgl, int nelems,
		    enum dma_data_direction dir, bool for_cpu, const char *func)
{
	const struct dma_map_ops *ops;
	struct scatterlist *sg;
	bool after = false;
	int i;

	if (unlikely(dmamap__bad_map_args(dev, sgl, (size_t)(nelems > 0), dir, func)))
		return;
	dmamap__api_yield(dev);
	DMAMAP__TRACE(dev->plat, .dev = dev, .sgl = sgl, .nents = nelems, .dir = dir,
		      .id = for_cpu ? DMAMAP_TRACE_DMA_SYNC_SG_FOR_CPU : DMAMAP_TRACE_DMA_SYNC_SG_FOR_DEVICE);
	if (dmamap__dbg_on(dev)) {
		/* As many device segments as map_sg returned, as dma-debug counts. */
		int mapped = dmamap__dbg_sg_mapped_ents(dev, sg_dma_address(sgl));

		for_each_sg(sgl, sg, mapped ? MIN(mapped, nelems) : nelems, i) {
			if (!sg)
				break;
			after |= dmamap__dbg_sync(dev, sg_dma_address(sg), sg_dma_len(sg), dir,
						  for_cpu, i == 0 ? nelems : 0);
		}
	}
	ops = dev->dma_ops;
	if (ops && for_cpu && ops->sync_sg_for_cpu) {
		ops->sync_sg_for_cpu(dev, sgl, nelems, dir);
	} else if (ops && !for_cpu && ops->sync_sg_for_device) {
		ops->sync_sg_for_device(dev, sgl, nelems, dir);
	} else {
		for_each_sg(sgl, sg, nelems, i) {
			if (unlikely(!sg)) {
				dmamap__sg_too_short(dev, func, i, nelems);
				return;
			}
			sync_one(dev, sg_dma_address(sg), sg_dma_len(sg), dir, for_cpu);
		}
	}
	if (after)
		synced_sg(dev, sgl, nelems, for_cpu);
}

void dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg, int nelems,
			 enum dma_data_direction dir)
{
	sync_sg(dev, sg, nelems, dir, true, __func__);
}

void dma_sync_sg_for_device(struct device *dev, struct scatterlist *sg,
			    int nelems, enum dma_data_direction dir)
{
	sync_sg(dev, sg, nelems, dir, false, __func__);
}

void dma_sync_sgtable_for_cpu(struct device *dev, struct sg_table *sgt,
			      enum dma_data_direction dir)
{
	if (unlikely(!sgt)) {
		dmamap__null_table(dev, __func__);
		return;
	}
	sync_sg(dev, sgt->sgl, (int)sgt->orig_nents, dir, true, __func__);
}

void dma_sync_sgtable_for_device(struct device *dev, struct sg_table *sgt,
				 enum dma_data_direction dir)
{
	if (unlikely(!sgt)) {
		dmamap__null_table(dev, __func__);
		return;
	}
	sync_sg(dev, sgt->sgl, (int)sgt->orig_nents, dir, false, __func__);
}
