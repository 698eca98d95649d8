/* SPDX-License-Identifier: MIT */
/*
 * Simulated RAM: each bank is two memfds, the CPU view (the linear map,
 * memory plus what the data cache holds), mapped whole, and the memory
 * view (what devices see), mapped by chunks as the model first needs them,
 * with an anonymous snapshot of both at each line's last fill or clean,
 * chunked alike. The CPU's uncached and write-combining aliases are mapped
 * per allocation (memory.c), as the kernel remaps them.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sim.h"
#include "../../lib/mem.h"

static int make_fd(const char *name, u64 size)
{
	int fd = dmamap__memfd_create(name, MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0) {
		dmamap__memfd_close(fd);
		return -1;
	}
	return fd;
}

static size_t chunk_len(const struct dmamap_bank *b, size_t i)
{
	return (size_t)MIN(SIM_CHUNK_SIZE, b->size - ((u64)i << SIM_CHUNK_SHIFT));
}

uint8_t *dmamap__sim_chunk(struct dmamap_platform *p, struct dmamap_bank *b, u64 off, bool snap)
{
	struct dmamap_sim *s = p->sim;
	struct sim_bank *sb = sim_bank(p, b);
	size_t i = (size_t)(off >> SIM_CHUNK_SHIFT);
	uint8_t **slot = snap ? &sb->snap[i] : &sb->mem[i];
	uint8_t *c;

	pthread_mutex_lock(&s->chunk_lock);
	c = *slot;
	if (!c) {
		c = snap ? dmamap__mmap_unfailing(NULL, chunk_len(b, i), PROT_READ | PROT_WRITE,
						  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) :
			   dmamap__mmap_unfailing(NULL, chunk_len(b, i), PROT_READ | PROT_WRITE,
						  MAP_SHARED, b->fd_mem, (off_t)i << SIM_CHUNK_SHIFT);
		if (c == MAP_FAILED) {
			/*
			 * Work that cannot fail (a cache clean, a device's read)
			 * needs these bytes: a host whose address space is full
			 * cannot go on simulating.
			 */
			fprintf(stderr,
				"dmamap: no address space left on this host for 2 MiB of simulated RAM at 0x%llx (%s)\n",
				(unsigned long long)(b->start + ((u64)i << SIM_CHUNK_SHIFT)),
				snap ? "cache snapshot" : "memory");
			abort();
		}
		__atomic_store_n(slot, c, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&s->chunk_lock);
	return c;
}

static void bank_fini(struct dmamap_bank *b, struct sim_bank *sb)
{
	for (size_t i = 0; i < sb->nchunks; i++) {
		if (sb->mem && sb->mem[i])
			dmamap__munmap(sb->mem[i], chunk_len(b, i));
		if (sb->snap && sb->snap[i])
			dmamap__munmap(sb->snap[i], chunk_len(b, i));
	}
	free(sb->mem);
	free(sb->snap);
	if (b->cpu)
		dmamap__munmap(b->cpu, (size_t)b->size);
	if (b->fd_mem >= 0)
		dmamap__memfd_close(b->fd_mem);
	if (b->fd_cpu >= 0)
		dmamap__memfd_close(b->fd_cpu);
	if (sb->line_writer)
		dmamap__munmap(sb->line_writer, sb->nlines * sizeof(uint16_t));
	if (sb->line_flags)
		dmamap__munmap(sb->line_flags, sb->nlines);
	if (sb->guard)
		dmamap__munmap(sb->guard, sb->npages);
	memset(b, 0, sizeof(*b));
	memset(sb, 0, sizeof(*sb));
	b->fd_cpu = b->fd_mem = -1;
}

static int bank_init(struct dmamap_platform *p, struct dmamap_bank *b, struct sim_bank *sb,
		     phys_addr_t start, u64 size)
{
	size_t nlines = (size_t)(size >> p->mach.line_shift);
	void *cpu;

	b->start = start;
	b->size = size;
	b->fd_cpu = make_fd("dmamap-cpu-view", size);
	b->fd_mem = make_fd("dmamap-mem-view", size);
	if (b->fd_cpu < 0 || b->fd_mem < 0)
		return -ENOMEM;
	cpu = dmamap__mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd_cpu, 0);
	b->cpu = cpu == MAP_FAILED ? NULL : cpu;
	sb->nchunks = (size_t)((size + SIM_CHUNK_SIZE - 1) >> SIM_CHUNK_SHIFT);
	sb->mem = dmamap__calloc(sb->nchunks, sizeof(*sb->mem));
	sb->snap = dmamap__calloc(sb->nchunks, sizeof(*sb->snap));
	sb->nlines = nlines;
	sb->npages = (size_t)(size >> sim_guard_shift()) + 1;
	/* Per-line and per-page bookkeeping: a large board's runs to gigabytes, reserved, not committed. */
	sb->line_writer = dmamap__zeroed_pages(nlines * sizeof(uint16_t));
	sb->line_flags = dmamap__zeroed_pages(nlines);
	sb->guard = dmamap__zeroed_pages(sb->npages);
	if (!b->cpu || !sb->mem || !sb->snap || !sb->line_writer || !sb->line_flags || !sb->guard)
		return -ENOMEM;
	return 0;
}

int dmamap__sim_init(struct dmamap_platform *p, const struct dmamap_board *board,
		     struct dmamap_error *err)
{
	struct dmamap_sim *s = dmamap__calloc(1, sizeof(*s));

	if (!s) {
		dmamap__set_error(err, -ENOMEM, "board %s: out of memory", p->name);
		return -ENOMEM;
	}
	s->arch = board->arch;
	s->edge = board->edge_policy;
	pthread_mutex_init(&s->ev_lock, NULL);
	pthread_mutex_init(&s->chunk_lock, NULL);
	pthread_mutex_init(&s->chaos.lock, NULL);
	for (unsigned int i = 0; i < STRIPE_LOCKS; i++)
		pthread_mutex_init(&s->stripe[i], NULL);
	p->sim = s;
	if (dmamap__sim_order_init(p, board->memory_model)) {
		dmamap__set_error(err, -ENOMEM, "board %s: out of memory", p->name);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < board->nr_banks; i++) {
		struct dmamap_bank *b = &p->mach.banks[i];
		int ret;

		b->fd_cpu = b->fd_mem = -1;
		p->mach.nr_banks = i + 1;
		ret = bank_init(p, b, &s->banks[i], board->banks[i].start, board->banks[i].size);
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

void dmamap__sim_fini(struct dmamap_platform *p)
{
	struct dmamap_sim *s = p->sim;

	if (!s)
		return;
	dmamap__sim_order_fini(p);
	for (unsigned int i = 0; i < p->mach.nr_banks; i++)
		bank_fini(&p->mach.banks[i], &s->banks[i]);
	p->mach.nr_banks = 0;
	pthread_mutex_destroy(&s->ev_lock);
	pthread_mutex_destroy(&s->chunk_lock);
	pthread_mutex_destroy(&s->chaos.lock);
	for (unsigned int i = 0; i < STRIPE_LOCKS; i++)
		pthread_mutex_destroy(&s->stripe[i]);
	free(s);
	p->sim = NULL;
}
