/* SPDX-License-Identifier: MIT */
/*
 * Chaos: seeded evictions and speculative fills of lines near each access,
 * as a real cache does on its own, so a driver that only works because
 * nothing moved its lines fails under some seed, and the same seed fails
 * again.
 */
#include <string.h>
#include "../../lib/lib.h"
#include "../../base/ram.h"
#include "sim.h"

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void dmamap__sim_chaos_tick_slow(struct dmamap_platform *p, phys_addr_t phys, size_t size)
{
	struct dmamap_sim *s = p->sim;
	phys_addr_t lmask = p->mach.line_size - 1, lo, hi, line;
	struct dmamap_bank *b;
	struct sim_bank *sb;
	uint64_t r, r2;
	u64 off;
	size_t li;

	pthread_mutex_lock(&s->chaos.lock);
	r = next_rand(&s->chaos.state);
	r2 = next_rand(&s->chaos.state);
	pthread_mutex_unlock(&s->chaos.lock);
	if (r % 1000 >= s->chaos.permille)
		return;
	/*
	 * Only whole lines of the buffer at hand: whoever calls owns them now
	 * (the driver at a sync, the device at its access). A neighbour's line,
	 * or a line this buffer shares with one, may be under another thread's
	 * stores at this moment, and a fill between our look and our copy
	 * would lose them; real caches lose no store to a speculative fill.
	 */
	lo = (phys + lmask) & ~lmask;
	hi = (phys + size) & ~lmask;
	if (hi <= lo || phys + size < phys)
		return;
	b = dmamap__bank_of_phys(p, lo, hi - lo);
	if (!b)
		return;
	sb = sim_bank(p, b);
	line = lo + ((r2 % ((hi - lo) >> p->mach.line_shift)) << p->mach.line_shift);
	off = line - b->start;
	/* A guarded page is the device's: the CPU's cache holds nothing of it to move. */
	if (sim_page_guarded(sb, off))
		return;
	li = (size_t)(off >> p->mach.line_shift);
	pthread_mutex_lock(sim_stripe(p, line));
	if ((sb->line_flags[li] & LINE_WRITTEN) ||
	    memcmp(b->cpu + off, sim_snap(p, b, off), p->mach.line_size) != 0) {
		dmamap__sim_writeback(p, NULL, b, off, "chaos eviction");
		__atomic_fetch_add(&s->cstats.chaos_evictions, 1, __ATOMIC_RELAXED);
	} else if (s->arch != DMAMAP_CACHE_ARMV5 && !(sb->line_flags[li] & LINE_ABSENT)) {
		dmamap__sim_refill(p, b, off);
		__atomic_fetch_add(&s->cstats.chaos_prefetches, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(sim_stripe(p, line));
}

int dmamap_sim_set_chaos(struct dmamap_platform *p, uint64_t seed,
			 unsigned int permille)
{
	struct dmamap_sim *s;

	if (!p || !p->sim)
		return -EINVAL;
	s = p->sim;
	pthread_mutex_lock(&s->chaos.lock);
	s->chaos.state = seed;
	s->chaos.permille = permille ? MIN(permille, 1000u) : 250;
	__atomic_store_n(&s->chaos_on, seed != 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&s->chaos.lock);
	return 0;
}
