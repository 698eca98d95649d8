/* SPDX-License-Identifier: MIT */
/*
 * Scatter-gather mappings: the table's own map_sg when it has one, else
 * one mapping per entry (the direct backend, tables without map_sg),
 * unwound on the first failure; the checker remembers each device segment.
 */
#include "../lib/lib.h"
#include "../base/report.h"
#include "../debug/checker.h"
#include "../platform/port.h"
#include "../base/trace.h"
#include "core.h"

static void generic_unmap_sg(struct device *dev, struct scatterlist *sgl,
			     int nents, enum dma_data_direction dir,
			     unsigned long attrs)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i) {
		if (unlikely(!sg)) {
			dmamap__sg_too_short(dev, "dma_unmap_sg", i, nents);
			return;
		}
		dmamap__unmap_entry(dev, sg_dma_address(sg), sg_dma_len(sg), dir, attrs);
	}
}

/* Map every entry; on failure at entry k unmap 0..k-1. Returns count or -errno. */
static int generic_map_sg(struct device *dev, struct scatterlist *sgl,
			  int nents, enum dma_data_direction dir,
			  unsigned long attrs)
{
	struct scatterlist *sg;
	int i, err = -EIO;

	for_each_sg(sgl, sg, nents, i) {
		dma_addr_t addr;

		if (unlikely(!sg || !sg->length || !sg_page(sg))) {
			err = -EINVAL;
			dmamap__api_error(dev, "dma_map_sg", DMAMAP_ERRK_BAD_ARG,
					  DMAMAP_DBG_INVALID_ARGUMENT,
					  "entry %d of %d is %s", i, nents,
					  !sg ? "missing (list shorter than nents)" :
					  !sg->length ? "empty" : "without a page");
			goto unwind;
		}
		addr = dmamap__map_entry(dev, dmamap__page_ptr(sg_page(sg), sg->offset),
					 sg->length, dir, attrs, &err);
		if (addr == DMA_MAPPING_ERROR)
			goto unwind;
		sg_dma_address(sg) = addr;
		sg_dma_len(sg) = sg->length;
	}
	return nents;
unwind:
	generic_unmap_sg(dev, sgl, i, dir, attrs | DMA_ATTR_SKIP_CPU_SYNC);
	return err;
}

static void dbg_map_sg(struct device *dev, struct scatterlist *sgl, int nents,
		       int mapped, int dir, void *caller, unsigned long attrs)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, mapped, i) {
		struct dbg_ref r = {
			.type = DBG_SG, .addr = sg_dma_address(sg),
			.size = sg_dma_len(sg), .dir = dir,
			.phys = mapped != nents ? PHYS_NONE :
				dmamap__dbg_device_phys(dev, sg_dma_address(sg), sg_dma_len(sg)),
			.cpu = sg_virt(sg), .sg_call_ents = nents,
			.sg_mapped_ents = mapped, .caller = caller, .attrs = attrs,
		};

		dmamap__dbg_map(dev, &r);
	}
}

/* The checker looks at as many entries as map_sg returned, as the kernel's does. */
static void dbg_unmap_sg(struct device *dev, struct scatterlist *sgl, int nents,
			 int dir)
{
	int mapped = dmamap__dbg_sg_mapped_ents(dev, sg_dma_address(sgl));
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, mapped ? MIN(mapped, nents) : nents, i) {
		if (!sg)
			break;
		struct dbg_ref r = {
			.type = DBG_SG, .addr = sg_dma_address(sg), .size = sg_dma_len(sg),
			.dir = dir, .phys = PHYS_NONE, .sg_call_ents = nents,
		};

		if (!dmamap__backend_reports(dev, r.addr, r.size))
			dmamap__dbg_unmap(dev, &r);
	}
}

/*
 * For a table's own map_sg: no entry may start in RAM and run past the end
 * of its bank (the generic path checks each entry as it maps it).
 */
static bool entries_in_ram(struct device *dev, struct scatterlist *sgl, int nents)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i) {
		if (!sg)
			break; /* the table's map_sg says how short the list is */
		if (sg_page(sg) && unlikely(!dmamap__linear_tail_ok(dev->plat,
					dmamap__page_ptr(sg_page(sg), sg->offset), sg->length))) {
			dmamap__api_error(dev, "dma_map_sg", DMAMAP_ERRK_BAD_ARG,
					  DMAMAP_DBG_INVALID_ARGUMENT,
					  "entry %d of %d [size=%u] runs past the end of its RAM bank",
					  i, nents, sg->length);
			return false;
		}
	}
	return true;
}

static int map_sg(struct device *dev, struct scatterlist *sg, int nents,
		  enum dma_data_direction dir, unsigned long attrs,
		  void *caller, const char *func)
{
	const struct dma_map_ops *ops;
	int ret;

	if (unlikely(dmamap__bad_map_args(dev, sg, (size_t)(nents > 0), dir, func)))
		return -EINVAL;
	dmamap__api_yield(dev);
	/* As Linux: refused before any entry, whatever the table. */
	if (dmamap__coherence_refused(dev, attrs)) {
		dmamap__not_coherent(dev, func);
		return -EOPNOTSUPP;
	}
	ops = dev->dma_ops;
	if (ops && ops->map_sg) {
		if (unlikely(!entries_in_ram(dev, sg, nents)))
			return -EINVAL;
		ret = ops->map_sg(dev, sg, nents, dir, attrs);
		if (ret > 0) {
			struct scatterlist *s;
			uint64_t bytes = 0;
			int i;

			for_each_sg(sg, s, nents, i)
				bytes += s->length;
			dmamap__stat_add(dev, ST_MAPS, (uint64_t)nents);
			dmamap__stat_add(dev, ST_BYTES_MAPPED, bytes);
		}
	} else {
		ret = generic_map_sg(dev, sg, nents, dir, attrs);
	}
	if (ret > 0) {
		dmamap__stat_add(dev, ST_SG_MAPS, 1);
		if (dmamap__dbg_on(dev))
			dbg_map_sg(dev, sg, nents, ret, dir, caller, attrs);
	}
	DMAMAP__TRACE(dev->plat, .id = ret > 0 ? DMAMAP_TRACE_DMA_MAP_SG : DMAMAP_TRACE_DMA_MAP_SG_ERR,
		      .dev = dev, .sgl = sg, .nents = nents, .ents = ret > 0 ? ret : 0,
		      .err = ret > 0 ? 0 : ret, .dir = dir, .attrs = attrs);
	return ret;
}

unsigned int dma_map_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
			      enum dma_data_direction dir, unsigned long attrs)
{
	int ret = map_sg(dev, sg, nents, dir, attrs, __builtin_return_address(0),
			 __func__);

	return ret > 0 ? (unsigned int)ret : 0;
}

void dma_unmap_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
			enum dma_data_direction dir, unsigned long attrs)
{
	const struct dma_map_ops *ops;

	if (unlikely(dmamap__bad_map_args(dev, sg, (size_t)(nents > 0), dir, __func__)))
		return;
	dmamap__api_yield(dev);
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_DMA_UNMAP_SG, .dev = dev, .sgl = sg,
		      .nents = nents, .dir = dir, .attrs = attrs);
	if (dmamap__dbg_on(dev))
		dbg_unmap_sg(dev, sg, nents, dir);
	ops = dev->dma_ops;
	if (ops && ops->unmap_sg) {
		ops->unmap_sg(dev, sg, nents, dir, attrs);
		dmamap__stat_add(dev, ST_UNMAPS, (uint64_t)nents);
	} else {
		generic_unmap_sg(dev, sg, nents, dir, attrs);
	}
}

unsigned int dma_map_sg(struct device *dev, struct scatterlist *sg, int nents,
			enum dma_data_direction dir)
{
	int ret = map_sg(dev, sg, nents, dir, 0, __builtin_return_address(0),
			 "dma_map_sg_attrs");

	return ret > 0 ? (unsigned int)ret : 0;
}

void dma_unmap_sg(struct device *dev, struct scatterlist *sg, int nents,
		  enum dma_data_direction dir)
{
	dma_unmap_sg_attrs(dev, sg, nents, dir, 0);
}

int dma_map_sgtable(struct device *dev, struct sg_table *sgt,
		    enum dma_data_direction dir, unsigned long attrs)
{
	int ret;

	if (unlikely(!sgt)) {
		dmamap__null_table(dev, __func__);
		return -EINVAL;
	}
	ret = map_sg(dev, sgt->sgl, (int)sgt->orig_nents, dir, attrs,
		     __builtin_return_address(0), __func__);
	if (ret < 0)
		return ret;
	if (ret == 0)
		return -EIO;
	sgt->nents = (unsigned int)ret;
	return 0;
}

void dma_unmap_sgtable(struct device *dev, struct sg_table *sgt,
		       enum dma_data_direction dir, unsigned long attrs)
{
	if (unlikely(!sgt)) {
		dmamap__null_table(dev, __func__);
		return;
	}
	dma_unmap_sg_attrs(dev, sgt->sgl, (int)sgt->orig_nents, dir, attrs);
}
