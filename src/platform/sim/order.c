/* SPDX-License-Identifier: MIT */
/*
 * Weakly-ordered memory, the CPU's side (docs/ordering.md): barriers,
 * ordered register accesses and the buffer draining on its own move
 * stores to the devices and device writes to the CPU's loads; until then
 * the model picks what each side sees, the weakest order ARMv8 allows
 * unless a schedule seed asks for a random one. The state: order.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../lib/log.h"
#include "../../base/ram.h"
#include "../../base/report.h"
#include "order.h"

/* ---- the three copies ------------------------------------------------------ */

void dmamap__order_publish_unit(struct dmamap_order *o, struct region *r, size_t u)
{
	dmamap__order_publish_bytes(o, r, u * UNIT, MIN(u * UNIT + UNIT, r->size));
}

void dmamap__order_publish_range(struct dmamap_order *o, struct region *r, size_t off, size_t len)
{
	size_t from = off / UNIT * UNIT, to = MIN(r->size, (off + len + UNIT - 1) / UNIT * UNIT);

	/* Most barriers find nothing buffered. */
	if (!order_bytes_pending(r, from, to))
		return;
	for (size_t u = off / UNIT; u * UNIT < off + len; u++)
		if (order_unit_pending(r, u))
			dmamap__order_publish_unit(o, r, u);
}

/* A device write reaches the CPU's loads; a byte the CPU has stored over since keeps the CPU's. */
static void pull(struct dmamap_platform *p, struct held *h)
{
	struct region *r = h->r;
	size_t end = h->off + h->len;

	for (size_t off = h->off; off < end;) {
		phys_addr_t phys = r->phys + off;
		size_t chunk = MIN(end - off, (size_t)(PAGE_SIZE - (phys & (PAGE_SIZE - 1))));
		pthread_mutex_t *lock = sim_stripe(p, phys);

		/* A device write lands in memory; for a snooping device, in the cache and its snapshot too. */
		uint8_t *mem = r->cached ? sim_mem(p, r->bank, r->bank_off + off) : r->cpu + off;
		uint8_t *snap = r->cached ? sim_snap(p, r->bank, r->bank_off + off) : NULL;

		pthread_mutex_lock(lock);
		for (size_t i = off; i < off + chunk; i++) {
			if (r->cpu[i] == r->agreed[i]) {
				mem[i - off] = r->dev[i];
				r->cpu[i] = r->dev[i];
				if (snap)
					snap[i - off] = r->dev[i];
			}
			r->agreed[i] = r->dev[i];
		}
		pthread_mutex_unlock(lock);
		off += chunk;
	}
}

static void drop_held(struct dmamap_order *o, unsigned int i)
{
	memmove(&o->held[i], &o->held[i + 1], (o->nheld - i - 1) * sizeof(o->held[0]));
	o->nheld--;
}

static int find_body(const struct dmamap_order *o, uint64_t desc)
{
	for (unsigned int i = 0; i < o->nheld; i++)
		if (o->held[i].kind == ORDER_WRITE_BODY && o->held[i].desc == desc)
			return (int)i;
	return -1;
}

void dmamap__order_forget_seen(struct dmamap_order *o, unsigned int i)
{
	memmove(&o->seen[i], &o->seen[i + 1], (o->nseen - i - 1) * sizeof(o->seen[0]));
	o->nseen--;
}

/*
 * Held write @i reaches the CPU. An ownership word that gets there ahead
 * of its descriptor's body is remembered: a CPU store over it before the
 * body arrives means the CPU used the descriptor on the word alone.
 */
void dmamap__order_pull_held(struct dmamap_platform *p, struct dmamap_order *o, unsigned int i)
{
	struct held h = o->held[i];

	int body;

	pull(p, &h);
	drop_held(o, i);
	body = h.kind == ORDER_WRITE_OWN ? find_body(o, h.desc) : -1;
	if (body >= 0) {
		/* Remembered until a read barrier, whether or not the body arrives meanwhile. */
		o->st.writes_held++;
		if (o->nseen == SEEN_MAX)
			dmamap__order_forget_seen(o, 0);
		h.body_off = o->held[body].off;
		h.body_len = o->held[body].len;
		o->seen[o->nseen++] = h;
	}
}

/*
 * A yield point with no barrier: the CPU's loads catch up with what the
 * devices wrote, except a descriptor's body whose ownership word went
 * with it, the weakest order: the completion is seen, the rest only after
 * a read barrier. Held long enough, anything goes through.
 */
static void tick(struct dmamap_platform *p, struct dmamap_order *o)
{
	o->now++;
	if (++o->ticks >= DRAIN_TICKS) {
		/* Nobody drained the store buffer: it drains itself, as hardware's does in bounded time. */
		dmamap__order_publish_all(o);
		o->ticks = 0;
		o->st.drains++;
	}
	for (unsigned int i = o->nheld; i-- > 0;) {
		struct held *h = &o->held[i];
		bool go;

		if (i >= o->nheld)
			continue;
		if (o->now - h->at >= DRAIN_TICKS) {
			o->st.drains++;
			go = true;
		} else if (o->rng) {
			go = order_chance(o, h->kind == ORDER_WRITE_BODY ? 4 : 2);
		} else {
			go = h->kind != ORDER_WRITE_BODY;
		}
		if (go)
			dmamap__order_pull_held(p, o, i);
	}
	/* Seeded: some buffered stores drain too, a realistic partial order. */
	for (unsigned int k = 0; o->rng && k < o->n; k++)
		for (size_t u = 0; u * UNIT < o->r[k]->size; u++)
			if (order_unit_pending(o->r[k], u) && order_chance(o, 4))
				dmamap__order_publish_unit(o, o->r[k], u);
}

void dmamap__order_pull_all(struct dmamap_platform *p, struct dmamap_order *o)
{
	while (o->nheld)
		dmamap__order_pull_held(p, o, 0);
	o->nseen = 0;
}

/*
 * The CPU stored over an ownership word it had seen while the body of its
 * descriptor was still held from it, and no read barrier came since: it
 * used the descriptor the device completed without ordering its reads of
 * the rest after the word. Said once per descriptor.
 */
static void check_seen(struct dmamap_order *o, struct region *r, size_t off)
{
	for (unsigned int i = 0; i < o->nseen; i++) {
		struct held *s = &o->seen[i];

		if (s->r != r || off < s->off || off >= s->off + s->len)
			continue;
		dmamap__order_report(o, s->dev, DMAMAP_DBG_UNORDERED_COMPLETION, order_dma_of(r, s->dev, s->body_off),
		       s->body_len,
		       "the CPU reused the descriptor whose ownership word at [phys=0x%llx] it saw the device give back, with no read barrier (dma_rmb()) since: the %u bytes the device wrote before it at [phys=0x%llx] could still have been stale to its loads",
		       (unsigned long long)(r->phys + s->off), s->body_len,
		       (unsigned long long)(r->phys + s->body_off));
		dmamap__order_forget_seen(o, i);
		return;
	}
}

void dmamap__order_publish_bytes(struct dmamap_order *o, struct region *r, size_t off, size_t end)
{
	for (size_t i = off; i < end; i++) {
		if (r->cpu[i] == r->agreed[i])
			continue;
		if (o->nseen)
			check_seen(o, r, i);
		r->dev[i] = r->cpu[i];
		r->agreed[i] = r->cpu[i];
	}
	for (size_t u = off / UNIT; u * UNIT < end; u++)
		if (r->raced[u] && !order_unit_pending(r, u))
			r->raced[u] = 0;
}

void dmamap__order_publish_all(struct dmamap_order *o)
{
	for (unsigned int k = 0; k < o->n; k++)
		dmamap__order_publish_range(o, o->r[k], 0, o->r[k]->size);
}

/* ---- the CPU's side ------------------------------------------------------------ */

void dmamap__sim_order_event(struct dmamap_platform *p, enum dmamap_order_event ev)
{
	struct dmamap_order *o = order_of(p);

	if (!o || !__atomic_load_n(&o->n, __ATOMIC_RELAXED))
		return;
	/* A read barrier with no device write held has nothing to do: most of them. */
	if (ev == ORDER_RMB && !__atomic_load_n(&o->nheld, __ATOMIC_RELAXED) &&
	    !__atomic_load_n(&o->nseen, __ATOMIC_RELAXED))
		return;
	/*
	 * Nor has a yield point, but count: every event of a board comes
	 * under its scheduler's lock, which keeps the counters.
	 */
	if (ev == ORDER_TICK && !o->rng && !__atomic_load_n(&o->nheld, __ATOMIC_RELAXED) &&
	    o->ticks + 1 < DRAIN_TICKS) {
		o->ticks++;
		o->now++;
		return;
	}
	dmamap__spin_lock(&o->lock);
	switch (ev) {
	case ORDER_WMB:
		dmamap__order_publish_all(o);
		o->ticks = 0;
		o->st.barriers++;
		break;
	case ORDER_RMB:
		dmamap__order_pull_all(p, o);
		o->st.barriers++;
		break;
	case ORDER_MB:
		dmamap__order_publish_all(o);
		dmamap__order_pull_all(p, o);
		o->ticks = 0;
		o->st.barriers++;
		break;
	case ORDER_TICK:
		tick(p, o);
		break;
	}
	dmamap__spin_unlock(&o->lock);
}

void dmamap__sim_order_mmio_write(struct device *dev, uint32_t reg, bool ordered,
				  const void *site)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_order *o = order_of(p);

	if (!o || !o->n)
		return;
	if (ordered) {
		dmamap__sim_order_event(p, ORDER_WMB);
		return;
	}
	/* What the written device was given: its own coherent memory, still in the buffer. */
	dmamap__spin_lock(&o->lock);
	for (unsigned int k = 0; k < o->n; k++) {
		struct region *r = o->r[k];
		bool any = false;

		if (r->owner != dev)
			continue;
		for (size_t u = 0; u * UNIT < r->size; u++)
			if (order_unit_pending(r, u)) {
				r->raced[u] = 1;
				any = true;
			}
		if (any)
			r->doorbell = (typeof(r->doorbell)){ .reg = reg, .site = site };
	}
	dmamap__spin_unlock(&o->lock);
}

bool dmamap__sim_order_on(struct dmamap_platform *p)
{
	struct dmamap_order *o = order_of(p);

	return o && __atomic_load_n(&o->n, __ATOMIC_RELAXED);
}

bool dmamap__sim_order_busy(struct dmamap_platform *p)
{
	struct dmamap_order *o = order_of(p);

	return o && __atomic_load_n(&o->nheld, __ATOMIC_RELAXED);
}

