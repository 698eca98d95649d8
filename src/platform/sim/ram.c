/* SPDX-License-Identifier: MIT */
/*
 * Simulated RAM: each bank is two memfds, the memory view (what devices
 * see; mapped twice, as the uncached and the write-combining alias) and the
 * CPU view (the linear map, memory plus what the data cache holds), and an
 * anonymous snapshot of both at each line's last fill or clean.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sim.h"
#include "../../lib/mem.h"

static void *map_fd(int fd, u64 size)
{
	void *m = dmamap__mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);

	return m == MAP_FAILED ? NULL : m;
}

/*
 * Per-line and per-page bookkeeping: a large board's runs to gigabytes, of
 * which a run touches a little, so it is reserved, not committed.
 */
static void *zeroed_pages(size_t len)
{
	void *m = dmamap__mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return m == MAP_FAILED ? NULL : m;
}

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

static void bank_fini(struct dmamap_bank *b, struct sim_bank *sb)
{
	size_t sz = (size_t)b->size;

	if (b->wc)
		dmamap__munmap(b->wc, sz);
	if (b->mem)
		dmamap__munmap(b->mem, sz);
	if (b->cpu)
		dmamap__munmap(b->cpu, sz);
	if (sb->snap)
		dmamap__munmap(sb->snap, sz);
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
	snap = dmamap__mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	sb->snap = snap == MAP_FAILED ? NULL : snap;
	sb->nlines = nlines;
	sb->npages = (size_t)(size >> sim_guard_shift()) + 1;
	sb->line_writer = zeroed_pages(nlines * sizeof(uint16_t));
	sb->line_flags = zeroed_pages(nlines);
	sb->guard = zeroed_pages(sb->npages);
	if (!b->cpu || !b->mem || !b->wc || !sb->snap || !sb->line_writer ||
	    !sb->line_flags || !sb->guard)
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
	pthread_mutex_destroy(&s->chaos.lock);
	for (unsigned int i = 0; i < STRIPE_LOCKS; i++)
		pthread_mutex_destroy(&s->stripe[i]);
	free(s);
	p->sim = NULL;
}
