/* SPDX-License-Identifier: MIT */
/*
 * The direct backend's allocations: pages from the zone the mask allows
 * (retrying lower zones when the result is still out of reach, as the
 * kernel does), an uncached or write-combining alias for devices that do
 * not snoop, mmap of the same RAM, and sg_table descriptions.
 */
#include <string.h>
#include "../lib/lib.h"
#include "../base/bus.h"
#include "../base/report.h"
#include "../mm/mm.h"
#include "../platform/port.h"
#include "direct.h"
#include "ops_helpers.h"
#include "swiotlb.h"

/* Highest physical address whose device address is within @limit. */
static phys_addr_t phys_limit(const struct device *dev, u64 limit)
{
	phys_addr_t best = 0;

	if (!dev->nr_ranges)
		return limit;
	for (unsigned int i = 0; i < dev->nr_ranges; i++) {
		const struct dmamap_dma_range *r = &dev->ranges[i];
		u64 last;

		if (r->dma_start > limit)
			continue;
		last = MIN(r->size - 1, limit - r->dma_start);
		best = MAX(best, r->cpu_start + last);
	}
	return best;
}

static unsigned int zone_for(const struct device *dev, u64 mask)
{
	phys_addr_t pl = phys_limit(dev, dmamap__reach_limit(dev, mask));

	phys_addr_t dma_zone = dmamap__zone_dma_limit(dev->plat);

	if (dma_zone && pl <= dma_zone)
		return ZONE_DMA_IDX;
	if (pl <= 0xffffffffULL)
		return ZONE_DMA32_IDX;
	return ZONE_NORMAL_IDX;
}

static bool reachable(const struct device *dev, phys_addr_t phys, size_t size,
		      u64 mask)
{
	return dmamap__reach(dev, phys, size, dmamap__reach_limit(dev, mask)) !=
	       DMA_MAPPING_ERROR;
}

static phys_addr_t alloc_reachable(struct device *dev, size_t size, u64 mask)
{
	struct dmamap_platform *p = dev->plat;
	unsigned int order = dmamap__get_order(size);
	int zone = (int)zone_for(dev, mask);

	for (; zone >= 0; zone--) {
		phys_addr_t phys = dmamap__pages_alloc(p, order, (unsigned int)zone);

		if (phys == PHYS_NONE)
			return PHYS_NONE;
		if (reachable(dev, phys, size, mask))
			return phys;
		dmamap__pages_free(p, phys, order);
	}
	return PHYS_NONE;
}

void *dmamap__direct_alloc(struct device *dev, size_t size,
			   dma_addr_t *dma_handle, gfp_t gfp,
			   unsigned long attrs)
{
	struct dmamap_platform *p = dev->plat;
	enum dmamap_view view;
	phys_addr_t phys;
	void *cpu;

	/* CMA's rule is the kernel's, on the size asked for: a single page never comes from it. */
	bool cma = dmamap__wants_cma(dev, size, gfp, attrs);

	size = dmamap__port_map_size(size);
	/* A device restricted to its pool gets its coherent memory there too. */
	if (dev->dma_io_tlb_mem)
		return dmamap__swiotlb_alloc(dev, size, dma_handle);
	phys = PHYS_NONE;
	/* Large blocking allocations, and contiguous-by-request ones, come from CMA. */
	if (cma) {
		if (dmamap__fault(&p->fault, DMAMAP_FAULT_ALLOC))
			return NULL;
		phys = dmamap__alloc_from_cma(dev, size);
		if (phys != PHYS_NONE && !reachable(dev, phys, size, dev->coherent_dma_mask)) {
			dmamap__free_contiguous(p, phys, size);
			phys = PHYS_NONE;
		}
	}
	if (phys == PHYS_NONE)
		phys = alloc_reachable(dev, size, dev->coherent_dma_mask);
	if (phys == PHYS_NONE)
		return NULL;
	*dma_handle = dmamap_phys_to_dma(dev, phys);
	/*
	 * The cached alias must hold no dirty line over the buffer before an
	 * uncached alias is handed out (arch_dma_prep_coherent), and the memory
	 * is zeroed: all views equal, zero.
	 */
	dmamap__reset_range(p, phys, size, true);
	if (attrs & DMA_ATTR_NO_KERNEL_MAPPING)
		return virt_to_page(dmamap__phys_to_view(p, phys, VIEW_CPU));
	if (dev->coherent)
		view = VIEW_CPU;
	else
		view = (attrs & DMA_ATTR_WRITE_COMBINE) ? VIEW_WC : VIEW_MEM;
	cpu = dmamap__view_map(p, phys, size, view);
	if (!cpu)
		dmamap__free_contiguous(p, phys, size);
	return cpu;
}

static enum dmamap_view expected_view(const struct device *dev,
				      unsigned long attrs)
{
	if (dev->coherent || (attrs & DMA_ATTR_NO_KERNEL_MAPPING))
		return VIEW_CPU;
	return (attrs & DMA_ATTR_WRITE_COMBINE) ? VIEW_WC : VIEW_MEM;
}

void dmamap__direct_free(struct device *dev, size_t size, void *cpu_addr,
			 dma_addr_t dma_handle, unsigned long attrs)
{
	struct dmamap_platform *p = dev->plat;
	enum dmamap_view view;
	phys_addr_t phys;

	if (dmamap__swiotlb_free(dev, cpu_addr, dma_handle))
		return;
	phys = dmamap__addr_to_phys(p, cpu_addr, &view);
	size = dmamap__port_map_size(size);
	if (phys == PHYS_NONE || view != expected_view(dev, attrs) ||
	    dmamap_phys_to_dma(dev, phys) != dma_handle) {
		dmamap__api_error(dev, "dma_free_attrs", DMAMAP_ERRK_BAD_HANDLE,
				  DMAMAP_DBG_FREE_INVALID,
				  "frees DMA memory with a different CPU address or handle [cpu=%p] [device address=0x%llx]",
				  cpu_addr, (unsigned long long)dma_handle);
		return;
	}
	if (dmamap__in_cma(p, phys)) {
		/* The size is checked before the views are touched. */
		if (dmamap__is_contiguous(p, phys, size)) {
			dmamap__view_unmap(p, cpu_addr);
			dmamap__reset_range(p, phys, size, false);
			dmamap__free_contiguous(p, phys, size);
		} else {
			dmamap__api_error(dev, "dma_free_attrs", DMAMAP_ERRK_BAD_HANDLE,
					  DMAMAP_DBG_FREE_INVALID,
					  "frees CMA memory with a different size [device address=0x%llx] [size=%zu]",
					  (unsigned long long)dma_handle, size);
		}
		return;
	}
	/* Check the size before touching anything: a wrong one must change nothing. */
	if (!dmamap__is_contiguous(p, phys, size)) {
		dmamap__api_error(dev, "dma_free_attrs", DMAMAP_ERRK_BAD_HANDLE,
				  DMAMAP_DBG_FREE_INVALID,
				  "frees DMA memory with a different size [device address=0x%llx] [size=%zu]",
				  (unsigned long long)dma_handle, size);
		return;
	}
	dmamap__view_unmap(p, cpu_addr);
	dmamap__reset_range(p, phys, size, false);
	dmamap__free_contiguous(p, phys, size);
}

int dmamap__direct_mmap(struct device *dev, struct vm_area_struct *vma,
			void *cpu_addr, dma_addr_t dma_addr, size_t size,
			unsigned long attrs)
{
	const struct dmamap_dma_range *pool = &dev->dma_mem_window;
	bool in_pool = pool->size && dma_addr - pool->dma_start < pool->size;

	(void)cpu_addr;
	(void)attrs;
	/*
	 * A declared pool hands out runs of simulated pages: where a host
	 * page holds several, it may hold another allocation too, and a user
	 * mapping of it would show that one.
	 */
	if (in_pool && dmamap__port_map_order())
		return -EINVAL;
	/* Memory a non-coherent device shares, and pool memory, is reached uncached. */
	return dmamap__common_mmap(dev, vma, dmamap__bus_to_phys(dev, dma_addr, size), size,
				   dev->coherent && !in_pool ? VIEW_CPU : VIEW_MEM);
}

int dmamap__direct_get_sgtable(struct device *dev, struct sg_table *sgt,
			       void *cpu_addr, dma_addr_t dma_addr, size_t size,
			       unsigned long attrs)
{
	(void)cpu_addr;
	(void)attrs;
	return dmamap__common_get_sgtable(dev, sgt, dmamap__bus_to_phys(dev, dma_addr, size),
					  size);
}

void *dmamap__direct_alloc_noncoherent(struct device *dev, size_t size,
				       dma_addr_t *dma_handle,
				       enum dma_data_direction dir, gfp_t gfp)
{
	phys_addr_t phys;
	void *va;

	(void)dir;
	(void)gfp;
	size = dmamap__port_map_size(size);
	phys = alloc_reachable(dev, size, *dev->dma_mask);
	if (phys == PHYS_NONE)
		return NULL;
	va = dmamap__phys_to_view(dev->plat, phys, VIEW_CPU);
	/* Zeroed through the cache, as the kernel does: the driver syncs before use. */
	memset(va, 0, size);
	*dma_handle = dmamap_phys_to_dma(dev, phys);
	return va;
}

void dmamap__direct_free_noncoherent(struct device *dev, size_t size,
				     void *vaddr, dma_addr_t dma_handle,
				     enum dma_data_direction dir)
{
	phys_addr_t phys = dmamap__linear_to_phys(dev->plat, vaddr);

	(void)dir;
	if (phys == PHYS_NONE || dmamap_phys_to_dma(dev, phys) != dma_handle ||
	    dmamap__pages_free(dev->plat, phys, dmamap__get_order(dmamap__port_map_size(size))))
		dmamap__api_error(dev, "dma_free_noncoherent", DMAMAP_ERRK_BAD_HANDLE,
				  DMAMAP_DBG_FREE_INVALID,
				  "frees memory it did not allocate so [cpu=%p] [device address=0x%llx] [size=%zu]",
				  vaddr, (unsigned long long)dma_handle, size);
}

int dmamap__direct_supported(struct device *dev, u64 mask)
{
	struct dmamap_platform *p = dev->plat;
	phys_addr_t min_mask = 0xffffffffULL;
	phys_addr_t dma_zone = dmamap__zone_dma_limit(p);
	dma_addr_t need;

	/*
	 * As Linux: every board is expected to satisfy a 32-bit mask (with
	 * ZONE_DMA32, little memory or an IOMMU); here what the device cannot
	 * reach goes through the bounce pool, as it does for any mask.
	 */
	if (mask >= DMA_BIT_MASK(32))
		return 1;
	if (dma_zone)
		min_mask = dma_zone;
	min_mask = MIN(min_mask, dmamap__port_ram_last(p));
	/* The lowest zone must be reachable: that is where a fallback comes from. */
	need = dmamap_phys_to_dma(dev, min_mask);
	if (need == DMA_MAPPING_ERROR)
		need = phys_limit(dev, ~0ULL) < min_mask ? ~0ULL : min_mask;
	return mask >= need;
}
