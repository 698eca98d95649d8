/* SPDX-License-Identifier: MIT */
/*
 * The CPU's uncached and write-combining ways to a board's memory, mapped
 * per allocation as the kernel remaps them (dma_common_contiguous_remap):
 * a run's address space grows with what it allocates, not with the board's
 * RAM, and a store past the end of one allocation's alias faults (a host
 * page of nothing follows each) instead of landing in another alias. The host has no such aliases: every view
 * of its memory is the address itself.
 */
#include <string.h>
#include <sys/mman.h>
#include "../lib/lib.h"
#include "../lib/mem.h"
#include "../lib/spinlock.h"
#include "../base/ram.h"
#include "port.h"
#include "memory.h"

/* First alias whose address is not below @addr. Lock held. */
static unsigned int alias_slot(const struct dmamap_machine *m, uintptr_t addr)
{
	unsigned int lo = 0, hi = m->nr_aliases;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if ((uintptr_t)m->aliases[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void *dmamap__view_map(struct dmamap_platform *p, phys_addr_t phys, size_t size,
		       enum dmamap_view view)
{
	struct dmamap_machine *m = &p->mach;
	size_t host = dmamap__host_page_size();
	struct dmamap_bank *b;
	struct dmamap_alias a;
	u64 off, first;
	void *map;

	if (view == VIEW_CPU || m->kind == MACHINE_HOST)
		return dmamap__phys_to_view(p, phys, VIEW_CPU);
	b = dmamap__bank_of_phys(p, phys, size);
	if (!b || !size)
		return NULL;
	/* mmap maps whole host pages: the allocation sits inside the ones that hold it. */
	off = phys - b->start;
	first = off & ~(u64)(host - 1);
	a.map_len = (size_t)(((off + size + host - 1) & ~(u64)(host - 1)) - first);
	/* One inaccessible host page after it: a store past the end faults, whatever mmap puts next. */
	map = dmamap__mmap(NULL, a.map_len + host, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	if (dmamap__mmap(map, a.map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, b->fd_mem,
			 (off_t)first) == MAP_FAILED) {
		dmamap__munmap(map, a.map_len + host);
		return NULL;
	}
	a.map = map;
	a.addr = (uint8_t *)map + (off - first);
	a.size = size;
	a.phys = phys;
	a.view = view;
	dmamap__spin_lock(&m->alias_lock);
	if (m->nr_aliases == m->aliases_cap) {
		unsigned int cap = m->aliases_cap ? m->aliases_cap * 2 : 16;
		struct dmamap_alias *n = dmamap__realloc(m->aliases, cap * sizeof(*n));

		if (!n) {
			dmamap__spin_unlock(&m->alias_lock);
			dmamap__munmap(map, a.map_len + host);
			return NULL;
		}
		m->aliases = n;
		m->aliases_cap = cap;
	}
	{
		unsigned int i = alias_slot(m, (uintptr_t)a.addr);

		memmove(&m->aliases[i + 1], &m->aliases[i], (m->nr_aliases - i) * sizeof(a));
		m->aliases[i] = a;
		__atomic_store_n(&m->nr_aliases, m->nr_aliases + 1, __ATOMIC_RELAXED);
	}
	dmamap__spin_unlock(&m->alias_lock);
	return a.addr;
}

bool dmamap__view_unmap(struct dmamap_platform *p, const void *addr)
{
	struct dmamap_machine *m = &p->mach;
	struct dmamap_alias a;
	unsigned int i;

	if (m->kind == MACHINE_HOST || !addr)
		return false;
	dmamap__spin_lock(&m->alias_lock);
	i = alias_slot(m, (uintptr_t)addr);
	if (i == m->nr_aliases || m->aliases[i].addr != addr) {
		dmamap__spin_unlock(&m->alias_lock);
		return false;
	}
	a = m->aliases[i];
	memmove(&m->aliases[i], &m->aliases[i + 1], (m->nr_aliases - i - 1) * sizeof(a));
	__atomic_store_n(&m->nr_aliases, m->nr_aliases - 1, __ATOMIC_RELAXED);
	dmamap__spin_unlock(&m->alias_lock);
	dmamap__munmap(a.map, a.map_len + dmamap__host_page_size());
	return true;
}

bool dmamap__alias_lookup(struct dmamap_platform *p, const void *addr, phys_addr_t *phys,
			  enum dmamap_view *view)
{
	struct dmamap_machine *m = &p->mach;
	uintptr_t at = (uintptr_t)addr;
	bool found = false;
	unsigned int i;

	/* Most addresses asked about are no alias, and most boards have none live. */
	if (!__atomic_load_n(&m->nr_aliases, __ATOMIC_RELAXED))
		return false;
	dmamap__spin_lock(&m->alias_lock);
	/* The alias starting at or below @addr: the one after the slot, unless it starts there. */
	i = alias_slot(m, at + 1);
	if (i) {
		const struct dmamap_alias *a = &m->aliases[i - 1];

		if (at - (uintptr_t)a->addr < a->size) {
			*phys = a->phys + (at - (uintptr_t)a->addr);
			*view = (enum dmamap_view)a->view;
			found = true;
		}
	}
	dmamap__spin_unlock(&m->alias_lock);
	return found;
}

void dmamap__aliases_fini(struct dmamap_platform *p)
{
	struct dmamap_machine *m = &p->mach;

	/* Allocations nobody freed: their aliases go with the board. */
	for (unsigned int i = 0; i < m->nr_aliases; i++)
		dmamap__munmap(m->aliases[i].map, m->aliases[i].map_len + dmamap__host_page_size());
	free(m->aliases);
	m->aliases = NULL;
	m->nr_aliases = m->aliases_cap = 0;
}
