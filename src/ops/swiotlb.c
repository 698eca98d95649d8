/* SPDX-License-Identifier: MIT */
/*
 * swiotlb. A pool is a run of 2 KiB slots in memory the devices reach,
 * split into areas with their own locks; a mapping takes contiguous slots
 * inside one 128-slot segment, keeping the low address bits the device's
 * min_align_mask asks for. The CPU copies between the original buffer and
 * the slots (both through the cache, as the kernel does); the slots then
 * get the cache maintenance a non-coherent device needs.
 *
 * On the host, a coherent device whose every mapping bounces has a short
 * path (end of file): a thread parks the run of the mapping it unmapped
 * last and maps into it next without a lock, search or accounting. The
 * area still counts a parked run; the stats do not, and a search that
 * meets one takes it back from its thread (unpark()).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/swiotlb.h>
#include "../base/trace.h"
#include "../lib/lib.h"
#include "../base/bus.h"
#include "../base/report.h"
#include "../hw/hw.h"
#include "../lib/spinlock.h"
#include "../mm/mm.h"
#include "../platform/port.h"
#include "swiotlb.h"
#include "../lib/mem.h"

#define AREAS 4

/*
 * An area: its lock and everything a map or unmap in it reads or writes,
 * on one line. Other threads read peak, owner and used only when the
 * pool's high-water mark has to move.
 */
struct area {
	int lock;
	unsigned int owner;          /* thread shard + 1 of the last allocation; 0: none */
	unsigned long first, nslots; /* slots of this area */
	unsigned long next;          /* where the next search starts */
	unsigned long used;          /* slots in use, under the lock */
	unsigned long hint;          /* most recently freed run: still in the cache */
	unsigned long peak;          /* most slots ever in use, under the lock */
} __attribute__((aligned(64)));

/*
 * By thread shard: counters (no locked instruction on the map path) and the
 * run the thread unmapped last on the host's short path, parked for its
 * next map (head slot + 1; 0: none).
 */
struct tlb_counters {
	uint64_t bounced, to_dev, from_dev, failures;
	unsigned long spare;
} __attribute__((aligned(64)));

/*
 * One record per slot. A mapping's head slot holds the original buffer and,
 * in one word, the mapping's size, the offset min_align_mask kept inside
 * the first slot, how many slots it holds and the area whose lock covers
 * it; each other slot it holds names its head. So taking a two-slot
 * mapping is three stores and giving it back two: next to a bounce copy,
 * which keeps the CPU's store port busy, every store counts.
 */
struct slot {
	phys_addr_t orig;
	uint64_t state; /* 0: free */
};

#define SLOT_USED (1ULL << 63)
#define SLOT_HEAD (1ULL << 62)
#define HEAD_SIZE_BITS 19 /* up to DMAMAP_SWIOTLB_MAX_MAPPING */
#define HEAD_OFF_SHIFT HEAD_SIZE_BITS
#define HEAD_NUSED_SHIFT (HEAD_OFF_SHIFT + IO_TLB_SHIFT)
#define HEAD_AREA_SHIFT (HEAD_NUSED_SHIFT + 8) /* up to IO_TLB_SEGSIZE slots */
#define HEAD_SHARD_SHIFT (HEAD_AREA_SHIFT + 4)  /* parked: whose spare it is */
#define HEAD_SHARD_BITS 5

_Static_assert(DMAMAP_SWIOTLB_MAX_MAPPING < (1UL << HEAD_SIZE_BITS), "size field");
_Static_assert(IO_TLB_SEGSIZE < 256, "nused field");
_Static_assert(AREAS <= 16 && DMAMAP_STAT_SHARDS <= (1 << HEAD_SHARD_BITS) &&
	       HEAD_SHARD_SHIFT + HEAD_SHARD_BITS < 62, "fields");

/*
 * A parked run: the run of a mapping its thread unmapped last, kept (taken,
 * not free to allocate) for that thread's next map. Its head keeps its
 * fields without SLOT_USED; its tails still name it.
 */
static inline bool parked(uint64_t state)
{
	return (state & (SLOT_HEAD | SLOT_USED)) == SLOT_HEAD;
}

/* Relaxed atomics: a parked run's head is written without its area's lock. */
static inline uint64_t st_get(const struct dmamap_iotlb *t, unsigned long i);
static inline void st_set(struct dmamap_iotlb *t, unsigned long i, uint64_t state);

static inline uint64_t head_state(size_t size, u64 offset, unsigned long nslots, unsigned int area)
{
	return SLOT_USED | SLOT_HEAD | size | offset << HEAD_OFF_SHIFT |
	       (uint64_t)nslots << HEAD_NUSED_SHIFT | (uint64_t)area << HEAD_AREA_SHIFT;
}

static inline size_t head_size(uint64_t state)
{
	return (size_t)(state & ((1UL << HEAD_SIZE_BITS) - 1));
}

static inline u64 head_offset(uint64_t state)
{
	return (state >> HEAD_OFF_SHIFT) & (IO_TLB_SIZE - 1);
}

static inline unsigned long head_nused(uint64_t state)
{
	return (unsigned long)(state >> HEAD_NUSED_SHIFT) & 0xff;
}

static inline unsigned int head_area(uint64_t state)
{
	return (unsigned int)(state >> HEAD_AREA_SHIFT) & (AREAS - 1);
}

static inline unsigned int head_shard(uint64_t state)
{
	return (unsigned int)(state >> HEAD_SHARD_SHIFT) & ((1U << HEAD_SHARD_BITS) - 1);
}

struct dmamap_iotlb {
	char name[DMAMAP_NAME_MAX];
	struct dmamap_platform *p;
	unsigned int users; /* a restricted pool: the devices sharing it (p->devices.lock) */
	phys_addr_t start;
	unsigned long nslots;
	unsigned int nareas;
	struct area areas[AREAS];
	/* Read on every map, written only when a peak rises. */
	unsigned long peak_total __attribute__((aligned(64))); /* sum of the areas' peaks */
	unsigned long high_water;
	struct slot *slots;
	struct tlb_counters count[DMAMAP_STAT_SHARDS];
};

static inline uint64_t st_get(const struct dmamap_iotlb *t, unsigned long i)
{
	return __atomic_load_n(&t->slots[i].state, __ATOMIC_RELAXED);
}

static inline void st_set(struct dmamap_iotlb *t, unsigned long i, uint64_t state)
{
	__atomic_store_n(&t->slots[i].state, state, __ATOMIC_RELAXED);
}

static inline void count(struct dmamap_iotlb *t, size_t field, uint64_t n)
{
	dmamap__count_add((uint64_t *)((char *)&t->count[dmamap__my_shard()] + field), n);
}

static uint64_t total(struct dmamap_iotlb *t, size_t field)
{
	return dmamap__count_sum(t->count, sizeof(t->count[0]), field);
}

/* Slots held by mappings: the areas count parked runs too. */
static unsigned long used_slots(struct dmamap_iotlb *t)
{
	/* Read without locks while others map: a run may be missed or counted twice, so clamp. */
	long long n = 0;

	for (unsigned int a = 0; a < t->nareas; a++)
		n += (long long)__atomic_load_n(&t->areas[a].used, __ATOMIC_RELAXED);
	for (unsigned int k = 0; k < DMAMAP_STAT_SHARDS; k++) {
		unsigned long spare = __atomic_load_n(&t->count[k].spare, __ATOMIC_ACQUIRE);

		if (spare)
			n -= (long long)head_nused(st_get(t, spare - 1));
	}
	return n < 0 ? 0 : MIN((unsigned long)n, t->nslots);
}

#define COUNT(t, f, n) count((t), offsetof(struct tlb_counters, f), (n))
#define TOTAL(t, f) total((t), offsetof(struct tlb_counters, f))

static inline void *cpu_at(struct dmamap_platform *p, phys_addr_t phys)
{
	return dmamap__phys_to_view(p, phys, VIEW_CPU);
}

/* The default pool, the mode it is in, and the arm64 rule for small kmalloc buffers. */
struct dmamap_swiotlb {
	struct dmamap_iotlb *pool; /* NULL: none */
	phys_addr_t start;
	u64 bytes;
	bool force;
	bool off;
	bool bounce_small_kmalloc; /* dma_kmalloc_needs_bounce() */
};

static void iotlb_destroy(struct dmamap_iotlb *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t);
}

static struct dmamap_iotlb *iotlb_create(struct dmamap_platform *p, const char *name,
					 phys_addr_t start, u64 bytes)
{
	struct dmamap_iotlb *t;
	unsigned long n = (unsigned long)(bytes >> IO_TLB_SHIFT);
	unsigned long segs = n / IO_TLB_SEGSIZE;

	if (!segs || (start & (PAGE_SIZE - 1)))
		return NULL;
	n = segs * IO_TLB_SEGSIZE;
	t = dmamap__zalloc_lines(sizeof(*t));
	if (!t)
		return NULL;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->p = p;
	t->start = start;
	t->nslots = n;
	t->slots = dmamap__calloc(n, sizeof(*t->slots));
	if (!t->slots) {
		iotlb_destroy(t);
		return NULL;
	}
	/* Areas of whole segments, so no mapping straddles two locks. */
	/* A power of two, so picking an area is a mask. */
	t->nareas = segs >= AREAS ? AREAS : segs >= 2 ? 2 : 1;
	for (unsigned int a = 0; a < t->nareas; a++) {
		unsigned long per = segs / t->nareas;

		t->areas[a].first = a * per * IO_TLB_SEGSIZE;
		t->areas[a].nslots = (a == t->nareas - 1 ? segs - a * per : per) *
				     IO_TLB_SEGSIZE;
	}
	return t;
}

static bool iotlb_contains(const struct dmamap_iotlb *t, phys_addr_t phys)
{
	return t && phys >= t->start &&
	       phys - t->start < ((u64)t->nslots << IO_TLB_SHIFT);
}

static inline void release(struct dmamap_iotlb *t, struct area *ar, unsigned long head,
			   unsigned long n);

/*
 * Slot @i (not free) of area @ar, whose lock the caller holds, is in a
 * parked run: take the run from the thread that parked it and give it
 * back to the area, so a parked run never keeps another mapping out.
 * Returns true if slot @i is free now.
 */
static __attribute__((noinline)) bool unpark(struct dmamap_iotlb *t, struct area *ar,
					     unsigned long i)
{
	uint64_t state = st_get(t, i);
	unsigned long head = state & SLOT_HEAD ? i : (unsigned long)(state & ~SLOT_USED);
	uint64_t hstate = st_get(t, head);
	unsigned long want = head + 1;

	if (!parked(hstate) ||
	    !__atomic_compare_exchange_n(&t->count[head_shard(hstate)].spare, &want, 0, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return false;
	release(t, ar, head, head_nused(hstate));
	return true;
}

/*
 * Whether the @nslots slots from slot @i of area @ar are free, lie in one
 * segment, start at a multiple of @stride slots and keep the bits
 * @align_mask of @orig (slot granular).
 */
static inline bool run_fits(struct dmamap_iotlb *t, struct area *ar,
			    unsigned long i, unsigned long nslots, phys_addr_t orig,
			    u64 align_mask, unsigned long stride)
{
	if ((i & (stride - 1)) || (i % IO_TLB_SEGSIZE) + nslots > IO_TLB_SEGSIZE)
		return false;
	if (((t->start + ((u64)(ar->first + i) << IO_TLB_SHIFT)) ^ orig) & align_mask)
		return false;
	for (unsigned long j = 0; j < nslots; j++) {
		uint64_t state = st_get(t, ar->first + i + j);

		/* A live head is never parked; a parked head or a tail may be. */
		if (state && ((state & (SLOT_HEAD | SLOT_USED)) == (SLOT_HEAD | SLOT_USED) ||
			      !unpark(t, ar, ar->first + i + j)))
			return false;
	}
	return true;
}

/* The rest of area @ar after its hint, from where the last search ended. */
static __attribute__((noinline)) long
area_scan(struct dmamap_iotlb *t, struct area *ar, unsigned long nslots,
	  phys_addr_t orig, u64 align_mask, unsigned long stride)
{
	unsigned long i = ar->next;

	for (unsigned long tries = ar->nslots; tries--; i++) {
		if (i >= ar->nslots)
			i = 0;
		if (run_fits(t, ar, i, nslots, orig, align_mask, stride)) {
			ar->next = (i + nslots) % ar->nslots;
			return (long)(ar->first + i);
		}
	}
	return -1;
}

static inline long area_find(struct dmamap_iotlb *t, struct area *ar, unsigned long nslots,
			     phys_addr_t orig, u64 align_mask, unsigned long stride)
{
	/*
	 * The run freed last first: its lines are still in the cache. Read
	 * once: taking back a parked run on the way moves the hint.
	 */
	unsigned long hint = ar->hint;

	if (likely(run_fits(t, ar, hint, nslots, orig, align_mask, stride)))
		return (long)(ar->first + hint);
	return area_scan(t, ar, nslots, orig, align_mask, stride);
}

/* Free for the stats: free, or part of a parked run (a full pool takes those back). */
static bool free_or_parked(const struct dmamap_iotlb *t, unsigned long i)
{
	uint64_t state = st_get(t, i);

	if (!state || parked(state))
		return true;
	return !(state & SLOT_HEAD) && parked(st_get(t, (unsigned long)(state & ~SLOT_USED)));
}

static unsigned long largest_run(struct dmamap_iotlb *t)
{
	unsigned long best = 0, run = 0;

	for (unsigned long i = 0; i < t->nslots; i++) {
		if (i % IO_TLB_SEGSIZE == 0)
			run = 0;
		run = free_or_parked(t, i) ? run + 1 : 0;
		best = MAX(best, run);
	}
	return best;
}

static __attribute__((noinline)) void raise_peak(struct dmamap_iotlb *t, unsigned int a,
						 unsigned long area_used)
{
	unsigned long peak = __atomic_load_n(&t->areas[a].peak, __ATOMIC_RELAXED);

	/*
	 * The peak first, then the total with release and acquire: of two
	 * threads raising peaks at once, the one whose add lands second sees
	 * the other's peak, so the mark is not understated.
	 */
	__atomic_store_n(&t->areas[a].peak, area_used, __ATOMIC_RELAXED);
	__atomic_fetch_add(&t->peak_total, area_used - peak, __ATOMIC_ACQ_REL);
}

/* Write the records of a mapping of @size bytes of @orig in slots [@slot, @slot + @nslots) of area @a. */
static inline void claim_records(struct dmamap_iotlb *t, unsigned int a, unsigned long slot,
				 unsigned long nslots, phys_addr_t orig, u64 offset, size_t size)
{
	t->slots[slot].orig = orig;
	st_set(t, slot, head_state(size, offset, nslots, a));
	for (unsigned long j = 1; j < nslots; j++)
		st_set(t, slot + j, SLOT_USED | slot);
}

/*
 * Give slots [@slot, @slot + @nslots) of area @a, whose lock the caller
 * holds, to a mapping of @size bytes of @orig (@offset into the first
 * slot), for thread shard @me. Returns how many slots the area now has in
 * use.
 */
static inline unsigned long claim(struct dmamap_iotlb *t, unsigned int a, unsigned long slot,
				  unsigned long nslots, phys_addr_t orig, u64 offset,
				  size_t size, unsigned int me)
{
	struct area *ar = &t->areas[a];
	unsigned long area_used = ar->used + nslots;

	__atomic_store_n(&ar->used, area_used, __ATOMIC_RELAXED);
	if (unlikely(area_used > __atomic_load_n(&t->areas[a].peak, __ATOMIC_RELAXED)))
		raise_peak(t, a, area_used);
	if (unlikely(t->areas[a].owner != me + 1))
		__atomic_store_n(&t->areas[a].owner, me + 1, __ATOMIC_RELAXED);
	claim_records(t, a, slot, nslots, orig, offset, size);
	return area_used;
}

static __attribute__((noinline)) void raise_high_water(struct dmamap_iotlb *t, unsigned int a,
						       unsigned long area_used, unsigned int me)
{
	unsigned long sum = 0, hw = __atomic_load_n(&t->high_water, __ATOMIC_RELAXED);

	for (unsigned int b = 0; b < t->nareas; b++) {
		if (b == a)
			sum += area_used;
		else if (__atomic_load_n(&t->areas[b].owner, __ATOMIC_RELAXED) == me + 1)
			sum += __atomic_load_n(&t->areas[b].used, __ATOMIC_RELAXED);
		else
			sum += __atomic_load_n(&t->areas[b].peak, __ATOMIC_RELAXED);
	}
	while (sum > hw && !__atomic_compare_exchange_n(&t->high_water, &hw, sum, false,
							 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/*
 * The pool's mark is the most slots in use at once. Reading how much of an
 * area another thread is using pulls in a line that thread writes on every
 * map, so an area another thread allocated from last counts at its own
 * peak: the mark is exact while one thread does the mapping, and may
 * overstate (never understate) once several have. Every area is at most at
 * its peak: if area @a's use plus the others' peaks cannot beat the mark,
 * nothing needs reading.
 */
static inline void note_high_water(struct dmamap_iotlb *t, unsigned int a,
				   unsigned long area_used, unsigned int me)
{
	if (unlikely(area_used + __atomic_load_n(&t->peak_total, __ATOMIC_ACQUIRE) -
			     __atomic_load_n(&t->areas[a].peak, __ATOMIC_RELAXED) >
		     __atomic_load_n(&t->high_water, __ATOMIC_RELAXED)))
		raise_high_water(t, a, area_used, me);
}

static unsigned long slot_of(const struct dmamap_iotlb *t, phys_addr_t tlb)
{
	return (unsigned long)((tlb - t->start) >> IO_TLB_SHIFT);
}

/* Whether bounce address @tlb is in a live mapping (not free, not parked). */
static inline bool slot_live(const struct dmamap_iotlb *t, phys_addr_t tlb)
{
	uint64_t state = st_get(t, slot_of(t, tlb));

	if (!(state & SLOT_USED))
		return false;
	return (state & SLOT_HEAD) ||
	       (st_get(t, (unsigned long)(state & ~SLOT_USED)) & SLOT_USED);
}

/* The head slot of the live mapping holding bounce address @tlb. */
static inline unsigned long head_of(const struct dmamap_iotlb *t, phys_addr_t tlb)
{
	unsigned long i = slot_of(t, tlb);
	uint64_t state = st_get(t, i);

	return state & SLOT_HEAD ? i : (unsigned long)(state & ~SLOT_USED);
}

/* The bounce address of the mapping whose head is slot @head. */
static inline phys_addr_t head_tlb(const struct dmamap_iotlb *t, unsigned long head)
{
	return t->start + ((u64)head << IO_TLB_SHIFT) + head_offset(st_get(t, head));
}

/* Free the @n slots from @head, in area @ar whose lock the caller holds; the run is the next one to try. */
static inline void release(struct dmamap_iotlb *t, struct area *ar, unsigned long head,
			   unsigned long n)
{
	for (unsigned long j = 0; j < n; j++)
		st_set(t, head + j, 0);
	ar->hint = head - ar->first;
	__atomic_store_n(&ar->used, ar->used - n, __ATOMIC_RELAXED);
}

/* Give parked run @spare (head + 1) back to its area. */
static __attribute__((noinline)) void release_spare(struct dmamap_iotlb *t, unsigned long spare)
{
	unsigned long head = spare - 1;
	uint64_t state = st_get(t, head);
	struct area *ar = &t->areas[head_area(state)];

	dmamap__spin_lock(&ar->lock);
	release(t, ar, head, head_nused(state));
	dmamap__spin_unlock(&ar->lock);
}

/* A live mapping's head whose run the short path can map into again (no in-slot offset). */
static inline bool parkable(uint64_t state)
{
	return (state & (SLOT_HEAD | SLOT_USED)) == (SLOT_HEAD | SLOT_USED) && !head_offset(state);
}

/*
 * The mapping whose head is @head (@state) ended: park its run in shard
 * @c for the thread's next map. Returns the run parked there before, which
 * the caller gives back (0: none).
 */
static inline unsigned long park(struct dmamap_iotlb *t, unsigned int me,
				 unsigned long head, uint64_t state)
{
	st_set(t, head, (state & ~SLOT_USED) | (uint64_t)me << HEAD_SHARD_SHIFT);
	return __atomic_exchange_n(&t->count[me].spare, head + 1, __ATOMIC_ACQ_REL);
}

static inline void slots_put(struct dmamap_iotlb *t, phys_addr_t tlb)
{
	unsigned long head = head_of(t, tlb);
	uint64_t state = st_get(t, head);
	unsigned long n = head_nused(state);
	struct area *ar = &t->areas[head_area(state)];

	dmamap__spin_lock(&ar->lock);
	release(t, ar, head, n);
	dmamap__spin_unlock(&ar->lock);
}

/* Slots a mapping of @size bytes needs, and the stride its first slot keeps. */
static inline unsigned long slots_for(u64 offset, size_t size)
{
	return (unsigned long)((offset + size + IO_TLB_SIZE - 1) >> IO_TLB_SHIFT);
}

static inline unsigned long stride_for(size_t size, u64 align_mask)
{
	/* Page-sized and larger bounce buffers start on a page, as the kernel's. */
	return size >= PAGE_SIZE && !align_mask ? PAGE_SIZE >> IO_TLB_SHIFT : 1;
}

/*
 * Take slots for a mapping of @size bytes of @orig. Returns the bounce
 * physical address (slot plus the offset min_align_mask keeps), or
 * PHYS_NONE.
 */
static phys_addr_t slots_get(struct device *dev, struct dmamap_iotlb *t,
			     phys_addr_t orig, size_t size, unsigned int min_align,
			     unsigned long attrs)
{
	u64 offset = orig & min_align & (IO_TLB_SIZE - 1);
	u64 align_mask = min_align & ~(u64)(IO_TLB_SIZE - 1);
	unsigned long nslots = slots_for(offset, size);
	unsigned long stride = stride_for(size, align_mask);
	unsigned int me = dmamap__my_shard(), a0 = me & (t->nareas - 1), a = 0;
	unsigned long area_used = 0, spare;
	phys_addr_t tlb = PHYS_NONE;
	long slot = -1;

	if (size > DMAMAP_SWIOTLB_MAX_MAPPING || nslots > IO_TLB_SEGSIZE) {
		COUNT(t, failures, 1);
		if (!(attrs & DMA_ATTR_NO_WARN))
			dmamap__report(dev->plat, dev, DMAMAP_DBG_ALLOC_FAILED,
				       "swiotlb pool %s: mapping of %zu bytes is over the maximum of %lu",
				       t->name, size, DMAMAP_SWIOTLB_MAX_MAPPING);
		return PHYS_NONE;
	}
	/* This thread's parked run goes back first, so its area's count is what is mapped. */
	if (__atomic_load_n(&t->count[me].spare, __ATOMIC_RELAXED) &&
	    (spare = __atomic_exchange_n(&t->count[me].spare, 0, __ATOMIC_ACQUIRE)))
		release_spare(t, spare);
	for (unsigned int k = 0; k < t->nareas && slot < 0; k++) {
		struct area *ar;

		a = (a0 + k) & (t->nareas - 1);
		ar = &t->areas[a];
		dmamap__spin_lock(&ar->lock);
		slot = area_find(t, ar, nslots, orig, align_mask, stride);
		if (slot >= 0) {
			tlb = t->start + ((u64)slot << IO_TLB_SHIFT) + offset;
			area_used = claim(t, a, (unsigned long)slot, nslots, orig, offset, size, me);
		}
		dmamap__spin_unlock(&ar->lock);
	}
	if (slot < 0) {
		COUNT(t, failures, 1);
		if (!(attrs & DMA_ATTR_NO_WARN))
			dmamap__report(dev->plat, dev, DMAMAP_DBG_ALLOC_FAILED,
				       "swiotlb pool %s full: %zu bytes (%lu slots) asked; slots total %lu, used %lu, high-water %lu, largest free run %lu",
				       t->name, size, nslots, t->nslots, used_slots(t),
				       __atomic_load_n(&t->high_water, __ATOMIC_RELAXED),
				       largest_run(t));
		return PHYS_NONE;
	}
	note_high_water(t, a, area_used, me);
	return tlb;
}

/* Copy @size bytes at bounce address @tlb to (TO_DEVICE) or from its original. */
static inline void bounce(struct dmamap_iotlb *t, phys_addr_t tlb, size_t size,
			  enum dma_data_direction dir)
{
	unsigned long head = head_of(t, tlb);
	size_t mapped = head_size(st_get(t, head));
	u64 off = tlb - head_tlb(t, head);
	phys_addr_t orig = t->slots[head].orig + off;
	uint8_t *orig_cpu, *slot;

	if (off >= mapped)
		return;
	size = MIN(size, (size_t)(mapped - off));
	orig_cpu = cpu_at(t->p, orig);
	slot = cpu_at(t->p, tlb);
	if (!orig_cpu || !slot)
		return;
	/* On a board, the CPU's copy dirties the lines it writes, same bytes or not. */
	if (dir == DMA_TO_DEVICE) {
		dmamap__cpu_write(t->p, tlb, orig_cpu, size);
		COUNT(t, to_dev, size);
	} else {
		dmamap__cpu_write(t->p, orig, slot, size);
		COUNT(t, from_dev, size);
	}
}

/* ---- the platform's pool --------------------------------------------------- */

int dmamap__swiotlb_init(struct dmamap_platform *p, phys_addr_t start, u64 bytes,
			 bool bounce_small_kmalloc)
{
	struct dmamap_swiotlb *sw = dmamap__calloc(1, sizeof(*sw));

	if (!sw)
		return -ENOMEM;
	p->swiotlb = sw;
	sw->bounce_small_kmalloc = bounce_small_kmalloc;
	if (!bytes)
		return 0;
	sw->pool = iotlb_create(p, "swiotlb", start, bytes);
	if (!sw->pool)
		return -ENOMEM;
	sw->start = start;
	sw->bytes = bytes;
	return 0;
}

void dmamap__swiotlb_fini(struct dmamap_platform *p)
{
	if (!p->swiotlb)
		return;
	iotlb_destroy(p->swiotlb->pool);
	free(p->swiotlb);
	p->swiotlb = NULL;
}

struct dmamap_ram_bank dmamap__swiotlb_area(const struct dmamap_platform *p)
{
	const struct dmamap_swiotlb *sw = p->swiotlb;

	return (struct dmamap_ram_bank){ sw && sw->pool ? sw->start : 0,
					 sw && sw->pool ? sw->bytes : 0 };
}

void dmamap__swiotlb_release(struct device *dev)
{
	struct dmamap_iotlb *t = dev->dma_io_tlb_mem;
	bool last;

	if (!t)
		return;
	pthread_mutex_lock(&dev->plat->devices.lock);
	last = --t->users == 0;
	dev->dma_io_tlb_mem = NULL;
	pthread_mutex_unlock(&dev->plat->devices.lock);
	if (last)
		iotlb_destroy(t);
}

/* ---- the dma-direct side ---------------------------------------------------- */

static struct dmamap_iotlb *pool_for(const struct device *dev)
{
	return dev->dma_io_tlb_mem ? dev->dma_io_tlb_mem : dev->plat->swiotlb->pool;
}

bool dmamap__swiotlb_force_bounce(const struct device *dev)
{
	const struct dmamap_swiotlb *sw = dev->plat->swiotlb;

	return dev->dma_io_tlb_mem || (sw->pool && sw->force);
}

bool dmamap__swiotlb_active(const struct device *dev)
{
	const struct dmamap_swiotlb *sw = dev->plat->swiotlb;

	return dev->dma_io_tlb_mem || (sw->pool && !sw->off);
}

bool dmamap__swiotlb_wanted(const struct device *dev, phys_addr_t phys,
			    size_t size, enum dma_data_direction dir)
{
	struct dmamap_platform *p = dev->plat;
	const struct dmamap_swiotlb *sw = p->swiotlb;

	if (dmamap__swiotlb_force_bounce(dev))
		return true;
	if (sw->off)
		return false;
	/* Sub-line kmalloc buffers on a non-coherent device share lines: bounce them. */
	return sw->bounce_small_kmalloc && sw->pool && !dev->coherent &&
	       dir != DMA_TO_DEVICE && size < 2 * (size_t)p->mach.line_size &&
	       dmamap__kmalloc_tail_shared(p, phys + size);
}

size_t dmamap__swiotlb_max_mapping_size(const struct device *dev)
{
	/* A min_align_mask offset can cost up to one more slot, as the kernel counts. */
	if (dmamap__swiotlb_active(dev))
		return DMAMAP_SWIOTLB_MAX_MAPPING -
		       ((dev->dma_parms.min_align_mask + IO_TLB_SIZE - 1) & ~(IO_TLB_SIZE - 1));
	return SIZE_MAX;
}

void dmamap__swiotlb_refresh(struct device *dev)
{
	const struct dmamap_swiotlb *sw = dev->plat->swiotlb;
	struct dmamap_iotlb *t = pool_for(dev);

	dev->bounce_start = sw->start;
	dev->bounce_len = sw->pool ? sw->bytes : 0;
	dev->bounce_all = NULL;
	/*
	 * The host's short path: a coherent identity device whose every
	 * mapping bounces, every slot of its pool within reach (so the short
	 * path checks nothing).
	 */
	if (t && dmamap__port_identity(dev->plat) && !dev->dma_ops && !dev->iommu_domain &&
	    dev->coherent && !dev->nr_ranges && !dev->dma_mem &&
	    dmamap__swiotlb_force_bounce(dev) &&
	    t->start + ((u64)t->nslots << IO_TLB_SHIFT) - 1 <= dev->map_limit)
		dev->bounce_all = t;
}

dma_addr_t dmamap__swiotlb_map(struct device *dev, phys_addr_t phys, size_t size,
			       enum dma_data_direction dir, unsigned long attrs,
			       int *errp)
{
	struct dmamap_iotlb *t = pool_for(dev);
	phys_addr_t tlb;
	dma_addr_t dma;

	if (!t) {
		*errp = -EIO;
		return DMA_MAPPING_ERROR;
	}
	tlb = slots_get(dev, t, phys, size, dev->dma_parms.min_align_mask, attrs);
	if (tlb == PHYS_NONE) {
		*errp = -ENOMEM;
		dmamap__stat_add(dev, ST_ERR0 + DMAMAP_ERRK_NOMEM, 1);
		return DMA_MAPPING_ERROR;
	}
	dma = dmamap__reach(dev, tlb, size, dev->map_limit);
	if (dma == DMA_MAPPING_ERROR) {
		slots_put(t, tlb);
		*errp = -EIO;
		dmamap__api_error(dev, "dma_map", DMAMAP_ERRK_UNREACHABLE,
				  DMAMAP_DBG_UNREACHABLE,
				  "swiotlb pool %s [phys=0x%llx] is beyond the device's reach too",
				  t->name, (unsigned long long)tlb);
		return DMA_MAPPING_ERROR;
	}
	/*
	 * Always copy in, whatever the direction: a device that writes only
	 * part of the buffer must leave the rest as it was, not as the last
	 * user of the slots left it.
	 */
	/* As the kernel: the original's device address; and here the slot's too. */
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_SWIOTLB_BOUNCED, .dev = dev,
		      .dma_addr = dmamap__phys_to_dma(dev, phys), .phys_addr = tlb, .size = size,
		      .dir = dir);
	bounce(t, tlb, size, DMA_TO_DEVICE);
	COUNT(t, bounced, 1);
	dmamap__stat_add(dev, ST_BYTES_BOUNCED, size);
	if (!dev->coherent && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmamap_arch_sync_dma_for_device(dev, tlb, size, dir);
	return dma;
}

struct dmamap_iotlb *dmamap__swiotlb_of(const struct device *dev, phys_addr_t phys)
{
	if (dev->dma_io_tlb_mem && iotlb_contains(dev->dma_io_tlb_mem, phys))
		return dev->dma_io_tlb_mem;
	if (iotlb_contains(dev->plat->swiotlb->pool, phys))
		return dev->plat->swiotlb->pool;
	return NULL;
}

void dmamap__swiotlb_unmap(struct device *dev, struct dmamap_iotlb *t,
			   phys_addr_t tlb, size_t size,
			   enum dma_data_direction dir, unsigned long attrs)
{
	if (!slot_live(t, tlb))
		return; /* not a live bounce buffer: the checker says why */
	if (!dev->coherent && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmamap_arch_sync_dma_for_cpu(dev, tlb, size, dir);
	if (dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL)
		bounce(t, tlb, size, DMA_FROM_DEVICE);
	slots_put(t, tlb);
}

/* ---- the host's short path -------------------------------------------------------- */

/*
 * What the general path would do for a device that always bounces, and
 * its count. The map copies in whatever the direction, and such a device
 * is coherent, so the direction has nothing to decide.
 */
static __attribute__((noinline)) dma_addr_t
map_host_general(struct device *dev, phys_addr_t phys, size_t size, unsigned long attrs)
{
	int err;
	dma_addr_t addr = dmamap__swiotlb_map(dev, phys, size, DMA_BIDIRECTIONAL, attrs, &err);

	if (addr != DMA_MAPPING_ERROR)
		dmamap__count_map(dev, size);
	return addr;
}

/* The parked run does not fit this mapping: give it back, then the general path. */
static __attribute__((noinline)) dma_addr_t
map_host_unparked(struct device *dev, phys_addr_t phys, size_t size, unsigned long spare)
{
	release_spare(dev->bounce_all, spare);
	return map_host_general(dev, phys, size, 0);
}

/*
 * The common case only: the run this thread unmapped last is parked and
 * fits. Taking it is one exchange and two stores, with no lock, search or
 * accounting (the area still counts the run). No call but the copy, last:
 * next to the copy's stores, every other memory access costs. Anything
 * else goes to the general path before anything changes.
 */
dma_addr_t dmamap__swiotlb_map_host(struct device *dev, phys_addr_t phys, size_t size,
				    unsigned long attrs)
{
	struct dmamap_iotlb *t = dev->bounce_all;
	unsigned long nslots = slots_for(0, size), spare, head;
	struct dmamap_stat_shard *ds;
	struct tlb_counters *c;
	unsigned int me;
	uint64_t state;

	if (unlikely(attrs || !dmamap__shard_known() || dev->dma_parms.min_align_mask ||
		     size > DMAMAP_SWIOTLB_MAX_MAPPING))
		return map_host_general(dev, phys, size, attrs);
	me = dmamap__my_shard();
	c = &t->count[me];
	spare = __atomic_exchange_n(&c->spare, 0, __ATOMIC_ACQUIRE);
	if (unlikely(!spare))
		return map_host_general(dev, phys, size, 0);
	head = spare - 1;
	state = st_get(t, head);
	if (unlikely(head_nused(state) != nslots || (head & (stride_for(size, 0) - 1))))
		return map_host_unparked(dev, phys, size, spare);
	t->slots[head].orig = phys;
	st_set(t, head, head_state(size, 0, nslots, head_area(state)));
	dmamap__count_add(&c->bounced, 1);
	dmamap__count_add(&c->to_dev, size);
	ds = &dev->stats[me];
	dmamap__count_map_shard(ds, size);
	dmamap__stat_add_shard(ds, ST_BYTES_BOUNCED, size);
	/* On the host the slot's address is the handle, and memcpy returns it. */
	return (dma_addr_t)(uintptr_t)memcpy((void *)(uintptr_t)(t->start +
								 ((u64)head << IO_TLB_SHIFT)),
					     (const void *)(uintptr_t)phys, size);
}

/* Anything but the common unmap: copy back, park or free, or a handle of another pool. */
static __attribute__((noinline)) void
unmap_host_general(struct device *dev, dma_addr_t addr, size_t size,
		   enum dma_data_direction dir, unsigned long attrs)
{
	struct dmamap_iotlb *t = dev->bounce_all, *other;
	unsigned long head, spare;
	uint64_t state;

	dmamap__stat_add(dev, ST_UNMAPS, 1);
	if (!iotlb_contains(t, addr) || !slot_live(t, addr)) {
		/* Mapped before the device's pool changed, or never: the checker says which. */
		other = dmamap__swiotlb_of(dev, addr);
		if (other && other != t)
			dmamap__swiotlb_unmap(dev, other, addr, size, dir, attrs);
		return;
	}
	head = slot_of(t, addr);
	state = st_get(t, head);
	if (dir != DMA_TO_DEVICE)
		bounce(t, addr, size, DMA_FROM_DEVICE);
	if (parkable(state)) {
		spare = park(t, dmamap__my_shard(), head, state);
		if (spare)
			release_spare(t, spare);
	} else {
		slots_put(t, addr);
	}
}

/*
 * As the map: a mapping's head, nothing to copy back; its run is parked
 * for this thread's next map, and the run parked before goes back to its
 * area. Anything else goes to the general path.
 */
void dmamap__swiotlb_unmap_host(struct device *dev, dma_addr_t addr, size_t size,
				enum dma_data_direction dir, unsigned long attrs)
{
	struct dmamap_iotlb *t = dev->bounce_all;
	u64 off = addr - t->start;
	unsigned long head = (unsigned long)(off >> IO_TLB_SHIFT), spare;
	unsigned int me;
	uint64_t state;

	if (unlikely(off >= ((u64)t->nslots << IO_TLB_SHIFT) || dir != DMA_TO_DEVICE ||
		     !dmamap__shard_known()))
		return unmap_host_general(dev, addr, size, dir, attrs);
	me = dmamap__my_shard();
	state = st_get(t, head);
	if (unlikely(!parkable(state)))
		return unmap_host_general(dev, addr, size, dir, attrs);
	spare = park(t, me, head, state);
	dmamap__stat_add_shard(&dev->stats[me], ST_UNMAPS, 1);
	if (unlikely(spare))
		release_spare(t, spare);
}

void dmamap__swiotlb_sync(struct device *dev, struct dmamap_iotlb *t,
			  phys_addr_t tlb, size_t size,
			  enum dma_data_direction dir, bool for_cpu)
{
	if (!slot_live(t, tlb))
		return;
	if (for_cpu) {
		if (!dev->coherent)
			dmamap_arch_sync_dma_for_cpu(dev, tlb, size, dir);
		if (dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL)
			bounce(t, tlb, size, DMA_FROM_DEVICE);
	} else {
		if (dir == DMA_TO_DEVICE || dir == DMA_BIDIRECTIONAL)
			bounce(t, tlb, size, DMA_TO_DEVICE);
		if (!dev->coherent)
			dmamap_arch_sync_dma_for_device(dev, tlb, size, dir);
	}
}

/* ---- restricted pools: coherent allocations come from them too --------------- */

void *dmamap__swiotlb_alloc(struct device *dev, size_t size, dma_addr_t *dma)
{
	struct dmamap_iotlb *t = dev->dma_io_tlb_mem;
	phys_addr_t tlb;
	void *cpu;

	if (!t)
		return NULL;
	size = PAGE_ALIGN(size);
	tlb = slots_get(dev, t, 0, size, 0, DMA_ATTR_NO_WARN);
	if (tlb == PHYS_NONE)
		return NULL;
	/* A pool the device's window or coherent mask does not reach serves it nothing. */
	if (dmamap__reach(dev, tlb, size, dmamap__reach_limit(dev, dev->coherent_dma_mask)) ==
	    DMA_MAPPING_ERROR) {
		slots_put(t, tlb);
		return NULL;
	}
	t->slots[head_of(t, tlb)].orig = PHYS_NONE; /* nothing to bounce */
	dmamap__reset_range(dev->plat, tlb, size, true);
	cpu = dmamap__view_map(dev->plat, tlb, size, dev->coherent ? VIEW_CPU : VIEW_MEM);
	if (!cpu) {
		slots_put(t, tlb);
		return NULL;
	}
	*dma = dmamap_phys_to_dma(dev, tlb);
	return cpu;
}

bool dmamap__swiotlb_free(struct device *dev, void *vaddr, dma_addr_t dma)
{
	struct dmamap_iotlb *t = dev->dma_io_tlb_mem;
	enum dmamap_view view;
	phys_addr_t phys;

	if (!t)
		return false;
	phys = dmamap__addr_to_phys(dev->plat, vaddr, &view);
	if (!iotlb_contains(t, phys))
		return false;
	/* Only the allocation's own address and handle: a stale one may name a newer alias. */
	if (!slot_live(t, phys) || view != (dev->coherent ? VIEW_CPU : VIEW_MEM) ||
	    phys != t->start + ((phys_addr_t)head_of(t, phys) << IO_TLB_SHIFT) ||
	    dmamap_phys_to_dma(dev, phys) != dma) {
		dmamap__api_error(dev, "dma_free_attrs", DMAMAP_ERRK_BAD_HANDLE,
				  DMAMAP_DBG_FREE_INVALID,
				  "frees restricted-pool memory with a different CPU address or handle [cpu=%p] [device address=0x%llx]",
				  vaddr, (unsigned long long)dma);
		return true;
	}
	{
		unsigned long n = head_nused(st_get(t, head_of(t, phys)));

		/* The model forgets what the uncached alias did, as the direct free does. */
		dmamap__view_unmap(dev->plat, vaddr);
		dmamap__reset_range(dev->plat, phys, (size_t)n << IO_TLB_SHIFT, false);
		slots_put(t, phys);
	}
	return true;
}

/* ---- public ------------------------------------------------------------------- */

int dmamap_swiotlb_stats(struct dmamap_platform *p, struct device *dev,
			 struct dmamap_swiotlb_stats *s)
{
	struct dmamap_iotlb *t;

	if ((!p && !dev) || !s)
		return -EINVAL;
	t = dev ? pool_for(dev) : p->swiotlb->pool;
	if (!t)
		return -ENODEV;
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", t->name);
	s->start = t->start;
	s->slot_size = IO_TLB_SIZE;
	s->total_slots = t->nslots;
	s->used_slots = used_slots(t);
	s->high_water = __atomic_load_n(&t->high_water, __ATOMIC_RELAXED);
	s->bounced_maps = TOTAL(t, bounced);
	s->bytes_to_device = TOTAL(t, to_dev);
	s->bytes_from_device = TOTAL(t, from_dev);
	s->failures = TOTAL(t, failures);
	for (unsigned int a = 0; a < t->nareas; a++)
		dmamap__spin_lock(&t->areas[a].lock);
	s->largest_free_run = largest_run(t);
	for (unsigned int a = 0; a < t->nareas; a++)
		dmamap__spin_unlock(&t->areas[a].lock);
	return 0;
}

int dmamap_swiotlb_set_mode(struct dmamap_platform *p,
			    enum dmamap_swiotlb_mode mode)
{
	if (!p || (unsigned int)mode > DMAMAP_SWIOTLB_NOFORCE)
		return -EINVAL;
	if (!p->swiotlb->pool && mode != DMAMAP_SWIOTLB_NOFORCE)
		return -ENODEV;
	p->swiotlb->force = mode == DMAMAP_SWIOTLB_FORCE;
	p->swiotlb->off = mode == DMAMAP_SWIOTLB_NOFORCE;
	dmamap__device_for_each(p, dmamap__device_refresh);
	return 0;
}

/*
 * A restricted pool another device of @p already has over the same
 * memory: one io_tlb_mem per reserved-memory region, as rmem->priv is
 * in Linux, so that two devices never hand out the same slot.
 * -EINVAL for a pool that overlaps it without being it.
 */
static int shared_pool(struct dmamap_platform *p, phys_addr_t phys, size_t size,
		       struct dmamap_iotlb **out)
{
	unsigned long nslots = (unsigned long)(size >> IO_TLB_SHIFT);

	*out = NULL;
	for (unsigned int i = 0; i < p->devices.n; i++) {
		struct dmamap_iotlb *t = p->devices.list[i]->dma_io_tlb_mem;

		if (!t || phys >= t->start + ((u64)t->nslots << IO_TLB_SHIFT) || t->start >= phys + size)
			continue;
		if (t->start != phys || t->nslots != nslots)
			return -EINVAL;
		*out = t;
		return 0;
	}
	return 0;
}

int dmamap_swiotlb_restricted_pool(struct device *dev, phys_addr_t phys,
				   size_t size)
{
	struct dmamap_platform *p;
	struct dmamap_iotlb *t = NULL;
	char name[DMAMAP_NAME_MAX];
	int ret;

	if (!dev || !size || (phys & (PAGE_SIZE - 1)) ||
	    size % DMAMAP_SWIOTLB_MAX_MAPPING)
		return -EINVAL;
	p = dev->plat;
	/* On the host any memory will do; on a board it must be RAM. */
	if (!dmamap__port_identity(p) && !dmamap__port_is_ram(p, phys, size))
		return -EINVAL;
	/* Find, or make, and install under one lock: two devices never make two pools of one region. */
	pthread_mutex_lock(&p->devices.lock);
	ret = dev->dma_io_tlb_mem ? -EBUSY : shared_pool(p, phys, size, &t);
	if (!ret && t) {
		t->users++;
	} else if (!ret) {
		snprintf(name, sizeof(name), "restricted@0x%llx", (unsigned long long)phys);
		t = iotlb_create(p, name, phys, size);
		if (t) {
			t->users = 1;
			/* Reserved memory nobody holds data in: zeroed, its pages untouched until used. */
			dmamap__reset_range(p, phys, size, true);
		} else {
			ret = -ENOMEM;
		}
	}
	if (!ret)
		dev->dma_io_tlb_mem = t;
	pthread_mutex_unlock(&p->devices.lock);
	if (ret)
		return ret;
	dmamap__device_refresh(dev);
	return 0;
}

bool dmamap_swiotlb_is_bounce(struct device *dev, dma_addr_t dma)
{
	phys_addr_t phys;

	if (!dev)
		return false;
	phys = dmamap__dev_dma_to_phys(dev, dma, 1);
	return phys != PHYS_NONE && dmamap__swiotlb_of(dev, phys) != NULL;
}

int dma_set_min_align_mask(struct device *dev, unsigned int min_align_mask)
{
	if (!dev)
		return -EINVAL;
	dev->dma_parms.min_align_mask = min_align_mask;
	return 0;
}

unsigned int dma_get_min_align_mask(struct device *dev)
{
	return dev ? dev->dma_parms.min_align_mask : 0;
}
