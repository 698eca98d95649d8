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
#include <string.h>
#include "../../internal.h"

enum line_op { LINE_CLEAN, LINE_INVAL, LINE_FLUSH, LINE_REFILL_ABSENT };

struct range_ctx {
	struct dmamap_platform *p;
	struct device *dev;
	phys_addr_t start, end; /* the buffer, not rounded */
	const char *cause;
	bool quiet; /* record, but do not report: the loss is by design */
};

static void writer_name(struct dmamap_platform *p, uint16_t id, char *out)
{
	out[0] = 0;
	if (!id)
		return;
	pthread_mutex_lock(&p->dev_lock);
	for (unsigned int i = 0; i < p->nr_devices; i++) {
		if (p->devices[i]->id == id - 1) {
			memcpy(out, p->devices[i]->name, DMAMAP_NAME_MAX);
			break;
		}
	}
	pthread_mutex_unlock(&p->dev_lock);
}

static void record(struct dmamap_platform *p, struct device *dev,
		   enum dmamap_sim_event_kind kind, phys_addr_t line,
		   unsigned int first, unsigned int nbytes, bool conflict,
		   uint16_t writer, const char *cause, bool quiet)
{
	struct dmamap_sim_event ev = { 0 };

	ev.kind = kind;
	ev.line = line;
	ev.first_byte = first;
	ev.nbytes = nbytes;
	ev.conflict = conflict;
	ev.cause = cause;
	writer_name(p, writer, ev.device);
	pthread_mutex_lock(&p->ev_lock);
	p->events[(p->ev_head + p->ev_count) % SIM_EVENTS] = ev;
	if (p->ev_count < SIM_EVENTS)
		p->ev_count++;
	else
		p->ev_head = (p->ev_head + 1) % SIM_EVENTS;
	if (conflict)
		p->cstats.conflicts++;
	if (kind == DMAMAP_SIM_CPU_DATA_LOST) {
		p->cstats.dirty_lines_lost++;
		p->cstats.cpu_bytes_lost += nbytes;
	} else {
		p->cstats.device_bytes_lost += nbytes;
	}
	pthread_mutex_unlock(&p->ev_lock);
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

/* Which bytes of a line differ between two copies: first offset and span. */
static bool diff_span(const uint8_t *a, const uint8_t *b, const uint8_t *c,
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

/* Write one CPU-dirty line back to memory. */
static void writeback(struct dmamap_platform *p, struct device *dev,
		      struct dmamap_bank *b, u64 off, const char *cause)
{
	unsigned int n = p->line_size, first, count;
	uint8_t *cpu = b->cpu + off, *mem = b->mem + off, *snap = b->snap + off;
	size_t li = (size_t)(off >> p->line_shift);

	/* Device bytes that the stale CPU copy is about to overwrite. */
	if (diff_span(mem, snap, cpu, n, &first, &count))
		record(p, dev, DMAMAP_SIM_DEVICE_DATA_LOST, b->start + off, first,
		       count, true, b->line_writer[li], cause, false);
	memcpy(mem, cpu, n);
	memcpy(snap, cpu, n);
	b->line_flags[li] &= (uint8_t)~LINE_WRITTEN;
	__atomic_fetch_add(&p->cstats.lines_written_back, 1, __ATOMIC_RELAXED);
}

static void refill(struct dmamap_platform *p, struct dmamap_bank *b, u64 off)
{
	memcpy(b->cpu + off, b->mem + off, p->line_size);
	memcpy(b->snap + off, b->mem + off, p->line_size);
	b->line_flags[off >> p->line_shift] &= (uint8_t)~LINE_WRITTEN;
}

static void do_line(struct range_ctx *c, struct dmamap_bank *b, u64 off,
		    enum line_op op)
{
	struct dmamap_platform *p = c->p;
	unsigned int n = p->line_size, first = 0, count = 0;
	uint8_t *cpu = b->cpu + off, *snap = b->snap + off;
	size_t li = (size_t)(off >> p->line_shift);
	phys_addr_t line = b->start + off;
	bool dirty = (b->line_flags[li] & LINE_WRITTEN) || memcmp(cpu, snap, n) != 0;
	bool partial = line < c->start || line + n > c->end;

	switch (op) {
	case LINE_CLEAN:
		if (dirty)
			writeback(p, c->dev, b, off, c->cause);
		break;
	case LINE_INVAL:
		if (dirty && partial && p->edge == DMAMAP_EDGE_CLEAN_INVALIDATE) {
			writeback(p, c->dev, b, off, c->cause);
		} else if (dirty && diff_span(cpu, snap, b->mem + off, n, &first, &count)) {
			/* Dirty bytes equal to memory lose nothing when discarded. */
			bool conflict = memcmp(b->mem + off, snap, n) != 0;

			record(p, c->dev, DMAMAP_SIM_CPU_DATA_LOST, line, first,
			       count, conflict, b->line_writer[li], c->cause,
			       c->quiet && !conflict);
		}
		refill(p, b, off);
		if (p->arch == DMAMAP_CACHE_ARMV5)
			b->line_flags[li] |= LINE_ABSENT;
		break;
	case LINE_FLUSH:
		if (dirty)
			writeback(p, c->dev, b, off, c->cause);
		refill(p, b, off);
		if (p->arch == DMAMAP_CACHE_ARMV5)
			b->line_flags[li] |= LINE_ABSENT;
		break;
	case LINE_REFILL_ABSENT:
		/* armv5: an invalidated line comes back only when the CPU reads it. */
		if (b->line_flags[li] & LINE_ABSENT) {
			b->line_flags[li] &= (uint8_t)~LINE_ABSENT;
			if (!dirty)
				refill(p, b, off);
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

	const uint8_t *flags = b->line_flags + (off >> p->line_shift);
	unsigned int lines = PAGE_SIZE >> p->line_shift;

	if (op == LINE_REFILL_ABSENT || p->arch == DMAMAP_CACHE_ARMV5 ||
	    c->start > b->start + off || c->end < b->start + off + PAGE_SIZE ||
	    memcmp(b->cpu + off, b->snap + off, PAGE_SIZE) != 0)
		return false;
	for (unsigned int i = 0; i < lines; i++)
		if (flags[i] & LINE_WRITTEN)
			return false;
	if (op != LINE_CLEAN) {
		memcpy(b->cpu + off, b->mem + off, PAGE_SIZE);
		memcpy(b->snap + off, b->mem + off, PAGE_SIZE);
	}
	return true;
}

static pthread_mutex_t *stripe_of(struct dmamap_platform *p, phys_addr_t phys)
{
	return &p->stripe[(phys >> PAGE_SHIFT) % STRIPE_LOCKS];
}

/* Apply @op to every line touching [phys, phys+size); returns lines seen. */
static u64 for_lines(struct device *dev, phys_addr_t phys, size_t size,
		     enum line_op op, const char *cause, bool quiet)
{
	struct dmamap_platform *p = dev->plat;
	struct range_ctx c = { p, dev, phys, phys + size, cause, quiet };
	phys_addr_t lmask = p->line_size - 1;
	phys_addr_t l = phys & ~lmask, end = (phys + size + lmask) & ~lmask;
	struct dmamap_bank *b = dmamap__bank_of_phys(p, l, end - l);
	u64 nlines = (end - l) >> p->line_shift;

	if (!b)
		return 0;
	while (l < end) {
		phys_addr_t page_end = (l | (PAGE_SIZE - 1)) + 1;
		pthread_mutex_t *lock = stripe_of(p, l);

		pthread_mutex_lock(lock);
		if (!(l & (PAGE_SIZE - 1)) && page_end <= end &&
		    whole_clean_page(&c, b, l - b->start, op)) {
			l = page_end;
		} else {
			for (; l < end && l < page_end; l += p->line_size)
				do_line(&c, b, l - b->start, op);
		}
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
	u64 lines, bytes;

	dmamap__sim_chaos_tick(p, phys, size);
	if (p->arch == DMAMAP_CACHE_ARMV5 && dir != DMA_TO_DEVICE) {
		/*
		 * What the CPU wrote into a FROM_DEVICE buffer before mapping it
		 * is discarded here by design (the device is to overwrite it):
		 * recorded, not reported, unless the device had written too.
		 */
		lines = for_lines(dev, phys, size,
				  dir == DMA_FROM_DEVICE ? LINE_INVAL : LINE_FLUSH,
				  "invalidate for device", true);
		bytes = lines << p->line_shift;
		dmamap__stat_add(dev, ST_INVALIDATED, bytes);
		__atomic_fetch_add(&p->cstats.lines_invalidated, lines, __ATOMIC_RELAXED);
		if (dir == DMA_BIDIRECTIONAL) {
			dmamap__stat_add(dev, ST_CLEANED, bytes);
			__atomic_fetch_add(&p->cstats.lines_cleaned, lines, __ATOMIC_RELAXED);
		}
		return;
	}
	lines = for_lines(dev, phys, size, LINE_CLEAN, "clean for device", false);
	dmamap__stat_add(dev, ST_CLEANED, lines << p->line_shift);
	__atomic_fetch_add(&p->cstats.lines_cleaned, lines, __ATOMIC_RELAXED);
}

void dmamap__sim_sync_for_cpu(struct device *dev, phys_addr_t phys,
			      size_t size, enum dma_data_direction dir)
{
	struct dmamap_platform *p = dev->plat;
	u64 lines;

	dmamap__sim_chaos_tick(p, phys, size);
	if (dir == DMA_TO_DEVICE)
		return;
	if (p->arch == DMAMAP_CACHE_ARMV5) {
		for_lines(dev, phys, size, LINE_REFILL_ABSENT, "cpu read", false);
		return;
	}
	lines = for_lines(dev, phys, size, LINE_INVAL, "invalidate for cpu", false);
	dmamap__stat_add(dev, ST_INVALIDATED, lines << p->line_shift);
	__atomic_fetch_add(&p->cstats.lines_invalidated, lines, __ATOMIC_RELAXED);
}

void dmamap__sim_reset_range(struct dmamap_platform *p, phys_addr_t phys,
			     size_t size, bool zero)
{
	struct dmamap_bank *b = dmamap__bank_of_phys(p, phys, size);
	u64 off, loff, lend;

	if (!b)
		return;
	off = phys - b->start;
	if (zero)
		memset(b->mem + off, 0, size);
	memcpy(b->cpu + off, b->mem + off, size);
	memcpy(b->snap + off, b->mem + off, size);
	loff = off >> p->line_shift;
	lend = (off + size + p->line_size - 1) >> p->line_shift;
	memset(b->line_writer + loff, 0, (size_t)(lend - loff) * sizeof(uint16_t));
	memset(b->line_flags + loff, 0, (size_t)(lend - loff));
}

/* ---- chaos: seeded evictions and speculative fills ---------------------- */

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void dmamap__sim_chaos_tick(struct dmamap_platform *p, phys_addr_t phys,
			    size_t size)
{
	struct dmamap_bank *b;
	phys_addr_t lo, hi, line;
	uint64_t r, r2;
	struct range_ctx c;

	if (likely(!__atomic_load_n(&p->chaos_on, __ATOMIC_RELAXED)))
		return;
	pthread_mutex_lock(&p->chaos.lock);
	r = next_rand(&p->chaos.state);
	r2 = next_rand(&p->chaos.state);
	pthread_mutex_unlock(&p->chaos.lock);
	if (r % 1000 >= p->chaos.permille)
		return;
	b = dmamap__bank_of_phys(p, phys, 1);
	if (!b)
		return;
	/* Somewhere around the buffer: its lines and its neighbours'. */
	lo = phys > b->start + PAGE_SIZE ? phys - PAGE_SIZE : b->start;
	hi = MIN(phys + size + PAGE_SIZE, b->start + b->size);
	line = (lo + r2 % (hi - lo)) & ~(phys_addr_t)(p->line_size - 1);
	c.p = p;
	c.dev = NULL;
	c.start = line;
	c.end = line + p->line_size;
	c.cause = "chaos eviction";
	c.quiet = false;
	pthread_mutex_lock(stripe_of(p, line));
	{
		u64 off = line - b->start;
		size_t li = (size_t)(off >> p->line_shift);

		if ((b->line_flags[li] & LINE_WRITTEN) ||
		    memcmp(b->cpu + off, b->snap + off, p->line_size) != 0) {
			writeback(p, NULL, b, off, c.cause);
			p->cstats.chaos_evictions++;
		} else if (p->arch != DMAMAP_CACHE_ARMV5 &&
			   !(b->line_flags[li] & LINE_ABSENT)) {
			refill(p, b, off);
			p->cstats.chaos_prefetches++;
		}
	}
	pthread_mutex_unlock(stripe_of(p, line));
}

/* ---- public probe API ---------------------------------------------------- */

int dmamap_sim_cache_stats(struct dmamap_platform *p,
			   struct dmamap_sim_cache_stats *s)
{
	if (!p || !s || p->kind != PLAT_SIM)
		return -EINVAL;
	pthread_mutex_lock(&p->ev_lock);
	*s = p->cstats;
	pthread_mutex_unlock(&p->ev_lock);
	return 0;
}

unsigned int dmamap_sim_events(struct dmamap_platform *p,
			       struct dmamap_sim_event *out, unsigned int max)
{
	unsigned int n = 0;

	if (!p || !out || p->kind != PLAT_SIM)
		return 0;
	pthread_mutex_lock(&p->ev_lock);
	for (; n < max && n < p->ev_count; n++)
		out[n] = p->events[(p->ev_head + n) % SIM_EVENTS];
	pthread_mutex_unlock(&p->ev_lock);
	return n;
}

void dmamap_sim_events_clear(struct dmamap_platform *p)
{
	if (!p || p->kind != PLAT_SIM)
		return;
	pthread_mutex_lock(&p->ev_lock);
	p->ev_head = p->ev_count = 0;
	memset(&p->cstats, 0, sizeof(p->cstats));
	pthread_mutex_unlock(&p->ev_lock);
}

int dmamap_sim_set_chaos(struct dmamap_platform *p, uint64_t seed,
			 unsigned int permille)
{
	if (!p || p->kind != PLAT_SIM)
		return -EINVAL;
	pthread_mutex_lock(&p->chaos.lock);
	p->chaos.state = seed;
	p->chaos.permille = permille ? MIN(permille, 1000u) : 250;
	__atomic_store_n(&p->chaos_on, seed != 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&p->chaos.lock);
	return 0;
}

int dmamap_sim_mem_read(struct dmamap_platform *p, phys_addr_t phys, void *dst,
			size_t len)
{
	struct dmamap_bank *b;

	if (!p || !dst || !len || p->kind != PLAT_SIM)
		return -EINVAL;
	b = dmamap__bank_of_phys(p, phys, len);
	if (!b)
		return -EFAULT;
	memcpy(dst, b->mem + (phys - b->start), len);
	return 0;
}

int dmamap_sim_line_state(struct dmamap_platform *p, phys_addr_t phys,
			  bool *cpu_dirty, bool *dev_changed)
{
	struct dmamap_bank *b;
	u64 off;

	if (!p || !cpu_dirty || !dev_changed || p->kind != PLAT_SIM)
		return -EINVAL;
	phys &= ~(phys_addr_t)(p->line_size - 1);
	b = dmamap__bank_of_phys(p, phys, p->line_size);
	if (!b)
		return -EFAULT;
	off = phys - b->start;
	pthread_mutex_lock(stripe_of(p, phys));
	{
		unsigned int first, count;

		/* Bytes a snooping device wrote to both views count as neither. */
		*cpu_dirty = diff_span(b->cpu + off, b->snap + off, b->mem + off,
				       p->line_size, &first, &count);
		*dev_changed = diff_span(b->mem + off, b->snap + off, b->cpu + off,
					 p->line_size, &first, &count);
	}
	pthread_mutex_unlock(stripe_of(p, phys));
	return 0;
}

/* ---- device side --------------------------------------------------------- */

int dmamap__sim_device_access(struct device *dev, phys_addr_t phys, void *buf,
			      size_t len, bool write)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_bank *b = dmamap__bank_of_phys(p, phys, len);
	uint16_t writer = (uint16_t)(dev->id + 1);
	uint8_t *io = buf;

	if (!b)
		return -EFAULT;
	dmamap__sim_chaos_tick(p, phys, len);
	/* One page at a time: one stripe lock covers all its lines. */
	while (len) {
		u64 off = phys - b->start;
		size_t chunk = MIN(len, (size_t)(PAGE_SIZE - (off & (PAGE_SIZE - 1))));
		pthread_mutex_t *lock = stripe_of(p, phys);

		pthread_mutex_lock(lock);
		if (write) {
			size_t l0 = (size_t)(off >> p->line_shift);
			size_t l1 = (size_t)((off + chunk - 1) >> p->line_shift);

			memcpy(b->mem + off, io, chunk);
			/*
			 * A snooping write updates the cached copy too, and the
			 * snapshot: those bytes are now consistent, not
			 * device-changed. Were the snapshot left behind, a later CPU
			 * store to the same bytes would make the next clean (or a
			 * chaos eviction) report the device's old bytes as lost.
			 */
			if (dev->coherent) {
				memcpy(b->cpu + off, io, chunk);
				memcpy(b->snap + off, io, chunk);
			}
			for (size_t li = l0; li <= l1; li++)
				b->line_writer[li] = writer;
		} else if (dev->coherent) {
			/*
			 * A snoop is served by the cache: the CPU view. As on real
			 * interconnects, a clean line that is stale because a
			 * non-coherent master wrote around it is served stale too.
			 */
			memcpy(io, b->cpu + off, chunk);
		} else {
			memcpy(io, b->mem + off, chunk);
		}
		pthread_mutex_unlock(lock);
		io += chunk;
		phys += chunk;
		len -= chunk;
	}
	return 0;
}

long dmamap__sim_cpu_dirty_offset(struct dmamap_platform *p, phys_addr_t phys,
				  size_t size)
{
	struct dmamap_bank *b = dmamap__bank_of_phys(p, phys, size);
	phys_addr_t end = phys + size, at = phys;

	if (!b)
		return -1;
	while (at < end) {
		phys_addr_t page_end = MIN((at | (PAGE_SIZE - 1)) + 1, end);
		u64 off = at - b->start, n = page_end - at;
		pthread_mutex_t *lock = stripe_of(p, at);
		long found = -1;

		pthread_mutex_lock(lock);
		if (memcmp(b->cpu + off, b->snap + off, (size_t)n) != 0) {
			for (u64 i = 0; i < n; i++) {
				if (b->cpu[off + i] != b->snap[off + i] &&
				    b->cpu[off + i] != b->mem[off + i]) {
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

void dmamap__sim_cpu_write(struct dmamap_platform *p, phys_addr_t dst,
			   const void *src, size_t len)
{
	struct dmamap_bank *b = dmamap__bank_of_phys(p, dst, len);
	const uint8_t *in = src;

	if (!b)
		return;
	while (len) {
		u64 off = dst - b->start;
		size_t chunk = MIN(len, (size_t)(PAGE_SIZE - (off & (PAGE_SIZE - 1))));
		pthread_mutex_t *lock = stripe_of(p, dst);

		pthread_mutex_lock(lock);
		memcpy(b->cpu + off, in, chunk);
		for (u64 l = off >> p->line_shift; l <= (off + chunk - 1) >> p->line_shift; l++)
			b->line_flags[l] |= LINE_WRITTEN;
		pthread_mutex_unlock(lock);
		dst += chunk;
		in += chunk;
		len -= chunk;
	}
}
