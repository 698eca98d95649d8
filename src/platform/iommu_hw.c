/* SPDX-License-Identifier: MIT */
/*
 * IOMMU hardware: a domain's 4-level IO page table (4 KiB granule, 48-bit
 * IOVA) with read/write permission bits, and a small direct-mapped IOTLB
 * that caches translations until it is told to invalidate them. Devices
 * behind the IOMMU reach memory only through iommu_translate().
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "iommu_hw.h"

#define LEVELS 4
#define BITS 9
#define ENTRIES (1u << BITS)
#define PTE_VALID 0x1ULL
#define PTE_READ 0x2ULL
#define PTE_WRITE 0x4ULL
#define PTE_ADDR (~0xfffULL)
#define IOTLB_SIZE 256

struct iotlb_entry {
	u64 iova_pfn;
	u64 pte;
	bool valid;
};

struct table {
	u64 e[ENTRIES]; /* leaf: phys | bits; upper: (uintptr_t)next table | VALID */
};

/* Upper entries hold a table pointer (malloc-aligned) with the valid bit. */
static struct table *next_table(u64 e)
{
	return (struct table *)(uintptr_t)(e & ~PTE_VALID);
}

static struct table *table_new(void)
{
	return calloc(1, sizeof(struct table));
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
	pt->root = table_new();
	pt->iotlb = calloc(IOTLB_SIZE, sizeof(struct iotlb_entry));
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

/* The leaf entry for @iova, creating tables on the way if @alloc. Lock held. */
static u64 *leaf(struct dmamap_iopt *pt, u64 iova, bool alloc)
{
	struct table *t = pt->root;

	for (int level = 0; level < LEVELS - 1; level++) {
		u64 *e = &t->e[index_at(iova, level)];

		if (!(*e & PTE_VALID)) {
			struct table *n;

			if (!alloc || !(n = table_new()))
				return NULL;
			*e = (u64)(uintptr_t)n | PTE_VALID;
		}
		t = next_table(*e);
	}
	return &t->e[index_at(iova, LEVELS - 1)];
}

int dmamap__iopt_map(struct dmamap_iopt *pt, u64 iova, phys_addr_t phys,
		     u64 npages, bool read, bool write)
{
	u64 bits = PTE_VALID | (read ? PTE_READ : 0) | (write ? PTE_WRITE : 0);
	u64 i;

	dmamap__spin_lock(&pt->lock);
	for (i = 0; i < npages; i++) {
		u64 *e = leaf(pt, iova + (i << PAGE_SHIFT), true);

		if (!e)
			break;
		*e = ((phys + (i << PAGE_SHIFT)) & PTE_ADDR) | bits;
	}
	pt->mapped += i;
	dmamap__spin_unlock(&pt->lock);
	if (i == npages)
		return 0;
	dmamap__iopt_unmap(pt, iova, i);
	return -ENOMEM;
}

void dmamap__iopt_unmap(struct dmamap_iopt *pt, u64 iova, u64 npages)
{
	dmamap__spin_lock(&pt->lock);
	for (u64 i = 0; i < npages; i++) {
		u64 *e = leaf(pt, iova + (i << PAGE_SHIFT), false);

		if (e && (*e & PTE_VALID)) {
			*e = 0;
			pt->mapped--;
		}
	}
	dmamap__spin_unlock(&pt->lock);
}

phys_addr_t dmamap__iopt_walk(struct dmamap_iopt *pt, u64 iova)
{
	phys_addr_t phys = PHYS_NONE;
	u64 *e;

	dmamap__spin_lock(&pt->lock);
	e = leaf(pt, iova, false);
	if (e && (*e & PTE_VALID))
		phys = (*e & PTE_ADDR) | (iova & (PAGE_SIZE - 1));
	dmamap__spin_unlock(&pt->lock);
	return phys;
}

void dmamap__iotlb_invalidate(struct dmamap_iopt *pt, u64 iova, u64 npages)
{
	struct iotlb_entry *tlb = pt->iotlb;

	dmamap__spin_lock(&pt->tlb_lock);
	if (npages >= IOTLB_SIZE) {
		for (unsigned int i = 0; i < IOTLB_SIZE; i++)
			tlb[i].valid = false;
	} else {
		for (u64 i = 0; i < npages; i++) {
			u64 pfn = (iova >> PAGE_SHIFT) + i;
			struct iotlb_entry *t = &tlb[pfn % IOTLB_SIZE];

			if (t->valid && t->iova_pfn == pfn)
				t->valid = false;
		}
	}
	pt->invalidations++;
	dmamap__spin_unlock(&pt->tlb_lock);
}

/*
 * The hardware's view: IOTLB first (a stale entry there is used as it is),
 * then the page table, whose result is cached. Returns the physical
 * address or PHYS_NONE with *why set.
 */
phys_addr_t dmamap__iommu_translate(struct dmamap_iopt *pt, u64 iova, bool write,
				    const char **why)
{
	u64 pfn = iova >> PAGE_SHIFT, pte = 0;
	struct iotlb_entry *t = &((struct iotlb_entry *)pt->iotlb)[pfn % IOTLB_SIZE];
	bool hit;
	u64 *e;

	dmamap__spin_lock(&pt->tlb_lock);
	hit = t->valid && t->iova_pfn == pfn;
	if (hit) {
		pte = t->pte;
		pt->hits++;
	}
	dmamap__spin_unlock(&pt->tlb_lock);
	if (!hit) {
		dmamap__spin_lock(&pt->lock);
		e = leaf(pt, iova, false);
		pte = e ? *e : 0;
		dmamap__spin_unlock(&pt->lock);
		dmamap__spin_lock(&pt->tlb_lock);
		pt->misses++;
		if (pte & PTE_VALID) {
			t->iova_pfn = pfn;
			t->pte = pte;
			t->valid = true;
		}
		dmamap__spin_unlock(&pt->tlb_lock);
	}
	if (!(pte & PTE_VALID)) {
		*why = "IOMMU translation fault (no mapping at this IOVA)";
		__atomic_fetch_add(&pt->translation_faults, 1, __ATOMIC_RELAXED);
		return PHYS_NONE;
	}
	if (!(pte & (write ? PTE_WRITE : PTE_READ))) {
		*why = write ? "IOMMU permission fault (write to a read-only mapping)" :
			       "IOMMU permission fault (read of a write-only mapping)";
		__atomic_fetch_add(&pt->permission_faults, 1, __ATOMIC_RELAXED);
		return PHYS_NONE;
	}
	return (pte & PTE_ADDR) | (iova & (PAGE_SIZE - 1));
}
