/* SPDX-License-Identifier: MIT */
/*
 * The DMA-API checker. Every live mapping and allocation is an entry in a
 * hash table keyed by (device, page of its device address); each bucket has
 * its own spinlock, so threads working on different buffers do not meet.
 * Lookups of an address inside a mapping walk back page by page, at most
 * SPAN_PAGES; longer mappings live on a list of their own. Entries come
 * from preallocated chunks through per-thread magazines; when memory for a
 * new chunk cannot be had, the checker reports once and turns itself off:
 * it never fails the caller's mapping. It hears of device accesses through
 * the observer interface (base/observer.h) while it is on.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include "../lib/lib.h"
#include "../base/observer.h"
#include "../base/report.h"
#include "../lib/spinlock.h"
#include "../mm/mm.h"
#include "../platform/port.h"
#include "checker.h"
#include "../lib/mem.h"

#define HASH_BITS 16
#define NBUCKETS (1u << HASH_BITS)
#define CHUNK_ENTRIES 4096
#define MAG_REFILL 64

struct bucket {
	int lock;
	unsigned int n; /* entries, counted under the lock: the live count is their sum */
	struct dbg_entry *head;
};

/*
 * Per-thread magazine of free entries: allocation and free take no lock
 * in the common case. A magazine belongs to one checker, named by a serial
 * number (not a pointer, which a later checker may reuse); entries left in
 * a magazine of a checker the thread no longer uses stay in that checker's
 * chunks and are freed with them.
 */
struct magazine {
	unsigned long owner;
	unsigned int n;
	struct dbg_entry *free;
};

static __thread struct magazine mag __attribute__((tls_model("initial-exec")));

__thread struct dbg_last_map dmamap__dbg_last_map;
unsigned long dmamap__dbg_epoch;
static unsigned long checker_serial;

#define LONG_BITS (8 * sizeof(long))

struct dmamap_checker {
	struct bucket *buckets;
	struct bucket *lines; /* live non-TO_DEVICE cache lines: node.addr = line, size = users */
	unsigned long serial;
	pthread_mutex_t pool_lock;
	struct dbg_entry *pool;
	void **chunks;
	size_t nchunks, cap_chunks;
	/*
	 * Entries longer than SPAN_PAGES live here, not in the page buckets, so
	 * an address lookup walks back at most SPAN_PAGES buckets and then
	 * scans this short list, however large a mapping some caller made.
	 */
	struct bucket large;
	/*
	 * Ownership mode: a bit per bucket (the large list last) that may hold
	 * a guarded entry, set under the bucket's lock when one is linked or
	 * guarded there and cleared lazily by a trap that finds none. A trapped
	 * CPU access looks in those buckets alone, not in the whole table.
	 */
	unsigned long guarded[(NBUCKETS + 1 + LONG_BITS - 1) / LONG_BITS];
	bool dead; /* ran out of memory */
};

static const char *const type_names[] = { "single", "page", "scatter-gather",
					  "coherent", "noncoherent", "resource", "pool block",
					  "iova link" };

/* What an allocation is made with, which its free must repeat (the backend frees by them). */
#define ALLOC_ATTRS (DMA_ATTR_WRITE_COMBINE | DMA_ATTR_NO_KERNEL_MAPPING | \
		     DMA_ATTR_FORCE_CONTIGUOUS | DMA_ATTR_ALLOC_SINGLE_PAGES | DMA_ATTR_PRIVILEGED)

/* Allocations, which are freed with their CPU address and have no direction to check. */
static bool allocated(int type)
{
	return type == DBG_COHERENT || type == DBG_NONCOHERENT || type == DBG_POOL;
}

/* ---- locks, hashing, entry memory ---------------------------------------- */


static struct bucket *bucket_of(struct dmamap_checker *c, const struct device *dev,
				u64 page)
{
	/* One multiply: this is on the critical path of every map and unmap. */
	uint64_t h = (page ^ ((uintptr_t)dev >> 4) * 0x100000001b3ULL) * 0x9e3779b97f4a7c15ULL;

	return &c->buckets[h >> (64 - HASH_BITS)];
}

#define SPAN_PAGES 64

static bool is_large(u64 size)
{
	return size > ((u64)SPAN_PAGES << PAGE_SHIFT);
}

/* Bucket @i of the table, the large-entry list being the last. */
static struct bucket *bucket_at(struct dmamap_checker *c, unsigned int i)
{
	return i < NBUCKETS ? &c->buckets[i] : &c->large;
}

static struct bucket *line_bucket(struct dmamap_checker *c, phys_addr_t line)
{
	uint64_t h = line * 0x9e3779b97f4a7c15ULL;

	return &c->lines[h >> (64 - HASH_BITS)];
}

static bool grow_pool(struct dmamap_checker *c)
{
	struct dbg_entry *chunk;

	if (c->nchunks == c->cap_chunks) {
		size_t cap = c->cap_chunks ? c->cap_chunks * 2 : 16;
		void **n = dmamap__realloc(c->chunks, cap * sizeof(*n));

		if (!n)
			return false;
		c->chunks = n;
		c->cap_chunks = cap;
	}
	/* Zeroed: an entry taken and given back unused (line_get) is read by entry_free(). */
	chunk = dmamap__calloc(CHUNK_ENTRIES, sizeof(*chunk));
	if (!chunk)
		return false;
	c->chunks[c->nchunks++] = chunk;
	for (unsigned int i = 0; i < CHUNK_ENTRIES; i++) {
		chunk[i].next = c->pool;
		c->pool = &chunk[i];
	}
	return true;
}

static void checker_oom(struct dmamap_platform *p);

/*
 * Make this thread's magazine @c's: entries left in it from an earlier
 * checker stay in that checker's chunks and go with them.
 */
static void mag_claim(const struct dmamap_checker *c)
{
	if (mag.owner != c->serial) {
		mag.owner = c->serial;
		mag.free = NULL;
		mag.n = 0;
	}
}

static __attribute__((noinline)) bool mag_refill(struct dmamap_platform *p)
{
	struct dmamap_checker *c = p->checker;
	struct dbg_entry *e;

	mag_claim(c);
	if (!mag.free) {
		pthread_mutex_lock(&c->pool_lock);
		if (!c->pool && (c->dead || dmamap__fault(&p->fault, DMAMAP_FAULT_ALLOC) ||
				 !grow_pool(c))) {
			pthread_mutex_unlock(&c->pool_lock);
			checker_oom(p);
			return false;
		}
		for (unsigned int i = 0; i < MAG_REFILL && c->pool; i++) {
			e = c->pool;
			c->pool = e->next;
			e->next = mag.free;
			mag.free = e;
			mag.n++;
		}
		pthread_mutex_unlock(&c->pool_lock);
	}
	return true;
}

/* The magazine's top entry; the caller knows it holds one of this checker. */
static inline struct dbg_entry *mag_pop(void)
{
	struct dbg_entry *e = mag.free;

	mag.free = e->next;
	mag.n--;
	return e;
}

static inline void mag_push(struct dbg_entry *e)
{
	e->next = mag.free;
	mag.free = e;
	mag.n++;
}

static inline struct dbg_entry *entry_alloc(struct dmamap_platform *p)
{
	if (unlikely(mag.owner != p->checker->serial || !mag.free) &&
	    !mag_refill(p))
		return NULL;
	return mag_pop();
}

/* Give half the magazine back, so memory freed here can serve other threads. */
static __attribute__((noinline)) void mag_drain(struct dmamap_checker *c)
{
	pthread_mutex_lock(&c->pool_lock);
	for (unsigned int i = 0; i < MAG_REFILL; i++) {
		struct dbg_entry *e = mag.free;

		mag.free = e->next;
		e->next = c->pool;
		c->pool = e;
	}
	mag.n -= MAG_REFILL;
	pthread_mutex_unlock(&c->pool_lock);
}

/* ---- ownership mode: guarded pages ------------------------------------------ */

/* Whether @e's whole pages should be the device's alone now. */
static bool wants_guard(const struct device *dev, const struct dbg_entry *e)
{
	return __atomic_load_n(&dev->plat->ownership, __ATOMIC_RELAXED) && !e->guarded &&
	       !e->cpu_owns && !e->partial && e->cpu && !dev->coherent &&
	       (e->type == DBG_SINGLE || e->type == DBG_PAGE || e->type == DBG_SG);
}

/*
 * Guarded only if a whole host page of it is: a smaller buffer keeps the
 * device-read checks that a guard would make needless.
 */
static void guard(struct device *dev, struct dbg_entry *e)
{
	if (dmamap__port_guard(dev->plat, e->cpu, (size_t)e->size, true) > 0)
		e->guarded = 1;
}

/* With @b locked and holding a guarded entry: a trap must look in @b. */
static void note_guarded(struct dmamap_checker *c, struct bucket *b)
{
	unsigned int i = b == &c->large ? NBUCKETS : (unsigned int)(b - c->buckets);

	__atomic_fetch_or(&c->guarded[i / LONG_BITS], 1ul << (i % LONG_BITS), __ATOMIC_RELAXED);
}

static void unguard(struct dbg_entry *e)
{
	if (e->guarded) {
		dmamap__port_guard(e->dev->plat, e->cpu, (size_t)e->size, false);
		e->guarded = 0;
	}
}

static inline void entry_free(struct dmamap_checker *c, struct dbg_entry *e)
{
	if (unlikely(e->guarded))
		unguard(e);
	if (unlikely(mag.owner != c->serial))
		mag_claim(c);
	mag_push(e);
	if (unlikely(mag.n > 2 * MAG_REFILL))
		mag_drain(c);
}

/*
 * Summing the buckets is slow, but only a status query asks; keeping the
 * count where the lock already is costs the map and unmap paths nothing.
 */
static unsigned long live_total(struct dmamap_checker *c)
{
	unsigned long n = 0;

	for (unsigned int i = 0; i <= NBUCKETS; i++)
		n += __atomic_load_n(&bucket_at(c, i)->n, __ATOMIC_RELAXED);
	return n;
}

/* ---- life cycle ---------------------------------------------------------- */

static void checker_free(struct dmamap_checker *c)
{
	if (!c)
		return;
	__atomic_add_fetch(&dmamap__dbg_epoch, 1, __ATOMIC_RELAXED);
	for (size_t i = 0; i < c->nchunks; i++)
		free(c->chunks[i]);
	free(c->chunks);
	free(c->buckets);
	free(c->lines);
	pthread_mutex_destroy(&c->pool_lock);
	free(c);
}

static struct dmamap_checker *checker_new(void)
{
	struct dmamap_checker *c = dmamap__calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	pthread_mutex_init(&c->pool_lock, NULL);
	c->serial = __atomic_add_fetch(&checker_serial, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&dmamap__dbg_epoch, 1, __ATOMIC_RELAXED);
	c->buckets = dmamap__calloc(NBUCKETS, sizeof(*c->buckets));
	c->lines = dmamap__calloc(NBUCKETS, sizeof(*c->lines));
	if (!c->buckets || !c->lines || !grow_pool(c)) {
		checker_free(c);
		return NULL;
	}
	return c;
}

/*
 * Turning the checker on or off is not a hot-path operation: the caller
 * must not be mapping on other threads meanwhile. Off forgets every entry.
 */
static void device_access(void *ctx, struct device *dev, dma_addr_t addr, u64 len,
			  bool write);

/* What the checker watches besides the API calls: the device side. */
static const struct dmamap_observer checker_observer = {
	.device_access = device_access,
};

/* Give the CPU back every guarded page: the entries are about to go wholesale. */
static void unguard_all(struct dmamap_checker *c)
{
	for (unsigned int i = 0; i <= NBUCKETS; i++) {
		struct bucket *b = bucket_at(c, i);

		if (!__atomic_load_n(&b->head, __ATOMIC_RELAXED))
			continue;
		dmamap__spin_lock(&b->lock);
		for (struct dbg_entry *e = b->head; e; e = e->next)
			unguard(e);
		dmamap__spin_unlock(&b->lock);
	}
}

void dmamap_debug_enable(struct dmamap_platform *p, bool on)
{
	if (!p)
		return;
	if (!on) {
		__atomic_store_n(&p->debug, false, __ATOMIC_RELAXED);
		if (p->checker) {
			dmamap__observer_remove(p, &checker_observer);
			unguard_all(p->checker);
		}
		checker_free(p->checker);
		p->checker = NULL;
		return;
	}
	if (!p->checker) {
		p->checker = checker_new();
		if (!p->checker) {
			dmamap__report(p, NULL, DMAMAP_DBG_CHECKER_DISABLED,
				       "debugging out of memory - disabling");
			return;
		}
		if (dmamap__observer_add(p, &checker_observer)) {
			checker_free(p->checker);
			p->checker = NULL;
			dmamap__report(p, NULL, DMAMAP_DBG_CHECKER_DISABLED,
				       "no room for the checker among the platform's %d observers - disabling",
				       DMAMAP_MAX_OBSERVERS);
			return;
		}
	}
	__atomic_store_n(&p->debug, true, __ATOMIC_RELAXED);
}

static void checker_oom(struct dmamap_platform *p)
{
	struct dmamap_checker *c = p->checker;
	bool first;

	pthread_mutex_lock(&c->pool_lock);
	first = !c->dead;
	c->dead = true;
	pthread_mutex_unlock(&c->pool_lock);
	if (!first)
		return;
	/* Reported while still on, so the line is printed; then off for good. */
	dmamap__report(p, NULL, DMAMAP_DBG_CHECKER_DISABLED,
		       "debugging out of memory - disabling");
	__atomic_store_n(&p->debug, false, __ATOMIC_RELAXED);
	/* No unmap will tell the checker any more: nothing may stay guarded. */
	unguard_all(c);
}

void dmamap__dbg_platform_gone(struct dmamap_platform *p)
{
	if (p->checker)
		dmamap__observer_remove(p, &checker_observer);
	checker_free(p->checker);
	p->checker = NULL;
}

/* ---- lookups --------------------------------------------------------------- */

/* In @b, locked: where the first entry of @dev at @addr hangs (*result NULL if none). */
static inline struct dbg_entry **first_at(struct bucket *b, const struct device *dev,
					  dma_addr_t addr)
{
	struct dbg_entry **pp;

	for (pp = &b->head; *pp; pp = &(*pp)->next)
		if ((*pp)->dev == dev && (*pp)->addr == addr)
			break;
	return pp;
}

static struct dbg_entry **find_exact(struct bucket *b, const struct device *dev,
				     dma_addr_t addr)
{
	struct dbg_entry **pp = first_at(b, dev, addr);

	return *pp ? pp : NULL;
}

/*
 * Several live entries may share an address (a buffer mapped twice, as
 * single and in an sg list): take the one that agrees best with the call,
 * as dma-debug does, so a correct unmap never matches the wrong twin.
 */
static struct dbg_entry **find_best(struct bucket *b, const struct device *dev,
				    const struct dbg_ref *ref)
{
	struct dbg_entry **best = NULL;
	int best_score = -1;

	for (struct dbg_entry **pp = &b->head; *pp; pp = &(*pp)->next) {
		const struct dbg_entry *e = *pp;
		int score;

		if (e->dev != dev || e->addr != ref->addr)
			continue;
		score = (e->size == ref->size) + (e->type == ref->type) +
			(e->dir == ref->dir) +
			(e->sg_call_ents == ref->sg_call_ents);
		if (score > best_score) {
			best = pp;
			best_score = score;
		}
	}
	return best;
}

/*
 * Copy an entry under its bucket's lock. map_err is stored without that
 * lock by dma_mapping_error()'s fast path, from any thread (a driver's
 * thread while a device thread reads the entry): it is read atomically and
 * the bytes around it copied apart, so the copy never reads it plainly.
 */
static void entry_copy(struct dbg_entry *out, const struct dbg_entry *e)
{
	size_t at = offsetof(struct dbg_entry, map_err);

	memcpy(out, e, at);
	out->map_err = __atomic_load_n(&e->map_err, __ATOMIC_RELAXED);
	memcpy((uint8_t *)out + at + 1, (const uint8_t *)e + at + 1, sizeof(*e) - at - 1);
}

/*
 * Find the entry of @dev containing @addr and copy it to @out. The walk goes
 * back one page at a time, no further than the largest live mapping.
 */
static void consider(const struct dbg_entry *e, const struct device *dev,
		     dma_addr_t addr, u64 len, struct dbg_entry *out, bool *found,
		     bool *whole)
{
	if (e->dev != dev || addr < e->addr || addr - e->addr >= e->size)
		return;
	if (!*found || len <= e->size - (addr - e->addr)) {
		entry_copy(out, e);
		*found = true;
		*whole = len <= e->size - (addr - e->addr);
	}
}

static bool find_contain(struct dmamap_checker *c, const struct device *dev,
			 dma_addr_t addr, u64 len, struct dbg_entry *out)
{
	u64 page = addr >> PAGE_SHIFT;
	bool found = false, whole = false;

	/* Prefer an entry holding the whole range over one holding its start. */
	for (u64 k = 0; k <= SPAN_PAGES && k <= page && !whole; k++) {
		struct bucket *b = bucket_of(c, dev, page - k);

		dmamap__spin_lock(&b->lock);
		for (struct dbg_entry *e = b->head; e && !whole; e = e->next)
			consider(e, dev, addr, len, out, &found, &whole);
		dmamap__spin_unlock(&b->lock);
	}
	if (!whole && __atomic_load_n(&c->large.head, __ATOMIC_RELAXED)) {
		dmamap__spin_lock(&c->large.lock);
		for (struct dbg_entry *e = c->large.head; e && !whole; e = e->next)
			consider(e, dev, addr, len, out, &found, &whole);
		dmamap__spin_unlock(&c->large.lock);
	}
	return found;
}

/*
 * Lock the bucket holding the entry of @dev at @addr (best match for @ref
 * if given) and return it with *pp set, or with *pp NULL if there is none.
 */
static struct bucket *lock_home(struct dmamap_checker *c, const struct device *dev,
				dma_addr_t addr, const struct dbg_ref *ref,
				struct dbg_entry ***pp)
{
	struct bucket *b = bucket_of(c, dev, addr >> PAGE_SHIFT);

	dmamap__spin_lock(&b->lock);
	*pp = ref ? find_best(b, dev, ref) : find_exact(b, dev, addr);
	if (*pp || !__atomic_load_n(&c->large.head, __ATOMIC_RELAXED))
		return b;
	dmamap__spin_unlock(&b->lock);
	b = &c->large;
	dmamap__spin_lock(&b->lock);
	*pp = ref ? find_best(b, dev, ref) : find_exact(b, dev, addr);
	return b;
}

/*
 * With @b locked: put @e at the head, count it, unlock, and remember it as
 * this thread's last mapping for dma_mapping_error().
 */
static inline void link_and_unlock(struct bucket *b, struct dbg_entry *e)
{
	e->next = b->head;
	b->head = e;
	__atomic_store_n(&b->n, b->n + 1, __ATOMIC_RELAXED);
	dmamap__spin_unlock(&b->lock);
	dmamap__dbg_last_map.epoch = __atomic_load_n(&dmamap__dbg_epoch, __ATOMIC_RELAXED);
	dmamap__dbg_last_map.dev = e->dev;
	dmamap__dbg_last_map.e = e;
}

/* With @b locked: take the entry at *@pp out, uncount it, unlock. */
static inline void unlink_and_unlock(struct bucket *b, struct dbg_entry **pp)
{
	*pp = (*pp)->next;
	__atomic_store_n(&b->n, b->n - 1, __ATOMIC_RELAXED);
	dmamap__spin_unlock(&b->lock);
}

/* ---- cache lines shared by device-writable mappings -------------------- */

/*
 * Count one more user of @line (@clean: one whose CPU promises not to dirty
 * it, DMA_ATTR_DEBUGGING_IGNORE_CACHELINES or DMA_ATTR_REQUIRE_COHERENT).
 * A line node keeps its users in size, the users that are not clean in
 * sg_mapped_ents. *@users and *@unclean get the counts before this one.
 */
static void line_get(struct dmamap_platform *p, phys_addr_t line, bool clean, u64 *users,
		     u64 *unclean)
{
	struct dmamap_checker *c = p->checker;
	struct bucket *b = line_bucket(c, line);
	struct dbg_entry *n, *fresh;

	*users = *unclean = 0;
	fresh = entry_alloc(p);
	dmamap__spin_lock(&b->lock);
	for (n = b->head; n; n = n->next)
		if (n->addr == line)
			break;
	if (n) {
		*users = n->size++;
		*unclean = (u64)n->sg_mapped_ents;
		n->sg_mapped_ents += !clean;
	} else if (fresh) {
		memset(fresh, 0, sizeof(*fresh));
		fresh->addr = line;
		fresh->size = 1;
		fresh->sg_mapped_ents = !clean;
		fresh->next = b->head;
		b->head = fresh;
		fresh = NULL;
	}
	dmamap__spin_unlock(&b->lock);
	if (fresh)
		entry_free(c, fresh);
}

static void line_put(struct dmamap_checker *c, phys_addr_t line, bool clean)
{
	struct bucket *b = line_bucket(c, line);
	struct dbg_entry *gone = NULL;

	dmamap__spin_lock(&b->lock);
	for (struct dbg_entry **pp = &b->head; *pp; pp = &(*pp)->next) {
		if ((*pp)->addr == line) {
			(*pp)->sg_mapped_ents -= !clean;
			if (--(*pp)->size == 0) {
				gone = *pp;
				*pp = gone->next;
			}
			break;
		}
	}
	dmamap__spin_unlock(&b->lock);
	if (gone)
		entry_free(c, gone);
}

static bool streaming(uint8_t type)
{
	return type == DBG_SINGLE || type == DBG_PAGE || type == DBG_SG;
}

/* A streaming mapping the CPU's cache and a non-coherent device both write. */
static bool writes_lines(const struct device *dev, int type, int dir, phys_addr_t phys)
{
	return !dev->coherent && dir != DMA_TO_DEVICE && phys != PHYS_NONE &&
	       streaming((uint8_t)type);
}

static bool tracks_lines(const struct device *dev, const struct dbg_entry *e)
{
	return writes_lines(dev, e->type, e->dir, e->phys);
}

/*
 * The lines a mapping is tracked by: every line of mappings up to
 * LINES_ALL lines long, the two edge lines of longer ones (where sharing
 * happens in practice), so tracking stays cheap for big buffers.
 */
#define LINES_ALL 64

static void lines_of(const struct device *dev, const struct dbg_entry *e,
		     phys_addr_t *first, phys_addr_t *last, phys_addr_t *step)
{
	unsigned int ls = dev->plat->mach.line_size;
	phys_addr_t mask = ~(phys_addr_t)(ls - 1);

	*first = e->phys & mask;
	*last = (e->phys + e->size - 1) & mask;
	*step = (*last - *first) / ls + 1 <= LINES_ALL ? ls : MAX(*last - *first, (phys_addr_t)ls);
}

/* Linux keeps at most this many overlaps of one line (three radix-tree tag bits). */
#define MAX_LINE_OVERLAP 7

/* The CPU promises not to dirty the mapping's lines: sharing them is safe between such mappings. */
static bool cache_clean(const struct dbg_entry *e)
{
	return e->attrs & (DMA_ATTR_DEBUGGING_IGNORE_CACHELINES | DMA_ATTR_REQUIRE_COHERENT);
}

/*
 * Count @e as a user of its lines. *@shared: the first line another
 * mapping holds that makes the sharing unsafe; *@crowded: the first line
 * now held by more than MAX_LINE_OVERLAP + 1 mappings.
 */
static void lines_get(struct dmamap_platform *p, const struct device *dev,
		      const struct dbg_entry *e, phys_addr_t *shared, phys_addr_t *crowded)
{
	phys_addr_t first, last, step, l;
	bool clean = cache_clean(e);

	*shared = *crowded = PHYS_NONE;
	lines_of(dev, e, &first, &last, &step);
	for (l = first; l <= last; l += step) {
		u64 users, unclean;

		line_get(p, l, clean, &users, &unclean);
		if (users && !(clean && !unclean) && *shared == PHYS_NONE)
			*shared = l;
		if (users == MAX_LINE_OVERLAP + 1 && *crowded == PHYS_NONE)
			*crowded = l;
	}
}

static void lines_put(struct dmamap_checker *c, const struct device *dev,
		      const struct dbg_entry *e)
{
	phys_addr_t first, last, step;

	lines_of(dev, e, &first, &last, &step);
	for (phys_addr_t l = first; l <= last; l += step)
		line_put(c, l, cache_clean(e));
}

/*
 * A device-writable buffer shares a line with other data if it starts
 * inside a line, or ends inside one whose rest is live data: the end of an
 * object whose size is not a multiple of the line is its own slack.
 */
static bool shares_lines(struct dmamap_platform *p, phys_addr_t phys, u64 size)
{
	phys_addr_t end = phys + size;

	if (phys & (p->mach.line_size - 1))
		return true;
	return (end & (p->mach.line_size - 1)) && dmamap__kmalloc_tail_shared(p, end);
}

/* ---- the stack of the calling thread ------------------------------------- */

static __thread struct {
	uintptr_t lo, size;
	bool learned; /* asked once, whatever the answer: never again on every map */
} my_stack __attribute__((tls_model("initial-exec")));

#if defined(__GLIBC__)
/* Where the main thread's stack began, as the dynamic loader saw it. */
extern void *__libc_stack_end;
#endif

/*
 * When the C library cannot say (it reads the main thread's stack from
 * /proc/self/maps, which a sandbox or an emulator may not show): the main
 * thread's stack runs down from where it began, as far as RLIMIT_STACK
 * lets it. Any other thread's bounds come from its own descriptor and do
 * not fail.
 */
static void guess_main_stack(void)
{
#if defined(__GLIBC__)
	struct rlimit r;
	uintptr_t top = (uintptr_t)__libc_stack_end, here = (uintptr_t)&r, size;

	if (!top || here > top || getrlimit(RLIMIT_STACK, &r))
		return;
	size = r.rlim_cur == RLIM_INFINITY || r.rlim_cur > ((rlim_t)1 << 30) ? (uintptr_t)1 << 26
									  : (uintptr_t)r.rlim_cur;
	top = (top + dmamap__host_page_size() - 1) & ~(uintptr_t)(dmamap__host_page_size() - 1);
	if (top - here >= size)
		return;
	my_stack.lo = top - size;
	my_stack.size = size;
#endif
}

static __attribute__((noinline)) void learn_my_stack(void)
{
	pthread_attr_t attr;
	void *lo;
	size_t sz;

	my_stack.learned = true;
	if (pthread_getattr_np(pthread_self(), &attr)) {
		guess_main_stack();
		return;
	}
	if (!pthread_attr_getstack(&attr, &lo, &sz)) {
		my_stack.lo = (uintptr_t)lo;
		my_stack.size = sz;
	}
	pthread_attr_destroy(&attr);
}

/* Inline and one compare once the bounds are known: it runs on every map. */
static inline bool on_my_stack(const void *ptr)
{
	if (unlikely(!my_stack.learned))
		learn_my_stack();
	return (uintptr_t)ptr - my_stack.lo < my_stack.size;
}

/* ---- the process's code and read-only data ---------------------------------- */

/* The image-free span the calling thread's last buffer was in: most buffers are in it too. */
static __thread struct {
	uintptr_t lo, hi;
} image_gap __attribute__((tls_model("initial-exec")));

static inline bool in_image_gap(const void *cpu, u64 size)
{
	uintptr_t a = (uintptr_t)cpu;

	/* A range that wraps never gets here: no mapping of it is made. */
	return a >= image_gap.lo && a + size <= image_gap.hi;
}

static __attribute__((noinline)) bool in_image(const void *cpu, u64 size)
{
	uintptr_t lo, hi;

	if (dmamap__port_in_image(cpu, (size_t)size, &lo, &hi))
		return true;
	image_gap.lo = lo;
	image_gap.hi = hi;
	return false;
}

/* ---- what the CPU does to a buffer the device owns --------------------------- */

/* FNV-1a over 8-byte words: a CPU change to the original shows as a new value. */
static uint64_t hash_bytes(const void *buf, u64 size)
{
	const uint8_t *b = buf;
	uint64_t h = 0xcbf29ce484222325ULL;
	u64 i = 0;

	for (; i + 8 <= size; i += 8) {
		uint64_t w;

		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
	}
	for (; i < size; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

/* Whether the device uses a copy of @cpu (a bounce buffer) rather than its memory. */
static bool is_bounced(struct dmamap_platform *p, const struct dbg_ref *ref)
{
	return ref->cpu && streaming(ref->type) && ref->phys != PHYS_NONE &&
	       dmamap__linear_to_phys(p, ref->cpu) != ref->phys;
}

/* The original of a bounced mapping, which another mapping of its memory may guard. */
static uint64_t hash_original(struct dmamap_platform *p, const void *cpu, u64 size)
{
	uint64_t h;

	dmamap__port_lift_guard(p, cpu, (size_t)size, true);
	h = hash_bytes(cpu, size);
	dmamap__port_lift_guard(p, cpu, (size_t)size, false);
	return h;
}

/* Whether a bounced original differs from what its copy held when last made (map or sync). */
static bool original_changed(const struct dbg_entry *e)
{
	return e->bounced && hash_original(e->dev->plat, e->cpu, e->size) != e->orig_hash;
}

static void report_cpu_write(struct device *dev, const struct dbg_entry *e, long off,
			     const char *when)
{
	char where[48] = "";

	if (off >= 0)
		snprintf(where, sizeof(where), " [first byte written=+%ld]", off);
	dmamap__report_at(dev->plat, dev, DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS, e->addr,
			  e->size, e->dir, e->caller,
			  "CPU wrote a %sbuffer while the device owned it, seen at %s [device address=0x%llx] [size=%llu bytes]%s [%s]",
			  e->bounced ? "bounced " : "", when, (unsigned long long)e->addr,
			  (unsigned long long)e->size, where, dmamap__dir_name(e->dir));
}

/* Whether @e is @dev's and holds all of [@addr, @addr + @len). */
static bool holds(const struct dbg_entry *e, const struct device *dev, dma_addr_t addr, u64 len)
{
	return e->dev == dev && addr >= e->addr && addr - e->addr < e->size &&
	       len <= e->size - (addr - e->addr);
}

/*
 * The entry of @dev holding all of [@addr, @addr + @len), its bucket
 * locked (*@bp), or NULL with nothing locked: for checks that change it.
 */
static struct dbg_entry *find_contain_locked(struct dmamap_checker *c, const struct device *dev,
					     dma_addr_t addr, u64 len, struct bucket **bp)
{
	u64 page = addr >> PAGE_SHIFT;

	for (u64 k = 0; k <= SPAN_PAGES && k <= page; k++) {
		struct bucket *b = bucket_of(c, dev, page - k);

		dmamap__spin_lock(&b->lock);
		for (struct dbg_entry *e = b->head; e; e = e->next) {
			if (holds(e, dev, addr, len)) {
				*bp = b;
				return e;
			}
		}
		dmamap__spin_unlock(&b->lock);
	}
	if (__atomic_load_n(&c->large.head, __ATOMIC_RELAXED)) {
		dmamap__spin_lock(&c->large.lock);
		for (struct dbg_entry *e = c->large.head; e; e = e->next) {
			if (holds(e, dev, addr, len)) {
				*bp = &c->large;
				return e;
			}
		}
		dmamap__spin_unlock(&c->large.lock);
	}
	return NULL;
}

/*
 * A sync of the mapping at @addr hands it to the CPU or back to the
 * device. Either way a CPU write made while the device owned it is said
 * here (for cached buffers, at sync_for_cpu by the caller; at
 * sync_for_device here, since the write happened before the device got the
 * buffer back). Then the ownership changes, and a bounced original is
 * hashed again for the device's new turn.
 */
static void sync_ownership(struct device *dev, dma_addr_t addr, u64 size, bool to_cpu)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct dbg_entry *e, copy;
	struct bucket *b;
	bool said = false;
	long off = -1;

	e = find_contain_locked(c, dev, addr, size, &b);
	if (!e)
		return;
	/* Given back before anything reads it: the backend's sync comes next. */
	unguard(e);
	if (addr != e->addr || size < e->size)
		e->partial = 1;
	if (!e->partial && !e->cpu_owns && !e->cpu_write_said) {
		if (e->bounced && original_changed(e))
			said = true;
		else if (!e->bounced && !to_cpu && !dev->coherent && e->phys != PHYS_NONE &&
			 (off = dmamap__cpu_dirty_offset(dev->plat, e->phys, e->size)) >= 0)
			said = true;
	}
	entry_copy(&copy, e);
	e->cpu_owns = to_cpu;
	dmamap__spin_unlock(&b->lock);
	if (said)
		report_cpu_write(dev, &copy, off, to_cpu ? "sync for cpu" : "sync for device");
}

/* Take out of @b every entry of @dev and @type starting in [@lo, @hi); they go on *@gone. */
static unsigned long take_range(struct bucket *b, const struct device *dev, int type,
				dma_addr_t lo, dma_addr_t hi, struct dbg_entry **gone)
{
	unsigned long n = 0;

	if (!__atomic_load_n(&b->head, __ATOMIC_RELAXED))
		return 0;
	dmamap__spin_lock(&b->lock);
	for (struct dbg_entry **pp = &b->head; *pp;) {
		struct dbg_entry *e = *pp;

		if (e->dev == dev && e->type == type && e->addr >= lo && e->addr < hi) {
			*pp = e->next;
			e->next = *gone;
			*gone = e;
			n++;
		} else {
			pp = &e->next;
		}
	}
	__atomic_store_n(&b->n, b->n - n, __ATOMIC_RELAXED);
	dmamap__spin_unlock(&b->lock);
	return n;
}

unsigned long dmamap__dbg_unmap_range(struct device *dev, enum dbg_type type, dma_addr_t addr,
				      u64 size, bool unlink)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct dbg_entry *gone = NULL;
	dma_addr_t hi = addr + size < addr ? ~(dma_addr_t)0 : addr + size;
	u64 first = addr >> PAGE_SHIFT, last = (hi - 1) >> PAGE_SHIFT;
	unsigned long n = 0;

	if (!c)
		return 0;
	/* Entries live in the bucket of their first page: visit those pages, or all buckets. */
	if (last - first < NBUCKETS) {
		for (u64 pg = first; pg <= last; pg++)
			n += take_range(bucket_of(c, dev, pg), dev, type, addr, hi, &gone);
	} else {
		for (unsigned int i = 0; i < NBUCKETS; i++)
			n += take_range(bucket_at(c, i), dev, type, addr, hi, &gone);
	}
	n += take_range(&c->large, dev, type, addr, hi, &gone);
	while (gone) {
		struct dbg_entry *e = gone;

		gone = e->next;
		entry_free(c, e);
	}
	if (unlink && !n)
		dmamap__report_at(dev->plat, dev, DMAMAP_DBG_NOT_MAPPED, addr, size, DMA_NONE, NULL,
				  "device driver unlinks an IOVA range with nothing linked [device address=0x%llx] [size=%llu bytes]",
				  (unsigned long long)addr, (unsigned long long)size);
	if (!unlink && n)
		dmamap__report_at(dev->plat, dev, DMAMAP_DBG_LEAK, addr, size, DMA_NONE, NULL,
				  "device driver frees an IOVA range with %lu links still in place: they stay mapped [device address=0x%llx] [size=%llu bytes]",
				  n, (unsigned long long)addr, (unsigned long long)size);
	return n;
}

void dmamap__dbg_synced(struct device *dev, dma_addr_t addr, u64 size, bool to_cpu)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct dbg_entry *e;
	struct bucket *b;

	if (!c || !(e = find_contain_locked(c, dev, addr, size, &b)))
		return;
	/* The backend just copied one way or the other: the original is what the copy holds. */
	if (e->bounced && !e->partial)
		e->orig_hash = hash_original(dev->plat, e->cpu, e->size);
	if (!to_cpu && wants_guard(dev, e)) {
		guard(dev, e);
		if (e->guarded)
			note_guarded(c, b);
	}
	dmamap__spin_unlock(&b->lock);
}

/*
 * Fills @out with the live streaming mapping in bucket @i holding CPU address
 * @a. A bucket with nothing guarded left is dropped from the trap's search.
 * Called from the SIGSEGV handler: a bucket this thread holds (a fault
 * inside the library) is skipped rather than waited for.
 */
static bool entry_of_cpu_in(struct dmamap_checker *c, unsigned int i, uintptr_t a,
			    struct dbg_entry *out)
{
	struct bucket *b = bucket_at(c, i);
	bool any_guarded = false;
	struct dbg_entry *e;

	if (!dmamap__spin_trylock(&b->lock))
		return false;
	for (e = b->head; e; e = e->next) {
		any_guarded |= e->guarded;
		if (e->dev && e->cpu && a >= (uintptr_t)e->cpu && a - (uintptr_t)e->cpu < e->size &&
		    streaming(e->type))
			break;
	}
	if (e) {
		/* One mistake, one report: the unmap will not say it again. */
		e->cpu_write_said = 1;
		entry_copy(out, e);
	} else if (!any_guarded) {
		__atomic_fetch_and(&c->guarded[i / LONG_BITS], ~(1ul << (i % LONG_BITS)),
				   __ATOMIC_RELAXED);
	}
	dmamap__spin_unlock(&b->lock);
	return e != NULL;
}

/* Fills @out with the live streaming mapping of @p whose CPU buffer holds @addr. */
bool dmamap__dbg_entry_of_cpu(struct dmamap_platform *p, const void *addr, struct dbg_entry *out)
{
	struct dmamap_checker *c = p->checker;

	if (!c)
		return false;
	for (unsigned int w = 0; w < ARRAY_SIZE(c->guarded); w++) {
		unsigned long bits = __atomic_load_n(&c->guarded[w], __ATOMIC_RELAXED);

		for (; bits; bits &= bits - 1)
			if (entry_of_cpu_in(c, w * LONG_BITS + (unsigned int)__builtin_ctzl(bits),
					    (uintptr_t)addr, out))
				return true;
	}
	return false;
}

void dmamap__dbg_cpu_owns(struct device *dev, dma_addr_t addr, u64 size)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct bucket *b;
	struct dbg_entry *e;

	if (!c || !(e = find_contain_locked(c, dev, addr, size, &b)))
		return;
	e->cpu_owns = 1;
	dmamap__spin_unlock(&b->lock);
}

/*
 * A device reading a mapping: the bytes it gets are stale if the CPU
 * changed the buffer since giving it (a bounced original, or CPU-dirty
 * lines of a cached one), which is a missing dma_sync_*_for_device().
 */
static void device_read_check(struct device *dev, dma_addr_t addr, u64 len)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct dbg_entry *e, copy;
	struct bucket *b;
	bool stale = false;
	long off = -1;

	e = find_contain_locked(c, dev, addr, len, &b);
	if (!e)
		return;
	/* Guarded, the CPU could not have touched it without a trap that said so. */
	if (!e->cpu_write_said && !e->guarded && !e->partial && e->dir != DMA_FROM_DEVICE &&
	    streaming(e->type)) {
		if (e->bounced)
			stale = original_changed(e);
		else if (!dev->coherent && e->phys != PHYS_NONE)
			stale = (off = dmamap__cpu_dirty_offset(dev->plat,
								e->phys + (addr - e->addr),
								(size_t)len)) >= 0;
	}
	if (stale)
		e->cpu_write_said = 1;
	entry_copy(&copy, e);
	dmamap__spin_unlock(&b->lock);
	if (stale)
		dmamap__report_at(dev->plat, dev, DMAMAP_DBG_MISSING_SYNC_FOR_DEVICE, copy.addr,
				  copy.size, copy.dir, copy.caller,
				  "device reads a %s the CPU changed after giving it to the device, without dma_sync_*_for_device(): it gets stale bytes [device address=0x%llx] [size=%llu bytes] [read at +%llu]",
				  copy.bounced ? "bounced buffer whose original" : "buffer",
				  (unsigned long long)copy.addr, (unsigned long long)copy.size,
				  (unsigned long long)(addr - copy.addr + (off > 0 ? (u64)off : 0)));
}

/* ---- hooks ----------------------------------------------------------------- */

/* Checks that only non-coherent devices or sg segments need, and the stack report. */
static __attribute__((noinline)) void map_cold(struct device *dev, bool on_stack,
					       bool from_image, int type, dma_addr_t addr,
					       u64 size, int dir, phys_addr_t phys,
					       const void *cpu, void *caller, unsigned long attrs)
{
	struct dmamap_platform *p = dev->plat;
	struct dbg_ref r = {
		.type = type, .addr = addr, .size = size, .dir = dir, .phys = phys,
		.cpu = cpu, .caller = caller, .attrs = attrs,
	};
	const struct dbg_ref *ref = &r;

	if (on_stack)
		dmamap__report_at(p, dev, DMAMAP_DBG_MAP_STACK, addr, size, dir, caller,
				  "device driver maps memory from stack [addr=%p]", cpu);
	if (from_image)
		dmamap__report_at(p, dev, DMAMAP_DBG_MAP_RODATA, addr, size, dir, caller,
				  "device driver maps memory from kernel text or rodata [addr=%p] [len=%llu]",
				  cpu, (unsigned long long)size);

	if (writes_lines(dev, ref->type, ref->dir, ref->phys) &&
	    !(ref->attrs & (DMA_ATTR_DEBUGGING_IGNORE_CACHELINES | DMA_ATTR_REQUIRE_COHERENT)) &&
	    shares_lines(p, ref->phys, ref->size))
		dmamap__report_at(p, dev, DMAMAP_DBG_MAP_UNALIGNED, ref->addr, ref->size,
				  ref->dir, ref->caller,
				  "non-coherent %s mapping is not aligned to the %u-byte cache line [phys=0x%llx] [size=%llu bytes]: it shares lines with other data",
				  dmamap__dir_name(ref->dir), p->mach.line_size,
				  (unsigned long long)ref->phys,
				  (unsigned long long)ref->size);
	if (ref->type == DBG_SG) {
		dma_addr_t last = ref->addr + ref->size - 1;

		if (ref->size > dev->dma_parms.max_segment_size)
			dmamap__report_at(p, dev, DMAMAP_DBG_SG_SEGMENT_TOO_LONG, ref->addr,
					  ref->size, ref->dir, ref->caller,
					  "mapping sg segment longer than device claims to support [len=%llu] [max=%u]",
					  (unsigned long long)ref->size,
					  dev->dma_parms.max_segment_size);
		if ((ref->addr ^ last) & ~(dma_addr_t)dev->dma_parms.segment_boundary_mask)
			dmamap__report_at(p, dev, DMAMAP_DBG_SG_SEGMENT_BOUNDARY, ref->addr,
					  ref->size, ref->dir, ref->caller,
					  "mapping sg segment across boundary [start=0x%016llx] [end=0x%016llx] [boundary=0x%016llx]",
					  (unsigned long long)ref->addr,
					  (unsigned long long)last,
					  (unsigned long long)dev->dma_parms.segment_boundary_mask);
	}
}

/*
 * Count @e as a user of its cache lines; report a line another mapping
 * holds (unless this one skips CPU syncs or both promise clean lines, as
 * dma-debug), and a line shared by more mappings than dma-debug counts.
 */
static __attribute__((noinline)) void track_lines(struct device *dev,
						  struct dbg_entry *e)
{
	phys_addr_t shared, crowded;

	e->lines = 1;
	lines_get(dev->plat, dev, e, &shared, &crowded);
	if (shared != PHYS_NONE && !(e->attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmamap__report_at(dev->plat, dev, DMAMAP_DBG_CACHELINE_OVERLAP, e->addr,
				  e->size, e->dir, e->caller,
				  "cacheline tracking EEXIST, overlapping mappings aren't supported [cache line=0x%llx] [device address=0x%llx] [size=%llu bytes] [%s]",
				  (unsigned long long)shared, (unsigned long long)e->addr,
				  (unsigned long long)e->size, dmamap__dir_name(e->dir));
	if (crowded != PHYS_NONE)
		dmamap__report_at(dev->plat, dev, DMAMAP_DBG_CACHELINE_OVERLAP_LIMIT, e->addr,
				  e->size, e->dir, e->caller,
				  "exceeded %d overlapping mappings of cacheline 0x%llx",
				  MAX_LINE_OVERLAP, (unsigned long long)crowded);
}

static inline void fill_entry(struct dbg_entry *e, struct device *dev,
			      const struct dbg_ref *ref)
{
	e->dev = dev;
	e->addr = ref->addr;
	e->size = ref->size;
	e->phys = ref->phys;
	e->cpu = ref->cpu;
	e->caller = ref->caller;
	e->sg_call_ents = ref->sg_call_ents;
	e->sg_mapped_ents = ref->sg_mapped_ents;
	e->type = (uint8_t)ref->type;
	e->dir = (uint8_t)ref->dir;
	e->map_err = (ref->type == DBG_SINGLE || ref->type == DBG_PAGE ||
		      ref->type == DBG_RESOURCE) ? MAPERR_NOT_CHECKED : MAPERR_NA;
	e->lines = 0;
	e->attrs = (uint32_t)ref->attrs;
	e->bounced = 0;
	e->partial = 0;
	e->cpu_owns = 0;
	e->cpu_write_said = 0;
}

/*
 * Inlined into both entry points, so the page/single one, whose caller
 * passes scalars, builds no struct in memory at all.
 */
static inline __attribute__((always_inline)) void
map_entry(struct device *dev, const struct dbg_ref *ref)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_checker *c = p->checker;
	struct dbg_entry *e;
	struct bucket *b;
	bool on_stack, from_image;

	if (!c)
		return;
	/* Fields one by one, so the page entry point never builds a ref in memory. */
	on_stack = ref->cpu && (ref->type == DBG_SINGLE || ref->type == DBG_PAGE) &&
		   on_my_stack(ref->cpu);
	from_image = ref->cpu && streaming(ref->type) && !in_image_gap(ref->cpu, ref->size) &&
		     in_image(ref->cpu, ref->size);
	if (unlikely(on_stack || from_image || !dev->coherent || ref->type == DBG_SG))
		map_cold(dev, on_stack, from_image, ref->type, ref->addr, ref->size, ref->dir,
			 ref->phys, ref->cpu, ref->caller, ref->attrs);
	e = entry_alloc(p);
	if (!e)
		return;
	fill_entry(e, dev, ref);
	if (unlikely(is_bounced(p, ref))) {
		e->bounced = 1;
		e->orig_hash = hash_original(p, ref->cpu, ref->size);
	}
	if (tracks_lines(dev, e))
		track_lines(dev, e);
	if (unlikely(wants_guard(dev, e)))
		guard(dev, e);
	b = is_large(e->size) ? &c->large : bucket_of(c, dev, e->addr >> PAGE_SHIFT);
	dmamap__spin_lock(&b->lock);
	if (unlikely(e->guarded))
		note_guarded(c, b);
	link_and_unlock(b, e);
}

void dmamap__dbg_map(struct device *dev, const struct dbg_ref *ref)
{
	map_entry(dev, ref);
}

static __attribute__((noinline)) void map_page_general(struct device *dev,
						       enum dbg_type type,
						       dma_addr_t addr, u64 size, int dir,
						       const void *cpu, void *caller,
						       unsigned long attrs)
{
	struct dbg_ref r = {
		.type = type, .addr = addr, .size = size, .dir = dir, .cpu = cpu,
		.caller = caller, .attrs = attrs,
		.phys = dmamap__dbg_device_phys(dev, addr, size),
	};

	map_entry(dev, &r);
}

/*
 * The host's coherent identity mapping, the common case, as a leaf: no
 * call, so no registers to save. Anything else (a device that needs line
 * tracking, a buffer on the stack, an empty magazine, a large mapping, a
 * busy bucket) goes to the general path before anything has changed.
 */
static inline __attribute__((always_inline)) void
map_page_leaf(struct device *dev, enum dbg_type type, dma_addr_t addr, u64 size, int dir,
	      const void *cpu, void *caller, unsigned long attrs)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct dbg_entry *e;
	struct bucket *b;

	if (unlikely(!c || !dev->direct_identity || is_large(size) || !my_stack.size ||
		     (uintptr_t)cpu - my_stack.lo < my_stack.size || !in_image_gap(cpu, size) ||
		     addr != (dma_addr_t)(uintptr_t)cpu || /* bounced: a copy to follow */
		     mag.owner != c->serial || !(e = mag.free)))
		goto general;
	b = bucket_of(c, dev, addr >> PAGE_SHIFT);
	if (unlikely(__atomic_exchange_n(&b->lock, 1, __ATOMIC_ACQUIRE)))
		goto general;
	mag_pop();
	{
		const struct dbg_ref r = { .type = type, .addr = addr, .size = size,
					   .dir = dir, .phys = addr, .cpu = cpu,
					   .caller = caller, .attrs = attrs };

		fill_entry(e, dev, &r);
	}
	link_and_unlock(b, e);
	return;
general:
	map_page_general(dev, type, addr, size, dir, cpu, caller, attrs);
}

void dmamap__dbg_map_page(struct device *dev, enum dbg_type type, dma_addr_t addr,
			  u64 size, int dir, const void *cpu, void *caller, unsigned long attrs)
{
	map_page_leaf(dev, type, addr, size, dir, cpu, caller, attrs);
}

/*
 * No attributes: on a coherent identity mapping none changes a check, and
 * a seventh argument would go through the stack on the hottest path.
 */
dma_addr_t dmamap__dbg_map_identity(struct device *dev, enum dbg_type type, dma_addr_t addr,
				    u64 size, int dir, void *caller)
{
	map_page_leaf(dev, type, addr, size, dir, (const void *)(uintptr_t)addr, caller, 0);
	return addr;
}

void dmamap__dbg_mapping_error_slow(struct device *dev, dma_addr_t addr)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct bucket *b;
	struct dbg_entry **pp;

	if (!c || addr == DMA_MAPPING_ERROR)
		return;
	b = lock_home(c, dev, addr, NULL, &pp);
	if (pp && __atomic_load_n(&(*pp)->map_err, __ATOMIC_RELAXED) == MAPERR_NOT_CHECKED)
		__atomic_store_n(&(*pp)->map_err, MAPERR_CHECKED, __ATOMIC_RELAXED);
	dmamap__spin_unlock(&b->lock);
}

/* A mapping used before dma_mapping_error() was asked: reported once. */
static void report_unchecked_use(struct device *dev, const struct dbg_entry *copy,
				 const char *use)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct dbg_entry **pp;
	struct bucket *b = lock_home(c, dev, copy->addr, NULL, &pp);
	bool first = false;

	if (pp) {
		uint8_t expect = MAPERR_NOT_CHECKED;

		first = __atomic_compare_exchange_n(&(*pp)->map_err, &expect,
						    MAPERR_CHECKED, false,
						    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
	dmamap__spin_unlock(&b->lock);
	if (first)
		dmamap__report_at(dev->plat, dev, DMAMAP_DBG_MAP_ERR_NOT_CHECKED, copy->addr,
				  copy->size, copy->dir, copy->caller,
				  "device driver failed to check map error before the mapping was %s [device address=0x%llx] [size=%llu bytes] [mapped as %s]",
				  use, (unsigned long long)copy->addr,
				  (unsigned long long)copy->size, type_names[copy->type]);
}


/*
 * The CPU must not write a buffer the device owns. After the map's clean no
 * line of a non-coherent mapping is CPU-dirty, so any dirty byte now is a
 * write made while the device owned it.
 */
static void check_cpu_writes(struct device *dev, const struct dbg_entry *e,
			     phys_addr_t phys, u64 size, const char *when)
{
	long off;

	if (!streaming(e->type) || e->cpu_write_said || e->partial)
		return;
	if (e->bounced) {
		if (!original_changed(e))
			return;
		if (!e->cpu_owns)
			report_cpu_write(dev, e, -1, when);
		else if (e->dir != DMA_TO_DEVICE && !strcmp(when, "unmap"))
			/* The CPU's, rightly: but the unmap's copy back will overwrite it. */
			dmamap__report_at(dev->plat, dev, DMAMAP_DBG_CPU_DATA_LOST, e->addr, e->size,
					  e->dir, e->caller,
					  "unmap copies the bounce buffer back over bytes the CPU wrote after dma_sync_*_for_cpu() [device address=0x%llx] [size=%llu bytes] [%s]",
					  (unsigned long long)e->addr, (unsigned long long)e->size,
					  dmamap__dir_name(e->dir));
		return;
	}
	if (e->cpu_owns)
		return;
	if (dev->coherent || e->phys == PHYS_NONE)
		return;
	off = dmamap__cpu_dirty_offset(dev->plat, phys, size);
	if (off >= 0)
		off += (long)(phys - e->phys);
	if (off >= 0)
		report_cpu_write(dev, e, off, when);
}

/*
 * What an unmap checks beyond the match itself, for the entry @e already
 * taken out of the table; kept out of line so the common unmap stays short.
 */
static __attribute__((noinline)) void unmap_checks(struct device *dev,
						   const struct dbg_ref *ref,
						   struct dbg_entry *e)
{
	struct dmamap_platform *p = dev->plat;
	bool free_op = allocated(ref->type);

	unguard(e); /* the CPU's again, and the checks below read it */

	if (e->size != ref->size)
		dmamap__report_at(p, dev, DMAMAP_DBG_WRONG_SIZE, e->addr, e->size, e->dir,
				  e->caller,
				  "device driver frees DMA memory with different size [device address=0x%llx] [map size=%llu bytes] [unmap size=%llu bytes]",
				  (unsigned long long)e->addr, (unsigned long long)e->size,
				  (unsigned long long)ref->size);
	if (e->type != ref->type)
		dmamap__report_at(p, dev, DMAMAP_DBG_WRONG_TYPE, e->addr, e->size, e->dir,
				  e->caller,
				  "device driver frees DMA memory with wrong function [device address=0x%llx] [size=%llu bytes] [mapped as %s] [unmapped as %s]",
				  (unsigned long long)e->addr, (unsigned long long)e->size,
				  type_names[e->type], type_names[ref->type]);
	if (free_op && e->type == ref->type &&
	    ((e->attrs ^ ref->attrs) & ALLOC_ATTRS))
		dmamap__report_at(p, dev, DMAMAP_DBG_WRONG_ATTRS, e->addr, e->size, e->dir,
				  e->caller,
				  "device driver frees DMA memory with other attributes than it was allocated with [device address=0x%llx] [size=%llu bytes] [allocated with 0x%lx] [freed with 0x%lx]",
				  (unsigned long long)e->addr, (unsigned long long)e->size,
				  (unsigned long)(e->attrs & ALLOC_ATTRS),
				  (unsigned long)(ref->attrs & ALLOC_ATTRS));
	if (free_op && e->type == ref->type && ref->cpu != e->cpu)
		dmamap__report_at(p, dev, DMAMAP_DBG_WRONG_CPU_ADDR, e->addr, e->size,
				  e->dir, e->caller,
				  "device driver frees DMA memory with different CPU address [device address=0x%llx] [size=%llu bytes] [cpu alloc address=%p] [cpu free address=%p]",
				  (unsigned long long)e->addr, (unsigned long long)e->size,
				  e->cpu, ref->cpu);
	if (ref->sg_call_ents && e->type == DBG_SG &&
	    ref->sg_call_ents != e->sg_call_ents)
		dmamap__report_at(p, dev, DMAMAP_DBG_SG_NENTS, e->addr, e->size, e->dir,
				  e->caller,
				  "device driver frees DMA sg list with different entry count [map count=%d] [unmap count=%d]",
				  e->sg_call_ents, ref->sg_call_ents);
	if (!free_op && e->dir != ref->dir)
		dmamap__report_at(p, dev, DMAMAP_DBG_WRONG_DIRECTION, e->addr, e->size,
				  e->dir, e->caller,
				  "device driver frees DMA memory with different direction [device address=0x%llx] [size=%llu bytes] [mapped with %s] [unmapped with %s]",
				  (unsigned long long)e->addr, (unsigned long long)e->size,
				  dmamap__dir_name(e->dir), dmamap__dir_name(ref->dir));
	if (__atomic_load_n(&e->map_err, __ATOMIC_RELAXED) == MAPERR_NOT_CHECKED)
		dmamap__report_at(p, dev, DMAMAP_DBG_MAP_ERR_NOT_CHECKED, e->addr, e->size,
				  e->dir, e->caller,
				  "device driver failed to check map error [device address=0x%llx] [size=%llu bytes] [mapped as %s]",
				  (unsigned long long)e->addr, (unsigned long long)e->size,
				  type_names[e->type]);
	check_cpu_writes(dev, e, e->phys, e->size, "unmap");
	if (e->lines)
		lines_put(p->checker, dev, e);
}

static inline bool same_call(const struct dbg_entry *e, const struct dbg_ref *ref)
{
	return e->size == ref->size && e->type == ref->type && e->dir == ref->dir &&
	       e->sg_call_ents == ref->sg_call_ents;
}


/* Nothing left to check for an entry matching its unmap call exactly? */
static inline bool nothing_to_check(const struct device *dev, const struct dbg_entry *e,
			     const struct dbg_ref *ref)
{
	if (e->lines || e->bounced || e->guarded ||
	    __atomic_load_n(&e->map_err, __ATOMIC_RELAXED) == MAPERR_NOT_CHECKED)
		return false;
	if (allocated(e->type) && (ref->cpu != e->cpu || ((e->attrs ^ ref->attrs) & ALLOC_ATTRS)))
		return false;
	return dev->coherent || !streaming(e->type);
}

/* An unmap whose first candidate is not an exact match: score the twins. */
static __attribute__((noinline)) void unmap_slow(struct device *dev,
						 const struct dbg_ref *ref)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct dbg_entry *e, **pp;
	struct bucket *b = lock_home(c, dev, ref->addr, ref, &pp);

	e = pp ? *pp : NULL;
	if (e) {
		*pp = e->next;
		__atomic_store_n(&b->n, b->n - 1, __ATOMIC_RELAXED);
	}
	dmamap__spin_unlock(&b->lock);
	if (!e) {
		dmamap__report_at(dev->plat, dev, DMAMAP_DBG_NOT_MAPPED, ref->addr,
				  ref->size, ref->dir, NULL,
				  "device driver tries to free DMA memory it has not allocated [device address=0x%llx] [size=%llu bytes]",
				  (unsigned long long)ref->addr,
				  (unsigned long long)ref->size);
		return;
	}
	unmap_checks(dev, ref, e);
	entry_free(c, e);
}

/*
 * The rest of an unmap, out of line: the checks for entry @e already taken
 * out of the table, or (@e NULL) the search among twins and its report.
 */
static __attribute__((noinline)) void unmap_cold(struct device *dev, struct dbg_entry *e,
						 int type, dma_addr_t addr, u64 size,
						 int dir, const void *cpu,
						 int sg_call_ents)
{
	struct dbg_ref r = {
		.type = type, .addr = addr, .size = size, .dir = dir, .phys = PHYS_NONE,
		.cpu = cpu, .sg_call_ents = sg_call_ents,
	};

	if (!e) {
		unmap_slow(dev, &r);
		return;
	}
	unmap_checks(dev, &r, e);
	entry_free(dev->plat->checker, e);
}

static inline __attribute__((always_inline)) void
unmap_entry(struct device *dev, const struct dbg_ref *ref)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct dbg_entry *e, **pp;
	struct bucket *b;

	if (!c)
		return;
	/*
	 * The common case first: the first entry at this address in its
	 * page bucket is the one the call describes. It is then also the one
	 * find_best() would pick, since nothing can agree better.
	 */
	b = bucket_of(c, dev, ref->addr >> PAGE_SHIFT);
	dmamap__spin_lock(&b->lock);
	pp = first_at(b, dev, ref->addr);
	e = *pp;
	/*
	 * The cold calls take the fields one by one: passing the ref itself
	 * would make the page entry point build it in memory on every call.
	 */
	if (unlikely(!e || !same_call(e, ref))) {
		dmamap__spin_unlock(&b->lock);
		unmap_cold(dev, NULL, ref->type, ref->addr, ref->size, ref->dir, ref->cpu,
			   ref->sg_call_ents);
		return;
	}
	unlink_and_unlock(b, pp);
	if (unlikely(!nothing_to_check(dev, e, ref)))
		unmap_cold(dev, e, ref->type, ref->addr, ref->size, ref->dir, ref->cpu,
			   ref->sg_call_ents);
	else
		entry_free(c, e);
}

void dmamap__dbg_unmap(struct device *dev, const struct dbg_ref *ref)
{
	unmap_entry(dev, ref);
}

static __attribute__((noinline)) void unmap_page_general(struct device *dev,
							 enum dbg_type type,
							 dma_addr_t addr, u64 size, int dir)
{
	struct dbg_ref r = {
		.type = type, .addr = addr, .size = size, .dir = dir, .phys = PHYS_NONE,
	};

	unmap_entry(dev, &r);
}

/*
 * The unmap twin of dmamap__dbg_map_page()'s leaf: the host's coherent
 * identity mapping, found first in its bucket, matching the call exactly
 * and already checked for a mapping error, with room in the magazine.
 * Anything else goes to the general path with nothing changed.
 */
void dmamap__dbg_unmap_page(struct device *dev, enum dbg_type type, dma_addr_t addr,
			    u64 size, int dir)
{
	const struct dbg_ref r = { .type = type, .addr = addr, .size = size, .dir = dir };
	struct dmamap_checker *c = dev->plat->checker;
	struct dbg_entry *e, **pp;
	struct bucket *b;

	if (unlikely(!c || !dev->direct_identity || mag.owner != c->serial ||
		     mag.n >= 2 * MAG_REFILL))
		goto general;
	b = bucket_of(c, dev, addr >> PAGE_SHIFT);
	if (unlikely(__atomic_exchange_n(&b->lock, 1, __ATOMIC_ACQUIRE)))
		goto general;
	pp = first_at(b, dev, addr);
	e = *pp;
	/* No line test: identity devices are coherent, their entries track none. */
	if (unlikely(!e || !same_call(e, &r) || e->bounced || e->guarded ||
		     __atomic_load_n(&e->map_err, __ATOMIC_RELAXED) == MAPERR_NOT_CHECKED)) {
		dmamap__spin_unlock(&b->lock);
		goto general;
	}
	unlink_and_unlock(b, pp);
	mag_push(e);
	return;
general:
	unmap_page_general(dev, type, addr, size, dir);
}

bool dmamap__dbg_sync(struct device *dev, dma_addr_t addr, u64 size, int dir,
		      bool to_cpu, int sg_nents)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_checker *c = p->checker;
	struct dbg_entry e;

	if (!c)
		return false;
	if (!find_contain(c, dev, addr, size, &e)) {
		dmamap__report_at(p, dev, DMAMAP_DBG_SYNC_NOT_MAPPED, addr, size, dir,
				  NULL,
				  "device driver tries to sync DMA memory it has not allocated [device address=0x%llx] [size=%llu bytes]",
				  (unsigned long long)addr, (unsigned long long)size);
		return false;
	}
	if (size > e.size - (addr - e.addr))
		dmamap__report_at(p, dev, DMAMAP_DBG_SYNC_OUTSIDE, e.addr, e.size, e.dir,
				  e.caller,
				  "device driver syncs DMA memory outside allocated range [device address=0x%llx] [allocation size=%llu bytes] [sync offset+size=%llu]",
				  (unsigned long long)e.addr, (unsigned long long)e.size,
				  (unsigned long long)(addr - e.addr + size));
	if (e.dir != dir)
		dmamap__report_at(p, dev, DMAMAP_DBG_SYNC_WRONG_DIRECTION, e.addr, e.size,
				  e.dir, e.caller,
				  "device driver syncs DMA memory with different direction [device address=0x%llx] [size=%llu bytes] [mapped with %s] [synced with %s]",
				  (unsigned long long)e.addr, (unsigned long long)e.size,
				  dmamap__dir_name(e.dir), dmamap__dir_name(dir));
	if (to_cpu && e.dir != DMA_FROM_DEVICE && e.dir != DMA_BIDIRECTIONAL &&
	    dir != DMA_TO_DEVICE)
		dmamap__report_at(p, dev, DMAMAP_DBG_SYNC_READONLY_FOR_CPU, e.addr, e.size,
				  e.dir, e.caller,
				  "device driver syncs device read-only DMA memory for cpu [device address=0x%llx] [size=%llu bytes] [mapped with %s] [synced with %s]",
				  (unsigned long long)e.addr, (unsigned long long)e.size,
				  dmamap__dir_name(e.dir), dmamap__dir_name(dir));
	if (!to_cpu && e.dir != DMA_TO_DEVICE && e.dir != DMA_BIDIRECTIONAL &&
	    dir != DMA_FROM_DEVICE)
		dmamap__report_at(p, dev, DMAMAP_DBG_SYNC_WRITEONLY_FOR_DEVICE, e.addr,
				  e.size, e.dir, e.caller,
				  "device driver syncs device write-only DMA memory to device [device address=0x%llx] [size=%llu bytes] [mapped with %s] [synced with %s]",
				  (unsigned long long)e.addr, (unsigned long long)e.size,
				  dmamap__dir_name(e.dir), dmamap__dir_name(dir));
	if (sg_nents && e.type == DBG_SG && sg_nents != e.sg_call_ents)
		dmamap__report_at(p, dev, DMAMAP_DBG_SG_NENTS, e.addr, e.size, e.dir, e.caller,
				  "device driver syncs DMA sg list with different entry count [map count=%d] [sync count=%d]",
				  e.sg_call_ents, sg_nents);
	if (e.map_err == MAPERR_NOT_CHECKED)
		report_unchecked_use(dev, &e, "synced");
	if (to_cpu && e.phys != PHYS_NONE && !e.bounced)
		check_cpu_writes(dev, &e, e.phys + (addr - e.addr),
				 MIN(size, e.size - (addr - e.addr)), "sync for cpu");
	if (!streaming(e.type) || size > e.size - (addr - e.addr))
		return false;
	sync_ownership(dev, addr, size, to_cpu);
	/* Only a bounced original to rehash, or a guard to put back, needs the hook after. */
	return e.bounced || __atomic_load_n(&p->ownership, __ATOMIC_RELAXED);
}

/* The observer the checker registers: a bus master's access, before its bytes move. */
static void device_access(void *ctx, struct device *dev, dma_addr_t addr, u64 len,
			  bool write)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_checker *c = p->checker;
	dma_addr_t at = addr, end = addr + len;

	(void)ctx;
	if (!c || !dmamap__dbg_on(dev))
		return;
	/* The range may span several adjacent mappings: cover it piece by piece. */
	while (at < end) {
		struct dbg_entry e;

		if (!find_contain(c, dev, at, end - at, &e)) {
			dmamap__report_at(p, dev, DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED, addr, len,
					  DMA_NONE, NULL,
					  "device %s [device address=0x%llx] [size=%llu bytes] with no live mapping of this device (never mapped, or used after unmap)",
					  write ? "writes" : "reads",
					  (unsigned long long)at,
					  (unsigned long long)(end - at));
			return;
		}
		if (write && e.dir == DMA_TO_DEVICE)
			dmamap__report_at(p, dev, DMAMAP_DBG_DEVICE_WRITE_READONLY, e.addr,
					  e.size, e.dir, e.caller,
					  "device writes a DMA_TO_DEVICE mapping [device address=0x%llx] [mapping=0x%llx+%llu]",
					  (unsigned long long)at, (unsigned long long)e.addr,
					  (unsigned long long)e.size);
		if (e.map_err == MAPERR_NOT_CHECKED)
			report_unchecked_use(dev, &e, write ? "written by the device" :
							     "read by the device");
		/* A read of it is judged by what it gets (missing-sync-for-device, below). */
		if (write && e.cpu_owns && !e.partial && streaming(e.type))
			dmamap__report_at(p, dev, DMAMAP_DBG_DEVICE_ACCESS_CPU_OWNS, e.addr, e.size,
					  e.dir, e.caller,
					  "device writes a buffer the CPU owns: dma_sync_*_for_cpu() gave it to the CPU and no dma_sync_*_for_device() gave it back [device address=0x%llx] [mapping=0x%llx+%llu]",
					  (unsigned long long)at,
					  (unsigned long long)e.addr, (unsigned long long)e.size);
		if (!write && (e.bounced || !dev->coherent))
			device_read_check(dev, at, MIN(end, e.addr + e.size) - at);
		at = e.addr + e.size;
		if (at <= e.addr) /* a mapping that ends at the top of the space */
			break;
	}
}

unsigned long dmamap__dbg_device_gone(struct device *dev)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct dbg_entry example = { 0 }, *gone = NULL;
	unsigned long count = 0;

	if (!c)
		return 0;
	for (unsigned int i = 0; i <= NBUCKETS; i++) {
		struct bucket *b = bucket_at(c, i);

		if (!__atomic_load_n(&b->head, __ATOMIC_RELAXED))
			continue;
		dmamap__spin_lock(&b->lock);
		for (struct dbg_entry **pp = &b->head; *pp;) {
			struct dbg_entry *e = *pp;

			if (e->dev != dev) {
				pp = &e->next;
				continue;
			}
			*pp = e->next;
			__atomic_store_n(&b->n, b->n - 1, __ATOMIC_RELAXED);
			if (!count++)
				entry_copy(&example, e);
			e->next = gone;
			gone = e;
		}
		dmamap__spin_unlock(&b->lock);
	}
	while (gone) {
		struct dbg_entry *e = gone;

		gone = e->next;
		if (e->lines)
			lines_put(c, dev, e);
		entry_free(c, e);
	}
	if (!count)
		return 0;
	dmamap__report_at(dev->plat, dev, DMAMAP_DBG_LEAK, example.addr, example.size,
			  example.dir, example.caller,
			  "device driver has pending DMA allocations while released from device [count=%lu] One of leaked entries details: [device address=0x%llx] [size=%llu bytes] [mapped with %s] [mapped as %s]",
			  count, (unsigned long long)example.addr,
			  (unsigned long long)example.size, dmamap__dir_name(example.dir),
			  type_names[example.type]);
	return count;
}

int dmamap__dbg_type_at(struct device *dev, dma_addr_t addr)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct bucket *b;
	struct dbg_entry **pp;
	int type = -1;

	if (!c)
		return -1;
	b = lock_home(c, dev, addr, NULL, &pp);
	if (pp)
		type = (*pp)->type;
	dmamap__spin_unlock(&b->lock);
	return type;
}

int dmamap__dbg_sg_mapped_ents(struct device *dev, dma_addr_t addr)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct bucket *b;
	struct dbg_entry **pp;
	int n = 0;

	if (!c)
		return 0;
	b = lock_home(c, dev, addr, NULL, &pp);
	if (pp && (*pp)->type == DBG_SG)
		n = (*pp)->sg_mapped_ents;
	dmamap__spin_unlock(&b->lock);
	return n;
}

int dmamap__dbg_view(struct device *dev, const char *func, dma_addr_t addr, u64 size)
{
	struct dmamap_checker *c = dev->plat->checker;
	struct dbg_entry e;

	/* Untracked addresses pass: the checker may have been turned on after the allocation. */
	if (!c || !find_contain(c, dev, addr, size ? size : 1, &e) ||
	    !(streaming(e.type) || e.type == DBG_RESOURCE))
		return 0;
	dmamap__stat_add(dev, ST_ERR0 + DMAMAP_ERRK_BAD_HANDLE, 1);
	dmamap__report_at(dev->plat, dev, DMAMAP_DBG_WRONG_TYPE, e.addr, e.size, e.dir, e.caller,
			  "%s: [device address=0x%llx] [size=%llu bytes] is a %s mapping, not an allocation: only memory from dma_alloc_*() has this view",
			  func, (unsigned long long)addr, (unsigned long long)size,
			  type_names[e.type]);
	return -EINVAL;
}

unsigned long dmamap_debug_live(struct device *dev, struct dmamap_platform *p)
{
	struct dmamap_checker *c;
	unsigned long n = 0;

	if (dev)
		p = dev->plat;
	if (!p || !(c = p->checker))
		return 0;
	if (!dev)
		return live_total(c);
	for (unsigned int i = 0; i <= NBUCKETS; i++) {
		struct bucket *b = bucket_at(c, i);

		if (!__atomic_load_n(&b->head, __ATOMIC_RELAXED))
			continue;
		dmamap__spin_lock(&b->lock);
		for (struct dbg_entry *e = b->head; e; e = e->next)
			n += e->dev == dev;
		dmamap__spin_unlock(&b->lock);
	}
	return n;
}
