/* SPDX-License-Identifier: MIT */
/*
 * Guarded pages: the checker's ownership mode takes the CPU's access to the
 * whole pages of a buffer a device owns (mprotect on the linear map), so a
 * CPU read or write before the buffer is handed back traps. Each page
 * counts the mappings that guard it; the library's own accesses skip
 * guarded pages or come after the guard is lifted.
 */
#include <sys/mman.h>
#include "../../base/ram.h"
#include "sim.h"

/* The bank and page index of @addr in the linear map of @p, or NULL. */
static struct dmamap_bank *page_of(struct dmamap_platform *p, uintptr_t addr, size_t *page)
{
	for (unsigned int i = 0; i < p->mach.nr_banks; i++) {
		struct dmamap_bank *b = &p->mach.banks[i];
		uintptr_t off = addr - (uintptr_t)b->cpu;

		if (addr >= (uintptr_t)b->cpu && off < b->size) {
			*page = (size_t)(off >> PAGE_SHIFT);
			return b;
		}
	}
	return NULL;
}

int dmamap__sim_guard(struct dmamap_platform *p, const void *cpu, size_t size, bool on)
{
	uintptr_t lo = ((uintptr_t)cpu + PAGE_SIZE - 1) & PAGE_MASK;
	uintptr_t hi = ((uintptr_t)cpu + size) & PAGE_MASK;
	int changed = 0;

	for (uintptr_t at = lo; at < hi && at >= lo; at += PAGE_SIZE) {
		size_t pg;
		struct dmamap_bank *b = page_of(p, at, &pg);
		struct sim_bank *sb;
		pthread_mutex_t *lock;

		if (!b)
			continue;
		sb = sim_bank(p, b);
		lock = sim_stripe(p, b->start + ((phys_addr_t)pg << PAGE_SHIFT));
		pthread_mutex_lock(lock);
		if (on && sb->guard[pg] == UINT8_MAX) {
			/* Saturated: the page stays guarded until the counts all go. */
		} else if (on && sb->guard[pg]++ == 0) {
			mprotect((void *)at, PAGE_SIZE, PROT_NONE);
			changed++;
		} else if (!on && sb->guard[pg] && --sb->guard[pg] == 0) {
			mprotect((void *)at, PAGE_SIZE, PROT_READ | PROT_WRITE);
			changed++;
		}
		pthread_mutex_unlock(lock);
	}
	return changed;
}

bool dmamap__sim_unguard_fault(struct dmamap_platform *p, const void *addr)
{
	uintptr_t at = (uintptr_t)addr & PAGE_MASK;
	struct dmamap_bank *b;
	struct sim_bank *sb;
	bool ours = false;
	size_t pg;

	b = page_of(p, at, &pg);
	if (!b)
		return false;
	sb = sim_bank(p, b);
	/* No lock: the faulting thread may hold none of ours, and the count only drops here. */
	if (__atomic_load_n(&sb->guard[pg], __ATOMIC_RELAXED)) {
		__atomic_store_n(&sb->guard[pg], 0, __ATOMIC_RELAXED);
		mprotect((void *)at, PAGE_SIZE, PROT_READ | PROT_WRITE);
		ours = true;
	}
	return ours;
}

void dmamap__sim_guard_lift(struct dmamap_platform *p, struct dmamap_bank *b, u64 off, bool lift)
{
	if (!sim_page_guarded(sim_bank(p, b), off))
		return;
	mprotect(b->cpu + (off & ~(u64)(PAGE_SIZE - 1)), PAGE_SIZE,
		 lift ? PROT_READ | PROT_WRITE : PROT_NONE);
}
