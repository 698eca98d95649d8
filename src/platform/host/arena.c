/* SPDX-License-Identifier: MIT */
/* The host arena: one memfd mapped once; its physical address is its virtual one. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "host.h"
#include "../../lib/mem.h"

int dmamap__host_init(struct dmamap_platform *p, u64 size)
{
	struct dmamap_bank *b = &p->mach.banks[0];
	void *m;

	memset(b, 0, sizeof(*b));
	b->fd_cpu = b->fd_mem = dmamap__memfd_create("dmamap-host-arena", MFD_CLOEXEC);
	if (b->fd_cpu < 0)
		return -ENOMEM;
	if (ftruncate(b->fd_cpu, (off_t)size) < 0 ||
	    (m = dmamap__mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd_cpu, 0)) ==
		    MAP_FAILED) {
		dmamap__memfd_close(b->fd_cpu);
		b->fd_cpu = b->fd_mem = -1;
		return -ENOMEM;
	}
	b->size = size;
	b->cpu = m;
	b->start = (phys_addr_t)(uintptr_t)m;
	p->mach.nr_banks = 1;
	return 0;
}

void dmamap__host_fini(struct dmamap_platform *p)
{
	struct dmamap_bank *b = &p->mach.banks[0];

	if (!p->mach.nr_banks)
		return;
	dmamap__munmap(b->cpu, (size_t)b->size);
	dmamap__memfd_close(b->fd_cpu);
	memset(b, 0, sizeof(*b));
	p->mach.nr_banks = 0;
}
