/* SPDX-License-Identifier: MIT */
/*
 * Memory every device of a set reaches without a copy. The rules: a
 * device without an IOMMU needs the buffer contiguous and inside what its
 * mask, its bus's limit and window (and a dmabounce bus's rule) let it
 * reach; the intersection of those, over every such device, is where the
 * buffer may lie. A device that bounces every mapping cannot share
 * without a copy at all. Memory found is checked against each device
 * with the same tests its mapping will make, so a rule this file does not
 * know (a driver's own dmabounce test) still cannot let a copy through.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "../lib/lib.h"
#include "../lib/mem.h"
#include "../mm/mm.h"
#include "../ops/direct.h"
#include "../ops/dmabounce.h"
#include "../ops/iommu.h"
#include "../ops/swiotlb.h"
#include "../platform/port.h"
#include "core.h"
#include "dma_buf.h"

#define MAX_SPANS 64

/* A set of physical addresses: spans [lo, hi], sorted, apart. */
struct spans {
	unsigned int n;
	struct span {
		phys_addr_t lo, hi;
	} v[MAX_SPANS];
};

static void spans_add(struct spans *s, phys_addr_t lo, phys_addr_t hi)
{
	if (lo <= hi && s->n < MAX_SPANS)
		s->v[s->n++] = (struct span){ lo, hi };
}

/* Sorted, and spans that touch or overlap made one: windows that continue each other are one run. */
static void spans_tidy(struct spans *s)
{
	unsigned int n = 0;

	for (unsigned int i = 1; i < s->n; i++)
		for (unsigned int j = i; j > 0 && s->v[j - 1].lo > s->v[j].lo; j--) {
			struct span t = s->v[j];

			s->v[j] = s->v[j - 1];
			s->v[j - 1] = t;
		}
	for (unsigned int i = 0; i < s->n; i++) {
		if (n && (s->v[n - 1].hi == ~(phys_addr_t)0 || s->v[i].lo <= s->v[n - 1].hi + 1))
			s->v[n - 1].hi = MAX(s->v[n - 1].hi, s->v[i].hi);
		else
			s->v[n++] = s->v[i];
	}
	s->n = n;
}

static void spans_intersect(struct spans *s, const struct spans *with)
{
	struct spans out = { 0 };

	for (unsigned int i = 0; i < s->n; i++)
		for (unsigned int j = 0; j < with->n; j++)
			spans_add(&out, MAX(s->v[i].lo, with->v[j].lo), MIN(s->v[i].hi, with->v[j].hi));
	spans_tidy(&out);
	*s = out;
}

static u64 spans_bytes(const struct spans *s)
{
	u64 n = 0;

	for (unsigned int i = 0; i < s->n; i++)
		n += s->v[i].hi - s->v[i].lo + 1;
	return n;
}

static bool translated(const struct device *dev)
{
	return dmamap__iommu_in_use(dev);
}

/* RAM a device without an IOMMU reaches at its own addresses, as one run. */
static void reach_of(const struct device *dev, struct spans *r)
{
	const u64 limit = dev->map_limit;
	phys_addr_t above = dmamap__dmabounce_above(dev);

	memset(r, 0, sizeof(*r));
	if (!dev->nr_ranges)
		spans_add(r, 0, limit);
	for (unsigned int i = 0; i < dev->nr_ranges; i++) {
		const struct dmamap_dma_range *w = &dev->ranges[i];

		if (!w->size || w->dma_start > limit)
			continue;
		/* In last bytes, not lengths: a 64-bit limit from 0 is a length that does not fit. */
		spans_add(r, w->cpu_start, w->cpu_start + MIN(w->size - 1, limit - w->dma_start));
	}
	spans_tidy(r);
	if (above) {
		struct spans below = { 0 };

		spans_add(&below, 0, above - 1);
		spans_intersect(r, &below);
	}
}

/* What the device's mapping of [@phys, +@len) will do: true if it uses the pages as they are. */
static bool reaches(struct device *dev, phys_addr_t phys, size_t len)
{
	if (translated(dev))
		return true;
	if (dev->dmabounce && dmamap__dmabounce_would_bounce(dev, phys, len))
		return false;
	return dmamap__direct_in_place(dev, phys, len);
}

/*
 * The device that keeps the buffer out of the RAM above the window: the
 * first without an IOMMU that does not reach all of it ("" when every one
 * would, and the window ends where RAM does or where it is cut in two).
 */
static void name_limit(struct device *const *devs, unsigned int n, const struct spans *ram,
		       struct dmamap_buf_plan *plan)
{
	struct spans above = *ram, cut = { 0 };

	if (plan->phys_hi == ~(phys_addr_t)0)
		return;
	spans_add(&cut, plan->phys_hi + 1, ~(phys_addr_t)0);
	spans_intersect(&above, &cut);
	for (unsigned int i = 0; i < n && above.n; i++) {
		struct spans r, reached = above;

		if (translated(devs[i]))
			continue;
		reach_of(devs[i], &r);
		spans_intersect(&reached, &r);
		if (spans_bytes(&reached) < spans_bytes(&above)) {
			snprintf(plan->limit_by, sizeof(plan->limit_by), "%s", dev_name(devs[i]));
			return;
		}
	}
}

static int fail(struct dmamap_buf_plan *plan, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct dmamap_buf_plan *plan, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(plan->why, sizeof(plan->why), fmt, ap);
	va_end(ap);
	plan->err = err;
	return err;
}

int dmamap_buf_plan(struct device *const *devs, unsigned int n, size_t size,
		    struct dmamap_buf_plan *plan)
{
	struct dmamap_platform *p;
	struct spans ram = { 0 }, window;
	struct dmamap_ram_bank bank;
	const struct span *best = NULL;
	bool before = false, snoops = false;

	if (!plan)
		return -EINVAL;
	memset(plan, 0, sizeof(*plan));
	if (!devs || !n || n > 64 || !size || !devs[0])
		return fail(plan, -EINVAL, "needs 1 to 64 devices and a size");
	p = devs[0]->plat;
	for (unsigned int i = 0; i < n; i++)
		if (!devs[i] || devs[i]->plat != p)
			return fail(plan, -EINVAL, "device %u is NULL or of another board", i);
	for (unsigned int i = 0; !dmamap_ram_bank(p, i, &bank); i++)
		spans_add(&ram, bank.start, bank.start + bank.size - 1);
	spans_tidy(&ram);
	if (!ram.n)
		return fail(plan, -EINVAL, "the host has no RAM banks to place a shared buffer in");
	plan->align = (size_t)PAGE_SIZE << dmamap__port_map_order();
	window = ram;
	for (unsigned int i = 0; i < n; i++) {
		struct device *dev = devs[i];
		struct spans r;

		if (dmamap__swiotlb_force_bounce(dev))
			return fail(plan, -EOPNOTSUPP,
				    "%s bounces every mapping (a restricted DMA pool, or swiotlb=force): no memory reaches it without a copy",
				    dev_name(dev));
		snoops |= dev->coherent;
		if (!dev->coherent) {
			plan->cpu_maintenance = true;
			if (dmamap_cache_line_size(p) > plan->align) {
				plan->align = dmamap_cache_line_size(p);
				snprintf(plan->align_by, sizeof(plan->align_by), "%s", dev_name(dev));
			}
		}
		if (translated(dev))
			continue;
		if (!plan->contiguous) {
			plan->contiguous = true;
			snprintf(plan->contiguous_for, sizeof(plan->contiguous_for), "%s", dev_name(dev));
		}
		reach_of(dev, &r);
		spans_intersect(&window, &r);
		if (!window.n)
			return fail(plan, -ERANGE,
				    "%s has no IOMMU and reaches no RAM without bouncing that %s",
				    dev_name(dev),
				    before ? "the devices before it reach too" : "the board has");
		before = true;
	}
	/* Cacheable memory suits both kinds, with one rule the API cannot enforce (docs/sharing.md). */
	plan->coherency_mixed = snoops && plan->cpu_maintenance;
	plan->size = (size + plan->align - 1) & ~(plan->align - 1);
	if (plan->size < size)
		return fail(plan, -E2BIG, "%zu bytes cannot be aligned", size);
	if (!plan->contiguous)
		return 0;
	for (unsigned int i = 0; i < window.n; i++)
		if (!best || window.v[i].hi - window.v[i].lo > best->hi - best->lo)
			best = &window.v[i];
	plan->phys_lo = best->lo;
	plan->phys_hi = best->hi;
	name_limit(devs, n, &ram, plan);
	if (best->hi - best->lo + 1 < plan->size)
		return fail(plan, -E2BIG,
			    "%s needs it contiguous and the RAM every such device reaches is %#llx-%#llx (limited by %s), smaller than %zu bytes",
			    plan->contiguous_for, (unsigned long long)best->lo,
			    (unsigned long long)best->hi, plan->limit_by[0] ? plan->limit_by : "RAM",
			    plan->size);
	return 0;
}

/* Whether every device uses @mem as it is; else the first that would copy. */
static struct device *who_copies(struct device *const *devs, unsigned int n,
				 const struct dmamap__heap_mem *mem)
{
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int k = 0; k < mem->nruns; k++)
			if (!reaches(devs[i], mem->runs[k].phys, mem->runs[k].len))
				return devs[i];
	return NULL;
}

/* Contiguous memory inside the plan's window: CMA if it lies there, then the zones. */
static int alloc_contiguous(struct device *const *devs, unsigned int n,
			    struct dmamap_buf_plan *plan, struct dmamap__heap_mem *mem)
{
	static const struct {
		gfp_t gfp;
		const char *name;
	} zones[] = {
		{ GFP_KERNEL | __GFP_HIGHMEM, "buddy (high memory)" },
		{ GFP_KERNEL, "buddy (normal zone)" },
		{ GFP_KERNEL | __GFP_DMA32, "buddy (DMA32 zone)" },
		{ GFP_KERNEL | __GFP_DMA, "buddy (DMA zone)" },
	};
	phys_addr_t cma;
	u64 cma_size;

	dmamap__board_cma_range(mem->plat, &cma, &cma_size);
	if (cma_size && cma <= plan->phys_hi && cma + cma_size - 1 >= plan->phys_lo &&
	    !dmamap__heap_alloc_cma(mem, plan->size)) {
		if (!who_copies(devs, n, mem)) {
			snprintf(plan->heap, sizeof(plan->heap), "cma");
			return 0;
		}
		dmamap__heap_mem_free_runs(mem);
	}
	for (unsigned int z = 0; z < ARRAY_SIZE(zones); z++) {
		if (dmamap__heap_alloc_block(mem, plan->size, zones[z].gfp))
			continue;
		if (!who_copies(devs, n, mem)) {
			snprintf(plan->heap, sizeof(plan->heap), "buddy");
			return 0;
		}
		dmamap__heap_mem_free_runs(mem);
	}
	return fail(plan, -ENOMEM,
		    "no free contiguous run of %zu bytes in %#llx-%#llx, the RAM %s and the other devices without an IOMMU reach",
		    plan->size, (unsigned long long)plan->phys_lo, (unsigned long long)plan->phys_hi,
		    plan->contiguous_for);
}

struct dma_buf *dmamap_buf_alloc_for(struct device *const *devs, unsigned int n, size_t size,
				     struct dmamap_buf_plan *plan, int *err)
{
	struct dmamap_buf_plan own;
	struct dmamap__heap_mem *mem;
	struct dma_buf *b;
	int ret;

	if (!plan)
		plan = &own;
	ret = dmamap_buf_plan(devs, n, size, plan);
	if (ret)
		goto out;
	mem = dmamap__calloc(1, sizeof(*mem));
	if (!mem) {
		ret = fail(plan, -ENOMEM, "no memory for the buffer's bookkeeping");
		goto out;
	}
	mem->plat = devs[0]->plat;
	if (plan->contiguous) {
		ret = alloc_contiguous(devs, n, plan, mem);
	} else {
		ret = dmamap__heap_alloc_scattered(mem, plan->size, GFP_KERNEL | __GFP_HIGHMEM);
		if (ret)
			fail(plan, ret, "no %zu bytes of pages free", plan->size);
		else
			snprintf(plan->heap, sizeof(plan->heap), "system");
	}
	if (ret) {
		dmamap__heap_mem_free(mem);
		goto out;
	}
	snprintf(mem->heap, sizeof(mem->heap), "%s", plan->heap);
	b = dmamap__heap_export(mem, "dmamap_buf_alloc_for");
	if (IS_ERR(b)) {
		ret = fail(plan, (int)PTR_ERR(b), "the buffer could not be exported");
		goto out;
	}
	if (err)
		*err = 0;
	return b;
out:
	if (err)
		*err = ret;
	return NULL;
}
