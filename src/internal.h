/* SPDX-License-Identifier: MIT */
/*
 * Library-internal definitions shared by the layers: the platform and
 * device structures, stats, reports and fault injection. Internal
 * non-static names carry the dmamap__ prefix and are not exported.
 */
#ifndef DMAMAP_INTERNAL_H
#define DMAMAP_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define PHYS_NONE (~(phys_addr_t)0)

/*
 * Zeroed memory on a cache-line boundary, for structures whose per-thread
 * parts are aligned to lines: calloc promises only 16 bytes, and a shard
 * straddling two lines would share one with its neighbour. Freed with free().
 */
static inline void *dmamap__zalloc_lines(size_t size)
{
	size_t rounded = (size + 63) & ~(size_t)63;
	void *m = rounded >= size ? aligned_alloc(64, rounded) : NULL;

	if (m)
		memset(m, 0, rounded);
	return m;
}

/* ---- spinlocks for short critical sections on hot paths ------------------ */

void dmamap__spin_lock_slow(int *l);

static inline void dmamap__spin_lock(int *l)
{
	if (__builtin_expect(__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE), 0))
		dmamap__spin_lock_slow(l);
}

static inline void dmamap__spin_unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

/* ---- statistics: per-thread shards, so counting never bounces a line --- */

enum dmamap_stat {
	ST_MAPS, ST_UNMAPS, ST_SG_MAPS, ST_BYTES_MAPPED, ST_BYTES_BOUNCED,
	ST_SYNC_CPU, ST_SYNC_DEV, ST_CLEANED, ST_INVALIDATED, ST_ALLOCS,
	ST_FREES, ST_BYTES_ALLOC, ST_IOMMU_PAGES, ST_DEV_READ, ST_DEV_WRITTEN,
	ST_FAULTS, ST_ERR0,
	ST_COUNT = ST_ERR0 + DMAMAP_ERRK_COUNT
};

#define DMAMAP_STAT_SHARDS 16

struct dmamap_stat_shard {
	uint64_t v[ST_COUNT];
} __attribute__((aligned(64)));

extern __thread unsigned int dmamap__shard_id
	__attribute__((tls_model("initial-exec")));
unsigned int dmamap__shard_assign(void);

/* Whether this thread has its shard yet: paths that must make no call check it first. */
static inline bool dmamap__shard_known(void)
{
	return dmamap__shard_id != 0;
}

static inline unsigned int dmamap__my_shard(void)
{
	unsigned int id = dmamap__shard_id;

	if (unlikely(id == 0))
		id = dmamap__shard_assign();
	return (id - 1) % DMAMAP_STAT_SHARDS;
}

/*
 * A counter in a per-thread shard: relaxed load and store, not a locked
 * RMW, since a shard is (almost always) written by one thread.
 */
static inline void dmamap__count_add(uint64_t *v, uint64_t n)
{
	__atomic_store_n(v, __atomic_load_n(v, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

/* The sum over the DMAMAP_STAT_SHARDS shards at @shards, @stride bytes apart, of the counter at @offset. */
static inline uint64_t dmamap__count_sum(const void *shards, size_t stride, size_t offset)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < DMAMAP_STAT_SHARDS; i++)
		n += __atomic_load_n((const uint64_t *)((const char *)shards + i * stride + offset),
				     __ATOMIC_RELAXED);
	return n;
}

static inline void dmamap__stat_add_shard(struct dmamap_stat_shard *s,
					  enum dmamap_stat k, uint64_t n)
{
	dmamap__count_add(&s->v[k], n);
}

/* ---- memory: RAM banks (sim) or the host arena ------------------------- */

#define LINE_ABSENT 0x1 /* armv5: invalidated, refilled at the next CPU ownership */
/*
 * The CPU wrote the line through the library (a bounce copy): dirty even if
 * it wrote the bytes the line already held, as hardware marks it.
 */
#define LINE_WRITTEN 0x2

struct dmamap_bank {
	phys_addr_t start;
	u64 size;
	uint8_t *cpu;  /* CPU view: the linear map (cached) */
	uint8_t *mem;  /* memory view: what devices see; also the uncached alias */
	uint8_t *wc;   /* write-combining alias of the memory view */
	uint8_t *snap; /* per-byte state at the last fill or clean (sim) */
	uint16_t *line_writer; /* last device id + 1 that wrote each line */
	uint8_t *line_flags;
	int fd_cpu, fd_mem;
};

struct dmamap_buddy;
struct dmamap_slab_cache;

/* A physically contiguous piece of one bank inside one zone. */
struct dmamap_arena {
	struct dmamap_bank *bank;
	phys_addr_t start;
	unsigned long npages;
	struct dmamap_buddy *buddy;
	struct dmamap_slab **slabs; /* per page: the kmalloc slab it holds */
	unsigned int zone;
};

enum { ZONE_DMA_IDX, ZONE_DMA32_IDX, ZONE_NORMAL_IDX, ZONE_HIGHMEM_IDX, NR_ZONES };

#define KMALLOC_CLASSES 13

enum dmamap_plat_kind { PLAT_HOST, PLAT_SIM };

struct dmamap_chaos {
	pthread_mutex_t lock;
	uint64_t state;
	unsigned int permille;
};

#define SIM_EVENTS 256
#define STRIPE_LOCKS 256

struct dmamap_platform {
	/* Read by every map and unmap: one cache line, kept together. */
	bool debug;
	unsigned int fault_classes; /* fault injection; 0: off */
	struct dmamap_checker *checker; /* live while debug is on */
	enum dmamap_plat_kind kind;
	char name[DMAMAP_NAME_MAX];
	unsigned int line_size;
	unsigned int line_shift;
	enum dmamap_cache_arch arch;
	enum dmamap_edge_policy edge;
	phys_addr_t zone_dma_limit;
	phys_addr_t highmem_start; /* 0: none */
	u64 default_mask;

	unsigned int nr_banks;
	struct dmamap_bank banks[DMAMAP_MAX_BANKS];
	unsigned int nr_arenas;
	struct dmamap_arena arenas[4 * DMAMAP_MAX_BANKS * NR_ZONES];
	unsigned int nr_reserved;
	struct dmamap_ram_bank reserved[DMAMAP_MAX_RESERVED];
	struct dmamap_slab_cache *kmalloc[NR_ZONES][KMALLOC_CLASSES];

	pthread_mutex_t stripe[STRIPE_LOCKS]; /* sim: per page stripe */

	pthread_mutex_t dev_lock; /* device list; never on a mapping path */
	unsigned int nr_devices, cap_devices;
	struct device **devices;
	uint16_t next_dev_id;

	/* reports */
	int strict; /* -1: inherit process setting */
	dmamap_log_fn log_fn;
	void *log_ctx;
	dmamap_report_fn report_fn;
	void *report_ctx;
	char filter[DMAMAP_NAME_MAX]; /* "" : every device */
	unsigned long print_limit;    /* 0: none */
	unsigned long printed;

	/* swiotlb: the default pool, carved from the lowest RAM */
	struct dmamap_iotlb *swiotlb;
	phys_addr_t swiotlb_start;
	u64 swiotlb_bytes;
	bool swiotlb_force;
	bool swiotlb_off;
	bool bounce_small_kmalloc; /* dma_kmalloc_needs_bounce() */

	struct dmamap_iommu_domain *domains; /* under dev_lock */
	struct dmamap_cma *cma;
	phys_addr_t cma_start;
	u64 cma_bytes;
	unsigned long reports[DMAMAP_DBG_KIND_COUNT];
	uint64_t rl_window;
	unsigned int rl_count;

	/* fault injection (fault_classes is with the hot fields) */
	long fault_countdown;
	unsigned long fault_hits;

	/* sim cache model */
	bool chaos_on;
	struct dmamap_chaos chaos;
	pthread_mutex_t ev_lock;
	struct dmamap_sim_event events[SIM_EVENTS];
	unsigned int ev_head, ev_count;
	struct dmamap_sim_cache_stats cstats;
};

struct dmamap_coherent_pool;

struct device {
	/*
	 * Hot fields first. fast_identity: direct ops, coherent, no window, no
	 * pool, on the host: mapping is a limit check. map_limit caches
	 * min(*dma_mask, bus_dma_limit). Both are recomputed by
	 * dmamap__device_refresh() whenever what they derive from changes.
	 */
	bool fast_identity;
	u64 map_limit;
	/* The default bounce pool's device addresses, for the fast unmap (identity). */
	dma_addr_t bounce_start;
	u64 bounce_len;
	struct dmamap_iotlb *bounce_all; /* dmamap__swiotlb_bounce_all() */
	struct dmamap_platform *plat;
	const struct dma_map_ops *dma_ops; /* NULL: the direct table */
	char name[DMAMAP_NAME_MAX];
	u64 *dma_mask;
	u64 dma_mask_store;
	u64 coherent_dma_mask;
	u64 bus_dma_limit; /* 0: none */
	unsigned int nr_ranges;
	struct dmamap_dma_range ranges[DMAMAP_MAX_RANGES];
	bool coherent;
	bool bus_master;
	uint16_t id;
	unsigned int max_segment_size;
	unsigned long segment_boundary_mask;
	const struct dmamap_device_model *model;
	void *model_priv;
	struct dmamap_coherent_pool *pool;
	struct dmamap_iotlb *restricted; /* restricted-dma-pool: always bounce */
	unsigned int min_align_mask;
	struct dmamap_dmabounce *dmabounce;
	struct dmamap_iommu_domain *domain; /* behind an IOMMU */
	uint32_t iommu_stream;
	pthread_mutex_t fault_lock;
	bool has_fault;
	struct dmamap_fault last_fault;
	struct dmamap_stat_shard stats[DMAMAP_STAT_SHARDS];
	char of_path[DMAMAP_PATH_MAX];
};

void dmamap__device_refresh(struct device *dev);

static inline void dmamap__stat_add(struct device *dev, enum dmamap_stat k,
				    uint64_t n)
{
	dmamap__stat_add_shard(&dev->stats[dmamap__my_shard()], k, n);
}

/* A successful mapping of @size bytes, in shard @s. */
static inline void dmamap__count_map_shard(struct dmamap_stat_shard *s, size_t size)
{
	dmamap__stat_add_shard(s, ST_MAPS, 1);
	dmamap__stat_add_shard(s, ST_BYTES_MAPPED, size);
}

/* The same in the calling thread's shard. */
static inline void dmamap__count_map(struct device *dev, size_t size)
{
	dmamap__count_map_shard(&dev->stats[dmamap__my_shard()], size);
}

/* ---- reports ----------------------------------------------------------- */

void dmamap__report(struct dmamap_platform *p, const struct device *dev,
		    enum dmamap_dbg_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A report about one mapping: its address, size, direction and map site. */
void dmamap__report_at(struct dmamap_platform *p, const struct device *dev,
		       enum dmamap_dbg_kind kind, dma_addr_t addr, u64 size,
		       int dir, void *mapped_at, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));
/* Count an API error in @dev's stats (if any) and report it. */
void dmamap__api_error(struct device *dev, const char *func,
		       enum dmamap_err_kind ek, enum dmamap_dbg_kind dk,
		       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void dmamap__log(struct dmamap_platform *p, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void dmamap__set_error(struct dmamap_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- fault injection --------------------------------------------------- */

bool dmamap__fault_fire(struct dmamap_platform *p, unsigned int cls);

static inline bool dmamap__fault(struct dmamap_platform *p, unsigned int cls)
{
	if (likely(!__atomic_load_n(&p->fault_classes, __ATOMIC_RELAXED)))
		return false;
	return dmamap__fault_fire(p, cls);
}

/* ---- memory layout (platform/memory.c) -------------------------------- */

struct dmamap_bank *dmamap__bank_of_phys(struct dmamap_platform *p,
					 phys_addr_t phys, u64 len);
/* Which view an address is in, and its physical address. */
enum dmamap_view { VIEW_NONE, VIEW_CPU, VIEW_MEM, VIEW_WC };
phys_addr_t dmamap__addr_to_phys(struct dmamap_platform *p, const void *addr,
				 enum dmamap_view *view);
void *dmamap__bank_view(struct dmamap_platform *p, phys_addr_t phys,
			enum dmamap_view view);

/*
 * Where the CPU reaches @phys through @view. On the host every view of
 * memory is the address itself, so the bounce copies need no bank search.
 */
static inline void *dmamap__phys_to_view(struct dmamap_platform *p, phys_addr_t phys,
					 enum dmamap_view view)
{
	if (likely(p->kind == PLAT_HOST))
		return (void *)(uintptr_t)phys;
	return dmamap__bank_view(p, phys, view);
}

/* Linear map: a page's physical address on @p, PHYS_NONE if not its RAM. */
/*
 * dmamap_phys_to_dma() and dmamap_dma_capable() for the map paths: a device
 * without window ranges needs neither a call nor a loop.
 */
static inline dma_addr_t dmamap__phys_to_dma(const struct device *dev, phys_addr_t phys)
{
	return likely(!dev->nr_ranges) ? phys : dmamap_phys_to_dma(dev, phys);
}

/* The highest device address RAM can be reached at under @mask: the bus may stop lower. */
static inline u64 dmamap__reach_limit(const struct device *dev, u64 mask)
{
	return dev->bus_dma_limit && dev->bus_dma_limit < mask ? dev->bus_dma_limit : mask;
}

/* dev->map_limit is dmamap__reach_limit() of the current mask, kept by dmamap__device_refresh(). */
static inline bool dmamap__dma_capable(const struct device *dev, dma_addr_t dma,
				       size_t size, bool is_ram)
{
	dma_addr_t end = dma + size - 1;

	return size && end >= dma && end <= (is_ram ? dev->map_limit : *dev->dma_mask);
}

/*
 * Where the device reaches RAM [@phys, @phys + @size) as one run of
 * addresses at or under @limit (see dmamap__reach_limit()), or
 * DMA_MAPPING_ERROR when it cannot.
 */
static inline dma_addr_t dmamap__reach(const struct device *dev, phys_addr_t phys,
				       size_t size, u64 limit)
{
	dma_addr_t dma = dmamap__phys_to_dma(dev, phys);
	dma_addr_t end = dma + size - 1;

	if (dma == DMA_MAPPING_ERROR || !size || end < dma || end > limit ||
	    (dev->nr_ranges && dmamap_phys_to_dma(dev, phys + size - 1) != end))
		return DMA_MAPPING_ERROR;
	return dma;
}

static inline phys_addr_t dmamap__linear_to_phys(struct dmamap_platform *p,
						 const void *addr)
{
	if (likely(p->kind == PLAT_HOST))
		return (phys_addr_t)(uintptr_t)addr;
	for (unsigned int i = 0; i < p->nr_banks; i++) {
		const struct dmamap_bank *b = &p->banks[i];
		uintptr_t off = (uintptr_t)addr - (uintptr_t)b->cpu;

		if ((uintptr_t)addr >= (uintptr_t)b->cpu && off < b->size)
			return b->start + off;
	}
	return PHYS_NONE;
}

void dmamap__linear_register(struct dmamap_platform *p);
void dmamap__linear_unregister(struct dmamap_platform *p);

/* ---- page allocator (mm) ---------------------------------------------- */

#define DMAMAP_MAX_ORDER 12

/* Pages from the highest zone allowed by @max_zone (falling back lower), or PHYS_NONE. */
phys_addr_t dmamap__pages_alloc(struct dmamap_platform *p, unsigned int order,
				unsigned int max_zone);
int dmamap__pages_free(struct dmamap_platform *p, phys_addr_t phys,
		       unsigned int order);
/* Whether @phys heads an allocated block of exactly 2^order pages. */
bool dmamap__pages_is_block(struct dmamap_platform *p, phys_addr_t phys,
			    unsigned int order);
int dmamap__vma_prot(const struct vm_area_struct *vma);
unsigned int dmamap__gfp_zone(gfp_t gfp);
/*
 * Whether the rest of the cache line holding byte @end - 1 holds other live
 * data: bytes the same kmalloc caller asked for, or another object.
 */
bool dmamap__kmalloc_tail_shared(struct dmamap_platform *p, phys_addr_t end);
/* The order of the smallest block of pages holding @size bytes (0 for a page or less). */
static inline unsigned int dmamap__get_order(u64 size)
{
	u64 pages = (size - 1) >> PAGE_SHIFT;

	return pages ? 64 - (unsigned int)__builtin_clzll(pages) : 0;
}
int dmamap__mm_init(struct dmamap_platform *p);
void dmamap__mm_fini(struct dmamap_platform *p);

/* ---- the simulated cache (platform/sim) -------------------------------- */

void dmamap__sim_sync_for_device(struct device *dev, phys_addr_t phys,
				 size_t size, enum dma_data_direction dir);
void dmamap__sim_sync_for_cpu(struct device *dev, phys_addr_t phys,
			      size_t size, enum dma_data_direction dir);
/* Make all views of a range equal (zero-filled when @zero): a fresh coherent buffer. */
void dmamap__sim_reset_range(struct dmamap_platform *p, phys_addr_t phys,
			     size_t size, bool zero);
int dmamap__sim_device_access(struct device *dev, phys_addr_t phys, void *buf,
			      size_t len, bool write);
/* A CPU write the library itself makes (bounce copies): the lines become dirty. */
void dmamap__sim_cpu_write(struct dmamap_platform *p, phys_addr_t dst,
			   const void *src, size_t len);

/*
 * A range made fresh, all views equal (zeroed when @zero): on a board the
 * cache model forgets it; on the host there is one view and nothing to
 * forget, so only the zeroing is left.
 */
static inline void dmamap__reset_range(struct dmamap_platform *p, phys_addr_t phys,
				       size_t size, bool zero)
{
	if (p->kind == PLAT_SIM)
		dmamap__sim_reset_range(p, phys, size, zero);
	else if (zero)
		memset(dmamap__phys_to_view(p, phys, VIEW_CPU), 0, size);
}

/*
 * The CPU writes @len bytes at @dst: on a board the lines it writes become
 * dirty, same bytes or not, as the hardware marks them.
 */
/*
 * The device reads (@write false) or writes @len bytes of RAM at @phys: on
 * a board through the memory the cache model keeps, nonzero if there is no
 * RAM there; on the host a copy.
 */
static inline int dmamap__device_copy(struct device *dev, phys_addr_t phys, void *buf,
				      size_t len, bool write)
{
	void *mem;

	if (dev->plat->kind == PLAT_SIM)
		return dmamap__sim_device_access(dev, phys, buf, len, write);
	mem = dmamap__phys_to_view(dev->plat, phys, VIEW_CPU);
	if (write)
		memcpy(mem, buf, len);
	else
		memcpy(buf, mem, len);
	return 0;
}

static inline void dmamap__cpu_write(struct dmamap_platform *p, phys_addr_t dst,
				     const void *src, size_t len)
{
	if (p->kind == PLAT_SIM)
		dmamap__sim_cpu_write(p, dst, src, len);
	else
		memcpy(dmamap__phys_to_view(p, dst, VIEW_CPU), src, len);
}
/* Offset of the first byte in range the CPU wrote since the last clean, or -1. */
long dmamap__sim_cpu_dirty_offset(struct dmamap_platform *p, phys_addr_t phys,
				  size_t size);
void dmamap__sim_chaos_tick(struct dmamap_platform *p, phys_addr_t phys,
			    size_t size);
int dmamap__sim_ram_init(struct dmamap_platform *p,
			 const struct dmamap_board *board,
			 struct dmamap_error *err);
void dmamap__sim_ram_fini(struct dmamap_platform *p);

/* ---- direct ops, used by the core without an indirect call -------------- */

dma_addr_t dmamap__direct_map_phys(struct device *dev, phys_addr_t phys,
				   size_t size, enum dma_data_direction dir,
				   unsigned long attrs, int *errp);
void dmamap__direct_unmap(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs);
void dmamap__direct_sync_for_cpu(struct device *dev, dma_addr_t addr,
				 size_t size, enum dma_data_direction dir);
void dmamap__direct_sync_for_device(struct device *dev, dma_addr_t addr,
				    size_t size, enum dma_data_direction dir);

/* Device address translation including a declared coherent pool. */
phys_addr_t dmamap__dev_dma_to_phys(const struct device *dev, dma_addr_t dma,
				    u64 len);

/* ---- per-device coherent pool (mm/coherent_pool.c) ---------------------- */

void *dmamap__pool_alloc(struct device *dev, size_t size, dma_addr_t *dma);
/* 1: freed from the pool; 0: not pool memory. */
int dmamap__pool_free(struct device *dev, size_t size, void *vaddr);
phys_addr_t dmamap__pool_dma_to_phys(const struct device *dev, dma_addr_t dma,
				     u64 len);
void dmamap__pool_destroy(struct device *dev);

/* ---- swiotlb (ops/swiotlb.c) ---------------------------------------------- */

struct dmamap_iotlb;
struct dmamap_iotlb *dmamap__iotlb_create(struct dmamap_platform *p,
					  const char *name, phys_addr_t start,
					  u64 bytes);
void dmamap__iotlb_destroy(struct dmamap_iotlb *t);
bool dmamap__iotlb_contains(const struct dmamap_iotlb *t, phys_addr_t phys);
/* Whether a reachable mapping must bounce anyway (force, restricted, small kmalloc). */
bool dmamap__swiotlb_wanted(const struct device *dev, phys_addr_t phys,
			    size_t size, enum dma_data_direction dir);
dma_addr_t dmamap__swiotlb_map(struct device *dev, phys_addr_t phys, size_t size,
			       enum dma_data_direction dir, unsigned long attrs,
			       int *errp);
struct dmamap_iotlb *dmamap__swiotlb_of(const struct device *dev, phys_addr_t phys);
void dmamap__swiotlb_unmap(struct device *dev, struct dmamap_iotlb *t,
			   phys_addr_t tlb, size_t size,
			   enum dma_data_direction dir, unsigned long attrs);
/*
 * The host's short path for a device whose every mapping bounces (force or
 * a restricted pool) and needs nothing else: coherent, identity, the whole
 * pool within reach. dmamap__swiotlb_bounce_all() says which pool, or NULL
 * (dmamap__device_refresh() keeps it in dev->bounce_all). The core calls
 * map and unmap with checked arguments, checker off and no fault armed;
 * they count in the device's stats as the core would, and hand anything
 * unusual (min_align_mask, oversize, a full area, an address that is not
 * a live slot) to the general path before changing anything.
 */
struct dmamap_iotlb *dmamap__swiotlb_bounce_all(const struct device *dev);
dma_addr_t dmamap__swiotlb_map_host(struct device *dev, phys_addr_t phys, size_t size,
				    unsigned long attrs);
void dmamap__swiotlb_unmap_host(struct device *dev, dma_addr_t addr, size_t size,
				enum dma_data_direction dir, unsigned long attrs);
void dmamap__swiotlb_sync(struct device *dev, struct dmamap_iotlb *t,
			  phys_addr_t tlb, size_t size,
			  enum dma_data_direction dir, bool for_cpu);
void *dmamap__swiotlb_alloc(struct device *dev, size_t size, dma_addr_t *dma);
bool dmamap__swiotlb_free(struct device *dev, void *vaddr);

/* ---- dmabounce (ops/dmabounce.c) -------------------------------------------- */
struct dmamap_dmabounce;
void dmamap__dmabounce_release(struct device *dev);
int dmamap__dmabounce_register_above(struct device *dev, unsigned long small,
				     unsigned long large, phys_addr_t above);

/* The direct table's entries, for tables that reuse them. */
void *dmamap__direct_alloc(struct device *dev, size_t size,
			   dma_addr_t *dma_handle, gfp_t gfp, unsigned long attrs);
void dmamap__direct_free(struct device *dev, size_t size, void *cpu_addr,
			 dma_addr_t dma_handle, unsigned long attrs);
int dmamap__direct_mmap(struct device *dev, struct vm_area_struct *vma,
			void *cpu_addr, dma_addr_t dma_addr, size_t size,
			unsigned long attrs);
int dmamap__direct_get_sgtable(struct device *dev, struct sg_table *sgt,
			       void *cpu_addr, dma_addr_t dma_addr, size_t size,
			       unsigned long attrs);
void *dmamap__direct_alloc_noncoherent(struct device *dev, size_t size,
				       dma_addr_t *dma_handle,
				       enum dma_data_direction dir, gfp_t gfp);
void dmamap__direct_free_noncoherent(struct device *dev, size_t size,
				     void *vaddr, dma_addr_t dma_handle,
				     enum dma_data_direction dir);
int dmamap__direct_supported(struct device *dev, u64 mask);
/* Whether @phys heads a direct allocation (pages or CMA) of @size. */
bool dmamap__direct_alloc_is(struct device *dev, phys_addr_t phys, size_t size);
u64 dmamap__direct_required_mask(struct device *dev);


/* ---- iommu (ops/iommu.c) ------------------------------------------------------ */
struct dmamap_iommu_domain;
int dmamap__iommu_attach(struct device *dev, const char *iommu, unsigned int group,
			 bool lazy);
void dmamap__iommu_detach(struct device *dev);
/* A bus master's access through its IOMMU; *first_phys gets the first page's address. */
int dmamap__iommu_access(struct device *dev, dma_addr_t iova, uint8_t *buf,
			 size_t len, bool write, phys_addr_t *first_phys);
phys_addr_t dmamap__iommu_walk(const struct device *dev, dma_addr_t iova);
const char *dmamap__iommu_name(const struct device *dev);
/* Count, record and report a device access that faulted; returns -EFAULT. */
int dmamap__device_fault(struct device *dev, dma_addr_t addr, size_t len,
			 bool write, const char *reason);

/* ---- models ------------------------------------------------------------ */
extern const struct dmamap_device_model dmamap__memcpy_engine_model;



/* platform/sim/ram.c */
int dmamap__host_arena_init(struct dmamap_platform *p, u64 size);
int dmamap__view_fd(struct dmamap_platform *p, phys_addr_t phys,
		    enum dmamap_view view, u64 *offset);
bool dmamap__env_debug(void);
const struct dmamap_board *dmamap__builtin_board(const char *name);
/* Boards embedded from boards/NAME.dts: a platform, or NULL if no such name. */
struct dmamap_platform *dmamap__dt_builtin(const char *name, struct dmamap_error *err);
const char *dmamap__dt_builtin_name(unsigned int i);
extern const char *const dmamap__builtin_board_names[];
#endif
