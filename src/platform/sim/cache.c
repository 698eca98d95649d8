/* SPDX-License-Identifier: MIT */
/*
 * The non-coherent data cache. Per line the model compares three copies:
 * the CPU view (what a cached CPU access sees), the memory view (what a
 * non-coherent device sees) and the snapshot taken at the line's last fill
 * or clean. CPU view != snapshot: the CPU dirtied the line. Memory view !=
 * snapshot: a device (or an uncached write) changed memory under it.
 * Both at once is a conflict: whichever maintenance comes next loses one
 * side's bytes, and the model records which.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include "../../base/observer.h"
#include "../../base/report.h"
#include "../../base/ram.h"
#include "sim.h"

enum line_op { LINE_CLEAN, LINE_INVAL, LINE_FLUSH, LINE_REFILL_ABSENT };

struct range_ctx {
	struct dmamap_platform *p;
	struct device *dev;
	phys_addr_t start, end; /* the buffer, not rounded */
	const char *cause;
	bool quiet; /* record, but do not report: the loss is by design */
};

static void record(struct dmamap_platform *p, struct device *dev,
		   enum dmamap_sim_event_kind kind, phys_addr_t line,
		   unsigned int first, unsigned int nbytes, bool conflict,
		   uint16_t writer, const char *cause, bool quiet)
{
	struct dmamap_sim *s = p->sim;
	struct dmamap_sim_event ev = { 0 };

	ev.kind = kind;
	ev.line = line;
	ev.first_byte = first;
	ev.nbytes = nbytes;
	ev.conflict = conflict;
	ev.cause = cause;
	if (writer)
		dmamap__device_name_of(p, (uint16_t)(writer - 1), ev.device);
	pthread_mutex_lock(&s->ev_lock);
	s->events[(s->ev_head + s->ev_count) % SIM_EVENTS] = ev;
	if (s->ev_count < SIM_EVENTS)
		s->ev_count++;
	else
		s->ev_head = (s->ev_head + 1) % SIM_EVENTS;
	if (conflict)
		s->cstats.conflicts++;
	if (kind == DMAMAP_SIM_CPU_DATA_LOST) {
		s->cstats.dirty_lines_lost++;
		s->cstats.cpu_bytes_lost += nbytes;
	} else {
		s->cstats.device_bytes_lost += nbytes;
	}
	pthread_mutex_unlock(&s->ev_lock);
	dmamap__notify_line_lost(p, dev, kind == DMAMAP_SIM_CPU_DATA_LOST ? LOSS_CPU_DATA :
									    LOSS_DEVICE_DATA,
				 line + first, nbytes);
	if (quiet)
		return;
	if (kind == DMAMAP_SIM_CPU_DATA_LOST)
		dmamap__report(p, dev, DMAMAP_DBG_CPU_DATA_LOST,
			       "%s discarded CPU-dirty cache line [phys=0x%llx] bytes %u-%u%s%s",
			       cause, (unsigned long long)line, first,
			       first + nbytes - 1,
			       conflict ? ", also written by device " : "",
			       conflict ? (ev.device[0] ? ev.device : "?") : "");
	else
		dmamap__report(p, dev, DMAMAP_DBG_DEVICE_DATA_LOST,
			       "%s wrote back a CPU-dirty cache line over device data [phys=0x%llx] bytes %u-%u written by device %s",
			       cause, (unsigned long long)line, first,
			       first + nbytes - 1,
			       ev.device[0] ? ev.device : "?");
}

bool dmamap__sim_diff_span(const uint8_t *a, const uint8_t *b, const uint8_t *c,
			   unsigned int n, unsigned int *first, unsigned int *count)
{
	unsigned int lo = n, hi = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (a[i] != b[i] && (!c || c[i] != a[i])) {
			if (lo == n)
				lo = i;
			hi = i;
		}
	}
	if (lo == n)
		return false;
	*first = lo;
	*count = hi - lo + 1;
	return true;
}

void dmamap__sim_writeback(struct dmamap_platform *p, struct device *dev,
			   struct dmamap_bank *b, u64 off, const char *cause)
{
	struct sim_bank *sb = sim_bank(p, b);
	unsigned int n = p->mach.line_size, first, count;
	uint8_t *cpu = b->cpu + off, *mem = sim_mem(p, b, off), *snap = sim_snap(p, b, off);
	size_t li = (size_t)(off >> p->mach.line_shift);

	/* Device bytes that the stale CPU copy is about to overwrite. */
	if (dmamap__sim_diff_span(mem, snap, cpu, n, &first, &count))
		record(p, dev, DMAMAP_SIM_DEVICE_DATA_LOST, b->start + off, first,
		       count, true, sb->line_writer[li], cause, false);
	memcpy(mem, cpu, n);
	memcpy(snap, cpu, n);
	sb->line_flags[li] &= (uint8_t)~LINE_WRITTEN;
	__atomic_fetch_add(&p->sim->cstats.lines_written_back, 1, __ATOMIC_RELAXED);
}

void dmamap__sim_refill(struct dmamap_platform *p, struct dmamap_bank *b, u64 off)
{
	struct sim_bank *sb = sim_bank(p, b);

	const uint8_t *mem = sim_mem(p, b, off);

	memcpy(b->cpu + off, mem, p->mach.line_size);
	memcpy(sim_snap(p, b, off), mem, p->mach.line_size);
	sb->line_flags[off >> p->mach.line_shift] &= (uint8_t)~LINE_WRITTEN;
}

static void do_line(struct range_ctx *c, struct dmamap_bank *b, u64 off,
		    enum line_op op)
{
	struct dmamap_platform *p = c->p;
	struct sim_bank *sb = sim_bank(p, b);
	unsigned int n = p->mach.line_size, first = 0, count = 0;
	uint8_t *cpu = b->cpu + off, *snap = sim_snap(p, b, off), *mem = sim_mem(p, b, off);
	size_t li = (size_t)(off >> p->mach.line_shift);
	phys_addr_t line = b->start + off;
	bool dirty = (sb->line_flags[li] & LINE_WRITTEN) || memcmp(cpu, snap, n) != 0;
	bool partial = line < c->start || line + n > c->end;
	bool armv5 = p->sim->arch == DMAMAP_CACHE_ARMV5;

	switch (op) {
	case LINE_CLEAN:
		if (dirty)
			dmamap__sim_writeback(p, c->dev, b, off, c->cause);
		break;
	case LINE_INVAL:
		if (dirty && partial && p->sim->edge == DMAMAP_EDGE_CLEAN_INVALIDATE) {
			dmamap__sim_writeback(p, c->dev, b, off, c->cause);
		} else if (dirty && dmamap__sim_diff_span(cpu, snap, mem, n, &first, &count)) {
			/* Dirty bytes equal to memory lose nothing when discarded. */
			bool conflict = memcmp(mem, snap, n) != 0;

			record(p, c->dev, DMAMAP_SIM_CPU_DATA_LOST, line, first,
			       count, conflict, sb->line_writer[li], c->cause,
			       c->quiet && !conflict);
		}
		dmamap__sim_refill(p, b, off);
		if (armv5)
			sb->line_flags[li] |= LINE_ABSENT;
		break;
	case LINE_FLUSH:
		if (dirty)
			dmamap__sim_writeback(p, c->dev, b, off, c->cause);
		dmamap__sim_refill(p, b, off);
		if (armv5)
			sb->line_flags[li] |= LINE_ABSENT;
		break;
	case LINE_REFILL_ABSENT:
		/* armv5: an invalidated line comes back only when the CPU reads it. */
		if (sb->line_flags[li] & LINE_ABSENT) {
			sb->line_flags[li] &= (uint8_t)~LINE_ABSENT;
			if (!dirty)
				dmamap__sim_refill(p, b, off);
		}
		break;
	}
}

/*
 * A page inside the buffer with no CPU-dirty byte (the common case) needs
 * no per-line work: nothing to clean, and an invalidate is a refill. One
 * bulk compare decides; false sends the page through do_line().
 */
static bool whole_clean_page(struct range_ctx *c, struct dmamap_bank *b, u64 off,
			     enum line_op op)
{
	struct dmamap_platform *p = c->p;
	struct sim_bank *sb = sim_bank(p, b);
	const uint8_t *flags = sb->line_flags + (off >> p->mach.line_shift);
	unsigned int lines = PAGE_SIZE >> p->mach.line_shift;

	if (op == LINE_REFILL_ABSENT || p->sim->arch == DMAMAP_CACHE_ARMV5 ||
	    c->start > b->start + off || c->end < b->start + off + PAGE_SIZE ||
	    memcmp(b->cpu + off, sim_snap(p, b, off), PAGE_SIZE) != 0)
		return false;
	for (unsigned int i = 0; i < lines; i++)
		if (flags[i] & LINE_WRITTEN)
			return false;
	if (op != LINE_CLEAN) {
		const uint8_t *mem = sim_mem(p, b, off);

		memcpy(b->cpu + off, mem, PAGE_SIZE);
		memcpy(sim_snap(p, b, off), mem, PAGE_SIZE);
	}
	return true;
}

/* Apply @op to every line touching [phys, phys+size); returns lines seen. */
static u64 for_lines(struct device *dev, phys_addr_t phys, size_t size,
		     enum line_op op, const char *cause, bool quiet)
{
	struct dmamap_platform *p = dev->plat;
	struct range_ctx c = { p, dev, phys, phys + size, cause, quiet };
	phys_addr_t lmask = p->mach.line_size - 1;
	phys_addr_t l = phys & ~lmask, end = (phys + size + lmask) & ~lmask;
	struct dmamap_bank *b = dmamap__bank_of_phys(p, l, end - l);
	u64 nlines = (end - l) >> p->mach.line_shift;

	if (!b)
		return 0;
	while (l < end) {
		phys_addr_t page_end = (l | (PAGE_SIZE - 1)) + 1;
		pthread_mutex_t *lock = sim_stripe(p, l);

		u64 page_off = (l - b->start) & ~(u64)(PAGE_SIZE - 1);

		pthread_mutex_lock(lock);
		dmamap__sim_guard_lift(p, b, page_off, true);
		if (!(l & (PAGE_SIZE - 1)) && page_end <= end &&
		    whole_clean_page(&c, b, l - b->start, op)) {
			l = page_end;
		} else {
			for (; l < end && l < page_end; l += p->mach.line_size)
				do_line(&c, b, l - b->start, op);
		}
		dmamap__sim_guard_lift(p, b, page_off, false);
		pthread_mutex_unlock(lock);
	}
	return nlines;
}

/*
 * arm64: for_device cleans, whatever the direction (a dirty line could be
 * evicted onto the device's data later); for_cpu invalidates unless the
 * device only read. armv5 does not speculate: it invalidates at for_device
 * for FROM_DEVICE (and flushes for BIDIRECTIONAL) and has nothing to do at
 * for_cpu.
 */
void dmamap__sim_sync_for_device(struct device *dev, phys_addr_t phys,
				 size_t size, enum dma_data_direction dir)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_sim *s = p->sim;
	u64 lines, bytes;

	dmamap__sim_chaos_tick(p, phys, size);
	if (s->arch == DMAMAP_CACHE_ARMV5 && dir != DMA_TO_DEVICE) {
		/*
		 * What the CPU wrote into a FROM_DEVICE buffer before mapping it
		 * is discarded here by design (the device is to overwrite it):
		 * recorded, not reported, unless the device had written too.
		 */
		lines = for_lines(dev, phys, size,
				  dir == DMA_FROM_DEVICE ? LINE_INVAL : LINE_FLUSH,
				  "invalidate for device", true);
		bytes = lines << p->mach.line_shift;
		dmamap__stat_add(dev, ST_INVALIDATED, bytes);
		__atomic_fetch_add(&s->cstats.lines_invalidated, lines, __ATOMIC_RELAXED);
		if (dir == DMA_BIDIRECTIONAL) {
			dmamap__stat_add(dev, ST_CLEANED, bytes);
			__atomic_fetch_add(&s->cstats.lines_cleaned, lines, __ATOMIC_RELAXED);
		}
		return;
	}
	lines = for_lines(dev, phys, size, LINE_CLEAN, "clean for device", false);
	dmamap__stat_add(dev, ST_CLEANED, lines << p->mach.line_shift);
	__atomic_fetch_add(&s->cstats.lines_cleaned, lines, __ATOMIC_RELAXED);
}

void dmamap__sim_sync_for_cpu(struct device *dev, phys_addr_t phys,
			      size_t size, enum dma_data_direction dir)
{
	struct dmamap_platform *p = dev->plat;
	u64 lines;

	dmamap__sim_chaos_tick(p, phys, size);
	if (dir == DMA_TO_DEVICE)
		return;
	if (p->sim->arch == DMAMAP_CACHE_ARMV5) {
		for_lines(dev, phys, size, LINE_REFILL_ABSENT, "cpu read", false);
		return;
	}
	lines = for_lines(dev, phys, size, LINE_INVAL, "invalidate for cpu", false);
	dmamap__stat_add(dev, ST_INVALIDATED, lines << p->mach.line_shift);
	__atomic_fetch_add(&p->sim->cstats.lines_invalidated, lines, __ATOMIC_RELAXED);
}

/*
 * Zero @len bytes at @at of private anonymous memory: whole pages are
 * dropped (they read back as zero and cost nothing until written), the
 * edges cleared.
 */
static void zero_private(uint8_t *at, size_t len)
{
	uintptr_t a = ((uintptr_t)at + PAGE_SIZE - 1) & ~(uintptr_t)(PAGE_SIZE - 1);
	uintptr_t e = ((uintptr_t)at + len) & ~(uintptr_t)(PAGE_SIZE - 1);

	if (e <= a || madvise((void *)a, e - a, MADV_DONTNEED)) {
		memset(at, 0, len);
		return;
	}
	memset(at, 0, a - (uintptr_t)at);
	memset((void *)e, 0, (uintptr_t)at + len - e);
}

/*
 * Zero [@off, +@len) of a bank's memfd: holes punched in whole pages (they
 * cost nothing until written again), the edges cleared through @at, which
 * gives the bytes at an offset (good to the end of that page).
 */
static void zero_file(struct dmamap_platform *p, struct dmamap_bank *b, int fd, u64 off,
		      size_t len, uint8_t *(*at)(struct dmamap_platform *, struct dmamap_bank *, u64))
{
	u64 a = (off + PAGE_SIZE - 1) & ~(u64)(PAGE_SIZE - 1), e = (off + len) & ~(u64)(PAGE_SIZE - 1);

	if (e <= a ||
	    fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)a, (off_t)(e - a))) {
		a = e = off + len; /* nothing punched: clear it all, a page at a time */
	}
	for (u64 o = off; o < a;) {
		size_t n = (size_t)MIN(a - o, PAGE_SIZE - (o & (PAGE_SIZE - 1)));

		memset(at(p, b, o), 0, n);
		o += n;
	}
	if (e < off + len)
		memset(at(p, b, e), 0, (size_t)(off + len - e));
}

static uint8_t *cpu_at(struct dmamap_platform *p, struct dmamap_bank *b, u64 off)
{
	(void)p;
	return b->cpu + off;
}

void dmamap__sim_reset_range(struct dmamap_platform *p, phys_addr_t phys,
			     size_t size, bool zero)
{
	struct dmamap_bank *b = dmamap__bank_of_phys(p, phys, size);
	struct sim_bank *sb;
	u64 off, loff, lend;

	if (!b)
		return;
	sb = sim_bank(p, b);
	off = phys - b->start;
	if (zero) {
		/* Large pools are zeroed without touching their pages. */
		zero_file(p, b, b->fd_mem, off, size, sim_mem);
		zero_file(p, b, b->fd_cpu, off, size, cpu_at);
	}
	/* A chunk at a time: the memory and the snapshot are mapped by chunks. */
	for (u64 o = off; o < off + size;) {
		size_t n = (size_t)MIN(off + size - o, SIM_CHUNK_SIZE - (o & (SIM_CHUNK_SIZE - 1)));
		uint8_t *snap = __atomic_load_n(&sb->snap[o >> SIM_CHUNK_SHIFT], __ATOMIC_ACQUIRE);

		if (zero) {
			/* A snapshot chunk not mapped yet is zero already. */
			if (snap)
				zero_private(snap + (o & (SIM_CHUNK_SIZE - 1)), n);
		} else {
			memcpy(b->cpu + o, sim_mem(p, b, o), n);
			memcpy(sim_snap(p, b, o), sim_mem(p, b, o), n);
		}
		o += n;
	}
	loff = off >> p->mach.line_shift;
	lend = (off + size + p->mach.line_size - 1) >> p->mach.line_shift;
	zero_private((uint8_t *)(sb->line_writer + loff), (size_t)(lend - loff) * sizeof(uint16_t));
	zero_private(sb->line_flags + loff, (size_t)(lend - loff));
}
