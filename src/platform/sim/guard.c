/* SPDX-License-Identifier: MIT */
/*
 * Guarded pages: the checker's ownership mode takes the CPU's access to the
 * whole pages of a buffer a device owns (mprotect on the linear map), so a
 * CPU read or write before the buffer is handed back traps. The unit is
 * the host's page, mprotect's, which on a 16K or 64K-page host holds
 * several simulated ones: only a buffer covering whole host pages is
 * guarded there. Each unit counts the mappings that guard it; the
 * library's own accesses skip guarded units or come after the guard is
 * lifted.
 */
#include <sys/mman.h>
#include "../../base/ram.h"
#include "sim.h"

/* The bank and unit index of @addr in the linear map of @p, or NULL. */
static struct dmamap_bank *unit_of(struct dmamap_platform *p, uintptr_t addr, size_t *unit)
{
	for (unsigned int i = 0; i < p->mach.nr_banks; i++) {
		struct dmamap_bank *b = &p->mach.banks[i];
		uintptr_t off = addr - (uintptr_t)b->cpu;

		if (addr >= (uintptr_t)b->cpu && off < b->size) {
			*unit = (size_t)(off >> sim_guard_shift());
			return b;
		}
	}
	return NULL;
}

static uintptr_t unit_size(void)
{
	return (uintptr_t)1 << sim_guard_shift();
}

int dmamap__sim_guard(struct dmamap_platform *p, const void *cpu, size_t size, bool on)
{
	uintptr_t unit = unit_size();
	uintptr_t lo = ((uintptr_t)cpu + unit - 1) & ~(unit - 1);
	uintptr_t hi = ((uintptr_t)cpu + size) & ~(unit - 1);
	int covered = 0;

	for (uintptr_t at = lo; at < hi && at >= lo; at += unit) {
		size_t u;
		struct dmamap_bank *b = unit_of(p, at, &u);
		struct sim_bank *sb;
		pthread_mutex_t *lock;

		if (!b)
			continue;
		sb = sim_bank(p, b);
		lock = sim_stripe(p, b->start + ((phys_addr_t)u << sim_guard_shift()));
		pthread_mutex_lock(lock);
		if (on && sb->guard[u] == UINT8_MAX) {
			/* Saturated: the unit stays guarded until the counts all go. */
		} else if (on && sb->guard[u]++ == 0) {
			__atomic_fetch_add(&p->sim->guarded, 1, __ATOMIC_RELAXED);
			mprotect((void *)at, unit, PROT_NONE);
		} else if (!on && sb->guard[u] && --sb->guard[u] == 0) {
			__atomic_fetch_sub(&p->sim->guarded, 1, __ATOMIC_RELAXED);
			mprotect((void *)at, unit, PROT_READ | PROT_WRITE);
		}
		pthread_mutex_unlock(lock);
		covered++;
	}
	return covered;
}

bool dmamap__sim_unguard_fault(struct dmamap_platform *p, const void *addr)
{
	uintptr_t unit = unit_size();
	uintptr_t at = (uintptr_t)addr & ~(unit - 1);
	struct dmamap_bank *b;
	struct sim_bank *sb;
	bool ours = false;
	size_t u;

	b = unit_of(p, at, &u);
	if (!b)
		return false;
	sb = sim_bank(p, b);
	/* No lock: the faulting thread may hold none of ours, and the count only drops here. */
	if (__atomic_exchange_n(&sb->guard[u], 0, __ATOMIC_RELAXED)) {
		__atomic_fetch_sub(&p->sim->guarded, 1, __ATOMIC_RELAXED);
		mprotect((void *)at, unit, PROT_READ | PROT_WRITE);
		ours = true;
	}
	return ours;
}

/*
 * Unlike dmamap__sim_guard_lift(), without the pages' stripe locks (the
 * caller may hold another's, or a checker lock): a guard change racing the
 * read can only leave a page guarded, or open, for that read's length.
 */
void dmamap__sim_lift_range(struct dmamap_platform *p, const void *cpu, size_t len, bool lift)
{
	uintptr_t at = (uintptr_t)cpu;

	if (!__atomic_load_n(&p->sim->guarded, __ATOMIC_RELAXED))
		return;
	for (unsigned int i = 0; i < p->mach.nr_banks; i++) {
		struct dmamap_bank *b = &p->mach.banks[i];
		uintptr_t base = (uintptr_t)b->cpu;

		if (at < base || at - base >= b->size)
			continue;
		for (u64 off = at - base; off < at - base + len && off < b->size;
		     off = (off | (unit_size() - 1)) + 1)
			dmamap__sim_guard_lift(p, b, off, lift);
		return;
	}
}

void dmamap__sim_guard_lift(struct dmamap_platform *p, struct dmamap_bank *b, u64 off, bool lift)
{
	struct sim_bank *sb = sim_bank(p, b);

	if (!sim_page_guarded(sb, off))
		return;
	mprotect(b->cpu + (off & ~(u64)(unit_size() - 1)), unit_size(),
		 lift ? PROT_READ | PROT_WRITE : PROT_NONE);
}
