/* SPDX-License-Identifier: MIT */
/*
 * Weakly-ordered memory (docs/ordering.md). CPU stores are plain C stores:
 * nothing sees them one by one. So on a weak board each coherent
 * allocation of a device with a model keeps two more copies beside the
 * CPU's view: what the devices see, and what both sides last agreed on.
 * A byte where the CPU's view left the agreed copy is a store still in the
 * store buffer; a byte where the devices' copy did is a device write the
 * CPU's loads have not caught up with. Barriers, ordered register accesses
 * and the buffer draining on its own move them across; until then the
 * model picks what each side sees, the weakest order ARMv8 allows unless
 * a schedule seed asks for a random one.
 *
 * Stores are tracked in aligned 8-byte units, the widest ARMv8 store that
 * is single-copy atomic: two stores inside one unit never overtake each
 * other here. Everything below runs under the model's lock, taken inside
 * the board's scheduler lock and outside the stripe locks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../lib/lib.h"
#include "../../lib/log.h"
#include "../../lib/spinlock.h"
#include "../../base/bus.h"
#include "../../base/ram.h"
#include "../../base/report.h"
#include "sim.h"

#define UNIT 8u
#define HELD_MAX 64u
#define SEEN_MAX 16u
/* Yield points after which a store buffer nobody drained drains anyway: stores are not held for ever. */
#define DRAIN_TICKS 64u

struct region {
	phys_addr_t phys;
	size_t size;
	struct device *owner;
	dma_addr_t dma;  /* where the owner reaches it */
	uint8_t *cpu;    /* the CPU's view: memory, or the cache for a snooping device */
	uint8_t *mem;    /* memory (the same bytes as cpu unless snooping) */
	uint8_t *snap;   /* the cache model's snapshot, kept equal where a device write lands */
	bool cached;     /* the CPU reaches it through its cache (a snooping device's) */
	uint8_t *dev;    /* what devices read and write */
	uint8_t *agreed; /* what both last agreed on */
	uint8_t *raced;  /* per unit: a relaxed register write overtook its store */
	/* The relaxed register write that last overtook stores here. */
	struct {
		uint32_t reg;
		const void *site;
		bool reported;
	} doorbell;
};

/* A report made under the locks, said once they are dropped (a hook may call back in). */
struct queued_report {
	enum dmamap_dbg_kind kind;
	struct device *dev;
	dma_addr_t addr;
	u64 size;
	char text[400];
};
#define QUEUE_MAX 8u

/* A device write the CPU's loads have not seen yet. */
struct held {
	struct region *r;
	size_t off;
	uint32_t len;
	enum dmamap_order_write kind;
	uint64_t desc; /* a body and its ownership word share it */
	uint64_t at;   /* the tick it was written at */
	struct device *dev;
	size_t body_off; /* seen: the body the ownership word went ahead of */
	uint32_t body_len;
};

struct dmamap_order {
	int lock; /* a spinlock: taken at every barrier and device access, held briefly */
	bool weak;   /* the board's model */
	bool paused; /* threaded devices: the host's own order applies */
	uint64_t rng; /* 0: the fixed, weakest order */
	struct region **r;
	unsigned int n, cap;
	struct held held[HELD_MAX]; /* oldest first */
	unsigned int nheld;
	/* Ownership words the CPU saw while their descriptor's body was still held. */
	struct held seen[SEEN_MAX];
	unsigned int nseen;
	enum dmamap_order_write writing; /* what the model's next writes are */
	uint64_t desc;
	uint64_t now;         /* ticks so far */
	unsigned int ticks;   /* ticks since the store buffer last drained */
	struct queued_report queue[QUEUE_MAX];
	unsigned int nqueued;
	struct dmamap_sim_order_stats st;
};

static uint64_t next_rand(struct dmamap_order *o)
{
	/* splitmix64: any seed, even 1, gives a well-mixed sequence. */
	uint64_t z = (o->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* In seeded mode, true one time in @in. */
static bool chance(struct dmamap_order *o, unsigned int in)
{
	return o->rng && next_rand(o) % in == 0;
}

static struct dmamap_order *order_of(struct dmamap_platform *p)
{
	struct dmamap_order *o = p->sim ? p->sim->order : NULL;

	return o && o->weak && !o->paused ? o : NULL;
}

static void report(struct dmamap_order *o, struct device *dev, enum dmamap_dbg_kind kind,
		   dma_addr_t addr, u64 size, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Queued: the locks are held here, and the checker's hook may call the library. */
static void report(struct dmamap_order *o, struct device *dev, enum dmamap_dbg_kind kind,
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
static dma_addr_t dma_of(const struct region *r, const struct device *dev, size_t off)
{
	return dev == r->owner ? r->dma + off : dmamap__phys_to_dma(dev, r->phys + off);
}

/* ---- the three copies ------------------------------------------------------ */

static bool unit_pending(const struct region *r, size_t u)
{
	size_t off = u * UNIT, n = MIN((size_t)UNIT, r->size - off);
	uint64_t a, b;

	if (n < UNIT)
		return memcmp(r->cpu + off, r->agreed + off, n) != 0;
	/* Inline loads, not a call: a barrier scans every unit of a ring. */
	memcpy(&a, r->cpu + off, UNIT);
	memcpy(&b, r->agreed + off, UNIT);
	return a != b;
}

/* The CPU's buffered stores in [@off, @end) reach the devices. */
static void publish_bytes(struct dmamap_order *o, struct region *r, size_t off, size_t end);

static void publish_unit(struct dmamap_order *o, struct region *r, size_t u)
{
	publish_bytes(o, r, u * UNIT, MIN(u * UNIT + UNIT, r->size));
}

static void publish_all(struct dmamap_order *o);

static void publish_range(struct dmamap_order *o, struct region *r, size_t off, size_t len)
{
	size_t from = off / UNIT * UNIT, to = MIN(r->size, (off + len + UNIT - 1) / UNIT * UNIT);

	/* Most barriers find nothing buffered: one comparison says so. */
	if (!memcmp(r->cpu + from, r->agreed + from, to - from))
		return;
	for (size_t u = off / UNIT; u * UNIT < off + len; u++)
		if (unit_pending(r, u))
			publish_unit(o, r, u);
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

		pthread_mutex_lock(lock);
		for (size_t i = off; i < off + chunk; i++) {
			if (r->cpu[i] == r->agreed[i]) {
				r->mem[i] = r->dev[i];
				r->cpu[i] = r->dev[i];
				if (r->cached)
					r->snap[i] = r->dev[i];
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

static void forget_seen(struct dmamap_order *o, unsigned int i)
{
	memmove(&o->seen[i], &o->seen[i + 1], (o->nseen - i - 1) * sizeof(o->seen[0]));
	o->nseen--;
}

/*
 * Held write @i reaches the CPU. An ownership word that gets there ahead
 * of its descriptor's body is remembered: a CPU store over it before the
 * body arrives means the CPU used the descriptor on the word alone.
 */
static void pull_held(struct dmamap_platform *p, struct dmamap_order *o, unsigned int i)
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
			forget_seen(o, 0);
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
		publish_all(o);
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
			go = chance(o, h->kind == ORDER_WRITE_BODY ? 4 : 2);
		} else {
			go = h->kind != ORDER_WRITE_BODY;
		}
		if (go)
			pull_held(p, o, i);
	}
	/* Seeded: some buffered stores drain too, a realistic partial order. */
	for (unsigned int k = 0; o->rng && k < o->n; k++)
		for (size_t u = 0; u * UNIT < o->r[k]->size; u++)
			if (unit_pending(o->r[k], u) && chance(o, 4))
				publish_unit(o, o->r[k], u);
}

static void pull_all(struct dmamap_platform *p, struct dmamap_order *o)
{
	while (o->nheld)
		pull_held(p, o, 0);
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
		report(o, s->dev, DMAMAP_DBG_UNORDERED_COMPLETION, dma_of(r, s->dev, s->body_off),
		       s->body_len,
		       "the CPU reused the descriptor whose ownership word at [phys=0x%llx] it saw the device give back, with no read barrier (dma_rmb()) since: the %u bytes the device wrote before it at [phys=0x%llx] could still have been stale to its loads",
		       (unsigned long long)(r->phys + s->off), s->body_len,
		       (unsigned long long)(r->phys + s->body_off));
		forget_seen(o, i);
		return;
	}
}

static void publish_bytes(struct dmamap_order *o, struct region *r, size_t off, size_t end)
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
		if (r->raced[u] && !unit_pending(r, u))
			r->raced[u] = 0;
}

static void publish_all(struct dmamap_order *o)
{
	for (unsigned int k = 0; k < o->n; k++)
		publish_range(o, o->r[k], 0, o->r[k]->size);
}

/* ---- regions --------------------------------------------------------------- */

static struct region *region_at(struct dmamap_order *o, phys_addr_t phys)
{
	for (unsigned int k = 0; k < o->n; k++)
		if (phys >= o->r[k]->phys && phys - o->r[k]->phys < o->r[k]->size)
			return o->r[k];
	return NULL;
}

/* The first region at or after @phys, below @end; NULL if none. */
static struct region *region_from(struct dmamap_order *o, phys_addr_t phys, phys_addr_t end)
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
static void bounds(struct dmamap_platform *p, struct dmamap_order *o)
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
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	off = (size_t)(phys - b->start);
	r->phys = phys;
	r->size = size;
	r->owner = dev;
	r->dma = dma;
	r->cpu = cpu;
	r->mem = b->mem + off;
	/* A snooping device's memory is cached: a device write lands in the cache and its snapshot. */
	r->snap = dev->coherent ? sim_bank(p, b)->snap + off : r->mem;
	r->cached = dev->coherent;
	r->dev = malloc(size);
	r->agreed = malloc(size);
	r->raced = calloc((size + UNIT - 1) / UNIT, 1);
	if (!r->dev || !r->agreed || !r->raced) {
		region_free(r);
		return -ENOMEM;
	}
	dmamap__spin_lock(&o->lock);
	if (o->n == o->cap) {
		unsigned int cap = o->cap ? o->cap * 2 : 8;
		struct region **nr = realloc(o->r, cap * sizeof(*nr));

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
	bounds(p, o);
	o->st.regions++;
	dmamap__spin_unlock(&o->lock);
	return 0;
}

/* Everything buffered either way goes through, then the copies go. */
static void region_forget(struct dmamap_platform *p, struct dmamap_order *o, unsigned int k)
{
	struct region *r = o->r[k];

	publish_range(o, r, 0, r->size);
	for (unsigned int i = o->nheld; i-- > 0;)
		if (o->held[i].r == r)
			pull_held(p, o, i);
	for (unsigned int i = o->nseen; i-- > 0;)
		if (o->seen[i].r == r)
			forget_seen(o, i);
	o->r[k] = o->r[--o->n];
	bounds(p, o);
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
			region_forget(p, o, k);
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
			region_forget(p, o, k);
	for (unsigned int i = o->nheld; i-- > 0;)
		if (i < o->nheld && o->held[i].dev == dev)
			pull_held(p, o, i);
	for (unsigned int i = o->nseen; i-- > 0;)
		if (o->seen[i].dev == dev)
			forget_seen(o, i);
	for (unsigned int i = o->nqueued; i-- > 0;)
		if (o->queue[i].dev == dev) {
			memmove(&o->queue[i], &o->queue[i + 1], (o->nqueued - i - 1) * sizeof(o->queue[0]));
			o->nqueued--;
		}
	dmamap__spin_unlock(&o->lock);
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
		publish_all(o);
		o->ticks = 0;
		o->st.barriers++;
		break;
	case ORDER_RMB:
		pull_all(p, o);
		o->st.barriers++;
		break;
	case ORDER_MB:
		publish_all(o);
		pull_all(p, o);
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
			if (unit_pending(r, u)) {
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

/* ---- the devices' side --------------------------------------------------------- */

/*
 * A model's read of [@off, +@len) of @r: stores still buffered stay
 * unseen (some of them, at random, when seeded); one a relaxed register
 * write overtook is reported when the device reads it.
 */
static void model_read(struct dmamap_order *o, struct device *dev, struct region *r,
		       size_t off, size_t len, uint8_t *buf)
{
	size_t from = off / UNIT * UNIT, to = MIN(r->size, (off + len + UNIT - 1) / UNIT * UNIT);

	/* Nothing buffered there: what the devices see is what the CPU does. */
	if (!memcmp(r->cpu + from, r->agreed + from, to - from)) {
		memcpy(buf, r->dev + off, len);
		return;
	}
	for (size_t u = off / UNIT; u * UNIT < off + len; u++) {
		if (!unit_pending(r, u))
			continue;
		if (chance(o, 2)) {
			publish_unit(o, r, u);
			continue;
		}
		o->st.stale_reads++;
		if (r->raced[u] && !r->doorbell.reported) {
			char site[128];

			r->doorbell.reported = true;
			dmamap__symbolize(r->doorbell.site, site, sizeof(site));
			report(o, dev, DMAMAP_DBG_UNORDERED_DOORBELL, dma_of(r, dev, u * UNIT), UNIT,
			       "device read memory at [phys=0x%llx] whose CPU store was not ordered before the relaxed register write that sent it there (writel_relaxed() of register 0x%x of %s, at %s): it read the old bytes (wmb() before the doorbell, or writel())",
			       (unsigned long long)(r->phys + u * UNIT), r->doorbell.reg,
			       dev_name(r->owner), site);
		}
	}
	memcpy(buf, r->dev + off, len);
}

static void model_write(struct dmamap_order *o, struct device *dev, struct region *r,
			size_t off, size_t len, const uint8_t *buf)
{
	memcpy(r->dev + off, buf, len);
	if (o->nheld == HELD_MAX)
		pull_held(dev->plat, o, 0); /* the oldest reaches the CPU: loads are not stale for ever */
	o->held[o->nheld++] = (struct held){ .r = r, .off = off, .len = (uint32_t)len,
					      .kind = o->writing, .desc = o->desc, .at = o->now,
					      .dev = dev };
}

/* A hand-made access (a test playing the device): both sides catch up first, and it lands at once. */
static void hand_sync(struct dmamap_platform *p, struct dmamap_order *o, struct region *r)
{
	publish_range(o, r, 0, r->size);
	for (unsigned int i = o->nheld; i-- > 0;)
		if (o->held[i].r == r)
			pull_held(p, o, i);
}

int dmamap__sim_order_access(struct device *dev, phys_addr_t phys, void *buf, size_t len,
			     bool write, bool model)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_order *o = order_of(p);
	phys_addr_t end = phys + len;
	uint8_t *io = buf;
	int ret = 0;

	if (!o) /* went TSO since the caller looked */
		return dmamap__sim_device_access_plain(dev, phys, buf, len, write);
	dmamap__spin_lock(&o->lock);
	while (phys < end && !ret) {
		struct region *r = region_from(o, phys, end);
		phys_addr_t stop = r ? MAX(r->phys, phys) : end;
		size_t n;

		if (stop > phys) {
			/* Outside every region: memory as usual. */
			n = (size_t)(stop - phys);
			ret = dmamap__sim_device_access_plain(dev, phys, io, n, write);
		} else {
			size_t off = (size_t)(phys - r->phys);

			n = (size_t)MIN(end - phys, r->size - off);
			if (!model) {
				hand_sync(p, o, r);
				ret = dmamap__sim_device_access_plain(dev, phys, io, n, write);
				if (!ret && write) {
					memcpy(r->dev + off, io, n);
					memcpy(r->agreed + off, io, n);
				}
			} else if (write) {
				model_write(o, dev, r, off, n, io);
				dmamap__sim_note_device_write(p, dev, phys, n);
			} else {
				model_read(o, dev, r, off, n, io);
			}
		}
		phys += n;
		io += n;
	}
	dmamap__spin_unlock(&o->lock);
	/* A model's reports wait for the scheduler's lock to drop; a hand holds none. */
	if (!model)
		dmamap__sim_order_flush(p);
	return ret;
}

void dmamap__sim_order_writing(struct dmamap_platform *p, enum dmamap_order_write what)
{
	struct dmamap_order *o = order_of(p);

	if (!o)
		return;
	dmamap__spin_lock(&o->lock);
	if (what == ORDER_WRITE_BODY)
		o->desc++;
	o->writing = what;
	dmamap__spin_unlock(&o->lock);
}

/* Whether the CPU has a store buffered in [@off, @end) of @r. */
static bool bytes_pending(const struct region *r, size_t off, size_t end)
{
	return end > off && memcmp(r->cpu + off, r->agreed + off, end - off) != 0;
}

void dmamap__sim_order_fetch(struct device *dev, phys_addr_t desc, size_t len, size_t own_off,
			     bool owned, dma_addr_t dma)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_order *o = order_of(p);
	size_t off, own, own_end, end;
	struct region *r;

	if (!o || !o->n)
		return;
	dmamap__spin_lock(&o->lock);
	r = region_at(o, desc);
	if (!r || desc + len > r->phys + r->size) {
		dmamap__spin_unlock(&o->lock);
		return;
	}
	off = (size_t)(desc - r->phys);
	end = off + len;
	/*
	 * The ownership word's aligned 8-byte unit, inside the descriptor: a
	 * single store may have written all of it, and a neighbour's bytes
	 * are not this descriptor's business.
	 */
	own = MAX(off, (off + own_off) / UNIT * UNIT);
	own_end = MIN(end, (off + own_off) / UNIT * UNIT + UNIT);
	if (!owned) {
		/*
		 * Before the read: the ownership word's store overtakes the stores
		 * before it that no barrier ordered, the weakest order there is.
		 * Unless a relaxed register write overtook it: then it is the one
		 * left behind, which is how that mistake shows.
		 */
		if (bytes_pending(r, own, own_end) && !r->raced[(off + own_off) / UNIT] &&
		    (!o->rng || !chance(o, 4))) {
			o->st.stores_early += bytes_pending(r, off, own) || bytes_pending(r, own_end, end);
			publish_bytes(o, r, own, own_end);
		}
	} else {
		/* After it, the device took the descriptor: were all its other stores ordered before? */
		for (size_t i = off; i < end; i++) {
			if ((i >= own && i < own_end) || r->cpu[i] == r->agreed[i])
				continue;
			report(o, dev, DMAMAP_DBG_UNORDERED_DESCRIPTOR, dma, len,
			       "device took the descriptor at [device address=0x%llx] on its ownership word (offset %zu) while the CPU's store to offset %zu was still buffered: no dma_wmb() ordered it before the ownership store, and the device used the old bytes",
			       (unsigned long long)dma, own_off, i - off);
			break;
		}
	}
	dmamap__spin_unlock(&o->lock);
}

/* ---- the board's switches ------------------------------------------------------- */

int dmamap__sim_order_init(struct dmamap_platform *p, enum dmamap_memory_model model)
{
	struct dmamap_order *o = calloc(1, sizeof(*o));

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
		region_forget(p, o, o->n - 1);
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
	bounds(p, o);
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
			publish_range(o, o->r[k], 0, o->r[k]->size);
		pull_all(p, o);
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
	bounds(p, o);
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
