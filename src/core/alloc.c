/* SPDX-License-Identifier: MIT */
/*
 * The allocating half of the driver API: coherent and non-coherent memory,
 * mmap and sg_table views of it. A device's own coherent pool is tried
 * before its ops, as in the kernel.
 */
#include <stdlib.h>
#include "../lib/lib.h"
#include "../base/report.h"
#include "../debug/checker.h"
#include "../hw/hw.h"
#include "../mm/mm.h"
#include "../platform/port.h"
#include "../base/trace.h"
#include "core.h"
#include "../lib/mem.h"

static bool bad_alloc_args(struct device *dev, const void *out, size_t size,
			   const char *func)
{
	if (unlikely(!dev)) {
		dmamap__api_error(NULL, func, DMAMAP_ERRK_NULL_ARG,
				  DMAMAP_DBG_NULL_DEVICE, "called with a NULL device");
		return true;
	}
	if (unlikely(!out)) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_NULL_ARG,
				  DMAMAP_DBG_INVALID_ARGUMENT,
				  "called with a NULL dma_handle");
		return true;
	}
	if (unlikely(!size)) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_ZERO_SIZE,
				  DMAMAP_DBG_ZERO_SIZE, "zero-sized allocation");
		return true;
	}
	return false;
}

static void *alloc_failed(struct device *dev, const char *func, size_t size,
			  gfp_t gfp, unsigned long attrs)
{
	dmamap__stat_add(dev, ST_ERR0 + DMAMAP_ERRK_NOMEM, 1);
	if (!(gfp & __GFP_NOWARN) && !(attrs & DMA_ATTR_NO_WARN))
		dmamap__report(dev->plat, dev, DMAMAP_DBG_ALLOC_FAILED,
			       "%s: no memory for %zu bytes within [coherent mask=0x%llx]",
			       func, size, (unsigned long long)dev->coherent_dma_mask);
	return NULL;
}

/* An allocation's outcome in the device's counters, a failure reported. */
static void *alloc_counted(struct device *dev, const char *func, void *cpu, size_t size,
			   gfp_t gfp, unsigned long attrs)
{
	if (!cpu)
		return alloc_failed(dev, func, size, gfp, attrs);
	dmamap__stat_add(dev, ST_ALLOCS, 1);
	dmamap__stat_add(dev, ST_BYTES_ALLOC, PAGE_ALIGN(size));
	return cpu;
}

/* The same, and the checker's record of it. */
static void *alloc_result(struct device *dev, const char *func, void *cpu,
			  size_t size, gfp_t gfp, unsigned long attrs,
			  enum dbg_type type, const dma_addr_t *handle, int dir,
			  void *caller)
{
	if (!alloc_counted(dev, func, cpu, size, gfp, attrs))
		return NULL;
	if (dmamap__dbg_on(dev)) {
		struct dbg_ref r = {
			.type = type, .addr = *handle, .size = size, .dir = dir,
			.phys = dmamap__dev_dma_to_phys(dev, *handle, 1), .cpu = cpu,
			.caller = caller, .attrs = attrs,
		};

		dmamap__dbg_map(dev, &r);
	}
	return cpu;
}

static void dbg_free(struct device *dev, enum dbg_type type, dma_addr_t handle,
		     size_t size, int dir, const void *cpu, unsigned long attrs)
{
	struct dbg_ref r = {
		.type = type, .addr = handle, .size = size, .dir = dir,
		.phys = PHYS_NONE, .cpu = cpu, .attrs = attrs,
	};

	dmamap__dbg_unmap(dev, &r);
}

/*
 * A model's coherent memory on a weakly-ordered board goes through the
 * memory-order model. Behind an IOMMU the pages are scattered and the CPU
 * reaches them through a remapping: page by page, each where the device's
 * page table says.
 */
static void order_follow(struct device *dev, void *cpu, size_t size, dma_addr_t dma)
{
	if (!dev->iommu_hw) {
		dmamap__port_order_track(dev, cpu, PHYS_NONE, size, dma);
		return;
	}
	for (size_t off = 0; off < size; off += PAGE_SIZE) {
		phys_addr_t phys = dmamap__dev_dma_to_phys(dev, dma + off, PAGE_SIZE);

		if (phys != PHYS_NONE)
			dmamap__port_order_track(dev, (uint8_t *)cpu + off, phys,
						 MIN((size_t)PAGE_SIZE, size - off), dma + off);
	}
}

/*
 * A device that does not snoop needs uncached memory for a coherent
 * buffer; the host has none to give (user space cannot change a page's
 * memory type). Said, and refused, rather than handing out memory whose
 * CPU writes the device would not see.
 */
static bool no_uncached_memory(struct device *dev, const char *func, size_t size, gfp_t gfp,
			       unsigned long attrs)
{
	if (likely(dev->coherent || dmamap__port_has_uncached(dev->plat)))
		return false;
	dmamap__stat_add(dev, ST_ERR0 + DMAMAP_ERRK_NOMEM, 1);
	if (!(gfp & __GFP_NOWARN) && !(attrs & DMA_ATTR_NO_WARN))
		dmamap__report(dev->plat, dev, DMAMAP_DBG_ALLOC_FAILED,
			       "%s: %zu bytes: the host has no uncached memory for a device that does not snoop: use dma_alloc_noncoherent() and the dma_sync_* calls",
			       func, size);
	return true;
}

/* The device's own pool first, then its table, as the kernel; NULL if neither has memory. */
static void *alloc_backend(struct device *dev, size_t size, dma_addr_t *dma_handle,
			   gfp_t gfp, unsigned long attrs)
{
	const struct dma_map_ops *ops;
	void *cpu = NULL;

	if (dev->dma_mem)
		cpu = dmamap__pool_alloc(dev, size, dma_handle);
	if (!cpu) {
		ops = get_dma_ops(dev);
		if (ops->alloc)
			cpu = ops->alloc(dev, size, dma_handle, gfp, attrs);
	}
	if (unlikely(dev->model) && cpu && !(attrs & DMA_ATTR_NO_KERNEL_MAPPING))
		order_follow(dev, cpu, size, *dma_handle);
	return cpu;
}

static void free_backend(struct device *dev, size_t size, void *cpu_addr,
			 dma_addr_t dma_handle, unsigned long attrs)
{
	const struct dma_map_ops *ops;

	/* By the handle's range, never the caller's size page by page: a bad free is no loop. */
	if (unlikely(dev->model))
		dmamap__port_order_untrack(dev, dma_handle, dmamap__port_map_size(size));
	if (dmamap__pool_free(dev, size, cpu_addr))
		return;
	ops = get_dma_ops(dev);
	if (ops->free)
		ops->free(dev, size, cpu_addr, dma_handle, attrs);
}

static void *alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
			 gfp_t gfp, unsigned long attrs, void *caller)
{
	void *cpu;

	if (bad_alloc_args(dev, dma_handle, size, "dma_alloc_attrs"))
		return NULL;
	/* A size whose page rounding wraps is more than any memory: the backends would see a few bytes. */
	if (unlikely(PAGE_ALIGN(size) < size || dmamap__port_map_size(size) < size))
		return alloc_failed(dev, "dma_alloc_attrs", size, gfp, attrs);
	dmamap__api_yield(dev);
	/* Zones come from the coherent mask, never from the caller. */
	gfp &= ~(__GFP_DMA | __GFP_DMA32 | __GFP_HIGHMEM);
	if (dmamap__fault(&dev->plat->fault, DMAMAP_FAULT_ALLOC))
		return alloc_failed(dev, "dma_alloc_attrs", size, gfp | __GFP_NOWARN,
				    attrs);
	if (no_uncached_memory(dev, "dma_alloc_attrs", size, gfp, attrs))
		return NULL;
	cpu = alloc_backend(dev, size, dma_handle, gfp, attrs);
	cpu = alloc_result(dev, "dma_alloc_attrs", cpu, size, gfp, attrs,
			   DBG_COHERENT, dma_handle, DMA_BIDIRECTIONAL, caller);
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_DMA_ALLOC, .dev = dev, .virt_addr = cpu,
		      .dma_addr = cpu ? *dma_handle : 0, .size = size, .dir = DMA_BIDIRECTIONAL,
		      .flags = gfp, .attrs = attrs, .phys_addr = cpu ? virt_to_phys(cpu) : 0);
	return cpu;
}

void *dmamap__alloc_untracked(struct device *dev, size_t size, dma_addr_t *dma_handle,
			      gfp_t gfp, const char *func)
{
	void *cpu;

	gfp &= ~(__GFP_DMA | __GFP_DMA32 | __GFP_HIGHMEM | __GFP_ZERO);
	if (dmamap__fault(&dev->plat->fault, DMAMAP_FAULT_ALLOC))
		return alloc_failed(dev, func, size, gfp | __GFP_NOWARN, 0);
	if (no_uncached_memory(dev, func, size, gfp, 0))
		return NULL;
	cpu = alloc_backend(dev, size, dma_handle, gfp, 0);
	cpu = alloc_counted(dev, func, cpu, size, gfp, 0);
	/* A pool's chunk: the kernel's dma_pool takes it with dma_alloc_coherent(), traced so. */
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_DMA_ALLOC, .dev = dev, .virt_addr = cpu,
		      .dma_addr = cpu ? *dma_handle : 0, .size = size, .dir = DMA_BIDIRECTIONAL,
		      .flags = gfp, .phys_addr = cpu ? virt_to_phys(cpu) : 0);
	return cpu;
}

void dmamap__free_untracked(struct device *dev, size_t size, void *cpu_addr,
			    dma_addr_t dma_handle)
{
	dmamap__stat_add(dev, ST_FREES, 1);
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_DMA_FREE, .dev = dev, .virt_addr = cpu_addr,
		      .dma_addr = dma_handle, .size = size, .dir = DMA_BIDIRECTIONAL);
	free_backend(dev, size, cpu_addr, dma_handle, 0);
}

void *dma_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
		      gfp_t gfp, unsigned long attrs)
{
	return alloc_attrs(dev, size, dma_handle, gfp, attrs,
			   __builtin_return_address(0));
}

void dma_free_attrs(struct device *dev, size_t size, void *cpu_addr,
		    dma_addr_t dma_handle, unsigned long attrs)
{
	if (!cpu_addr)
		return; /* as the kernel: freeing NULL is allowed */
	if (bad_alloc_args(dev, cpu_addr, size, __func__))
		return;
	dmamap__api_yield(dev);
	/*
	 * A dma_pool block is part of the pool's allocation: freeing it here
	 * would give the whole chunk back under the pool's feet. The checker
	 * knows the block; refuse it.
	 */
	if (dmamap__dbg_on(dev) && dmamap__dbg_type_at(dev, dma_handle) == DBG_POOL) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_HANDLE, DMAMAP_DBG_WRONG_TYPE,
				  "[device address=0x%llx] is a dma_pool block: free it with dma_pool_free() (refused)",
				  (unsigned long long)dma_handle);
		return;
	}
	dmamap__stat_add(dev, ST_FREES, 1);
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_DMA_FREE, .dev = dev, .virt_addr = cpu_addr,
		      .dma_addr = dma_handle, .size = size, .dir = DMA_BIDIRECTIONAL, .attrs = attrs);
	if (dmamap__dbg_on(dev))
		dbg_free(dev, DBG_COHERENT, dma_handle, size, DMA_BIDIRECTIONAL,
			 cpu_addr, attrs);
	free_backend(dev, size, cpu_addr, dma_handle, attrs);
}

void *dma_alloc_coherent(struct device *dev, size_t size,
			 dma_addr_t *dma_handle, gfp_t gfp)
{
	return alloc_attrs(dev, size, dma_handle, gfp, 0,
			   __builtin_return_address(0));
}

void dma_free_coherent(struct device *dev, size_t size, void *cpu_addr,
		       dma_addr_t dma_handle)
{
	dma_free_attrs(dev, size, cpu_addr, dma_handle, 0);
}

void *dma_alloc_wc(struct device *dev, size_t size, dma_addr_t *dma_handle,
		   gfp_t gfp)
{
	return alloc_attrs(dev, size, dma_handle, gfp, DMA_ATTR_WRITE_COMBINE,
			   __builtin_return_address(0));
}

void dma_free_wc(struct device *dev, size_t size, void *cpu_addr,
		 dma_addr_t dma_handle)
{
	dma_free_attrs(dev, size, cpu_addr, dma_handle, DMA_ATTR_WRITE_COMBINE);
}

/* A backend refused a view (mmap, sg_table) of an allocation: count it. */
static int view_failed(struct device *dev, const char *func, int ret,
		       dma_addr_t dma_addr, size_t size)
{
	bool nomem = ret == -ENOMEM;

	dmamap__api_error(dev, func, nomem ? DMAMAP_ERRK_NOMEM : DMAMAP_ERRK_BAD_ARG,
			  nomem ? DMAMAP_DBG_ALLOC_FAILED : DMAMAP_DBG_INVALID_ARGUMENT,
			  "[device address=0x%llx] [size=%zu]: %s",
			  (unsigned long long)dma_addr, size,
			  nomem ? "out of memory" :
			  "the request does not fit this device's allocation");
	return ret;
}

int dma_mmap_attrs(struct device *dev, struct vm_area_struct *vma,
		   void *cpu_addr, dma_addr_t dma_addr, size_t size,
		   unsigned long attrs)
{
	const struct dma_map_ops *ops;
	int ret;

	if (bad_alloc_args(dev, vma, size, __func__))
		return -EINVAL;
	if (!cpu_addr || vma->vm_end <= vma->vm_start) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_ARG,
				  DMAMAP_DBG_INVALID_ARGUMENT,
				  "NULL cpu_addr or empty vma");
		return -EINVAL;
	}
	if (dmamap__dbg_on(dev) && dmamap__dbg_view(dev, __func__, dma_addr, size))
		return -EINVAL;
	ops = get_dma_ops(dev);
	ret = ops->mmap ? ops->mmap(dev, vma, cpu_addr, dma_addr, size, attrs) : -ENXIO;
	if (unlikely(ret))
		return view_failed(dev, __func__, ret, dma_addr, size);
	return 0;
}

int dma_mmap_coherent(struct device *dev, struct vm_area_struct *vma,
		      void *cpu_addr, dma_addr_t dma_addr, size_t size)
{
	return dma_mmap_attrs(dev, vma, cpu_addr, dma_addr, size, 0);
}

int dma_mmap_wc(struct device *dev, struct vm_area_struct *vma, void *cpu_addr,
		dma_addr_t dma_addr, size_t size)
{
	return dma_mmap_attrs(dev, vma, cpu_addr, dma_addr, size,
			      DMA_ATTR_WRITE_COMBINE);
}

int dma_get_sgtable_attrs(struct device *dev, struct sg_table *sgt,
			  void *cpu_addr, dma_addr_t dma_addr, size_t size,
			  unsigned long attrs)
{
	const struct dma_map_ops *ops;
	int ret;

	if (bad_alloc_args(dev, sgt, size, __func__))
		return -EINVAL;
	if (dmamap__dbg_on(dev) && dmamap__dbg_view(dev, __func__, dma_addr, size))
		return -EINVAL;
	ops = get_dma_ops(dev);
	ret = ops->get_sgtable ?
		      ops->get_sgtable(dev, sgt, cpu_addr, dma_addr, size, attrs) :
		      -ENXIO;
	if (unlikely(ret))
		return view_failed(dev, __func__, ret, dma_addr, size);
	return 0;
}

void *dmamap__alloc_noncoherent(struct device *dev, size_t size, dma_addr_t *dma_handle,
				enum dma_data_direction dir, gfp_t gfp, const char *func,
				void *caller, bool tracked)
{
	const struct dma_map_ops *ops;
	void *cpu = NULL;

	if (bad_alloc_args(dev, dma_handle, size, func))
		return NULL;
	/* A size whose rounding to (host) pages wraps is more than any memory. */
	if (unlikely(dmamap__port_map_size(size) < size))
		return alloc_failed(dev, func, size, gfp, 0);
	dmamap__api_yield(dev);
	if (!valid_dma_direction(dir)) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_DIR,
				  DMAMAP_DBG_INVALID_DIRECTION, "invalid DMA direction %d",
				  dir);
		return NULL;
	}
	if (dmamap__fault(&dev->plat->fault, DMAMAP_FAULT_ALLOC))
		return alloc_failed(dev, func, size, gfp | __GFP_NOWARN, 0);
	ops = get_dma_ops(dev);
	if (ops->alloc_noncoherent)
		cpu = ops->alloc_noncoherent(dev, size, dma_handle, dir, gfp);
	if (!tracked)
		return alloc_counted(dev, func, cpu, size, gfp, 0);
	cpu = alloc_result(dev, func, cpu, size, gfp, 0, DBG_NONCOHERENT, dma_handle, dir, caller);
	/* The kernel traces dma_alloc_noncoherent() as the pages it is. */
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_DMA_ALLOC_PAGES, .dev = dev, .virt_addr = cpu,
		      .dma_addr = cpu ? *dma_handle : 0, .size = size, .dir = dir, .flags = gfp,
		      .phys_addr = cpu ? virt_to_phys(cpu) : 0);
	return cpu;
}

void dmamap__free_noncoherent(struct device *dev, size_t size, void *vaddr,
			      dma_addr_t dma_handle, enum dma_data_direction dir,
			      const char *func, bool tracked)
{
	const struct dma_map_ops *ops;

	if (!vaddr)
		return;
	if (bad_alloc_args(dev, vaddr, size, func))
		return;
	dmamap__api_yield(dev);
	dmamap__stat_add(dev, ST_FREES, 1);
	if (tracked)
		DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_DMA_FREE_PAGES, .dev = dev,
			      .virt_addr = vaddr, .dma_addr = dma_handle, .size = size, .dir = dir);
	if (tracked && dmamap__dbg_on(dev))
		dbg_free(dev, DBG_NONCOHERENT, dma_handle, size, dir, vaddr, 0);
	ops = get_dma_ops(dev);
	if (ops->free_noncoherent)
		ops->free_noncoherent(dev, size, vaddr, dma_handle, dir);
}

void *dma_alloc_noncoherent(struct device *dev, size_t size,
			    dma_addr_t *dma_handle, enum dma_data_direction dir,
			    gfp_t gfp)
{
	return dmamap__alloc_noncoherent(dev, size, dma_handle, dir, gfp, __func__,
					 __builtin_return_address(0), true);
}

void dma_free_noncoherent(struct device *dev, size_t size, void *vaddr,
			  dma_addr_t dma_handle, enum dma_data_direction dir)
{
	dmamap__free_noncoherent(dev, size, vaddr, dma_handle, dir, __func__, true);
}

int dmamap_munmap(struct vm_area_struct *vma)
{
	if (!vma || vma->vm_end <= vma->vm_start)
		return -EINVAL;
	dmamap__munmap((void *)vma->vm_start, vma->vm_end - vma->vm_start);
	vma->vm_start = vma->vm_end = 0;
	return 0;
}
