/* SPDX-License-Identifier: MIT */
/*
 * What the CPU and the bus masters do to simulated RAM: a device reads
 * memory (a coherent one snoops the cache), writes memory, and the
 * library's own CPU copies dirty the lines they write.
 */
#include <string.h>
#include "../../lib/lib.h"
#include "../../base/observer.h"
#include "../../base/ram.h"
#include "sim.h"

/*
 * Where a device write of [@off, +@chunk) in @b lands: memory, and for a
 * snooping device the cached copy and the snapshot too, so those bytes are
 * consistent rather than device-changed; the lines remember their writer.
 * The caller holds the page's stripe lock.
 */
static void device_wrote(struct dmamap_platform *p, struct device *dev, struct dmamap_bank *b,
			 struct sim_bank *sb, u64 off, size_t chunk)
{
	size_t l0 = (size_t)(off >> p->mach.line_shift);
	size_t l1 = (size_t)((off + chunk - 1) >> p->mach.line_shift);

	uint16_t writer = (uint16_t)(dev->id + 1);
	uint16_t *w = sb->line_writer + l0;

	/* memmove: the compiler would inline memcpy here as rep movsq, a third slower. */
	if (dev->coherent) {
		const uint8_t *mem = sim_mem(p, b, off);

		memmove(b->cpu + off, mem, chunk);
		memmove(sim_snap(p, b, off), mem, chunk);
	}
	for (size_t n = l1 - l0 + 1; n; n--)
		*w++ = writer;
}

void dmamap__sim_note_device_write(struct dmamap_platform *p, struct device *dev,
				   phys_addr_t phys, size_t len)
{
	struct dmamap_bank *b = dmamap__bank_of_phys(p, phys, len);
	struct sim_bank *sb;
	u64 off;

	if (!b || !len)
		return;
	sb = sim_bank(p, b);
	off = phys - b->start;
	for (u64 l = off >> p->mach.line_shift; l <= (off + len - 1) >> p->mach.line_shift; l++)
		__atomic_store_n(&sb->line_writer[l], (uint16_t)(dev->id + 1), __ATOMIC_RELAXED);
}

int dmamap__sim_device_access(struct device *dev, phys_addr_t phys, void *buf,
			      size_t len, bool write)
{
	/* One branch when the board is in order, or no coherent memory is followed there. */
	if (unlikely(dmamap__sim_order_covers(dev->plat, phys, len)))
		return dmamap__sim_order_access(dev, phys, buf, len, write, dmamap__in_model);
	return dmamap__sim_device_access_plain(dev, phys, buf, len, write);
}

int dmamap__sim_device_access_plain(struct device *dev, phys_addr_t phys, void *buf,
				    size_t len, bool write)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_bank *b = dmamap__bank_of_phys(p, phys, len);
	struct sim_bank *sb;
	uint8_t *io = buf;

	if (!b)
		return -EFAULT;
	sb = sim_bank(p, b);
	dmamap__sim_chaos_tick(p, phys, len);
	/* One page at a time: one stripe lock covers all its lines. */
	while (len) {
		u64 off = phys - b->start;
		size_t chunk = MIN(len, (size_t)(PAGE_SIZE - (off & (PAGE_SIZE - 1))));
		pthread_mutex_t *lock = sim_stripe(p, phys);

		pthread_mutex_lock(lock);
		if (write) {
			memcpy(sim_mem(p, b, off), io, chunk);
			/*
			 * Were the snapshot of a snooped write left behind, a later
			 * CPU store to the same bytes would make the next clean (or a
			 * chaos eviction) report the device's old bytes as lost.
			 */
			device_wrote(p, dev, b, sb, off, chunk);
		} else if (dev->coherent) {
			/*
			 * A snoop is served by the cache: the CPU view. As on real
			 * interconnects, a clean line that is stale because a
			 * non-coherent master wrote around it is served stale too.
			 */
			memcpy(io, b->cpu + off, chunk);
		} else {
			memcpy(io, sim_mem(p, b, off), chunk);
		}
		pthread_mutex_unlock(lock);
		io += chunk;
		phys += chunk;
		len -= chunk;
	}
	return 0;
}

int dmamap__sim_device_transfer(struct device *dev, phys_addr_t dst, phys_addr_t src, size_t len)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_bank *bs = dmamap__bank_of_phys(p, src, len);
	struct dmamap_bank *bd = dmamap__bank_of_phys(p, dst, len);
	struct sim_bank *sd;

	if (!bs || !bd)
		return -EFAULT;
	sd = sim_bank(p, bd);
	dmamap__sim_chaos_tick(p, src, len);
	dmamap__sim_chaos_tick(p, dst, len);
	while (len) {
		u64 soff = src - bs->start, doff = dst - bd->start;
		size_t chunk = MIN(len, (size_t)(PAGE_SIZE - (soff & (PAGE_SIZE - 1))));
		pthread_mutex_t *ls = sim_stripe(p, src), *ld = sim_stripe(p, dst);
		/* A snoop reads the CPU view (stale if a non-coherent master wrote around it). */
		const uint8_t *from;

		chunk = MIN(chunk, (size_t)(PAGE_SIZE - (doff & (PAGE_SIZE - 1))));
		from = dev->coherent ? bs->cpu + soff : sim_mem(p, bs, soff);
		/* Two stripes: always in address order, so two transfers never wait on each other. */
		pthread_mutex_lock(ls < ld ? ls : ld);
		if (ls != ld)
			pthread_mutex_lock(ls < ld ? ld : ls);
		memmove(sim_mem(p, bd, doff), from, chunk);
		device_wrote(p, dev, bd, sd, doff, chunk);
		if (ls != ld)
			pthread_mutex_unlock(ls < ld ? ld : ls);
		pthread_mutex_unlock(ls < ld ? ls : ld);
		src += chunk;
		dst += chunk;
		len -= chunk;
	}
	return 0;
}

long dmamap__sim_cpu_dirty_offset(struct dmamap_platform *p, phys_addr_t phys, size_t size)
{
	struct dmamap_bank *b = dmamap__bank_of_phys(p, phys, size);
	phys_addr_t end = phys + size, at = phys;
	struct sim_bank *sb;

	if (!b)
		return -1;
	sb = sim_bank(p, b);
	while (at < end) {
		phys_addr_t page_end = MIN((at | (PAGE_SIZE - 1)) + 1, end);
		u64 off = at - b->start, n = page_end - at;
		pthread_mutex_t *lock = sim_stripe(p, at);
		long found = -1;

		pthread_mutex_lock(lock);
		/* A guarded page cannot be dirty: a CPU write to it would have trapped. */
		const uint8_t *cpu = b->cpu + off, *snap = sim_snap(p, b, off), *mem = sim_mem(p, b, off);

		if (!sim_page_guarded(sb, off) && memcmp(cpu, snap, (size_t)n) != 0) {
			for (u64 i = 0; i < n; i++) {
				if (cpu[i] != snap[i] && cpu[i] != mem[i]) {
					found = (long)(at + i - phys);
					break;
				}
			}
		}
		pthread_mutex_unlock(lock);
		if (found >= 0)
			return found;
		at = page_end;
	}
	return -1;
}

void dmamap__sim_cpu_write(struct dmamap_platform *p, phys_addr_t dst, const void *src,
			   size_t len)
{
	struct dmamap_bank *b = dmamap__bank_of_phys(p, dst, len);
	const uint8_t *in = src;
	struct sim_bank *sb;

	if (!b)
		return;
	sb = sim_bank(p, b);
	dmamap__notify_cpu_write(p, dst, len);
	while (len) {
		u64 off = dst - b->start;
		size_t chunk = MIN(len, (size_t)(PAGE_SIZE - (off & (PAGE_SIZE - 1))));
		pthread_mutex_t *lock = sim_stripe(p, dst);

		pthread_mutex_lock(lock);
		dmamap__sim_guard_lift(p, b, off, true);
		/* The source may be memory another mapping guards: the library reads it, not the driver. */
		dmamap__sim_lift_range(p, in, chunk, true);
		memcpy(b->cpu + off, in, chunk);
		dmamap__sim_lift_range(p, in, chunk, false);
		dmamap__sim_guard_lift(p, b, off, false);
		for (u64 l = off >> p->mach.line_shift; l <= (off + chunk - 1) >> p->mach.line_shift;
		     l++)
			sb->line_flags[l] |= LINE_WRITTEN;
		pthread_mutex_unlock(lock);
		dst += chunk;
		in += chunk;
		len -= chunk;
	}
}
