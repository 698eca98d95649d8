/* SPDX-License-Identifier: MIT */
/*
 * Simulated RAM: each bank is two memfds, the memory view (what devices
 * see; mapped twice, as the uncached and the write-combining alias) and the
 * CPU view (the linear map, memory plus what the data cache holds), and an
 * anonymous snapshot of both at each line's last fill or clean.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "../../internal.h"

static void *map_fd(int fd, u64 size)
{
	void *m = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);

	return m == MAP_FAILED ? NULL : m;
}

static int make_fd(const char *name, u64 size)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void bank_fini(struct dmamap_bank *b)
{
	size_t sz = (size_t)b->size;

	if (b->wc && b->wc != b->mem)
		munmap(b->wc, sz);
	if (b->mem && b->mem != b->cpu)
		munmap(b->mem, sz);
	if (b->cpu)
		munmap(b->cpu, sz);
	if (b->snap)
		munmap(b->snap, sz);
	if (b->fd_mem >= 0 && b->fd_mem != b->fd_cpu)
		close(b->fd_mem);
	if (b->fd_cpu >= 0)
		close(b->fd_cpu);
	free(b->line_writer);
	free(b->line_flags);
	memset(b, 0, sizeof(*b));
	b->fd_cpu = b->fd_mem = -1;
}

static int bank_init(struct dmamap_platform *p, struct dmamap_bank *b,
		     phys_addr_t start, u64 size)
{
	size_t nlines = (size_t)(size >> p->line_shift);
	void *snap;

	b->start = start;
	b->size = size;
	b->fd_cpu = make_fd("dmamap-cpu-view", size);
	b->fd_mem = make_fd("dmamap-mem-view", size);
	if (b->fd_cpu < 0 || b->fd_mem < 0)
		return -ENOMEM;
	b->cpu = map_fd(b->fd_cpu, size);
	b->mem = map_fd(b->fd_mem, size);
	b->wc = map_fd(b->fd_mem, size);
	snap = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	b->snap = snap == MAP_FAILED ? NULL : snap;
	b->line_writer = calloc(nlines, sizeof(uint16_t));
	b->line_flags = calloc(nlines, 1);
	if (!b->cpu || !b->mem || !b->wc || !b->snap || !b->line_writer ||
	    !b->line_flags)
		return -ENOMEM;
	return 0;
}

int dmamap__sim_ram_init(struct dmamap_platform *p,
			 const struct dmamap_board *board,
			 struct dmamap_error *err)
{
	for (unsigned int i = 0; i < board->nr_banks; i++) {
		struct dmamap_bank *b = &p->banks[i];
		int ret;

		b->fd_cpu = b->fd_mem = -1;
		p->nr_banks = i + 1;
		ret = bank_init(p, b, board->banks[i].start, board->banks[i].size);
		if (ret) {
			dmamap__set_error(err, ret,
					  "cannot reserve RAM bank %u (0x%llx bytes at 0x%llx)",
					  i, (unsigned long long)board->banks[i].size,
					  (unsigned long long)board->banks[i].start);
			return ret;
		}
	}
	return 0;
}

void dmamap__sim_ram_fini(struct dmamap_platform *p)
{
	for (unsigned int i = 0; i < p->nr_banks; i++)
		bank_fini(&p->banks[i]);
	p->nr_banks = 0;
}

/* The host arena: one memfd mapped once; physical address = virtual address. */
int dmamap__host_arena_init(struct dmamap_platform *p, u64 size)
{
	struct dmamap_bank *b = &p->banks[0];

	memset(b, 0, sizeof(*b));
	b->fd_cpu = b->fd_mem = make_fd("dmamap-host-arena", size);
	if (b->fd_cpu < 0)
		return -ENOMEM;
	b->size = size;
	b->cpu = map_fd(b->fd_cpu, size);
	if (!b->cpu) {
		close(b->fd_cpu);
		b->fd_cpu = b->fd_mem = -1;
		return -ENOMEM;
	}
	b->mem = b->wc = b->cpu;
	b->start = (phys_addr_t)(uintptr_t)b->cpu;
	p->nr_banks = 1;
	return 0;
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
