/* SPDX-License-Identifier: MIT */
/*
 * Address spaces of a platform: physical RAM banks, the CPU's linear map
 * of them and the files behind every view (the per-allocation aliases are
 * alias.c's). A process-wide registry of linear maps lets page_to_phys()
 * work without a platform.
 */
#include <pthread.h>
#include <sys/mman.h>
#include <string.h>
#include "../lib/lib.h"
#include "port.h"
#include "memory.h"
#include "../base/ram.h"
#include "../lib/mem.h"

static bool in_view(const uint8_t *base, u64 size, const void *addr, u64 *off)
{
	uintptr_t a = (uintptr_t)addr, b = (uintptr_t)base;

	if (!base || a < b || a - b >= size)
		return false;
	*off = a - b;
	return true;
}

bool dmamap__bank_tail_ok(struct dmamap_platform *p, const void *addr, size_t size)
{
	u64 off;

	for (unsigned int i = 0; i < p->mach.nr_banks; i++) {
		const struct dmamap_bank *b = &p->mach.banks[i];

		if (in_view(b->cpu, b->size, addr, &off))
			return size <= b->size - off;
	}
	return true;
}

phys_addr_t dmamap__addr_to_phys(struct dmamap_platform *p, const void *addr,
				 enum dmamap_view *view)
{
	phys_addr_t phys;
	u64 off;

	*view = VIEW_NONE;
	for (unsigned int i = 0; i < p->mach.nr_banks; i++) {
		struct dmamap_bank *b = &p->mach.banks[i];

		if (in_view(b->cpu, b->size, addr, &off)) {
			*view = VIEW_CPU;
			return b->start + off;
		}
	}
	if (p->mach.kind == MACHINE_HOST) {
		*view = VIEW_CPU;
		return (phys_addr_t)(uintptr_t)addr;
	}
	if (dmamap__alias_lookup(p, addr, &phys, view))
		return phys;
	return PHYS_NONE;
}

void *dmamap__bank_view(struct dmamap_platform *p, phys_addr_t phys,
			enum dmamap_view view)
{
	struct dmamap_bank *b = dmamap__bank_of_phys(p, phys, 1);

	/* Other views are mapped per allocation (alias.c). */
	if (!b || view != VIEW_CPU)
		return NULL;
	return b->cpu + (phys - b->start);
}

int dmamap__view_fd(struct dmamap_platform *p, phys_addr_t phys,
		    enum dmamap_view view, u64 *offset)
{
	struct dmamap_bank *b = dmamap__bank_of_phys(p, phys, 1);

	if (!b)
		return -1;
	*offset = phys - b->start;
	return view == VIEW_CPU ? b->fd_cpu : b->fd_mem;
}

/*
 * Whether simulated pages @phys[0..@k) are one host page: consecutive,
 * from a host-page boundary of their bank's file. *@off: that offset.
 */
static int host_unit_fd(struct dmamap_platform *p, const phys_addr_t *phys, unsigned long k,
			enum dmamap_view view, u64 *off)
{
	int fd = dmamap__view_fd(p, phys[0], view, off);

	if (fd < 0 || (*off & (dmamap__host_page_size() - 1)))
		return -1;
	for (unsigned long j = 1; j < k; j++)
		if (phys[j] != phys[0] + j * PAGE_SIZE)
			return -1;
	return fd;
}

void *dmamap__port_remap(struct dmamap_platform *p, const phys_addr_t *phys, unsigned long n,
			 unsigned long at, int prot, enum dmamap_view view)
{
	/* Host pages, each a run of simulated ones: mmap maps nothing smaller. */
	unsigned long k = 1UL << dmamap__port_map_order();
	uint8_t *va;

	if (n % k || (at & (dmamap__host_page_size() - 1)))
		return NULL;
	va = dmamap__mmap((void *)at, n * PAGE_SIZE, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | (at ? MAP_FIXED_NOREPLACE : 0), -1, 0);
	if (va == MAP_FAILED)
		return NULL;
	for (unsigned long i = 0; i < n; i += k) {
		u64 off;
		int fd = host_unit_fd(p, phys + i, k, view, &off);

		if (fd < 0 || dmamap__mmap(va + i * PAGE_SIZE, k * PAGE_SIZE, prot, MAP_SHARED | MAP_FIXED,
					   fd, (off_t)off) == MAP_FAILED) {
			dmamap__munmap(va, n * PAGE_SIZE);
			return NULL;
		}
	}
	return va;
}

void *dmamap_phys_to_virt(struct dmamap_platform *p, phys_addr_t phys)
{
	if (!p)
		return NULL;
	return dmamap__phys_to_view(p, phys, VIEW_CPU);
}

/* ---- process-wide registry of linear maps ------------------------------- */

#define LINEAR_SLOTS 64

static struct linear_slot {
	struct dmamap_platform *p;
	uintptr_t cpu;
	u64 size;
	phys_addr_t phys;
} linear[LINEAR_SLOTS];
static pthread_rwlock_t linear_lock = PTHREAD_RWLOCK_INITIALIZER;

void dmamap__linear_register(struct dmamap_platform *p)
{
	pthread_rwlock_wrlock(&linear_lock);
	for (unsigned int b = 0; b < p->mach.nr_banks; b++) {
		for (unsigned int i = 0; i < LINEAR_SLOTS; i++) {
			if (linear[i].p)
				continue;
			linear[i].p = p;
			linear[i].cpu = (uintptr_t)p->mach.banks[b].cpu;
			linear[i].size = p->mach.banks[b].size;
			linear[i].phys = p->mach.banks[b].start;
			break;
		}
	}
	pthread_rwlock_unlock(&linear_lock);
}

void dmamap__linear_unregister(struct dmamap_platform *p)
{
	pthread_rwlock_wrlock(&linear_lock);
	for (unsigned int i = 0; i < LINEAR_SLOTS; i++)
		if (linear[i].p == p)
			memset(&linear[i], 0, sizeof(linear[i]));
	pthread_rwlock_unlock(&linear_lock);
}

struct dmamap_platform *dmamap__linear_owner(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	struct dmamap_platform *p = NULL;

	pthread_rwlock_rdlock(&linear_lock);
	for (unsigned int i = 0; i < LINEAR_SLOTS && !p; i++)
		if (linear[i].p && a >= linear[i].cpu && a - linear[i].cpu < linear[i].size)
			p = linear[i].p;
	pthread_rwlock_unlock(&linear_lock);
	return p;
}

phys_addr_t virt_to_phys(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	phys_addr_t phys = (phys_addr_t)a;

	pthread_rwlock_rdlock(&linear_lock);
	for (unsigned int i = 0; i < LINEAR_SLOTS; i++) {
		if (linear[i].p && a >= linear[i].cpu &&
		    a - linear[i].cpu < linear[i].size) {
			phys = linear[i].phys + (a - linear[i].cpu);
			break;
		}
	}
	pthread_rwlock_unlock(&linear_lock);
	return phys;
}

phys_addr_t page_to_phys(const struct page *page)
{
	return virt_to_phys(page);
}
