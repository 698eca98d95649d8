/* SPDX-License-Identifier: MIT */
/*
 * Linux's two-step IOVA API (6.16+): a driver that maps many ranges for
 * one request takes one IOVA range, links its pieces into it, syncs once
 * and tears it all down with one invalidation. Behind an IOMMU that is
 * what happens; elsewhere dma_iova_try_alloc() says no and the driver
 * falls back to dma_map_*(), as in Linux.
 */
#include <string.h>
#include "../lib/lib.h"
#include "../base/report.h"
#include "../debug/checker.h"
#include "../ops/iommu.h"
#include "../platform/port.h"
#include "core.h"

/* Where the range's first byte sits in its page: links keep that offset. */
static u64 state_offset(const struct dma_iova_state *state)
{
	return state->addr & (PAGE_SIZE - 1);
}

bool dma_iova_try_alloc(struct device *dev, struct dma_iova_state *state, phys_addr_t phys,
			size_t size)
{
	size_t span;
	dma_addr_t iova;

	if (!state)
		return false;
	memset(state, 0, sizeof(*state));
	if (!dev || !size || !dmamap__iommu_in_use(dev))
		return false;
	/* The size shares its word with DMA_IOVA_USE_SWIOTLB, and the range starts mid-page. */
	if (((u64)size & DMA_IOVA_USE_SWIOTLB) ||
	    __builtin_add_overflow((size_t)(phys & (PAGE_SIZE - 1)), size, &span)) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_ARG, DMAMAP_DBG_INVALID_ARGUMENT,
				  "[size=%zu] from page offset %llu is larger than any IOVA range",
				  size, (unsigned long long)(phys & (PAGE_SIZE - 1)));
		return false;
	}
	if (dmamap__fault(&dev->plat->fault, DMAMAP_FAULT_MAP) ||
	    dmamap__iommu_iova_alloc(dev, span, &iova)) {
		dmamap__stat_add(dev, ST_ERR0 + DMAMAP_ERRK_NOMEM, 1);
		return false;
	}
	state->addr = iova + (phys & (PAGE_SIZE - 1));
	state->__size = size;
	return true;
}

void dma_iova_free(struct device *dev, struct dma_iova_state *state)
{
	if (!dev || !state || !dma_use_iova(state))
		return;
	/* Linux unmaps nothing here: links left in place stay, and are said. */
	if (dmamap__dbg_on(dev))
		dmamap__dbg_unmap_range(dev, DBG_IOVA, state->addr, dma_iova_size(state), false);
	dmamap__iommu_iova_free(dev, state->addr & PAGE_MASK,
				(size_t)state_offset(state) + dma_iova_size(state));
	memset(state, 0, sizeof(*state));
}

/* A piece [@offset, +@size) of the range; false, reported under @func, if it is not one. */
static bool piece_ok(struct device *dev, struct dma_iova_state *state, size_t offset,
		     size_t size, int dir, const char *func)
{
	if (unlikely(dmamap__bad_call_args(dev, size, dir, func)))
		return false;
	if (!state || !dma_use_iova(state) || offset > dma_iova_size(state) ||
	    size > dma_iova_size(state) - offset) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_ARG, DMAMAP_DBG_INVALID_ARGUMENT,
				  "[offset=%zu] [size=%zu] is not inside the IOVA range [size=%zu]",
				  offset, size, state ? dma_iova_size(state) : 0);
		return false;
	}
	return true;
}

int dma_iova_link(struct device *dev, struct dma_iova_state *state, phys_addr_t phys,
		  size_t offset, size_t size, enum dma_data_direction dir, unsigned long attrs)
{
	dma_addr_t at;
	int ret;

	if (!piece_ok(dev, state, offset, size, dir, __func__))
		return -EINVAL;
	dmamap__api_yield(dev);
	if (dmamap__coherence_refused(dev, attrs)) {
		dmamap__not_coherent(dev, __func__);
		return -EOPNOTSUPP;
	}
	/* As Linux: a range that starts mid-page takes its first link at offset 0 only. */
	if (state_offset(state) && offset) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_ARG, DMAMAP_DBG_INVALID_ARGUMENT,
				  "[offset=%zu] into a range that starts %llu bytes into a page: only offset 0",
				  offset, (unsigned long long)state_offset(state));
		return -EIO;
	}
	at = state->addr + offset;
	/* A page of the range holds one page of RAM: the offsets in the page must agree. */
	if ((at & (PAGE_SIZE - 1)) != (phys & (PAGE_SIZE - 1))) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_ARG, DMAMAP_DBG_INVALID_ARGUMENT,
				  "[phys=0x%llx] and [device address=0x%llx] sit at different offsets in their pages",
				  (unsigned long long)phys, (unsigned long long)at);
		return -EINVAL;
	}
	if (!dmamap__port_is_ram(dev->plat, phys, size) && !(attrs & DMA_ATTR_MMIO)) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_NOT_LINEAR, DMAMAP_DBG_NOT_LINEAR,
				  "[phys=0x%llx] [size=%zu] is not RAM of the board (MMIO needs DMA_ATTR_MMIO)",
				  (unsigned long long)phys, size);
		return -EINVAL;
	}
	ret = dmamap__iommu_iova_link(dev, at, phys, size, dir,
				      (attrs & DMA_ATTR_MMIO) ? attrs | DMA_ATTR_SKIP_CPU_SYNC : attrs);
	if (ret == -EEXIST) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_ARG, DMAMAP_DBG_INVALID_ARGUMENT,
				  "[device address=0x%llx] [size=%zu] overlaps a page already linked",
				  (unsigned long long)at, size);
		return -EEXIST;
	}
	if (ret) {
		if (!(attrs & DMA_ATTR_NO_WARN))
			dmamap__report(dev->plat, dev, DMAMAP_DBG_ALLOC_FAILED,
				       "dma_iova_link: the IO page table cannot grow for %zu bytes", size);
		dmamap__stat_add(dev, ST_ERR0 + DMAMAP_ERRK_NOMEM, 1);
		return -ENOMEM;
	}
	if (dmamap__dbg_on(dev)) {
		struct dbg_ref r = {
			.type = DBG_IOVA, .addr = at, .size = size, .dir = dir, .phys = phys,
			.caller = __builtin_return_address(0), .attrs = attrs,
		};

		dmamap__dbg_map(dev, &r);
	}
	return 0;
}

int dma_iova_sync(struct device *dev, struct dma_iova_state *state, size_t offset, size_t size)
{
	/* Links are visible to the device at once here: there is nothing to flush. */
	if (!piece_ok(dev, state, offset, size, DMA_BIDIRECTIONAL, __func__))
		return -EINVAL;
	return 0;
}

/*
 * Links and unlinks are not counted as maps and unmaps: an unlink may
 * cover any number of links, which only the checker knows.
 */
void dma_iova_unlink(struct device *dev, struct dma_iova_state *state, size_t offset,
		     size_t size, enum dma_data_direction dir, unsigned long attrs)
{
	if (!piece_ok(dev, state, offset, size, dir, __func__))
		return;
	dmamap__api_yield(dev);
	if (dmamap__dbg_on(dev))
		dmamap__dbg_unmap_range(dev, DBG_IOVA, state->addr + offset, size, true);
	dmamap__iommu_iova_unlink(dev, state->addr + offset, size, dir,
				  (attrs & DMA_ATTR_MMIO) ? attrs | DMA_ATTR_SKIP_CPU_SYNC : attrs);
}

void dma_iova_destroy(struct device *dev, struct dma_iova_state *state, size_t mapped_len,
		      enum dma_data_direction dir, unsigned long attrs)
{
	if (!dev || !state || !dma_use_iova(state))
		return;
	if (mapped_len)
		dma_iova_unlink(dev, state, 0, mapped_len, dir, attrs);
	dma_iova_free(dev, state);
}
