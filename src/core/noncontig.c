/* SPDX-License-Identifier: MIT */
/*
 * Cacheable memory handed out as pages or as a list: dma_alloc_pages()
 * and the non-contiguous family. Behind an IOMMU, pages that need not be
 * next to each other are mapped at one IOVA range and made contiguous for
 * the CPU by mapping each page again in order (the kernel's vmap); without
 * one, the list has a single entry over contiguous memory whose linear
 * address is its CPU view.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "../lib/lib.h"
#include "../base/report.h"
#include "../debug/checker.h"
#include "../ops/iommu.h"
#include "../ops/ops_helpers.h"
#include "../platform/port.h"
#include "../base/trace.h"
#include "core.h"
#include "../lib/mem.h"

/* What dma_alloc_noncontiguous() hands out: the table, and what it was made of. */
struct noncontig {
	struct sg_table sgt;
	struct noncontig *next; /* live ones: a table is ours only if it is listed */
	struct device *dev;
	size_t size;
	enum dma_data_direction dir;
	bool iommu;
	bool mapped;             /* behind an IOMMU: the table is mapped */
	unsigned long npages;
	struct page **pages;     /* behind an IOMMU: the pages, in order */
	phys_addr_t *phys;       /* ...and where they are, for their CPU views */
	unsigned int *orders;    /* ...and the order each run was allocated with (or ~0u) */
	void *vaddr;             /* the contiguous CPU view, once made */
	dma_addr_t dma;          /* without an IOMMU: the single entry's address */
};

/* ---- pages ------------------------------------------------------------------- */

struct page *dma_alloc_pages(struct device *dev, size_t size, dma_addr_t *dma_handle,
			     enum dma_data_direction dir, gfp_t gfp)
{
	void *cpu = dmamap__alloc_noncoherent(dev, size, dma_handle, dir, gfp, __func__,
					      __builtin_return_address(0), true);

	return cpu ? virt_to_page(cpu) : NULL;
}

void dma_free_pages(struct device *dev, size_t size, struct page *page, dma_addr_t dma_handle,
		    enum dma_data_direction dir)
{
	dmamap__free_noncoherent(dev, size, page ? page_address(page) : NULL, dma_handle, dir,
				 __func__, true);
}

int dma_mmap_pages(struct device *dev, struct vm_area_struct *vma, size_t size, struct page *page)
{
	phys_addr_t phys;

	if (!dev || !vma || !page || !size) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_NULL_ARG,
				  dev ? DMAMAP_DBG_INVALID_ARGUMENT : DMAMAP_DBG_NULL_DEVICE,
				  "called with a NULL device, vma or page, or a zero size");
		return -EINVAL;
	}
	phys = dmamap__linear_to_phys(dev->plat, page);
	if (phys == PHYS_NONE)
		return -ENXIO;
	return dmamap__common_mmap(dev, vma, phys, size, VIEW_CPU);
}

/* ---- non-contiguous memory ------------------------------------------------------ */

/* Looked up, never trusted: a table a driver made itself must not be read past its end. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct noncontig *live;

static void live_add(struct noncontig *nc)
{
	pthread_mutex_lock(&live_lock);
	nc->next = live;
	live = nc;
	pthread_mutex_unlock(&live_lock);
}

/* The live allocation whose table is @sgt, taken off the list when @unlink; NULL if none. */
static struct noncontig *noncontig_of(struct sg_table *sgt, bool unlink)
{
	struct noncontig *nc = NULL;

	pthread_mutex_lock(&live_lock);
	for (struct noncontig **pp = &live; *pp; pp = &(*pp)->next) {
		if (&(*pp)->sgt == sgt) {
			nc = *pp;
			if (unlink)
				*pp = nc->next;
			break;
		}
	}
	pthread_mutex_unlock(&live_lock);
	return nc;
}

static void free_runs(struct noncontig *nc)
{
	for (unsigned long i = 0; i < nc->npages; i++)
		if (nc->pages[i] && nc->orders[i] != ~0u)
			dmamap_free_pages(nc->dev->plat, nc->pages[i], nc->orders[i]);
}

/*
 * Pages for @nc, in runs as long as mm has them (one page each with
 * DMA_ATTR_ALLOC_SINGLE_PAGES), zeroed in every view, listed as a table.
 */
static int take_pages(struct noncontig *nc, unsigned long attrs, gfp_t gfp)
{
	struct dmamap_platform *p = nc->dev->plat;
	unsigned long i = 0;

	nc->pages = dmamap__calloc(nc->npages, sizeof(*nc->pages));
	nc->phys = dmamap__malloc(nc->npages * sizeof(*nc->phys));
	nc->orders = dmamap__malloc(nc->npages * sizeof(*nc->orders));
	if (!nc->pages || !nc->phys || !nc->orders)
		return -ENOMEM;
	/* Single pages are host pages where the host maps nothing smaller (dma_vmap, dma_mmap). */
	while (i < nc->npages) {
		unsigned int min_order = dmamap__port_map_order(), order = min_order;
		struct page *run = NULL;

		if (!(attrs & DMA_ATTR_ALLOC_SINGLE_PAGES))
			while (order < 10 && (2UL << order) <= nc->npages - i)
				order++;
		for (;; order--) {
			run = dmamap_alloc_pages(p, order, gfp & ~__GFP_ZERO);
			if (run || order == min_order)
				break;
		}
		if (!run)
			return -ENOMEM;
		dmamap__reset_range(p, page_to_phys(run), PAGE_SIZE << order, true);
		for (unsigned long k = 0; k < (1UL << order); k++) {
			nc->pages[i + k] = virt_to_page((char *)page_address(run) + k * PAGE_SIZE);
			nc->phys[i + k] = page_to_phys(run) + k * PAGE_SIZE;
			nc->orders[i + k] = k ? ~0u : order;
		}
		i += 1UL << order;
	}
	/* Where pages come in host pages the table lists them whole, as a kernel with such pages would. */
	return sg_alloc_table_from_pages(&nc->sgt, nc->pages, (unsigned int)nc->npages, 0,
					 dmamap__port_map_order() ? (size_t)nc->npages << PAGE_SHIFT
								  : nc->size,
					 gfp);
}

/* Behind an IOMMU: scattered pages, one IOVA range, mapped by the IOMMU's own map_sg. */
static int alloc_iommu(struct noncontig *nc, unsigned long attrs, gfp_t gfp)
{
	int ret = take_pages(nc, attrs, gfp);

	if (ret)
		return ret;
	/* The pages are fresh and zero in every view: nothing to clean. */
	ret = dma_map_sgtable(nc->dev, &nc->sgt, nc->dir, DMA_ATTR_SKIP_CPU_SYNC);
	nc->mapped = ret == 0;
	/* Allocated memory: the CPU owns it until it syncs for the device. */
	if (nc->mapped && dmamap__dbg_on(nc->dev)) {
		struct scatterlist *sg;
		unsigned int i;

		for_each_sg(nc->sgt.sgl, sg, nc->sgt.nents, i)
			dmamap__dbg_cpu_owns(nc->dev, sg_dma_address(sg), sg_dma_len(sg));
	}
	return ret;
}

/* Without one: contiguous memory the device reaches, as a one-entry table. */
static int alloc_single(struct noncontig *nc, gfp_t gfp, void *caller)
{
	void *cpu = dmamap__alloc_noncoherent(nc->dev, nc->size, &nc->dma, nc->dir, gfp,
					      "dma_alloc_noncontiguous", caller, false);

	if (!cpu)
		return -ENOMEM;
	nc->vaddr = cpu;
	if (sg_alloc_table(&nc->sgt, 1, gfp)) {
		dmamap__free_noncoherent(nc->dev, nc->size, cpu, nc->dma, nc->dir,
					 "dma_alloc_noncontiguous", false);
		nc->vaddr = NULL;
		return -ENOMEM;
	}
	sg_set_page(nc->sgt.sgl, virt_to_page(cpu), (unsigned int)PAGE_ALIGN(nc->size),
		    offset_in_page(cpu));
	sg_dma_address(nc->sgt.sgl) = nc->dma;
	sg_dma_len(nc->sgt.sgl) = (unsigned int)nc->size;
	nc->sgt.nents = 1;
	if (dmamap__dbg_on(nc->dev)) {
		struct dbg_ref r = {
			.type = DBG_SG, .addr = nc->dma, .size = nc->size, .dir = nc->dir,
			.phys = dmamap__dev_dma_to_phys(nc->dev, nc->dma, 1), .cpu = cpu,
			.sg_call_ents = 1, .sg_mapped_ents = 1, .caller = caller,
		};

		dmamap__dbg_map(nc->dev, &r);
		dmamap__dbg_cpu_owns(nc->dev, nc->dma, nc->size);
	}
	return 0;
}

static void noncontig_free(struct noncontig *nc)
{
	if (nc->iommu) {
		if (nc->vaddr)
			dmamap__munmap(nc->vaddr, nc->npages * PAGE_SIZE);
		if (nc->mapped)
			dma_unmap_sgtable(nc->dev, &nc->sgt, nc->dir, DMA_ATTR_SKIP_CPU_SYNC);
		if (nc->pages)
			free_runs(nc);
	} else if (nc->vaddr) {
		if (dmamap__dbg_on(nc->dev)) {
			struct dbg_ref r = {
				.type = DBG_SG, .addr = nc->dma, .size = nc->size, .dir = nc->dir,
				.phys = PHYS_NONE, .sg_call_ents = 1,
			};

			dmamap__dbg_unmap(nc->dev, &r);
		}
		dmamap__free_noncoherent(nc->dev, nc->size, nc->vaddr, nc->dma, nc->dir,
					 "dma_free_noncontiguous", false);
	}
	sg_free_table(&nc->sgt);
	free(nc->pages);
	free(nc->phys);
	free(nc->orders);
	free(nc);
}

struct sg_table *dma_alloc_noncontiguous(struct device *dev, size_t size,
					 enum dma_data_direction dir, gfp_t gfp,
					 unsigned long attrs)
{
	struct noncontig *nc;
	int ret;

	if (!dev || !size || !valid_dma_direction(dir) ||
	    (attrs & ~DMA_ATTR_ALLOC_SINGLE_PAGES)) {
		dmamap__api_error(dev, __func__, !dev ? DMAMAP_ERRK_NULL_ARG : DMAMAP_ERRK_BAD_ARG,
				  !dev ? DMAMAP_DBG_NULL_DEVICE : DMAMAP_DBG_INVALID_ARGUMENT,
				  "NULL device, zero size, invalid direction %d or attributes 0x%lx (only DMA_ATTR_ALLOC_SINGLE_PAGES is allowed)",
				  dir, attrs);
		return NULL;
	}
	/* A size whose rounding to (host) pages wraps is more than any memory. */
	if (dmamap__port_map_size(size) < size)
		return NULL;
	if (dmamap__fault(&dev->plat->fault, DMAMAP_FAULT_ALLOC) ||
	    !(nc = dmamap__calloc(1, sizeof(*nc))))
		return NULL;
	nc->dev = dev;
	nc->size = size;
	nc->dir = dir;
	nc->npages = dmamap__port_map_size(size) >> PAGE_SHIFT;
	nc->iommu = dmamap__iommu_in_use(dev);
	ret = nc->iommu ? alloc_iommu(nc, attrs, gfp)
			: alloc_single(nc, gfp, __builtin_return_address(0));
	if (ret) {
		DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_DMA_ALLOC_SGT_ERR, .dev = dev, .size = size,
			      .dir = dir, .flags = gfp, .attrs = attrs, .err = ret);
		noncontig_free(nc);
		return NULL;
	}
	live_add(nc);
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_DMA_ALLOC_SGT, .dev = dev, .sgl = nc->sgt.sgl,
		      .nents = (int)nc->sgt.orig_nents, .dma_addr = sg_dma_address(nc->sgt.sgl),
		      .size = size, .dir = dir, .flags = gfp, .attrs = attrs);
	return &nc->sgt;
}

/*
 * @sgt from dma_alloc_noncontiguous() for @dev (off the live list if
 * @unlink), reported under @func when it is not.
 */
static struct noncontig *ours(struct device *dev, struct sg_table *sgt, const char *func,
			      bool unlink)
{
	struct noncontig *nc = noncontig_of(sgt, false);

	if (nc && nc->dev == dev && unlink)
		nc = noncontig_of(sgt, true);
	if (!dev || !nc || nc->dev != dev) {
		dmamap__api_error(dev, func, dev ? DMAMAP_ERRK_BAD_HANDLE : DMAMAP_ERRK_NULL_ARG,
				  dev ? DMAMAP_DBG_FREE_INVALID : DMAMAP_DBG_NULL_DEVICE,
				  "the table %p is not from dma_alloc_noncontiguous() for this device",
				  (void *)sgt);
		return NULL;
	}
	return nc;
}

void dma_free_noncontiguous(struct device *dev, size_t size, struct sg_table *sgt,
			    enum dma_data_direction dir)
{
	struct noncontig *nc = ours(dev, sgt, __func__, true);

	if (!nc)
		return;
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_DMA_FREE_SGT, .dev = dev, .sgl = sgt->sgl,
		      .nents = (int)sgt->orig_nents, .dma_addr = sg_dma_address(sgt->sgl),
		      .size = size, .dir = dir);
	if (size != nc->size || dir != nc->dir)
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_ARG, DMAMAP_DBG_INVALID_ARGUMENT,
				  "freed with size %zu and direction %d, allocated with %zu and %d",
				  size, dir, nc->size, nc->dir);
	noncontig_free(nc);
}

void *dma_vmap_noncontiguous(struct device *dev, size_t size, struct sg_table *sgt)
{
	struct noncontig *nc = ours(dev, sgt, __func__, false);

	if (!nc)
		return NULL;
	(void)size;
	if (!nc->vaddr)
		nc->vaddr = dmamap__port_remap(dev->plat, nc->phys, nc->npages, 0,
					       PROT_READ | PROT_WRITE, VIEW_CPU);
	return nc->vaddr;
}

void dma_vunmap_noncontiguous(struct device *dev, void *vaddr)
{
	/* The view lives as long as the allocation: freeing it unmaps it. */
	(void)dev;
	(void)vaddr;
}

int dma_mmap_noncontiguous(struct device *dev, struct vm_area_struct *vma, size_t size,
			   struct sg_table *sgt)
{
	struct noncontig *nc = ours(dev, sgt, __func__, false);
	unsigned long len, n;
	uint8_t *va;

	if (!nc || !vma)
		return -EINVAL;
	if (!nc->iommu)
		return dma_mmap_pages(dev, vma, size, sg_page(nc->sgt.sgl));
	len = vma->vm_end - vma->vm_start;
	n = len >> PAGE_SHIFT;
	if (!len || (len & (PAGE_SIZE - 1)) || (vma->vm_start & (dmamap__host_page_size() - 1)))
		return -EINVAL;
	if (vma->vm_pgoff >= nc->npages || n > nc->npages - vma->vm_pgoff)
		return -ENXIO;
	n = dmamap__port_map_pages(n, vma->vm_pgoff, nc->npages);
	if (!n)
		return -EINVAL;
	va = dmamap__port_remap(dev->plat, nc->phys + vma->vm_pgoff, n, vma->vm_start,
				dmamap__vma_prot(vma), VIEW_CPU);
	if (!va)
		return -ENOMEM;
	vma->vm_start = (unsigned long)va;
	vma->vm_end = vma->vm_start + len;
	return 0;
}
