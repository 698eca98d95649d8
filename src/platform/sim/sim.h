/* SPDX-License-Identifier: MIT */
/*
 * The simulated SoC behind the port: RAM banks kept as two views (what
 * the CPU sees through its cache, what memory holds) plus a snapshot of
 * both at each line's last fill or clean, and the rules by which cache
 * maintenance moves bytes between them. Private to src/platform/.
 */
#ifndef DMAMAP_PLATFORM_SIM_SIM_H
#define DMAMAP_PLATFORM_SIM_SIM_H

#include <dmamap/sim.h>
#include "../../lib/lib.h"
#include "../../lib/mem.h"
#include "../../base/device.h"

#define SIM_EVENTS 256
#define STRIPE_LOCKS 256

#define LINE_ABSENT 0x1 /* armv5: invalidated, refilled at the next CPU ownership */
/*
 * The CPU wrote the line through the library (a bounce copy): dirty even if
 * it wrote the bytes the line already held, as hardware marks it.
 */
#define LINE_WRITTEN 0x2

/*
 * The memory view and the snapshot are mapped a chunk at a time, at the
 * chunk's first touch: a run's address space grows with the memory it
 * uses, not with the board's RAM (a 1 GiB board on a 32-bit host).
 */
#define SIM_CHUNK_SHIFT 21
#define SIM_CHUNK_SIZE ((u64)1 << SIM_CHUNK_SHIFT)

/* What the cache model keeps beside a RAM bank (same index as the platform's bank). */
struct sim_bank {
	uint8_t **mem;          /* per chunk: memory as devices see it (the bank's fd_mem), or NULL */
	uint8_t **snap;         /* per chunk: per-byte state at the last fill or clean, or NULL */
	size_t nchunks;
	uint16_t *line_writer;  /* last device id + 1 that wrote each line */
	uint8_t *line_flags;    /* LINE_* */
	uint8_t *guard;         /* per host page: mappings that took the CPU's access (guard.c) */
	size_t nlines, npages;  /* entries of line_writer/line_flags, and of guard */
};

struct dmamap_sim {
	enum dmamap_cache_arch arch;
	enum dmamap_edge_policy edge;
	struct sim_bank banks[DMAMAP_MAX_BANKS];
	/* One lock per stripe of pages: maintenance, device and CPU copies of a line meet here. */
	pthread_mutex_t stripe[STRIPE_LOCKS];
	bool chaos_on;
	struct {
		pthread_mutex_t lock;
		uint64_t state;
		unsigned int permille;
	} chaos;
	pthread_mutex_t ev_lock;
	pthread_mutex_t chunk_lock; /* mapping a chunk */
	struct dmamap_sim_event events[SIM_EVENTS];
	unsigned int ev_head, ev_count;
	struct dmamap_sim_cache_stats cstats;
	struct dmamap_order *order; /* order.c: the memory-order model's state */
	/* Where the model follows memory now ([lo, hi), empty while it is off): tested lock-free. */
	phys_addr_t order_lo, order_hi;
	/* Host pages guarded now (guard.c): a bounce copy asks nothing while there are none. */
	unsigned long guarded;
};

/* RAM, views and cache state for @board's banks (ram.c). */
int dmamap__sim_init(struct dmamap_platform *p, const struct dmamap_board *board,
		     struct dmamap_error *err);
void dmamap__sim_fini(struct dmamap_platform *p);

static inline struct sim_bank *sim_bank(struct dmamap_platform *p, const struct dmamap_bank *b)
{
	return &p->sim->banks[b - p->mach.banks];
}

/* The chunk of @b at @off mapped now (ram.c): it never fails, the process ends instead. */
uint8_t *dmamap__sim_chunk(struct dmamap_platform *p, struct dmamap_bank *b, u64 off, bool snap);

/*
 * Memory and snapshot bytes of @b at @off, good to the end of its chunk
 * (every page and line lies in one).
 */
static inline uint8_t *sim_mem(struct dmamap_platform *p, struct dmamap_bank *b, u64 off)
{
	uint8_t *c = __atomic_load_n(&sim_bank(p, b)->mem[off >> SIM_CHUNK_SHIFT], __ATOMIC_ACQUIRE);

	if (unlikely(!c))
		c = dmamap__sim_chunk(p, b, off, false);
	return c + (off & (SIM_CHUNK_SIZE - 1));
}

static inline uint8_t *sim_snap(struct dmamap_platform *p, struct dmamap_bank *b, u64 off)
{
	uint8_t *c = __atomic_load_n(&sim_bank(p, b)->snap[off >> SIM_CHUNK_SHIFT], __ATOMIC_ACQUIRE);

	if (unlikely(!c))
		c = dmamap__sim_chunk(p, b, off, true);
	return c + (off & (SIM_CHUNK_SIZE - 1));
}

static inline pthread_mutex_t *sim_stripe(struct dmamap_platform *p, phys_addr_t phys)
{
	return &p->sim->stripe[(phys >> PAGE_SHIFT) % STRIPE_LOCKS];
}

/* Cache maintenance (cache.c), with the board's rules. */
void dmamap__sim_sync_for_device(struct device *dev, phys_addr_t phys, size_t size,
				 enum dma_data_direction dir);
void dmamap__sim_sync_for_cpu(struct device *dev, phys_addr_t phys, size_t size,
			      enum dma_data_direction dir);
void dmamap__sim_reset_range(struct dmamap_platform *p, phys_addr_t phys, size_t size,
			     bool zero);
/* One line: write it back (a CPU-dirty line), refill it from memory. Stripe lock held. */
void dmamap__sim_writeback(struct dmamap_platform *p, struct device *dev,
			   struct dmamap_bank *b, u64 off, const char *cause);
void dmamap__sim_refill(struct dmamap_platform *p, struct dmamap_bank *b, u64 off);
/* First offset and span of the bytes where @a differs from @b and (if @c) from @c. */
bool dmamap__sim_diff_span(const uint8_t *a, const uint8_t *b, const uint8_t *c,
			   unsigned int n, unsigned int *first, unsigned int *count);

/* The CPU and the bus masters (access.c). */
int dmamap__sim_device_access(struct device *dev, phys_addr_t phys, void *buf, size_t len,
			      bool write);
/* The same, straight to memory: what an access outside the memory-order model's regions does. */
int dmamap__sim_device_access_plain(struct device *dev, phys_addr_t phys, void *buf,
				    size_t len, bool write);
/* A device wrote [@phys, +@len) somewhere the cache model does not see: its lines name it. */
void dmamap__sim_note_device_write(struct dmamap_platform *p, struct device *dev,
				   phys_addr_t phys, size_t len);
void dmamap__sim_cpu_write(struct dmamap_platform *p, phys_addr_t dst, const void *src,
			   size_t len);
/* A memory-to-memory copy by @dev: its read of @src and write of @dst, with nothing in between. */
int dmamap__sim_device_transfer(struct device *dev, phys_addr_t dst, phys_addr_t src, size_t len);
long dmamap__sim_cpu_dirty_offset(struct dmamap_platform *p, phys_addr_t phys, size_t size);

/* Guarded pages (guard.c): the CPU's access to whole pages taken or given back. */
int dmamap__sim_guard(struct dmamap_platform *p, const void *cpu, size_t size, bool on);
/* A CPU access trapped at @addr: true, its page given back, if @p guarded it. */
bool dmamap__sim_unguard_fault(struct dmamap_platform *p, const void *addr);

/*
 * Guards are counted per host page (mprotect's unit), a simulated page or
 * several: log2 of that unit.
 */
static inline unsigned int sim_guard_shift(void)
{
	return MAX((unsigned int)PAGE_SHIFT, dmamap__host_page_shift());
}

static inline bool sim_page_guarded(const struct sim_bank *sb, u64 off)
{
	return __atomic_load_n(&sb->guard[off >> sim_guard_shift()], __ATOMIC_RELAXED) != 0;
}

/*
 * The library's own work on a page the CPU's access was taken from (another
 * mapping of the same memory guards it): lifted around the work, the
 * page's stripe lock held, which every guard change also takes.
 */
void dmamap__sim_guard_lift(struct dmamap_platform *p, struct dmamap_bank *b, u64 off, bool lift);
/* The same for the linear-map range [@cpu, +@len), wherever it lies (nothing outside the banks). */
void dmamap__sim_lift_range(struct dmamap_platform *p, const void *cpu, size_t len, bool lift);

/* Seeded evictions and speculative fills around an access (chaos.c); off: one branch. */
void dmamap__sim_chaos_tick_slow(struct dmamap_platform *p, phys_addr_t phys, size_t size);

static inline void dmamap__sim_chaos_tick(struct dmamap_platform *p, phys_addr_t phys,
					  size_t size)
{
	if (unlikely(__atomic_load_n(&p->sim->chaos_on, __ATOMIC_RELAXED)))
		dmamap__sim_chaos_tick_slow(p, phys, size);
}


/* ---- memory order (order.c, docs/ordering.md) ------------------------------- */
int dmamap__sim_order_init(struct dmamap_platform *p, enum dmamap_memory_model model);
void dmamap__sim_order_fini(struct dmamap_platform *p);
int dmamap__sim_order_set_model(struct dmamap_platform *p, enum dmamap_memory_model model);
/* Threaded devices: everything goes through, and stays so until resumed. */
void dmamap__sim_order_pause(struct dmamap_platform *p, bool paused);
void dmamap__sim_order_seed(struct dmamap_platform *p, uint64_t seed);
void dmamap__sim_order_stats(struct dmamap_platform *p, struct dmamap_sim_order_stats *s);
/*
 * A coherent allocation of @dev at [@phys, +@size), which the CPU reaches
 * at @cpu and @dev at @dma: 0, or -ENOMEM (it stays in order).
 */
int dmamap__sim_order_track(struct device *dev, void *cpu, phys_addr_t phys, size_t size,
			    dma_addr_t dma);
enum dmamap_memory_model dmamap__sim_order_model(struct dmamap_platform *p);
/* Say the reports made under the locks; the caller holds none of them. */
void dmamap__sim_order_flush(struct dmamap_platform *p);
/* Forget @dev's regions at device addresses [@dma, +@size). */
void dmamap__sim_order_untrack(struct device *dev, dma_addr_t dma, size_t size);
void dmamap__sim_order_device_gone(struct device *dev);
void dmamap__sim_order_event(struct dmamap_platform *p, enum dmamap_order_event ev);
void dmamap__sim_order_mmio_write(struct device *dev, uint32_t reg, bool ordered,
				  const void *site);
bool dmamap__sim_order_busy(struct dmamap_platform *p);
/* Whether a barrier has anything to do on @p: a weak board following some memory. */
bool dmamap__sim_order_on(struct dmamap_platform *p);
void dmamap__sim_order_writing(struct dmamap_platform *p, enum dmamap_order_write what);
/* Whether [@phys, +@len) may touch a region: then accesses go through dmamap__sim_order_access(). */
static inline bool dmamap__sim_order_covers(struct dmamap_platform *p, phys_addr_t phys,
					    size_t len)
{
	return phys + len > __atomic_load_n(&p->sim->order_lo, __ATOMIC_RELAXED) &&
	       phys < __atomic_load_n(&p->sim->order_hi, __ATOMIC_RELAXED);
}
int dmamap__sim_order_access(struct device *dev, phys_addr_t phys, void *buf, size_t len,
			     bool write, bool model);
void dmamap__sim_order_fetch(struct device *dev, phys_addr_t desc, size_t len, size_t own_off,
			     bool owned, dma_addr_t dma);
#endif
