/* SPDX-License-Identifier: MIT */
/*
 * The memory-order model's state, shared by its files (docs/ordering.md):
 * order.c moves stores and device writes across, order_device.c is the
 * devices' side, order_board.c the regions it follows and its switches.
 * Private to src/platform/sim/.
 *
 * CPU stores are plain C stores: nothing sees them one by one. So on a
 * weak board each coherent allocation of a device with a model keeps two
 * more copies beside the CPU's view: what the devices see, and what both
 * sides last agreed on. A byte where the CPU's view left the agreed copy
 * is a store still in the store buffer; a byte where the devices' copy did
 * is a device write the CPU's loads have not caught up with.
 *
 * Stores are tracked in aligned 8-byte units, the widest ARMv8 store that
 * is single-copy atomic. Everything runs under the model's spinlock, taken
 * inside the board's scheduler lock and outside the stripe locks; reports
 * made under it are queued and said once it drops.
 */
#ifndef DMAMAP_PLATFORM_SIM_ORDER_H
#define DMAMAP_PLATFORM_SIM_ORDER_H
#include <string.h>
#include "../../lib/lib.h"
#include "../../lib/spinlock.h"
#include "../../base/bus.h"
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
	/*
	 * The CPU reaches it through its cache (a snooping device's): memory
	 * and the cache model's snapshot, which a device write also lands in,
	 * are then the bank's (at the region's offset in it).
	 */
	bool cached;
	struct dmamap_bank *bank;
	u64 bank_off;
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

static inline uint64_t order_next_rand(struct dmamap_order *o)
{
	/* splitmix64: any seed, even 1, gives a well-mixed sequence. */
	uint64_t z = (o->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* In seeded mode, true one time in @in. */
static inline bool order_chance(struct dmamap_order *o, unsigned int in)
{
	return o->rng && order_next_rand(o) % in == 0;
}

static inline struct dmamap_order *order_of(struct dmamap_platform *p)
{
	struct dmamap_order *o = p->sim ? p->sim->order : NULL;

	return o && o->weak && !o->paused ? o : NULL;
}

/* Where @dev reaches byte @off of @r: its owner's handle, else the bus's address. */
static inline dma_addr_t order_dma_of(const struct region *r, const struct device *dev,
				      size_t off)
{
	return dev == r->owner ? r->dma + off : dmamap__phys_to_dma(dev, r->phys + off);
}

/* Whether the CPU has a store buffered in [@off, @end) of @r: one comparison, most often equal. */
static inline bool order_bytes_pending(const struct region *r, size_t off, size_t end)
{
	return end > off && memcmp(r->cpu + off, r->agreed + off, end - off) != 0;
}

/* Whether the CPU has a store buffered in unit @u of @r. */
static inline bool order_unit_pending(const struct region *r, size_t u)
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

/* Queue a report of @kind about @dev (the checker must be on). */
void dmamap__order_report(struct dmamap_order *o, struct device *dev, enum dmamap_dbg_kind kind,
			  dma_addr_t addr, u64 size, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* ---- order.c: moving things across ---------------------------------------- */
/* The CPU's buffered stores in [@off, @end) of @r reach the devices. */
void dmamap__order_publish_bytes(struct dmamap_order *o, struct region *r, size_t off, size_t end);
void dmamap__order_publish_unit(struct dmamap_order *o, struct region *r, size_t u);
void dmamap__order_publish_range(struct dmamap_order *o, struct region *r, size_t off, size_t len);
void dmamap__order_publish_all(struct dmamap_order *o);
/* Held device write @i reaches the CPU's loads; all of them. */
void dmamap__order_pull_held(struct dmamap_platform *p, struct dmamap_order *o, unsigned int i);
void dmamap__order_pull_all(struct dmamap_platform *p, struct dmamap_order *o);
void dmamap__order_forget_seen(struct dmamap_order *o, unsigned int i);

/* ---- order_board.c: the regions ----------------------------------------------- */
struct region *dmamap__order_region_at(struct dmamap_order *o, phys_addr_t phys);
/* The first region at or after @phys, below @end; NULL if none. */
struct region *dmamap__order_region_from(struct dmamap_order *o, phys_addr_t phys,
					 phys_addr_t end);
/* Everything buffered in region @k goes through, then the region goes. */
void dmamap__order_region_forget(struct dmamap_platform *p, struct dmamap_order *o, unsigned int k);
/* Publish the regions' bounds for the lock-free test of sim.h. */
void dmamap__order_bounds(struct dmamap_platform *p, struct dmamap_order *o);

#endif
