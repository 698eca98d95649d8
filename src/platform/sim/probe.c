/* SPDX-License-Identifier: MIT */
/* The public probes of <dmamap/sim.h>: what the cache model counted and saw. */
#include <string.h>
#include "../../base/ram.h"
#include "sim.h"

int dmamap_sim_cache_stats(struct dmamap_platform *p,
			   struct dmamap_sim_cache_stats *s)
{
	if (!p || !s || !p->sim)
		return -EINVAL;
	pthread_mutex_lock(&p->sim->ev_lock);
	*s = p->sim->cstats;
	pthread_mutex_unlock(&p->sim->ev_lock);
	return 0;
}

unsigned int dmamap_sim_events(struct dmamap_platform *p,
			       struct dmamap_sim_event *out, unsigned int max)
{
	struct dmamap_sim *s;
	unsigned int n = 0;

	if (!p || !out || !p->sim)
		return 0;
	s = p->sim;
	pthread_mutex_lock(&s->ev_lock);
	for (; n < max && n < s->ev_count; n++)
		out[n] = s->events[(s->ev_head + n) % SIM_EVENTS];
	pthread_mutex_unlock(&s->ev_lock);
	return n;
}

void dmamap_sim_events_clear(struct dmamap_platform *p)
{
	if (!p || !p->sim)
		return;
	pthread_mutex_lock(&p->sim->ev_lock);
	p->sim->ev_head = p->sim->ev_count = 0;
	memset(&p->sim->cstats, 0, sizeof(p->sim->cstats));
	pthread_mutex_unlock(&p->sim->ev_lock);
}

int dmamap_sim_mem_read(struct dmamap_platform *p, phys_addr_t phys, void *dst,
			size_t len)
{
	struct dmamap_bank *b;

	if (!p || !dst || !len || !p->sim)
		return -EINVAL;
	b = dmamap__bank_of_phys(p, phys, len);
	if (!b)
		return -EFAULT;
	/* A chunk at a time: memory is mapped by chunks. */
	for (u64 off = phys - b->start; len;) {
		size_t n = (size_t)MIN(len, SIM_CHUNK_SIZE - (off & (SIM_CHUNK_SIZE - 1)));

		memcpy(dst, sim_mem(p, b, off), n);
		dst = (uint8_t *)dst + n;
		off += n;
		len -= n;
	}
	return 0;
}

int dmamap_sim_line_state(struct dmamap_platform *p, phys_addr_t phys,
			  bool *cpu_dirty, bool *dev_changed)
{
	struct dmamap_bank *b;
	unsigned int first, count;
	u64 off;

	if (!p || !cpu_dirty || !dev_changed || !p->sim)
		return -EINVAL;
	phys &= ~(phys_addr_t)(p->mach.line_size - 1);
	b = dmamap__bank_of_phys(p, phys, p->mach.line_size);
	if (!b)
		return -EFAULT;
	off = phys - b->start;
	pthread_mutex_lock(sim_stripe(p, phys));
	/* Bytes a snooping device wrote to both views count as neither. */
	*cpu_dirty = dmamap__sim_diff_span(b->cpu + off, sim_snap(p, b, off), sim_mem(p, b, off),
					   p->mach.line_size, &first, &count);
	*dev_changed = dmamap__sim_diff_span(sim_mem(p, b, off), sim_snap(p, b, off), b->cpu + off,
					     p->mach.line_size, &first, &count);
	pthread_mutex_unlock(sim_stripe(p, phys));
	return 0;
}

int dmamap_sim_set_memory_model(struct dmamap_platform *p, enum dmamap_memory_model model)
{
	if (!p || !p->sim || !p->sim->order)
		return -EINVAL;
	return dmamap__sim_order_set_model(p, model);
}

int dmamap_sim_memory_model(struct dmamap_platform *p)
{
	if (!p || !p->sim || !p->sim->order)
		return -EINVAL;
	return (int)dmamap__sim_order_model(p);
}

int dmamap_sim_order_stats(struct dmamap_platform *p, struct dmamap_sim_order_stats *s)
{
	if (!p || !s)
		return -EINVAL;
	if (!p->sim) {
		memset(s, 0, sizeof(*s));
		return 0;
	}
	dmamap__sim_order_stats(p, s);
	return 0;
}
