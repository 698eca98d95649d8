/* SPDX-License-Identifier: MIT */
/*
 * The two objects every layer speaks of: a platform and its devices (as
 * Linux keeps struct device below everything that maps). Each part of
 * them has one owner, named beside it, which alone writes it. A layer
 * above this one keeps its state behind a pointer whose type its own
 * header completes, so this header names no layer above it.
 */
#ifndef DMAMAP_BASE_DEVICE_H
#define DMAMAP_BASE_DEVICE_H

#include <pthread.h>
#include <dmamap/dma-map-ops.h>
#include <dmamap/platform.h>
#include <dmamap/model.h>
#include <dmamap/trace.h>
#include "../lib/shard.h"
#include "../lib/fault.h"
#include "../lib/log.h"

/* ---- the machine (owner: platform/, the port) ----------------------------- */

/* Which machine is behind the port. Only src/platform/ reads it. */
enum dmamap_machine_kind { MACHINE_HOST, MACHINE_SIM };

/*
 * A RAM bank: its linear map (what the CPU reaches through its cache) and
 * the files behind its views. On a board the memory itself (what devices
 * see) is another file, reached by the CPU only through uncached or
 * write-combining aliases mapped per allocation (struct dmamap_alias); on
 * the host both are the same memory.
 */
struct dmamap_bank {
	phys_addr_t start;
	u64 size;
	uint8_t *cpu;
	int fd_cpu, fd_mem; /* what mmap() of a view maps */
};

/* An uncached or write-combining CPU mapping of one allocation (memory.c). */
struct dmamap_alias {
	uint8_t *addr;   /* what the allocation's owner was given */
	size_t size;
	phys_addr_t phys;
	int view;        /* enum dmamap_view */
	void *map;       /* the whole host pages mapped */
	size_t map_len;
};

struct dmamap_machine {
	enum dmamap_machine_kind kind;
	unsigned int line_size, line_shift; /* the CPU's cache line */
	unsigned int nr_banks;
	struct dmamap_bank banks[DMAMAP_MAX_BANKS];
	/* The live uncached and write-combining aliases, sorted by address (alias.c). */
	int alias_lock;
	unsigned int nr_aliases, aliases_cap;
	struct dmamap_alias *aliases;
};

/* ---- the device registry (owner: base/) ---------------------------------- */

struct dmamap_devices {
	pthread_mutex_t lock; /* never taken on a mapping path */
	unsigned int n, cap;
	struct device **list;
	uint16_t next_id;
};

/* ---- observers (owner: base/; registered by layers above) ---------------- */

struct dmamap_observer;
#define DMAMAP_MAX_OBSERVERS 4

struct dmamap_observers {
	unsigned int n; /* read without the lock: 0 keeps the notifiers to one branch */
	pthread_mutex_t lock;
	const struct dmamap_observer *list[DMAMAP_MAX_OBSERVERS];
};

struct dmamap_checker;  /* debug/ */
struct dmamap_sim;      /* platform/sim/ */
struct dmamap_mm;       /* mm/ */
struct dmamap_cma;      /* mm/ */
struct dmamap_swiotlb;  /* ops/swiotlb */
struct dmamap_iommu;    /* ops/iommu */
struct dmamap_sched;    /* hw/ */
struct dmamap_vfio;     /* platform/vfio/ */
struct dmamap_vfio_space; /* ops/vfio */

/*
 * Whether this thread runs a device model's callback (hw/ sets it): its
 * memory accesses are the hardware's, which the memory-order model orders;
 * the others are a test playing the device by hand.
 */
extern __thread bool dmamap__in_model;

/* What the CPU did that moves its stores and device writes across (docs/ordering.md). */
enum dmamap_order_event {
	ORDER_WMB,  /* earlier stores before later ones: the buffer drains */
	ORDER_RMB,  /* later loads after earlier ones: they see every device write */
	ORDER_MB,   /* both */
	ORDER_TICK, /* a yield point: no order, but time passes */
};

/* What a model's next memory writes are (dmamap_device_write_desc() names a descriptor's parts). */
enum dmamap_order_write {
	ORDER_WRITE_PLAIN, /* a write of its own */
	ORDER_WRITE_BODY,  /* a descriptor's fields, written before its ownership word */
	ORDER_WRITE_OWN,   /* that ownership word: the completion the CPU polls */
};

/*
 * The flags of the platform's hooks word as one value: a fast path loads
 * the word once and tests the flags it needs in a register.
 */
union dmamap__hooks {
	struct {
		bool debug;
		bool yield_on;
		bool trace;
	};
	uint32_t word;
};

struct dmamap_platform {
	/* Read by every map and unmap: one cache line, kept together. */
	/* What hooks an API call, read as one word by the identity fast paths. */
	union {
		struct {
			bool debug;    /* debug/: the checker is on */
			/* hw/: a yield point has work (a busy device, a pending interrupt). */
			bool yield_on;
			bool trace;    /* base/: a trace hook is set */
		};
		uint32_t hooks;
	};
	bool ownership;                     /* debug/: ownership mode (guarded pages) */
	struct dmamap_checker *checker;     /* debug/: live while debug is on */
	struct dmamap_fault_injector fault; /* lib/: armed through the public call */

	char name[DMAMAP_NAME_MAX];          /* core/ */
	void *fdt;                           /* core/: its copy of the board's tree, or NULL */
	size_t fdt_size;
	unsigned int nr_regions;             /* core/: the board's reserved-memory regions */
	struct dmamap_region_info *regions;
	u64 default_mask;                    /* core/: a new device's mask unless it names one */
	/* core/: re-derive what the backends cache in a device (dmamap__device_refresh()). */
	void (*refresh)(struct device *dev);
	struct dmamap_machine mach;          /* platform/ */
	struct dmamap_devices devices;       /* base/ */
	struct dmamap_observers observers;   /* base/ */
	dmamap_trace_fn trace_fn;            /* base/: dmamap_set_trace_hook() */
	void *trace_ctx;
	struct dmamap_log log;               /* lib/ */
	struct dmamap_sim *sim;              /* platform/sim/; NULL on the host */
	struct dmamap_mm *mm;                /* mm/ */
	struct dmamap_swiotlb *swiotlb;      /* ops/swiotlb: the default pool and its mode */
	struct dmamap_iommu *iommu;          /* ops/iommu: its domains */
	struct dmamap_sched *sched;          /* hw/: device time; NULL until a model steps */
	struct dmamap_vfio *vfio;            /* platform/vfio: the function held, or NULL */
	bool vfio_noiommu;                   /* platform/: it has no IOMMU (DMA addresses physical) */
	struct dmamap_vfio_space *vfio_space; /* ops/vfio: its IOVA space and registered memory */
};

/* ---- counters (owner: base/; every layer counts) ------------------------- */

enum dmamap_stat {
	ST_MAPS, ST_UNMAPS, ST_SG_MAPS, ST_BYTES_MAPPED, ST_BYTES_BOUNCED,
	ST_SYNC_CPU, ST_SYNC_DEV, ST_CLEANED, ST_INVALIDATED, ST_ALLOCS,
	ST_FREES, ST_BYTES_ALLOC, ST_IOMMU_PAGES, ST_DEV_READ, ST_DEV_WRITTEN,
	ST_FAULTS, ST_ERR0,
	ST_COUNT = ST_ERR0 + DMAMAP_ERRK_COUNT
};

struct dmamap_stat_shard {
	uint64_t v[ST_COUNT];
} __attribute__((aligned(64)));

/* Segment limits, as Linux's struct device_dma_parameters (owner: core/, set by the driver). */
struct dmamap_dma_parms {
	unsigned int max_segment_size;
	unsigned long segment_boundary_mask;
	unsigned int min_align_mask;
};

/* The last device access that faulted (owner: base/). */
struct dmamap_fault_record {
	pthread_mutex_t lock;
	bool valid;
	struct dmamap_fault last;
};

struct dmamap_coherent_pool; /* mm/ */
struct dmamap_iotlb;         /* ops/swiotlb */
struct dmamap_dmabounce;     /* ops/dmabounce */
struct dmamap_iommu_domain;  /* ops/iommu */
struct dmamap_iopt;          /* hw/ */
struct dmamap_msi;           /* hw/ */

/* The real thing: <dmamap/device.h> only reserves room for it. */
#define DMAMAP_DEVICE_DEFINED 1
struct device {
	/*
	 * Read by every map and unmap: kept together at the head. Derived
	 * from the rest and kept current by dmamap__device_refresh().
	 */
	bool direct_identity; /* ops/direct: mapping is a limit check (see direct.h) */
	bool vfio_lookup;     /* ops/vfio: mapping registered memory is a table lookup */
	bool vfio;            /* ops/vfio: a real function; its accesses are not ours to see */
	u64 map_limit;        /* base/: min(*dma_mask, bus_dma_limit) */
	/* ops/swiotlb: the default pool's device addresses, and the pool every mapping bounces through */
	dma_addr_t bounce_start;
	u64 bounce_len;
	struct dmamap_iotlb *bounce_all;
	struct dmamap_platform *plat;
	const struct dma_map_ops *dma_ops; /* core/: NULL is the direct table */
	u64 *dma_mask;

	/* What the device is (core/, from its description). */
	char name[DMAMAP_NAME_MAX];
	char of_path[DMAMAP_PATH_MAX];
	/* Information from its tree: its bus, why it is a DMA master, its IOMMU ids. */
	char bus[16];
	char dma_master[32];
	unsigned int nr_iommu_ids;
	uint32_t iommu_ids[DMAMAP_MAX_IOMMU_IDS];
	uint16_t id;
	bool coherent;
	bool bus_master; /* hw/: dmamap_device_set_bus_master() */
	bool dma_privileged; /* hw/: its accesses are privileged transactions */
	u64 dma_mask_store;
	u64 coherent_dma_mask;
	/* Its bus (core/): the window ranges and the limit they imply. */
	u64 bus_dma_limit; /* 0: none */
	unsigned int nr_ranges;
	struct dmamap_dma_range ranges[DMAMAP_MAX_RANGES];
	/* mm/: where a declared coherent pool sits on its bus (size 0: none). */
	struct dmamap_dma_range dma_mem_window;
	struct dmamap_dma_parms dma_parms;

	/* Backend state, each behind a pointer its owner's header completes. */
	struct dmamap_coherent_pool *dma_mem;  /* mm/: dma_declare_coherent_memory() */
	struct dmamap_iotlb *dma_io_tlb_mem;   /* ops/swiotlb: a restricted pool */
	struct dmamap_dmabounce *dmabounce;    /* ops/dmabounce */
	struct dmamap_iommu_domain *iommu_domain; /* ops/iommu */
	struct dmamap_iopt *iommu_hw;          /* hw/: the page table its accesses go through */
	struct dmamap_cma *cma_area; /* mm/: its own CMA area (NULL: the board's default) */
	const struct dmamap_device_model *model; /* hw/ */
	void *model_priv;
	/* hw/: its place in the scheduler, first interrupt number and register block. */
	bool model_busy;
	bool model_again; /* woke itself in a step: idle now, stepped again at the next yield point */
	unsigned int model_stall; /* yield points it sits out (seeded schedule) */
	int irq_first;            /* 0: none */
	/* hw/: a real function's interrupt lines (its MSI-X vectors) and their waiter. */
	unsigned int nr_msi;
	struct dmamap_msi *msi;
	int io_slot;              /* its slot + 1; 0: none */

	struct dmamap_fault_record fault;      /* base/ */
	struct dmamap_stat_shard stats[DMAMAP_STAT_SHARDS]; /* base/ */
};

static inline void dmamap__stat_add_shard(struct dmamap_stat_shard *s,
					  enum dmamap_stat k, uint64_t n)
{
	dmamap__count_add(&s->v[k], n);
}

static inline void dmamap__stat_add(struct device *dev, enum dmamap_stat k, uint64_t n)
{
	dmamap__stat_add_shard(&dev->stats[dmamap__my_shard()], k, n);
}

/* A successful mapping of @size bytes, in shard @s. */
static inline void dmamap__count_map_shard(struct dmamap_stat_shard *s, size_t size)
{
	/* One test of the shard for both counts: each atomic store would reload it. */
	if (dmamap__shard_shared()) {
		__atomic_fetch_add(&s->v[ST_MAPS], 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&s->v[ST_BYTES_MAPPED], size, __ATOMIC_RELAXED);
	} else {
		dmamap__count_add_owned(&s->v[ST_MAPS], 1);
		dmamap__count_add_owned(&s->v[ST_BYTES_MAPPED], size);
	}
}

/* The same in the calling thread's shard. */
static inline void dmamap__count_map(struct device *dev, size_t size)
{
	dmamap__count_map_shard(&dev->stats[dmamap__my_shard()], size);
}

/*
 * Re-derive the fields at the head of @dev after what they come from
 * changed (mask, ops table, pools, swiotlb mode): the bus limit here, the
 * backends' caches through the platform's refresh hook.
 */
void dmamap__device_refresh(struct device *dev);

/* Registry: add @dev (it gets its id), remove it. -ENOMEM if the list cannot grow. */
int dmamap__device_register(struct dmamap_platform *p, struct device *dev);
void dmamap__device_unregister(struct device *dev);
/* The name of the device with @id into @out (DMAMAP_NAME_MAX), "" if it is gone. */
void dmamap__device_name_of(struct dmamap_platform *p, uint16_t id, char *out);
/* Call @fn for every device, under the registry lock (it must not add or remove devices). */
void dmamap__device_for_each(struct dmamap_platform *p, void (*fn)(struct device *dev));

/* Count, record and report a device access that faulted; returns -EFAULT. */
int dmamap__device_fault(struct device *dev, dma_addr_t addr, size_t len,
			 bool write, const char *reason);

#endif
