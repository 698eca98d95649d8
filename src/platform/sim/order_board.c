/* SPDX-License-Identifier: MIT */
/*
 * Weakly-ordered memory, the board's side: which coherent allocations the
 * model follows (regions), its reports, and its switches (the memory
 * model, threaded devices, the seed, the counters). The state: order.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../lib/log.h"
#include "../../base/ram.h"
#include "../../base/report.h"
#include "order.h"
#include "../../lib/mem.h"

/* Queued: the locks are held here, and the checker's hook may call the library. */
void dmamap__order_report(struct dmamap_order *o, struct device *dev, enum dmamap_dbg_kind kind,
			  dma_addr_t addr, u64 size, const char *fmt, ...)
{
	struct queued_report *q;
	va_list ap;

	if (!__atomic_load_n(&dev->plat->debug, __ATOMIC_RELAXED) || o->nqueued == QUEUE_MAX)
		return;
	q = &o->queue[o->nqueued++];
	*q = (struct queued_report){ .kind = kind, .dev = dev, .addr = addr, .size = size };
	va_start(ap, fmt);
	vsnprintf(q->text, sizeof(q->text), fmt, ap);
	va_end(ap);
}

void dmamap__sim_order_flush(struct dmamap_platform *p)
{
	struct dmamap_order *o = p->sim ? p->sim->order : NULL;
	struct queued_report q[QUEUE_MAX];
	unsigned int n;

	if (!o || !__atomic_load_n(&o->nqueued, __ATOMIC_RELAXED))
		return;
	dmamap__spin_lock(&o->lock);
	n = o->nqueued;
	memcpy(q, o->queue, n * sizeof(q[0]));
	o->nqueued = 0;
	dmamap__spin_unlock(&o->lock);
	for (unsigned int i = 0; i < n; i++)
		dmamap__report_at(p, q[i].dev, q[i].kind, q[i].addr, q[i].size, DMA_BIDIRECTIONAL,
				  NULL, "%s", q[i].text);
}

/* Where @dev reaches byte @off of @r: its owner's handle, else the bus's address. */
/* ---- regions --------------------------------------------------------------- */

struct region *dmamap__order_region_at(struct dmamap_order *o, phys_addr_t phys)
{
	for (unsigned int k = 0; k < o->n; k++)
		if (phys >= o->r[k]->phys && phys - o->r[k]->phys < o->r[k]->size)
			return o->r[k];
	return NULL;
}

/* The first region at or after @phys, below @end; NULL if none. */
struct region *dmamap__order_region_from(struct dmamap_order *o, phys_addr_t phys, phys_addr_t end)
{
	struct region *best = NULL;

	for (unsigned int k = 0; k < o->n; k++) {
		struct region *r = o->r[k];

		if (r->phys + r->size > phys && r->phys < end && (!best || r->phys < best->phys))
			best = r;
	}
	return best;
}

/*
 * The bounds of every region, which device accesses test without the lock
 * (sim.h): nothing while the model is off, so an access costs one branch.
 */
void dmamap__order_bounds(struct dmamap_platform *p, struct dmamap_order *o)
{
	phys_addr_t lo = ~(phys_addr_t)0, hi = 0;

	for (unsigned int k = 0; o->weak && !o->paused && k < o->n; k++) {
		lo = MIN(lo, o->r[k]->phys);
		hi = MAX(hi, o->r[k]->phys + o->r[k]->size);
	}
	__atomic_store_n(&p->sim->order_lo, hi ? lo : 0, __ATOMIC_RELAXED);
	__atomic_store_n(&p->sim->order_hi, hi, __ATOMIC_RELAXED);
}

static void region_free(struct region *r)
{
	free(r->dev);
	free(r->agreed);
	free(r->raced);
	free(r);
}

int dmamap__sim_order_track(struct device *dev, void *cpu, phys_addr_t phys, size_t size,
			    dma_addr_t dma)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_order *o = p->sim ? p->sim->order : NULL;
	struct dmamap_bank *b = dmamap__bank_of_phys(p, phys, size);
	struct region *r;
	size_t off;

	if (!o || !o->weak || !b || !size || !cpu)
		return 0;
	r = dmamap__calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	off = (size_t)(phys - b->start);
	r->phys = phys;
	r->size = size;
	r->owner = dev;
	r->dma = dma;
	r->cpu = cpu;
	r->bank = b;
	r->bank_off = off;
	r->cached = dev->coherent;
	r->dev = dmamap__malloc(size);
	r->agreed = dmamap__malloc(size);
	r->raced = dmamap__calloc((size + UNIT - 1) / UNIT, 1);
	if (!r->dev || !r->agreed || !r->raced) {
		region_free(r);
		return -ENOMEM;
	}
	dmamap__spin_lock(&o->lock);
	if (o->n == o->cap) {
		unsigned int cap = o->cap ? o->cap * 2 : 8;
		struct region **nr = dmamap__realloc(o->r, cap * sizeof(*nr));

		if (!nr) {
			dmamap__spin_unlock(&o->lock);
			region_free(r);
			return -ENOMEM;
		}
		o->r = nr;
		o->cap = cap;
	}
	memcpy(r->dev, r->cpu, size);
	memcpy(r->agreed, r->cpu, size);
	o->r[o->n++] = r;
	dmamap__order_bounds(p, o);
	o->st.regions++;
	dmamap__spin_unlock(&o->lock);
	return 0;
}

/* Everything buffered either way goes through, then the copies go. */
void dmamap__order_region_forget(struct dmamap_platform *p, struct dmamap_order *o, unsigned int k)
{
	struct region *r = o->r[k];

	dmamap__order_publish_range(o, r, 0, r->size);
	for (unsigned int i = o->nheld; i-- > 0;)
		if (o->held[i].r == r)
			dmamap__order_pull_held(p, o, i);
	for (unsigned int i = o->nseen; i-- > 0;)
		if (o->seen[i].r == r)
			dmamap__order_forget_seen(o, i);
	o->r[k] = o->r[--o->n];
	dmamap__order_bounds(p, o);
	o->st.regions--;
	region_free(r);
}

void dmamap__sim_order_untrack(struct device *dev, dma_addr_t dma, size_t size)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_order *o = p->sim ? p->sim->order : NULL;

	if (!o || !__atomic_load_n(&o->n, __ATOMIC_RELAXED))
		return;
	dmamap__spin_lock(&o->lock);
	for (unsigned int k = o->n; k-- > 0;)
		if (o->r[k]->owner == dev && o->r[k]->dma - dma < size)
			dmamap__order_region_forget(p, o, k);
	dmamap__spin_unlock(&o->lock);
	dmamap__sim_order_flush(p);
}

void dmamap__sim_order_device_gone(struct device *dev)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_order *o = p->sim ? p->sim->order : NULL;

	if (!o)
		return;
	dmamap__spin_lock(&o->lock);
	for (unsigned int k = o->n; k-- > 0;)
		if (o->r[k]->owner == dev)
			dmamap__order_region_forget(p, o, k);
	for (unsigned int i = o->nheld; i-- > 0;)
		if (i < o->nheld && o->held[i].dev == dev)
			dmamap__order_pull_held(p, o, i);
	for (unsigned int i = o->nseen; i-- > 0;)
		if (o->seen[i].dev == dev)
			dmamap__order_forget_seen(o, i);
	for (unsigned int i = o->nqueued; i-- > 0;)
		if (o->queue[i].dev == dev) {
			memmove(&o->queue[i], &o->queue[i + 1], (o->nqueued - i - 1) * sizeof(o->queue[0]));
			o->nqueued--;
		}
	dmamap__spin_unlock(&o->lock);
}

/* ---- the board's switches ------------------------------------------------------- */

int dmamap__sim_order_init(struct dmamap_platform *p, enum dmamap_memory_model model)
{
	struct dmamap_order *o = dmamap__calloc(1, sizeof(*o));

	if (!o)
		return -ENOMEM;
	o->weak = model == DMAMAP_MEMORY_WEAK;
	p->sim->order = o;
	return 0;
}

void dmamap__sim_order_fini(struct dmamap_platform *p)
{
	struct dmamap_order *o = p->sim->order;

	if (!o)
		return;
	for (unsigned int k = 0; k < o->n; k++)
		region_free(o->r[k]);
	free(o->r);
	free(o);
	p->sim->order = NULL;
}

/* Everything through, the regions forgotten: what a TSO board starts from. */
static void let_all_through(struct dmamap_platform *p, struct dmamap_order *o)
{
	while (o->n)
		dmamap__order_region_forget(p, o, o->n - 1);
}

int dmamap__sim_order_set_model(struct dmamap_platform *p, enum dmamap_memory_model model)
{
	struct dmamap_order *o = p->sim->order;

	if (model != DMAMAP_MEMORY_WEAK && model != DMAMAP_MEMORY_TSO)
		return -EINVAL;
	dmamap__spin_lock(&o->lock);
	if (model == DMAMAP_MEMORY_TSO)
		let_all_through(p, o);
	o->weak = model == DMAMAP_MEMORY_WEAK;
	dmamap__order_bounds(p, o);
	dmamap__spin_unlock(&o->lock);
	dmamap__sim_order_flush(p);
	return 0;
}

enum dmamap_memory_model dmamap__sim_order_model(struct dmamap_platform *p)
{
	return p->sim->order->weak ? DMAMAP_MEMORY_WEAK : DMAMAP_MEMORY_TSO;
}

void dmamap__sim_order_pause(struct dmamap_platform *p, bool paused)
{
	struct dmamap_order *o = p->sim ? p->sim->order : NULL;

	if (!o || o->paused == paused)
		return;
	dmamap__spin_lock(&o->lock);
	if (paused) {
		/* Everything through: the device thread works on memory itself from now on. */
		for (unsigned int k = 0; k < o->n; k++)
			dmamap__order_publish_range(o, o->r[k], 0, o->r[k]->size);
		dmamap__order_pull_all(p, o);
	} else {
		/* Back: what memory holds now is what both sides agree on. */
		for (unsigned int k = 0; k < o->n; k++) {
			struct region *r = o->r[k];

			memcpy(r->dev, r->cpu, r->size);
			memcpy(r->agreed, r->cpu, r->size);
			memset(r->raced, 0, (r->size + UNIT - 1) / UNIT);
		}
	}
	o->paused = paused;
	dmamap__order_bounds(p, o);
	dmamap__spin_unlock(&o->lock);
}

void dmamap__sim_order_seed(struct dmamap_platform *p, uint64_t seed)
{
	struct dmamap_order *o = p->sim ? p->sim->order : NULL;

	if (!o)
		return;
	dmamap__spin_lock(&o->lock);
	o->rng = seed;
	dmamap__spin_unlock(&o->lock);
}

void dmamap__sim_order_stats(struct dmamap_platform *p, struct dmamap_sim_order_stats *s)
{
	struct dmamap_order *o = p->sim ? p->sim->order : NULL;

	memset(s, 0, sizeof(*s));
	if (!o)
		return;
	dmamap__spin_lock(&o->lock);
	*s = o->st;
	dmamap__spin_unlock(&o->lock);
}

