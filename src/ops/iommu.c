/* SPDX-License-Identifier: MIT */
/*
 * IOMMU-backed dma ops. Each device behind an IOMMU is attached to a domain
 * (its own, or its group's): an IOVA space and the hardware's IO page table
 * and IOTLB. A mapping takes a naturally aligned IOVA range, maps the pages
 * with the permissions its direction allows, and, for a device that does
 * not snoop, gets the same CPU cache maintenance as the direct path. Unmap
 * invalidates the IOTLB at once (strict) or queues the range (lazy); a
 * queued IOVA is not reused before its batch is invalidated.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include "../base/trace.h"
#include "../lib/lib.h"
#include "../base/report.h"
#include "../hw/iopt.h"
#include "../lib/spinlock.h"
#include "../mm/iova.h"
#include "../mm/mm.h"
#include "../platform/port.h"
#include "iommu.h"
#include "iommu_int.h"
#include "ops_helpers.h"
#include "../lib/mem.h"

static const struct dma_map_ops iommu_ops;

/* ---- domains ------------------------------------------------------------- */

/*
 * The IOVA space a new domain hands out: the device's bus still limits the
 * addresses it can drive (bus_dma_limit, from dma-ranges), IOMMU or not.
 */
static void iova_space(const struct device *dev, u64 *base, u64 *end)
{
	*base = IOVA_BASE;
	*end = IOVA_END;
	if (dev->bus_dma_limit && dev->bus_dma_limit < IOVA_END - 1)
		*end = (dev->bus_dma_limit + 1) & ~(u64)(PAGE_SIZE - 1);
	if (*end <= *base)
		*base = PAGE_SIZE;
}

static struct dmamap_iommu_domain *domain_new(const struct device *dev, const char *iommu,
					      unsigned int group)
{
	struct dmamap_iommu_domain *d;
	u64 base, end;

	iova_space(dev, &base, &end);
	if (end <= base)
		return NULL;
	d = dmamap__zalloc_lines(sizeof(*d));
	if (!d)
		return NULL;
	snprintf(d->iommu, sizeof(d->iommu), "%s", iommu);
	pthread_mutex_init(&d->bufs_lock, NULL);
	d->group = group;
	d->iova = dmamap__iova_create(base, end);
	if (!d->iova || dmamap__iopt_init(&d->pt)) {
		dmamap__iova_destroy(d->iova);
		free(d);
		return NULL;
	}
	return d;
}

static void domain_free(struct dmamap_iommu_domain *d)
{
	pthread_mutex_destroy(&d->bufs_lock);
	dmamap__iopt_fini(&d->pt);
	dmamap__iova_destroy(d->iova);
	free(d);
}

/* Invalidate the whole IOTLB once for a queue's batch, then free its IOVAs. */
static __attribute__((noinline)) void fq_flush(struct dmamap_iommu_domain *d,
					      struct flush_queue *q)
{
	u64 batch[FQ_SIZE];
	unsigned int n;

	dmamap__spin_lock(&q->lock);
	n = q->n;
	memcpy(batch, q->range, n * sizeof(batch[0]));
	q->n = 0;
	dmamap__spin_unlock(&q->lock);
	if (!n)
		return;
	dmamap__iotlb_invalidate(&d->pt, 0, ~0ULL);
	__atomic_fetch_add(&d->queue_flushes, 1, __ATOMIC_RELAXED);
	dmamap__iova_free_batch(d->iova, batch, n);
}

static void fq_flush_all(struct dmamap_iommu_domain *d)
{
	for (unsigned int i = 0; i < DMAMAP_STAT_SHARDS; i++)
		fq_flush(d, &d->fq[i]);
}

/* Queue a range on @q unless the queue is full. */
static inline bool fq_try_push(struct flush_queue *q, u64 iova, unsigned int order)
{
	bool queued = false;

	dmamap__spin_lock(&q->lock);
	if (likely(q->n < FQ_SIZE)) {
		q->range[q->n++] = dmamap__iova_range(iova, order);
		queued = true;
	}
	dmamap__spin_unlock(&q->lock);
	return queued;
}

/* This thread's queue was full: flush it, then queue the range. */
static __attribute__((noinline)) void fq_push_slow(struct dmamap_iommu_domain *d,
						   u64 iova, unsigned int order)
{
	for (;;) {
		struct flush_queue *q = &d->fq[dmamap__my_shard()];

		fq_flush(d, q);
		if (fq_try_push(q, iova, order))
			return;
	}
}

/* @shard: this thread's, which the caller has at hand. */
static void release_iova(struct dmamap_iommu_domain *d, unsigned int shard, u64 iova,
			 u64 npages)
{
	unsigned int order = order_of(npages);

	if (!__atomic_load_n(&d->lazy, __ATOMIC_RELAXED)) {
		dmamap__iotlb_invalidate(&d->pt, iova, npages);
		dmamap__iova_free(d->iova, iova, order);
		return;
	}
	if (unlikely(!fq_try_push(&d->fq[shard], iova, order)))
		fq_push_slow(d, iova, order);
}

/* ---- mapping -------------------------------------------------------------- */

static __attribute__((noinline, cold)) dma_addr_t
iova_error(struct device *dev, const char *what, size_t size, unsigned long attrs)
{
	if (!(attrs & DMA_ATTR_NO_WARN))
		dmamap__report(dev->plat, dev, DMAMAP_DBG_ALLOC_FAILED,
			       "iommu: %s for %zu bytes", what, size);
	dmamap__stat_add(dev, ST_ERR0 + DMAMAP_ERRK_NOMEM, 1);
	return DMA_MAPPING_ERROR;
}

/*
 * Map @npages from @phys_page at a fresh IOVA the device drives under
 * @mask (the streaming mask for a mapping, the coherent one for an
 * allocation); returns the IOVA or 0.
 */
static inline __attribute__((always_inline)) u64 map_range(struct device *dev, phys_addr_t phys_page, u64 npages,
		     enum dma_data_direction dir, size_t size, unsigned long attrs, u64 mask)
{
	struct dmamap_iommu_domain *d = dev->iommu_domain;
	unsigned int order = order_of(npages);
	u64 iova = dmamap__iova_alloc(d->iova, order);

	if (!iova) {
		iova_error(dev, "IOVA space exhausted", size, attrs);
		return 0;
	}
	if (iova + (npages << PAGE_SHIFT) - 1 > mask ||
	    dmamap__iopt_map(&d->pt, iova, phys_page, npages, iommu_prot(dir, attrs))) {
		dmamap__iova_free(d->iova, iova, order);
		iova_error(dev, "cannot map IOVA range", size, attrs);
		return 0;
	}
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_IOMMU_MAP, .dev = dev, .dma_addr = iova,
		      .phys_addr = phys_page, .size = npages << PAGE_SHIFT);
	{
		/* Both counters on this thread's shard, found once. */
		unsigned int shard = dmamap__my_shard();

		IOPT_COUNT_SHARD(&d->pt, shard, map_calls, 1);
		dmamap__stat_add_shard(&dev->stats[shard], ST_IOMMU_PAGES, npages);
	}
	return iova;
}

/* CPU cache maintenance, page by page: the pages behind an IOVA range need not be contiguous. */
static __attribute__((noinline)) void
sync_iova_pages(struct device *dev, dma_addr_t dma, size_t size,
		enum dma_data_direction dir, bool for_cpu)
{
	struct dmamap_iommu_domain *d = dev->iommu_domain;

	if (range_too_big(dma, size))
		return;
	while (size) {
		size_t chunk = MIN(size, (size_t)(PAGE_SIZE - (dma & (PAGE_SIZE - 1))));
		phys_addr_t phys = dmamap__iopt_walk(&d->pt, dma);

		if (phys != PHYS_NONE) {
			if (for_cpu)
				dmamap_arch_sync_dma_for_cpu(dev, phys, chunk, dir);
			else
				dmamap_arch_sync_dma_for_device(dev, phys, chunk, dir);
		}
		dma += chunk;
		size -= chunk;
	}
}

/* Only a device that does not snoop has caches to maintain. */
static inline void sync_iova(struct device *dev, dma_addr_t dma, size_t size,
			     enum dma_data_direction dir, bool for_cpu)
{
	if (!dev->coherent)
		sync_iova_pages(dev, dma, size, dir, for_cpu);
}

void dmamap__iommu_sync_iova(struct device *dev, dma_addr_t dma, size_t size,
			     enum dma_data_direction dir, bool for_cpu)
{
	sync_iova(dev, dma, size, dir, for_cpu);
}

bool dmamap__iommu_in_use(const struct device *dev)
{
	return dev->iommu_domain && dev->dma_ops == &iommu_ops;
}

static inline __attribute__((always_inline)) dma_addr_t
iommu_map_phys(struct device *dev, phys_addr_t phys, size_t size,
				 enum dma_data_direction dir, unsigned long attrs,
				 bool ram)
{
	dma_addr_t dma;
	u64 iova;

	if (range_too_big(phys, size))
		return iova_error(dev, "mapping larger than the IOVA space", size, attrs);
	iova = map_range(dev, phys & PAGE_MASK, pages_spanned(phys, size), dir, size, attrs,
			 *dev->dma_mask);

	if (!iova)
		return DMA_MAPPING_ERROR;
	dma = iova + (phys & (PAGE_SIZE - 1));
	if (ram && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		sync_iova(dev, dma, size, dir, false);
	return dma;
}

static dma_addr_t iommu_map_page(struct device *dev, struct page *page,
				 unsigned long offset, size_t size,
				 enum dma_data_direction dir, unsigned long attrs)
{
	phys_addr_t phys = dmamap__linear_to_phys(dev->plat, page);

	if (unlikely(phys == PHYS_NONE)) {
		dmamap__api_error(dev, "dma_map_page", DMAMAP_ERRK_NOT_LINEAR, DMAMAP_DBG_NOT_LINEAR,
				  "buffer %p is not in this board's linear map (stack, alias or foreign memory)",
				  (void *)((char *)page + offset));
		return DMA_MAPPING_ERROR;
	}
	return iommu_map_phys(dev, phys + offset, size, dir, attrs, true);
}

static inline __attribute__((always_inline)) void
iommu_unmap_range(struct device *dev, dma_addr_t dma, size_t size,
			      enum dma_data_direction dir, unsigned long attrs,
			      bool ram)
{
	struct dmamap_iommu_domain *d = dev->iommu_domain;
	u64 npages = pages_spanned(dma, size);

	if (range_too_big(dma, size)) {
		dmamap__api_error(dev, "dma_unmap", DMAMAP_ERRK_BAD_HANDLE,
				  DMAMAP_DBG_UNMAP_INVALID,
				  "[IOVA=0x%llx] [size=%zu] is larger than the IOVA space",
				  (unsigned long long)dma, size);
		return;
	}
	if (ram && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		sync_iova(dev, dma, size, dir, true);
	/* Nothing was mapped there: the handle is not ours; nothing to release. */
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_IOMMU_UNMAP, .dev = dev, .dma_addr = dma & PAGE_MASK,
		      .size = npages << PAGE_SHIFT, .unmapped_size = npages << PAGE_SHIFT);
	if (!dmamap__iopt_unmap(&d->pt, dma & PAGE_MASK, npages)) {
		dmamap__api_error(dev, "dma_unmap", DMAMAP_ERRK_BAD_HANDLE,
				  DMAMAP_DBG_UNMAP_INVALID,
				  "[IOVA=0x%llx] [size=%zu] is not mapped in the IOMMU",
				  (unsigned long long)dma, size);
		return;
	}
	{
		unsigned int shard = dmamap__my_shard();

		IOPT_COUNT_SHARD(&d->pt, shard, unmap_calls, 1);
		release_iova(d, shard, dma & PAGE_MASK, npages);
	}
}

static void iommu_unmap_page(struct device *dev, dma_addr_t dma, size_t size,
			     enum dma_data_direction dir, unsigned long attrs)
{
	iommu_unmap_range(dev, dma, size, dir, attrs, true);
}

static dma_addr_t iommu_map_resource(struct device *dev, phys_addr_t phys,
				     size_t size, enum dma_data_direction dir,
				     unsigned long attrs)
{
	return iommu_map_phys(dev, phys, size, dir, attrs, false);
}

static void iommu_unmap_resource(struct device *dev, dma_addr_t dma, size_t size,
				 enum dma_data_direction dir, unsigned long attrs)
{
	iommu_unmap_range(dev, dma, size, dir, attrs, false);
}

static void iommu_sync_for_cpu(struct device *dev, dma_addr_t dma, size_t size,
			       enum dma_data_direction dir)
{
	sync_iova(dev, dma, size, dir, true);
}

static void iommu_sync_for_device(struct device *dev, dma_addr_t dma, size_t size,
				  enum dma_data_direction dir)
{
	sync_iova(dev, dma, size, dir, false);
}

/*
 * A whole list in one IOVA range: each entry takes the pages it spans, in
 * order; entries that meet on a page boundary merge into one device
 * segment while it stays within the device's max segment size.
 */
static int iommu_map_sg(struct device *dev, struct scatterlist *sgl, int nents,
			enum dma_data_direction dir, unsigned long attrs)
{
	struct dmamap_iommu_domain *d = dev->iommu_domain;
	struct scatterlist *sg, *out = sgl;
	u64 total = 0, iova, at;
	int i, count = 0;
	size_t seg_len = 0;

	for_each_sg(sgl, sg, nents, i) {
		phys_addr_t phys;

		if (!sg || !sg->length || !sg_page(sg))
			return -EINVAL;
		phys = dmamap__linear_to_phys(dev->plat, sg_page(sg));
		if (phys == PHYS_NONE)
			return -EINVAL;
		total += pages_spanned(phys + sg->offset, sg->length);
	}
	iova = dmamap__iova_alloc(d->iova, order_of(total));
	if (!iova) {
		iova_error(dev, "IOVA space exhausted", (size_t)total << PAGE_SHIFT, attrs);
		return -ENOMEM;
	}
	if (iova + (total << PAGE_SHIFT) - 1 > *dev->dma_mask) {
		dmamap__iova_free(d->iova, iova, order_of(total));
		iova_error(dev, "no IOVA range within the device's mask",
			   (size_t)total << PAGE_SHIFT, attrs);
		return -ENOMEM;
	}
	at = iova;
	for_each_sg(sgl, sg, nents, i) {
		phys_addr_t phys = dmamap__linear_to_phys(dev->plat, sg_page(sg)) + sg->offset;
		u64 n = pages_spanned(phys, sg->length);
		dma_addr_t dma = at + (phys & (PAGE_SIZE - 1));

		if (dmamap__iopt_map(&d->pt, at, phys & PAGE_MASK, n, iommu_prot(dir, attrs))) {
			dmamap__iopt_unmap(&d->pt, iova, at - iova);
			dmamap__iova_free(d->iova, iova, order_of(total));
			return -ENOMEM;
		}
		DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_IOMMU_MAP, .dev = dev, .dma_addr = at,
			      .phys_addr = phys & PAGE_MASK, .size = n << PAGE_SHIFT);
		if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
			sync_iova(dev, dma, sg->length, dir, false);
		if (count && sg_dma_address(out) + seg_len == dma &&
		    seg_len + sg->length <= dev->dma_parms.max_segment_size &&
		    !((sg_dma_address(out) ^ (dma + sg->length - 1)) &
		      ~(dma_addr_t)dev->dma_parms.segment_boundary_mask)) {
			seg_len += sg->length;
		} else {
			if (count)
				out = sg_next(out);
			count++;
			sg_dma_address(out) = dma;
			seg_len = sg->length;
		}
		sg_dma_len(out) = (unsigned int)seg_len;
		at += n << PAGE_SHIFT;
	}
	/* Entries past the last device segment carry no stale address or length. */
	for (sg = sg_next(out), i = count; sg && i < nents; sg = sg_next(sg), i++) {
		sg_dma_address(sg) = DMA_MAPPING_ERROR;
		sg_dma_len(sg) = 0;
	}
	IOPT_COUNT(&d->pt, map_calls, 1);
	dmamap__stat_add(dev, ST_IOMMU_PAGES, total);
	return count;
}

static void iommu_unmap_sg(struct device *dev, struct scatterlist *sgl, int nents,
			   enum dma_data_direction dir, unsigned long attrs)
{
	struct dmamap_iommu_domain *d = dev->iommu_domain;
	dma_addr_t iova = sg_dma_address(sgl) & PAGE_MASK;
	struct scatterlist *sg;
	u64 total = 0;
	int i;

	/* Walk the list as map_sg laid it out, syncing exactly each entry's bytes. */
	for_each_sg(sgl, sg, nents, i) {
		phys_addr_t phys;

		if (!sg)
			break;
		phys = dmamap__linear_to_phys(dev->plat, sg_page(sg)) + sg->offset;
		if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
			sync_iova(dev, iova + (total << PAGE_SHIFT) + (phys & (PAGE_SIZE - 1)),
				  sg->length, dir, true);
		total += pages_spanned(phys, sg->length);
	}
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_IOMMU_UNMAP, .dev = dev, .dma_addr = iova,
		      .size = total << PAGE_SHIFT, .unmapped_size = total << PAGE_SHIFT);
	dmamap__iopt_unmap(&d->pt, iova, total);
	IOPT_COUNT(&d->pt, unmap_calls, 1);
	release_iova(d, dmamap__my_shard(), iova, total);
}

/* Coherent memory: contiguous pages from the direct allocator, mapped at an IOVA. */
static enum dmamap_view cpu_view(const struct device *dev)
{
	return dev->coherent ? VIEW_CPU : VIEW_MEM;
}

static void buf_release(struct device *dev, struct iommu_buf *b)
{
	for (unsigned long i = 0; i < b->npages; i++) {
		if (b->phys[i] == PHYS_NONE || b->order[i] == RUN_TAIL)
			continue;
		dmamap__reset_range(dev->plat, b->phys[i], PAGE_SIZE << b->order[i], false);
		dmamap__pages_free(dev->plat, b->phys[i], b->order[i]);
	}
	if (b->cpu)
		dmamap__munmap(b->cpu, b->npages * PAGE_SIZE);
	free(b);
}

static struct iommu_buf *buf_find(struct dmamap_iommu_domain *d, dma_addr_t iova,
				  bool unlink)
{
	struct iommu_buf *b = NULL;

	pthread_mutex_lock(&d->bufs_lock);
	for (struct iommu_buf **pp = &d->bufs; *pp; pp = &(*pp)->next) {
		if ((*pp)->iova == iova) {
			b = *pp;
			if (unlink)
				*pp = b->next;
			break;
		}
	}
	pthread_mutex_unlock(&d->bufs_lock);
	return b;
}

static void *alloc_scattered(struct device *dev, size_t size, dma_addr_t *dma_handle,
			     unsigned long attrs)
{
	struct dmamap_iommu_domain *d = dev->iommu_domain;
	unsigned long n = dmamap__port_map_size(size) >> PAGE_SHIFT;
	unsigned int min_order = dmamap__port_map_order();
	struct iommu_buf *b;

	/* More than the device can address, or a size whose rounding wraps: no pages to ask for. */
	if (!n || (u64)size - 1 > dev->coherent_dma_mask)
		return NULL;
	b = dmamap__calloc(1, sizeof(*b) + n * (sizeof(b->phys[0]) + 1));
	if (!b)
		return NULL;
	b->npages = n;
	b->order = (uint8_t *)&b->phys[n];
	for (unsigned long i = 0; i < n; i++)
		b->phys[i] = PHYS_NONE;
	/*
	 * Runs as long as the page allocator has them, as the kernel's remap
	 * allocator prefers, or single pages when asked: fewer IOTLB entries
	 * against less pressure on large blocks.
	 */
	/* Single pages are host pages where the host maps nothing smaller (a CPU remap follows). */
	for (unsigned long i = 0; i < n;) {
		unsigned int order = min_order;
		phys_addr_t run;

		if (!(attrs & DMA_ATTR_ALLOC_SINGLE_PAGES))
			while (order < 10 && (2UL << order) <= n - i)
				order++;
		for (;; order--) {
			run = dmamap__pages_alloc(dev->plat, order, ZONE_NORMAL_IDX);
			if (run != PHYS_NONE || order == min_order)
				break;
		}
		if (run == PHYS_NONE)
			goto fail;
		dmamap__reset_range(dev->plat, run, PAGE_SIZE << order, true);
		for (unsigned long k = 0; k < (1UL << order); k++) {
			b->phys[i + k] = run + k * PAGE_SIZE;
			b->order[i + k] = k ? RUN_TAIL : (uint8_t)order;
		}
		i += 1UL << order;
	}
	b->cpu = dmamap__port_remap(dev->plat, b->phys, n, 0, PROT_READ | PROT_WRITE, cpu_view(dev));
	if (!b->cpu)
		goto fail;
	b->iova = dmamap__iova_alloc(d->iova, order_of(n));
	if (!b->iova)
		goto fail;
	/* As a streaming map: an IOVA the device cannot drive is no allocation for it. */
	if (b->iova + ((u64)n << PAGE_SHIFT) - 1 > dev->coherent_dma_mask) {
		dmamap__iova_free(d->iova, b->iova, order_of(n));
		b->iova = 0;
		goto fail;
	}
	for (unsigned long i = 0; i < n; i++) {
		if (dmamap__iopt_map(&d->pt, b->iova + i * PAGE_SIZE, b->phys[i], 1,
				     iommu_prot(DMA_BIDIRECTIONAL, attrs))) {
			dmamap__iopt_unmap(&d->pt, b->iova, i);
			dmamap__iova_free(d->iova, b->iova, order_of(n));
			goto fail;
		}
	}
	IOPT_COUNT(&d->pt, map_calls, 1);
	dmamap__stat_add(dev, ST_IOMMU_PAGES, n);
	pthread_mutex_lock(&d->bufs_lock);
	b->next = d->bufs;
	d->bufs = b;
	pthread_mutex_unlock(&d->bufs_lock);
	*dma_handle = b->iova;
	return b->cpu;
fail:
	buf_release(dev, b);
	return NULL;
}

/*
 * An allocation's range, unmapped and invalidated at once whatever the
 * flush mode (the memory goes back to the allocator right after), its IOVA
 * free again.
 */
static void unmap_now(struct dmamap_iommu_domain *d, dma_addr_t dma, u64 npages)
{
	dmamap__iopt_unmap(&d->pt, dma, npages);
	IOPT_COUNT(&d->pt, unmap_calls, 1);
	dmamap__iotlb_invalidate(&d->pt, dma, npages);
	dmamap__iova_free(d->iova, dma, order_of(npages));
}

/* The CPU's way to a contiguous buffer: cached for a snooping device, else an uncached alias. */
static enum dmamap_view coherent_view(const struct device *dev, unsigned long attrs)
{
	if (dev->coherent || (attrs & DMA_ATTR_NO_KERNEL_MAPPING))
		return VIEW_CPU;
	return (attrs & DMA_ATTR_WRITE_COMBINE) ? VIEW_WC : VIEW_MEM;
}

/*
 * Contiguous memory from mm (CMA for the large and the asked-for, else
 * pages; low memory, which the CPU maps, whatever the device's mask, since
 * the IOMMU reaches it all), mapped at a fresh IOVA.
 */
static void *iommu_alloc_contiguous(struct device *dev, size_t size,
				    dma_addr_t *dma_handle, gfp_t gfp,
				    unsigned long attrs)
{
	struct dmamap_platform *p = dev->plat;
	phys_addr_t phys = PHYS_NONE;
	void *cpu;
	u64 iova;

	/* CMA's rule is the kernel's, on the size asked for: a single page never comes from it. */
	bool cma = dmamap__wants_cma(dev, size, gfp, attrs);

	size = dmamap__port_map_size(size);
	if (cma) {
		if (dmamap__fault(&p->fault, DMAMAP_FAULT_ALLOC))
			return NULL;
		phys = dmamap__alloc_from_cma(dev, size);
	}
	if (phys == PHYS_NONE)
		phys = dmamap__pages_alloc(p, dmamap__get_order(size), ZONE_NORMAL_IDX);
	if (phys == PHYS_NONE)
		return NULL;
	/* All views equal and zero before any is handed out (arch_dma_prep_coherent). */
	dmamap__reset_range(p, phys, size, true);
	iova = map_range(dev, phys, size >> PAGE_SHIFT, DMA_BIDIRECTIONAL, size, attrs,
			 dev->coherent_dma_mask);
	if (!iova) {
		dmamap__reset_range(p, phys, size, false);
		dmamap__free_contiguous(p, phys, size);
		return NULL;
	}
	cpu = dmamap__view_map(p, phys, size, coherent_view(dev, attrs));
	if (!cpu) {
		unmap_now(dev->iommu_domain, iova, size >> PAGE_SHIFT);
		dmamap__free_contiguous(p, phys, size);
		return NULL;
	}
	*dma_handle = iova;
	return (attrs & DMA_ATTR_NO_KERNEL_MAPPING) ? (void *)virt_to_page(cpu) : cpu;
}

static void *iommu_alloc(struct device *dev, size_t size, dma_addr_t *dma_handle,
			 gfp_t gfp, unsigned long attrs)
{
	/* Pages need not be contiguous: the IOMMU and a CPU remap make them so. */
	if (size > PAGE_SIZE && !(attrs & (DMA_ATTR_FORCE_CONTIGUOUS |
					   DMA_ATTR_NO_KERNEL_MAPPING))) {
		void *cpu = alloc_scattered(dev, size, dma_handle, attrs);

		if (cpu)
			return cpu;
	}
	return iommu_alloc_contiguous(dev, size, dma_handle, gfp, attrs);
}



/*
 * An allocation's range goes: its IOVA, its CPU address and its size must
 * be the allocation's, checked before anything changes.
 */
static bool allocation_gone(struct device *dev, dma_addr_t dma, size_t size, const void *cpu,
			    enum dmamap_view view, phys_addr_t *physp, const char *func)
{
	struct dmamap_iommu_domain *d = dev->iommu_domain;
	phys_addr_t phys = dmamap__iopt_walk(&d->pt, dma);
	enum dmamap_view cpu_view;
	/* The allocation's own address: its alias, or its linear map (its page, if it has no mapping). */
	bool own = phys != PHYS_NONE && dmamap__addr_to_phys(dev->plat, cpu, &cpu_view) == phys &&
		   cpu_view == view;

	if (phys == PHYS_NONE || (dma & (PAGE_SIZE - 1)) ||
	    !dmamap__is_contiguous(dev->plat, phys, dmamap__port_map_size(size)) ||
	    (!own && (view != VIEW_CPU ||
		      cpu != (void *)virt_to_page(dmamap__phys_to_view(dev->plat, phys, VIEW_CPU))))) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_HANDLE, DMAMAP_DBG_FREE_INVALID,
				  "[IOVA=0x%llx] [size=%zu] [cpu=%p] is not an allocation of this size mapped in the IOMMU",
				  (unsigned long long)dma, size, cpu);
		return false;
	}
	unmap_now(d, dma, dmamap__port_map_size(size) >> PAGE_SHIFT);
	*physp = phys;
	return true;
}

static void iommu_free(struct device *dev, size_t size, void *cpu,
		       dma_addr_t dma, unsigned long attrs)
{
	struct dmamap_iommu_domain *d = dev->iommu_domain;
	u64 npages = dmamap__port_map_size(size) >> PAGE_SHIFT;
	struct iommu_buf *b = buf_find(d, dma, false);
	phys_addr_t phys;

	if (b) {
		if (b->cpu != cpu || b->npages != npages) {
			dmamap__api_error(dev, "dma_free_attrs", DMAMAP_ERRK_BAD_HANDLE,
					  DMAMAP_DBG_FREE_INVALID,
					  "[IOVA=0x%llx] freed with another CPU address or size [cpu=%p] [size=%zu]",
					  (unsigned long long)dma, cpu, size);
			return;
		}
		buf_find(d, dma, true);
		unmap_now(d, dma, npages);
		buf_release(dev, b);
		return;
	}
	if (allocation_gone(dev, dma, size, cpu, coherent_view(dev, attrs), &phys,
			    "dma_free_attrs")) {
		/* The model forgets what the uncached alias did before the pages go back. */
		dmamap__view_unmap(dev->plat, cpu);
		dmamap__reset_range(dev->plat, phys, dmamap__port_map_size(size), false);
		dmamap__free_contiguous(dev->plat, phys, dmamap__port_map_size(size));
	}
}

/* Pages the CPU reaches cached and syncs by hand, mapped at a fresh IOVA. */
static void *iommu_alloc_noncoherent(struct device *dev, size_t size,
				     dma_addr_t *dma_handle,
				     enum dma_data_direction dir, gfp_t gfp)
{
	struct dmamap_platform *p = dev->plat;
	phys_addr_t phys;
	void *cpu;
	u64 iova;

	(void)gfp;
	size = dmamap__port_map_size(size);
	phys = dmamap__pages_alloc(p, dmamap__get_order(size), ZONE_NORMAL_IDX);
	if (phys == PHYS_NONE)
		return NULL;
	cpu = dmamap__phys_to_view(p, phys, VIEW_CPU);
	/* Zeroed through the cache, as the kernel does: the driver syncs before use. */
	memset(cpu, 0, size);
	iova = map_range(dev, phys, size >> PAGE_SHIFT, dir, size, 0, dev->coherent_dma_mask);
	if (!iova) {
		dmamap__pages_free(p, phys, dmamap__get_order(size));
		return NULL;
	}
	*dma_handle = iova;
	return cpu;
}

static void iommu_free_noncoherent(struct device *dev, size_t size, void *cpu,
				   dma_addr_t dma, enum dma_data_direction dir)
{
	phys_addr_t phys;

	(void)dir;
	if (allocation_gone(dev, dma, size, cpu, VIEW_CPU, &phys, "dma_free_noncoherent"))
		dmamap__free_contiguous(dev->plat, phys, dmamap__port_map_size(size));
}

/* Cache maintenance for a list, from its CPU side: the device segments may be merged. */
static void iommu_sync_sg(struct device *dev, struct scatterlist *sgl, int nents,
			  enum dma_data_direction dir, bool for_cpu)
{
	struct scatterlist *sg;
	int i;

	if (dev->coherent)
		return;
	for_each_sg(sgl, sg, nents, i) {
		phys_addr_t phys;

		if (!sg)
			break;
		phys = dmamap__linear_to_phys(dev->plat, sg_page(sg));
		if (phys == PHYS_NONE)
			continue;
		if (for_cpu)
			dmamap_arch_sync_dma_for_cpu(dev, phys + sg->offset, sg->length, dir);
		else
			dmamap_arch_sync_dma_for_device(dev, phys + sg->offset, sg->length, dir);
	}
}

static void iommu_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg,
				  int nents, enum dma_data_direction dir)
{
	iommu_sync_sg(dev, sg, nents, dir, true);
}

static void iommu_sync_sg_for_device(struct device *dev, struct scatterlist *sg,
				     int nents, enum dma_data_direction dir)
{
	iommu_sync_sg(dev, sg, nents, dir, false);
}

static int iommu_mmap(struct device *dev, struct vm_area_struct *vma, void *cpu,
		      dma_addr_t dma, size_t size, unsigned long attrs)
{
	struct iommu_buf *b = buf_find(dev->iommu_domain, dma, false);
	unsigned long len = vma->vm_end - vma->vm_start, n;
	void *va;

	(void)cpu;
	(void)attrs;
	/* A contiguous buffer: one run of RAM, as the direct table maps it. */
	if (!b)
		return dmamap__common_mmap(dev, vma,
					   dmamap__iopt_walk(&dev->iommu_domain->pt, dma), size,
					   dev->coherent ? VIEW_CPU : VIEW_MEM);
	n = len >> PAGE_SHIFT;
	if (!len || (len & (PAGE_SIZE - 1)) || (vma->vm_start & (dmamap__host_page_size() - 1)))
		return -EINVAL;
	if (vma->vm_pgoff >= b->npages || n > b->npages - vma->vm_pgoff)
		return -ENXIO;
	n = dmamap__port_map_pages(n, vma->vm_pgoff, b->npages);
	if (!n)
		return -EINVAL;
	va = dmamap__port_remap(dev->plat, b->phys + vma->vm_pgoff, n, vma->vm_start,
				dmamap__vma_prot(vma), cpu_view(dev));
	if (!va)
		return -ENOMEM;
	vma->vm_start = (unsigned long)va;
	vma->vm_end = vma->vm_start + len;
	return 0;
}

static int iommu_get_sgtable(struct device *dev, struct sg_table *sgt, void *cpu,
			     dma_addr_t dma, size_t size, unsigned long attrs)
{
	struct iommu_buf *b = buf_find(dev->iommu_domain, dma, false);
	struct scatterlist *sg;
	int ret, i;

	(void)cpu;
	(void)attrs;
	if (!b)
		return dmamap__common_get_sgtable(dev, sgt,
						  dmamap__iopt_walk(&dev->iommu_domain->pt, dma),
						  size);
	ret = sg_alloc_table(sgt, (unsigned int)b->npages, GFP_KERNEL);
	if (ret)
		return ret;
	for_each_sg(sgt->sgl, sg, (int)b->npages, i)
		sg_set_page(sg, virt_to_page(dmamap__phys_to_view(dev->plat, b->phys[i],
								  VIEW_CPU)),
			    PAGE_SIZE, 0);
	return 0;
}

/* The largest mapping whose IOVA comes from a per-thread cache, not the buddy allocator. */
static size_t iommu_opt_mapping_size(void)
{
	return PAGE_SIZE << (DMAMAP_IOVA_CACHE_ORDERS - 1);
}

/* Segments merge within one IO page: the granule, less one. */
static unsigned long iommu_merge_boundary(struct device *dev)
{
	(void)dev;
	return PAGE_SIZE - 1;
}

static const struct dma_map_ops iommu_ops = {
	.name = "iommu",
	.alloc = iommu_alloc,
	.free = iommu_free,
	.mmap = iommu_mmap,
	.get_sgtable = iommu_get_sgtable,
	.alloc_noncoherent = iommu_alloc_noncoherent,
	.free_noncoherent = iommu_free_noncoherent,
	.map_page = iommu_map_page,
	.unmap_page = iommu_unmap_page,
	.map_sg = iommu_map_sg,
	.unmap_sg = iommu_unmap_sg,
	.map_resource = iommu_map_resource,
	.unmap_resource = iommu_unmap_resource,
	.sync_single_for_cpu = iommu_sync_for_cpu,
	.sync_single_for_device = iommu_sync_for_device,
	.sync_sg_for_cpu = iommu_sync_sg_for_cpu,
	.sync_sg_for_device = iommu_sync_sg_for_device,
	.opt_mapping_size = iommu_opt_mapping_size,
	.get_merge_boundary = iommu_merge_boundary,
};

/* ---- attach, the device side, the public calls ------------------------------- */

int dmamap__iommu_init(struct dmamap_platform *p)
{
	p->iommu = dmamap__calloc(1, sizeof(*p->iommu));
	if (!p->iommu)
		return -ENOMEM;
	pthread_mutex_init(&p->iommu->lock, NULL);
	return 0;
}

void dmamap__iommu_fini(struct dmamap_platform *p)
{
	if (!p->iommu)
		return;
	pthread_mutex_destroy(&p->iommu->lock);
	free(p->iommu);
	p->iommu = NULL;
}

int dmamap__iommu_attach(struct device *dev, const char *iommu, unsigned int group,
			 bool lazy)
{
	struct dmamap_iommu *io = dev->plat->iommu;
	struct dmamap_iommu_domain *d = NULL;

	pthread_mutex_lock(&io->lock);
	if (group) {
		for (d = io->domains; d; d = d->next)
			if (d->group == group && !strcmp(d->iommu, iommu))
				break;
	}
	if (!d) {
		d = domain_new(dev, iommu, group);
		if (!d) {
			pthread_mutex_unlock(&io->lock);
			return -ENOMEM;
		}
		d->lazy = lazy;
		d->next = io->domains;
		io->domains = d;
	}
	d->refs++;
	pthread_mutex_unlock(&io->lock);
	dev->iommu_domain = d;
	dev->iommu_hw = &d->pt;
	dev->dma_ops = &iommu_ops;
	return 0;
}

void dmamap__iommu_detach(struct device *dev)
{
	struct dmamap_iommu *io = dev->plat->iommu;
	struct dmamap_iommu_domain *d = dev->iommu_domain, **pp;
	bool last;

	if (!d)
		return;
	dev->iommu_domain = NULL;
	dev->iommu_hw = NULL;
	if (dev->dma_ops == &iommu_ops)
		dev->dma_ops = NULL;
	pthread_mutex_lock(&io->lock);
	last = --d->refs == 0;
	if (last)
		for (pp = &io->domains; *pp; pp = &(*pp)->next)
			if (*pp == d) {
				*pp = d->next;
				break;
			}
	pthread_mutex_unlock(&io->lock);
	if (last)
		domain_free(d);
}

int dmamap_iommu_stats(struct device *dev, struct dmamap_iommu_stats *s)
{
	struct dmamap_iommu_domain *d;
	unsigned long queued = 0;

	if (!dev || !s)
		return -EINVAL;
	if (!(d = dev->iommu_domain))
		return -ENODEV;
	memset(s, 0, sizeof(*s));
	for (unsigned int i = 0; i < DMAMAP_STAT_SHARDS; i++) {
		dmamap__spin_lock(&d->fq[i].lock);
		queued += d->fq[i].n;
		dmamap__spin_unlock(&d->fq[i].lock);
	}
	s->pages_mapped = dmamap__iopt_mapped(&d->pt);
	s->iotlb_hits = IOPT_TOTAL(&d->pt, hits);
	s->iotlb_misses = IOPT_TOTAL(&d->pt, misses);
	s->iotlb_invalidations = IOPT_TOTAL(&d->pt, invalidations);
	s->translation_faults = IOPT_TOTAL(&d->pt, translation_faults);
	s->permission_faults = IOPT_TOTAL(&d->pt, permission_faults);
	s->map_calls = IOPT_TOTAL(&d->pt, map_calls);
	s->unmap_calls = IOPT_TOTAL(&d->pt, unmap_calls);
	s->queue_flushes = __atomic_load_n(&d->queue_flushes, __ATOMIC_RELAXED);
	s->queued = queued;
	dmamap__iova_counts(d->iova, &s->iova_allocs, &s->iova_cache_hits,
			    &s->iova_failures);
	return 0;
}

int dmamap_iommu_set_flush(struct device *dev, enum dmamap_iommu_flush mode)
{
	if (!dev || (mode != DMAMAP_IOMMU_STRICT && mode != DMAMAP_IOMMU_LAZY))
		return -EINVAL;
	if (!dev->iommu_domain)
		return -ENODEV;
	if (mode == DMAMAP_IOMMU_STRICT)
		fq_flush_all(dev->iommu_domain);
	__atomic_store_n(&dev->iommu_domain->lazy, mode == DMAMAP_IOMMU_LAZY, __ATOMIC_RELAXED);
	return 0;
}

int dmamap_iommu_flush(struct device *dev)
{
	if (!dev)
		return -EINVAL;
	if (!dev->iommu_domain)
		return -ENODEV;
	fq_flush_all(dev->iommu_domain);
	return 0;
}

int dmamap_iommu_set_fault_handler(struct device *dev, dmamap_iommu_fault_fn fn,
				   void *ctx)
{
	if (!dev)
		return -EINVAL;
	if (!dev->iommu_domain)
		return -ENODEV;
	dev->iommu_domain->pt.fault_ctx = ctx;
	dev->iommu_domain->pt.fault_fn = fn;
	return 0;
}

phys_addr_t dmamap_iommu_iova_to_phys(struct device *dev, dma_addr_t iova)
{
	if (!dev || !dev->iommu_domain)
		return PHYS_NONE;
	return dmamap__iopt_walk(&dev->iommu_domain->pt, iova);
}

const char *dmamap__iommu_name(const struct device *dev)
{
	return dev->iommu_domain ? dev->iommu_domain->iommu : "";
}
