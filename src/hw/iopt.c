/* SPDX-License-Identifier: MIT */
/*
 * IOMMU hardware: a domain's 4-level IO page table (4 KiB granule, 48-bit
 * IOVA) with read/write permission bits, and a direct-mapped IOTLB that
 * caches translations until it is told to invalidate them. Devices behind
 * the IOMMU reach memory only through dmamap__iommu_translate().
 *
 * The page table takes no lock: intermediate tables are installed with a
 * compare-and-swap and never freed before the domain, and leaf entries are
 * single atomic words, so threads mapping disjoint IOVA ranges never meet.
 * The IOTLB keeps a lock in each of its cache lines: an invalidation or
 * fill locks the line of its entry; invalidating everything (a lazy batch)
 * moves a generation number instead of touching every line.
 */
#include <stdlib.h>
#include <string.h>
#include "../lib/lib.h"
#include "../lib/spinlock.h"
#include "iopt.h"
#include "../lib/mem.h"

#define LEVELS 4
#define BITS 9
#define ENTRIES (1u << BITS)
#define PTE_VALID 0x1ULL
#define PTE_READ 0x2ULL
#define PTE_WRITE 0x4ULL
#define PTE_PRIV 0x8ULL
#define PTE_ADDR (~0xfffULL)
#define IOTLB_SIZE 256
#define IOTLB_PER_LINE 2

struct iotlb_entry {
	u64 iova_pfn;
	u64 pte; /* 0: invalid */
	u64 gen; /* the entry counts only while this is the IOTLB's generation */
};

/*
 * Entries live with the lock that guards them, a cache line each: two CPUs
 * unmapping different pages meet only if the pages share an IOTLB line,
 * not merely a lock stripe.
 */
struct iotlb_line {
	int lock;
	struct iotlb_entry e[IOTLB_PER_LINE];
} __attribute__((aligned(64)));

struct iotlb_gen {
	u64 n;
} __attribute__((aligned(64)));

struct iotlb {
	/* Invalidating everything (a lazy batch) is one increment of this. */
	struct iotlb_gen gen;
	struct iotlb_line line[IOTLB_SIZE / IOTLB_PER_LINE];
};

struct table {
	u64 e[ENTRIES]; /* leaf: phys | bits; upper: (uintptr_t)next table | VALID */
};

/*
 * The leaf table this thread used last: map and unmap of one buffer, and
 * consecutive pages of a range, land in the same 2 MiB of IOVA. Tables
 * live as long as their page table, which is named by a serial number
 * (never reused, unlike its address), so a hit never returns a freed table.
 */
static unsigned long iopt_serial;

static __thread struct {
	unsigned long id;
	u64 span; /* iova >> LEAF_SPAN_SHIFT */
	struct table *t;
} walk_cache __attribute__((tls_model("initial-exec")));

/* Upper entries hold a table pointer (malloc-aligned) with the valid bit. */
static struct table *next_table(u64 e)
{
	return (struct table *)(uintptr_t)(e & ~PTE_VALID);
}

static void table_free(struct table *t, int level)
{
	if (!t)
		return;
	if (level < LEVELS - 1)
		for (unsigned int i = 0; i < ENTRIES; i++)
			if (t->e[i] & PTE_VALID)
				table_free(next_table(t->e[i]), level + 1);
	free(t);
}

int dmamap__iopt_init(struct dmamap_iopt *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->id = __atomic_add_fetch(&iopt_serial, 1, __ATOMIC_RELAXED);
	pt->root = dmamap__calloc(1, sizeof(struct table));
	pt->iotlb = dmamap__zalloc_lines(sizeof(struct iotlb));
	if (!pt->root || !pt->iotlb) {
		free(pt->root);
		free(pt->iotlb);
		return -ENOMEM;
	}
	return 0;
}

void dmamap__iopt_fini(struct dmamap_iopt *pt)
{
	table_free(pt->root, 0);
	free(pt->iotlb);
	pt->root = NULL;
	pt->iotlb = NULL;
}

static unsigned int index_at(u64 iova, int level)
{
	return (unsigned int)((iova >> (PAGE_SHIFT + BITS * (LEVELS - 1 - level))) &
			      (ENTRIES - 1));
}

#define LEAF_SPAN_SHIFT (PAGE_SHIFT + BITS)

static u64 *leaf_walk(struct dmamap_iopt *pt, u64 iova, bool alloc);

/* The leaf entry for @iova, installing missing tables if @alloc. */
static inline u64 *leaf(struct dmamap_iopt *pt, u64 iova, bool alloc)
{
	if (likely(walk_cache.id == pt->id && walk_cache.span == iova >> LEAF_SPAN_SHIFT))
		return &walk_cache.t->e[index_at(iova, LEVELS - 1)];
	return leaf_walk(pt, iova, alloc);
}

static __attribute__((noinline)) u64 *leaf_walk(struct dmamap_iopt *pt, u64 iova,
						 bool alloc)
{
	struct table *t = pt->root;

	for (int level = 0; level < LEVELS - 1; level++) {
		u64 *e = &t->e[index_at(iova, level)];
		u64 v = __atomic_load_n(e, __ATOMIC_ACQUIRE);

		if (!(v & PTE_VALID)) {
			struct table *n;
			u64 expect = 0;

			if (!alloc || !(n = dmamap__calloc(1, sizeof(*n))))
				return NULL;
			v = (u64)(uintptr_t)n | PTE_VALID;
			/* Another thread may install it first: then use theirs. */
			if (!__atomic_compare_exchange_n(e, &expect, v, false, __ATOMIC_ACQ_REL,
							 __ATOMIC_ACQUIRE)) {
				free(n);
				v = expect;
			}
		}
		t = next_table(v);
	}
	walk_cache.id = pt->id;
	walk_cache.span = iova >> LEAF_SPAN_SHIFT;
	walk_cache.t = t;
	return &t->e[index_at(iova, LEVELS - 1)];
}

static u64 pte_bits(unsigned int prot)
{
	return PTE_VALID | ((prot & IOPT_READ) ? PTE_READ : 0) |
	       ((prot & IOPT_WRITE) ? PTE_WRITE : 0) | ((prot & IOPT_PRIV) ? PTE_PRIV : 0);
}

static __attribute__((noinline)) u64 unmap_pages(struct dmamap_iopt *pt, u64 iova,
						 u64 npages)
{
	u64 cleared = 0;

	for (u64 i = 0; i < npages; i++) {
		u64 *e = leaf(pt, iova + (i << PAGE_SHIFT), false);

		/* Load and store, not an exchange: one IOVA has one owner unmapping it. */
		if (e && (__atomic_load_n(e, __ATOMIC_RELAXED) & PTE_VALID)) {
			__atomic_store_n(e, 0, __ATOMIC_RELEASE);
			cleared++;
		}
	}
	return cleared;
}

static __attribute__((noinline)) int map_pages(struct dmamap_iopt *pt, u64 iova,
					       phys_addr_t phys, u64 npages, u64 bits)
{
	u64 i;

	for (i = 0; i < npages; i++) {
		u64 *e = leaf(pt, iova + (i << PAGE_SHIFT), true);

		if (unlikely(!e))
			break;
		__atomic_store_n(e, ((phys + (i << PAGE_SHIFT)) & PTE_ADDR) | bits,
				 __ATOMIC_RELEASE);
	}
	if (likely(i == npages))
		return 0;
	unmap_pages(pt, iova, i);
	return -ENOMEM;
}

/* One page, the usual map_page/map_single, needs no loop. */
int dmamap__iopt_map(struct dmamap_iopt *pt, u64 iova, phys_addr_t phys,
		     u64 npages, unsigned int prot)
{
	if (likely(npages == 1)) {
		u64 *e = leaf(pt, iova, true);

		if (unlikely(!e))
			return -ENOMEM;
		__atomic_store_n(e, (phys & PTE_ADDR) | pte_bits(prot), __ATOMIC_RELEASE);
		return 0;
	}
	return map_pages(pt, iova, phys, npages, pte_bits(prot));
}

u64 dmamap__iopt_unmap(struct dmamap_iopt *pt, u64 iova, u64 npages)
{
	if (likely(npages == 1)) {
		u64 *e = leaf(pt, iova, false);

		if (!e || !(__atomic_load_n(e, __ATOMIC_RELAXED) & PTE_VALID))
			return 0;
		__atomic_store_n(e, 0, __ATOMIC_RELEASE);
		return 1;
	}
	return unmap_pages(pt, iova, npages);
}

static u64 count_valid(const struct table *t, int level)
{
	u64 n = 0;

	for (unsigned int i = 0; i < ENTRIES; i++) {
		u64 e = __atomic_load_n(&t->e[i], __ATOMIC_ACQUIRE);

		if (!(e & PTE_VALID))
			continue;
		n += level == LEVELS - 1 ? 1 : count_valid(next_table(e), level + 1);
	}
	return n;
}

/*
 * Counted by walking the tables, not kept: a statistics query can take
 * its time, map and unmap should not pay for it.
 */
u64 dmamap__iopt_mapped(struct dmamap_iopt *pt)
{
	return count_valid(pt->root, 0);
}

static u64 pte_of(struct dmamap_iopt *pt, u64 iova)
{
	u64 *e = leaf(pt, iova, false);

	return e ? __atomic_load_n(e, __ATOMIC_ACQUIRE) : 0;
}

phys_addr_t dmamap__iopt_walk(struct dmamap_iopt *pt, u64 iova)
{
	u64 pte = pte_of(pt, iova);

	if (!(pte & PTE_VALID))
		return PHYS_NONE;
	return (pte & PTE_ADDR) | (iova & (PAGE_SIZE - 1));
}

static struct iotlb_entry *slot(struct iotlb *tlb, u64 pfn, int **lock)
{
	unsigned int i = (unsigned int)(pfn % IOTLB_SIZE);
	struct iotlb_line *l = &tlb->line[i / IOTLB_PER_LINE];

	*lock = &l->lock;
	return &l->e[i % IOTLB_PER_LINE];
}

void dmamap__iotlb_invalidate(struct dmamap_iopt *pt, u64 iova, u64 npages)
{
	struct iotlb *tlb = pt->iotlb;

	if (npages >= IOTLB_SIZE) {
		__atomic_add_fetch(&tlb->gen.n, 1, __ATOMIC_ACQ_REL);
	} else {
		for (u64 i = 0; i < npages; i++) {
			u64 pfn = (iova >> PAGE_SHIFT) + i;
			int *lock;
			struct iotlb_entry *t = slot(tlb, pfn, &lock);

			dmamap__spin_lock(lock);
			if (t->pte && t->iova_pfn == pfn)
				t->pte = 0;
			dmamap__spin_unlock(lock);
		}
	}
	IOPT_COUNT(pt, invalidations, 1);
}

/*
 * The hardware's view: IOTLB first (a stale entry there is used as it is),
 * then the page table, whose result is cached. Returns the physical
 * address or PHYS_NONE with *why set.
 */
phys_addr_t dmamap__iommu_translate(struct dmamap_iopt *pt, u64 iova, bool write,
				    bool privileged, const char **why)
{
	u64 pfn = iova >> PAGE_SHIFT, pte;
	struct iotlb *tlb = pt->iotlb;
	/* For the fill, read before the walk: one that races a flush-all is stale at once. */
	u64 gen = __atomic_load_n(&tlb->gen.n, __ATOMIC_ACQUIRE);
	int *lock;
	struct iotlb_entry *t = slot(tlb, pfn, &lock);
	bool hit;

	dmamap__spin_lock(lock);
	/*
	 * The generation now, not the one read above: a flush-all that
	 * completed meanwhile must not leave this entry usable.
	 */
	hit = t->pte && t->iova_pfn == pfn &&
	      t->gen == __atomic_load_n(&tlb->gen.n, __ATOMIC_ACQUIRE);
	pte = hit ? t->pte : 0;
	dmamap__spin_unlock(lock);
	if (!hit) {
		pte = pte_of(pt, iova);
		if (pte & PTE_VALID) {
			dmamap__spin_lock(lock);
			t->iova_pfn = pfn;
			t->pte = pte;
			t->gen = gen;
			dmamap__spin_unlock(lock);
		}
	}
	if (hit)
		IOPT_COUNT(pt, hits, 1);
	else
		IOPT_COUNT(pt, misses, 1);
	if (!(pte & PTE_VALID)) {
		*why = "IOMMU translation fault (no mapping at this IOVA)";
		IOPT_COUNT(pt, translation_faults, 1);
		return PHYS_NONE;
	}
	if (!(pte & (write ? PTE_WRITE : PTE_READ))) {
		*why = write ? "IOMMU permission fault (write to a read-only mapping)" :
			       "IOMMU permission fault (read of a write-only mapping)";
		IOPT_COUNT(pt, permission_faults, 1);
		return PHYS_NONE;
	}
	if ((pte & PTE_PRIV) && !privileged) {
		*why = "IOMMU permission fault (unprivileged access to a privileged mapping)";
		IOPT_COUNT(pt, permission_faults, 1);
		return PHYS_NONE;
	}
	return (pte & PTE_ADDR) | (iova & (PAGE_SIZE - 1));
}

uint64_t dmamap__iopt_count(struct dmamap_iopt *pt, size_t field)
{
	return dmamap__count_sum(pt->counts, sizeof(pt->counts[0]), field);
}
