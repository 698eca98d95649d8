/* SPDX-License-Identifier: MIT */
/*
 * Boards, devices and the device side of DMA. A platform is a
 * simulated board (RAM banks, a non-coherent CPU cache, buses with windows,
 * device models) or the host (this process's memory, coherent, identity).
 */
#ifndef DMAMAP_PLATFORM_H
#define DMAMAP_PLATFORM_H

#include <dmamap/dma-mapping.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What went wrong and where (node path, property, argument). */
struct dmamap_error {
	int code; /* negative errno */
	char msg[1024]; /* room for a tool's own words, file and line included */
};

#define DMAMAP_MAX_RANGES 8
#define DMAMAP_MAX_BANKS 8
/*
 * Most RAM a simulated board may have in all. The CPU's linear map of it
 * is mapped whole (address space, not memory: a page costs memory when it
 * is written); what devices see, the cache model's snapshot and the
 * uncached aliases are mapped as a run first needs them. A 32-bit host
 * holds the linear map in its address space, with room for what a run
 * touches, up to 2 GiB.
 */
#define DMAMAP_SIM_RAM_MAX (sizeof(void *) >= 8 ? (u64)64 << 30 : (u64)2 << 30)
/* Regions /reserved-memory may withhold from the page allocator (Linux: 64). */
#define DMAMAP_MAX_RESERVED 64
/* CMA areas besides the default one, each serving the devices that name it. */
#define DMAMAP_MAX_CMA 8
/* Stream (or requester) ids one device may have on its IOMMU. */
#define DMAMAP_MAX_IOMMU_IDS 16
#define DMAMAP_NAME_MAX 64
#define DMAMAP_PATH_MAX 256 /* device tree node paths */
/*
 * A device lives inside a struct platform_device (<dmamap/platform_device.h>):
 * the room the library keeps for one device, and where it starts in the
 * platform_device (after the bus's fields).
 */
#define DMAMAP_DEVICE_BYTES 8192
#define DMAMAP_DEVICE_HEAD 64

/* One window of a device's bus: CPU [cpu_start, +size) is DMA [dma_start, +size). */
struct dmamap_dma_range {
	phys_addr_t cpu_start;
	dma_addr_t dma_start;
	u64 size;
};

struct dmamap_device_desc {
	const char *name;  /* unique on the board */
	const char *model; /* device model ("memcpy"), or NULL for none */
	u64 dma_mask;      /* 0: platform default (32-bit sim, 64-bit host) */
	u64 coherent_dma_mask; /* 0: same as dma_mask */
	bool coherent;     /* snoops the CPU cache (ignored on the host: see host_noncoherent) */
	unsigned int nr_ranges; /* 0: identity, no window */
	struct dmamap_dma_range ranges[DMAMAP_MAX_RANGES];
	u64 bus_dma_limit; /* 0: highest DMA address of the ranges, or none */
	unsigned int max_segment_size;       /* 0: 64 KiB, the kernel's default */
	unsigned long segment_boundary_mask; /* 0: no boundary */
	/*
	 * dmabounce (IXP4xx-like): buffers at or above this physical address
	 * (0: not registered) bounce through pools of these block sizes.
	 */
	phys_addr_t dmabounce_above;
	unsigned long dmabounce_small, dmabounce_large;
	/*
	 * Behind an IOMMU (NULL: not): devices naming the same IOMMU and the
	 * same non-zero group share one domain; group 0 gets a domain of its own.
	 */
	const char *iommu;
	/* Its stream/requester ids on that IOMMU, every one the tree lists (information). */
	unsigned int nr_iommu_ids;
	uint32_t iommu_ids[DMAMAP_MAX_IOMMU_IDS];
	unsigned int iommu_group;
	bool iommu_lazy; /* start in lazy (flush queue) mode */
	/*
	 * memory-region pools (0 size: none): a per-device coherent pool
	 * (shared-dma-pool), reached at its dma-ranges address, and a
	 * restricted-dma-pool every mapping of the device bounces through.
	 */
	phys_addr_t coherent_pool_start;
	u64 coherent_pool_size;
	phys_addr_t restricted_pool_start;
	u64 restricted_pool_size;
	/*
	 * Its own CMA area (0 size: the board's default), one of the board's
	 * cma_areas: every contiguous allocation of the device comes from it
	 * first, as a reusable shared-dma-pool its memory-region names.
	 */
	phys_addr_t cma_start;
	u64 cma_size;
	const char *of_path; /* the device tree node it came from, or NULL */
	/*
	 * From a tree (information, copied): the bus Linux creates the device
	 * on ("platform", "amba", "pci"; NULL: none said) and why the tree
	 * says it does DMA itself ("iommus", "PCI function", a node class such
	 * as "gpu"...; NULL: merely a populated device).
	 */
	const char *bus;
	const char *dma_master;
	/*
	 * On the host only: the device does not snoop the CPU's caches (a
	 * user-space driver's device on an ARM SoC, through UIO or a
	 * u-dma-buf-style buffer). Each dma_sync and each map and unmap then
	 * maintain the real caches line by line: arm64 "dc cvac" to clean
	 * for the device, "dc civac" for the CPU (user space has no
	 * invalidate-only operation); x86 "clflush" for both. The host has
	 * no uncached memory to give: dma_alloc_coherent() and
	 * dma_alloc_attrs() fail for such a device (use
	 * dma_alloc_noncoherent() and the syncs). Ignored on a board.
	 */
	bool host_noncoherent;
};

/* How the simulated cache maintains lines (docs/cache-model.md). */
enum dmamap_cache_arch {
	DMAMAP_CACHE_ARM64 = 0, /* speculating: for_device clean, for_cpu invalidate */
	DMAMAP_CACHE_ARMV5 = 1, /* non-speculating: all work at for_device */
};

/*
 * In which order the CPU's stores to memory devices read without cache
 * maintenance (coherent allocations) reach them, and device writes reach
 * the CPU's loads (docs/ordering.md).
 */
enum dmamap_memory_model {
	DMAMAP_MEMORY_WEAK = 0, /* ARMv8: any order barriers allow; the default */
	DMAMAP_MEMORY_TSO = 1,  /* x86: program order, every store at once */
};

/* What an invalidate does with a partial line at a buffer's edge. */
enum dmamap_edge_policy {
	DMAMAP_EDGE_CLEAN_INVALIDATE = 0, /* arm64 dcache_inval_poc: write back first */
	DMAMAP_EDGE_DISCARD = 1,          /* plain invalidate: CPU data in the line is lost */
};

struct dmamap_ram_bank {
	phys_addr_t start;
	u64 size;
};

/*
 * A /reserved-memory region (or /memreserve/ entry) as a tree reader
 * placed and used it: for the people reading the board, not for the
 * simulator (the board's reserved[] and CMA fields are what it uses).
 */
struct dmamap_region {
	const char *name;  /* its node's path, or "/memreserve/" */
	phys_addr_t start; /* where it landed */
	u64 size;          /* 0: not placed */
	const char *use;   /* what it became: "default CMA", "device pool", "released"... */
	const char *how;   /* where it came from and why it landed there, or why it is unused */
};

/* A board as data: code builds one, a device tree reader fills one. */
struct dmamap_board {
	const char *name;
	unsigned int cache_line_size; /* 0: 64 */
	enum dmamap_cache_arch arch;
	enum dmamap_edge_policy edge_policy;
	enum dmamap_memory_model memory_model;
	unsigned int nr_banks;
	struct dmamap_ram_bank banks[DMAMAP_MAX_BANKS];
	phys_addr_t zone_dma_limit; /* last byte of ZONE_DMA; 0: no DMA zone */
	/*
	 * First byte of high memory (0: none), as on 32-bit ARM: pages there
	 * have no place in kmalloc or coherent allocations and come only from
	 * dmamap_alloc_pages(__GFP_HIGHMEM).
	 */
	phys_addr_t highmem_start;
	/*
	 * The default swiotlb pool, carved from the lowest RAM so that every
	 * device reaches it: 0 for the default (64 MiB, scaled down to 1/32 of
	 * RAM on small boards), ~0 for none. Sizes are rounded down to 256 KiB:
	 * one that rounds to nothing, as the default does below 8 MiB of RAM,
	 * makes dmamap_platform_create() refuse the board.
	 */
	u64 swiotlb_size;
	/* Bounce sub-cache-line kmalloc buffers for non-coherent devices (arm64 option). */
	bool bounce_unaligned_kmalloc;
	/*
	 * The default CMA area (0: none), carved from the top of the lowest
	 * bank: coherent allocations larger than a page and
	 * DMA_ATTR_FORCE_CONTIGUOUS ones come from it.
	 */
	u64 cma_size;
	phys_addr_t cma_start; /* where the CMA area starts; 0: top of the lowest bank */
	/* Per-device CMA areas (dmamap_device_desc.cma_start names one). */
	unsigned int nr_cma_areas;
	struct dmamap_ram_bank cma_areas[DMAMAP_MAX_CMA];
	/* RAM withheld from the page allocator (reserved-memory with reg or no-map). */
	unsigned int nr_reserved;
	struct dmamap_ram_bank reserved[DMAMAP_MAX_RESERVED];
	/* What each reserved-memory region of a tree became (information, copied). */
	unsigned int nr_regions;
	const struct dmamap_region *regions;
	unsigned int nr_devices;
	const struct dmamap_device_desc *devices;
	/*
	 * The flattened device tree the board was read from (NULL: none). The
	 * platform keeps a copy, where drivers read their nodes' properties.
	 */
	const void *fdt;
	size_t fdt_size;
};

/**
 * dmamap_platform_create() - build a simulated board from a description
 * @board: the description (copied; may be freed after the call)
 * @err: receives the reason on failure (may be NULL)
 *
 * The description is checked first; then come the RAM banks, the default
 * bounce pool, CMA, the page allocator and, last, each device as
 * dmamap_device_create() makes it. Whatever fails, nothing is left
 * behind. The new platform's fault injector is not armed yet: no injected
 * fault fires here.
 *
 * Return: the platform, or NULL with @err set:
 *
 * - -EINVAL for a bad board: a NULL @board; a cache line size that is
 *   not a power of two in 16..256; no RAM bank, or more than
 *   %DMAMAP_MAX_BANKS; a bank that is empty, not page aligned, wraps or
 *   is too large; banks that overlap; more than %DMAMAP_SIM_RAM_MAX of RAM
 *   in all; a bounce pool that does not fit below the top of the lowest
 *   bank, or rounds down to nothing (the default size on a board with
 *   less than 8 MiB of RAM does); a CMA area placed off a page boundary
 *   or where there is no RAM, or too large for the lowest bank above the
 *   bounce pool; more than %DMAMAP_MAX_CMA per-device CMA areas, one that
 *   is empty, unaligned, not RAM, or overlaps another CMA area;
 * - -EINVAL for a bad device, as dmamap_device_create() lists them: its
 *   name, its ranges, an unknown model, an unusable coherent pool,
 *   restricted pool or dmabounce block sizes, a CMA area that is not one
 *   of the board's;
 * - -EEXIST for two devices of the same name;
 * - -ENOMEM when the host cannot give memory: the RAM banks (memfds and
 *   their mappings), the bounce pool's, CMA's or the page allocator's
 *   bookkeeping, a device or its IOMMU domain (a bus limit that leaves
 *   the IOMMU no IOVA space counts as this too), pools or dmabounce state;
 * - whatever a device model's probe returns (the memcpy engine's:
 *   -ENOMEM).
 *
 * Nothing checks the reserved regions (those past %DMAMAP_MAX_RESERVED
 * are ignored), zone_dma_limit or highmem_start.
 */
DMAMAP_API struct dmamap_platform *
dmamap_platform_create(const struct dmamap_board *board,
		       struct dmamap_error *err);

/**
 * dmamap_platform_fdt() - the device tree a board was read from
 * @p: platform
 * @size: receives its size in bytes (may be NULL)
 *
 * The platform's own copy, valid until it is destroyed.
 *
 * Return: the blob; NULL (and 0 in @size) for a NULL @p or a board that
 * came from no tree.
 */
DMAMAP_API const void *dmamap_platform_fdt(const struct dmamap_platform *p, size_t *size);

/**
 * dmamap_platform_builtin() - one of the boards shipped with dmamap
 * @name: "default" (see dmamap_platform_builtin_names())
 * @err: receives the reason on failure (may be NULL)
 *
 * The board's device tree, built into the library, is read as
 * dmamap_platform_from_fdt() reads one; a build without libfdt uses the
 * same boards written in C.
 *
 * Return: the platform, or NULL with @err set: -ENOENT for a NULL or
 * unknown @name; otherwise what building the board returns, as
 * dmamap_platform_create() lists it (-ENOMEM when the host cannot give
 * the RAM).
 */
DMAMAP_API struct dmamap_platform *
dmamap_platform_builtin(const char *name, struct dmamap_error *err);

/**
 * dmamap_platform_builtin_names() - names accepted by dmamap_platform_builtin()
 *
 * The boards written as device trees come first, then those only written
 * in C; at most 31.
 *
 * Return: a NULL-terminated array of names, never NULL; it lives as long
 * as the process.
 */
DMAMAP_API const char *const *dmamap_platform_builtin_names(void);

/**
 * dmamap_platform_host() - this process's memory as a platform
 * @err: receives the reason on failure (may be NULL)
 *
 * Devices created on it are coherent software devices that reach host
 * memory with identity addresses (or, with host_noncoherent, devices the
 * library maintains the real data cache for); coherent allocations come from a
 * memfd-backed arena so that dma_mmap_attrs() works. It has an 8 MiB
 * bounce pool in the arena and no CMA area.
 *
 * Return: the platform, or NULL with @err set to -ENOMEM: the arena, its
 * bounce pool or its page allocator could not be set up.
 */
DMAMAP_API struct dmamap_platform *dmamap_platform_host(struct dmamap_error *err);

/**
 * dmamap_platform_destroy() - destroy a platform and all its devices
 * @p: platform, or NULL (nothing happens)
 *
 * The device thread (threaded mode) is stopped first; each device goes as
 * dmamap_device_destroy() takes it, its leaks reported; then the
 * platform's memory. Pointers into its RAM, mappings and allocations all
 * become invalid. Not from an interrupt handler of the platform's own
 * devices (it would wait for itself).
 */
DMAMAP_API void dmamap_platform_destroy(struct dmamap_platform *p);

/**
 * dmamap_platform_name() - a platform's board name
 * @p: platform
 *
 * Return: the name ("host" for the host, "board" for a board created
 * without one); "" for a NULL @p.
 */
DMAMAP_API const char *dmamap_platform_name(const struct dmamap_platform *p);
/**
 * dmamap_platform_is_sim() - whether a platform is a simulated board
 * @p: platform
 *
 * Return: true for a simulated board; false for the host or a NULL @p.
 */
DMAMAP_API bool dmamap_platform_is_sim(const struct dmamap_platform *p);
/**
 * dmamap_cache_line_size() - a platform's cache line (ARCH_DMA_MINALIGN)
 * @p: platform
 *
 * Return: bytes: the board's line size; on the host, the architecture's
 * ARCH_DMA_MINALIGN (128 on arm64, 64 elsewhere); 64 for a NULL @p.
 */
DMAMAP_API unsigned int dmamap_cache_line_size(const struct dmamap_platform *p);

/**
 * dmamap_device_create() - add a device to a board
 * @p: platform
 * @desc: description (copied)
 * @err: receives the reason on failure (may be NULL)
 *
 * Set up as the kernel's probe would: the backend (IOMMU domain), the
 * declared coherent pool, the restricted pool, dmabounce, then the
 * model. Whatever fails, nothing is left behind.
 *
 * Return: the device, or NULL with @err set:
 *
 * - -EINVAL: a NULL @p or @desc; a name that is NULL, empty, or
 *   %DMAMAP_NAME_MAX bytes or longer; more than %DMAMAP_MAX_RANGES
 *   ranges, a range that is empty or wraps, ranges that overlap in bus
 *   space; a model nobody registered; a coherent pool that
 *   dma_declare_coherent_memory() refuses (not page aligned, not inside
 *   one RAM bank, not covered by the ranges), which it also reports; a
 *   restricted pool that dmamap_swiotlb_restricted_pool() refuses (not
 *   page aligned, not a multiple of 256 KiB, not inside one RAM bank);
 *   dmabounce_small above a non-zero dmabounce_large; dmabounce or a
 *   restricted pool on a device behind an IOMMU; a model with more than 8
 *   interrupt lines;
 * - -EOPNOTSUPP: host_noncoherent on a host architecture whose user space
 *   cannot maintain the data cache to the point of coherency (32-bit ARM,
 *   RISC-V, others than arm64 and x86);
 * - -EEXIST: the name is taken on @p;
 * - -ENOMEM: out of memory, or an injected DMAMAP_FAULT_ALLOC, for the
 *   device, its coherent pool or its dmabounce state, the board's device
 *   scheduler (made with its first model) or the interrupt numbers of the
 *   model's lines; an IOMMU domain that cannot be made: out of memory, or
 *   a bus limit below 8 KiB that leaves no IOVA space;
 * - -ENOSPC: the process has no interrupt numbers left for the model's
 *   lines (65,535 in all);
 * - whatever the model's probe returns (the built-in models': -ENOMEM).
 */
DMAMAP_API struct device *dmamap_device_create(struct dmamap_platform *p,
					       const struct dmamap_device_desc *desc,
					       struct dmamap_error *err);
/**
 * dmamap_device_destroy() - remove a device from its board
 * @dev: device, or NULL (nothing happens)
 *
 * With the checker on, mappings and allocations still live are reported
 * as a LEAK; dmabounce safe buffers still mapped are reported as a LEAK
 * whether it is on or not. What the device still has mapped or allocated
 * is not undone.
 */
DMAMAP_API void dmamap_device_destroy(struct device *dev);

/**
 * dmamap_device_lookup() - find a device by name
 * @p: platform
 * @name: device name
 *
 * Return: the device; NULL when no device has that name, or @p or @name
 * is NULL.
 */
DMAMAP_API struct device *dmamap_device_lookup(struct dmamap_platform *p,
					       const char *name);
/**
 * dmamap_device_count() - devices on a platform
 * @p: platform
 *
 * Return: the count; 0 for a NULL @p.
 */
DMAMAP_API unsigned int dmamap_device_count(struct dmamap_platform *p);
/**
 * dmamap_device_at() - a platform's devices, in creation order
 * @p: platform
 * @i: index, from 0
 *
 * Return: the @i-th device; NULL for a NULL @p or an @i past the last.
 */
DMAMAP_API struct device *dmamap_device_at(struct dmamap_platform *p,
					   unsigned int i);
/**
 * dmamap_device_model_name() - the name of a device's model
 * @dev: device
 *
 * Return: the name ("memcpy"...); "" for a device without a model or a
 * NULL @dev.
 */
DMAMAP_API const char *dmamap_device_model_name(const struct device *dev);

/**
 * dmamap_device_read() - the device reads memory at a device address
 * @dev: device
 * @dma_addr: device address
 * @dst: where the bytes go
 * @len: bytes
 *
 * A non-coherent device reads the memory view; a coherent one snoops.
 * With the checker on, an access to memory the device has no live mapping
 * of is reported (device-access-unmapped, device-write-readonly) and
 * still done.
 *
 * Return: 0; -EINVAL for a NULL @dev or @dst or a zero @len (not
 * reported); -EFAULT when the bus master is off, the range wraps or ends
 * above the device's masks (the wider of the streaming and coherent
 * ones), lies outside its window, is not RAM, or meets an IOMMU
 * translation or permission fault. A fault is recorded
 * (dmamap_device_last_fault(), the faults count), reported as
 * DEVICE_FAULT and logged whether the checker is on or not, and handed
 * to the IOMMU's fault handler when it is one of the IOMMU's. Nothing is
 * transferred, but for one case: behind an IOMMU, a page mapped to
 * something that is not RAM faults after the pages before it moved.
 */
DMAMAP_API int dmamap_device_read(struct device *dev, dma_addr_t dma_addr,
				  void *dst, size_t len);
/**
 * dmamap_device_write() - the device writes memory at a device address
 * @dev: device
 * @dma_addr: device address
 * @src: bytes to write
 * @len: bytes
 *
 * Return: as dmamap_device_read(): 0, -EINVAL (a NULL @src) or -EFAULT;
 * on a fault nothing is written, but for the same case behind an IOMMU.
 */
DMAMAP_API int dmamap_device_write(struct device *dev, dma_addr_t dma_addr,
				   const void *src, size_t len);
/**
 * dmamap_device_transfer() - the device copies memory to memory
 * @dev: device (a DMA engine, typically)
 * @dst: device address written
 * @src: device address read
 * @len: bytes
 *
 * What dmamap_device_read() of @src then dmamap_device_write() of @dst
 * would do, in one pass without a buffer in between where both ranges
 * reach RAM through the device's bus window; behind an IOMMU, in bursts
 * through a buffer, each checked as those two calls check it.
 *
 * Return: 0; -EINVAL for a NULL @dev or a zero @len; -EFAULT as
 * dmamap_device_read() and dmamap_device_write() fault (a fault of the
 * read moves nothing; behind an IOMMU, the bursts before a fault moved).
 */
DMAMAP_API int dmamap_device_transfer(struct device *dev, dma_addr_t dst, dma_addr_t src,
				      size_t len);
/**
 * dmamap_device_set_bus_master() - enable or disable a device's DMA
 * @dev: device; NULL is ignored
 * @enable: false makes every device access fault
 */
DMAMAP_API void dmamap_device_set_bus_master(struct device *dev, bool enable);
/**
 * dmamap_device_set_privileged() - make a device's accesses privileged transactions
 * @dev: device; NULL is ignored
 * @privileged: true: its accesses may use mappings made with
 *              DMA_ATTR_PRIVILEGED; false (the default): such a mapping
 *              faults (an IOMMU permission fault)
 *
 * Only an IOMMU looks at it, as an SMMU does at a transaction's privilege.
 */
DMAMAP_API void dmamap_device_set_privileged(struct device *dev, bool privileged);

/* A device's DMA configuration, as the kernel would derive it. */
struct dmamap_device_info {
	char name[DMAMAP_NAME_MAX];
	char model[DMAMAP_NAME_MAX];
	char ops[DMAMAP_NAME_MAX];   /* "direct", "iommu", "dmabounce", ... */
	char iommu[DMAMAP_NAME_MAX]; /* "" when not behind an IOMMU */
	unsigned int nr_iommu_ids;   /* its stream ids there */
	uint32_t iommu_ids[DMAMAP_MAX_IOMMU_IDS];
	bool coherent;
	u64 dma_mask, coherent_dma_mask;
	u64 bus_dma_limit;           /* 0: none */
	unsigned int nr_ranges;      /* 0: identity */
	struct dmamap_dma_range ranges[DMAMAP_MAX_RANGES];
	phys_addr_t restricted_pool; /* 0 size: none */
	u64 restricted_pool_size;
	bool coherent_pool;          /* has dma_declare_coherent_memory() memory */
	phys_addr_t cma;             /* its own CMA area (0 size: the default) */
	u64 cma_size;
	char path[DMAMAP_PATH_MAX];  /* its device tree node; "" when not from a tree */
	char bus[16];                /* "platform", "amba", "pci"; "" when not said */
	char dma_master[32];         /* why the tree says it does DMA; "" when it does not say */
};

/**
 * dmamap_device_info() - a device's DMA configuration
 * @dev: device
 * @info: receives it
 *
 * Return: 0, or -EINVAL for a NULL @dev or @info.
 */
DMAMAP_API int dmamap_device_info(struct device *dev, struct dmamap_device_info *info);

/**
 * dmamap_ram_bank() - the @i-th RAM bank of a board
 * @p: platform
 * @i: index
 * @bank: receives start and size
 *
 * Return: 0; -EINVAL for a NULL @p or @bank; -ENOENT past the last bank,
 * and for every @i on the host, which has no banks to list.
 */
DMAMAP_API int dmamap_ram_bank(struct dmamap_platform *p, unsigned int i,
			       struct dmamap_ram_bank *bank);

/* One of a board's reserved-memory regions, as dmamap_region_info() gives it. */
struct dmamap_region_info {
	char name[DMAMAP_PATH_MAX];
	phys_addr_t start;
	u64 size; /* 0: not placed */
	char use[32];
	char how[160];
};

/**
 * dmamap_region_info() - the @i-th reserved-memory region of a board
 * @p: platform
 * @i: index, in the order the board listed them
 * @info: receives it
 *
 * Return: 0; -EINVAL for a NULL @p or @info; -ENOENT past the last (a
 * board from code lists none unless it said).
 */
DMAMAP_API int dmamap_region_info(struct dmamap_platform *p, unsigned int i,
				  struct dmamap_region_info *info);

/**
 * dmamap_zone_dma_limit() - the last byte of a board's ZONE_DMA
 * @p: platform
 *
 * Return: the address; 0 when the board has no DMA zone, on the host and
 * for a NULL @p.
 */
DMAMAP_API phys_addr_t dmamap_zone_dma_limit(const struct dmamap_platform *p);

/* Why a call failed, as counted in the stats. */
enum dmamap_err_kind {
	DMAMAP_ERRK_NULL_ARG,      /* NULL device, page, pointer or table */
	DMAMAP_ERRK_BAD_DIR,       /* invalid direction */
	DMAMAP_ERRK_ZERO_SIZE,     /* zero size */
	DMAMAP_ERRK_BAD_HANDLE,    /* unmap/sync/free of an address not mapped */
	DMAMAP_ERRK_UNREACHABLE,   /* buffer beyond the device's window or mask */
	DMAMAP_ERRK_NOT_LINEAR,    /* buffer not in the board's linear map */
	DMAMAP_ERRK_BAD_MASK,      /* mask the device cannot use */
	DMAMAP_ERRK_NOMEM,         /* allocation failed (or injected fault) */
	DMAMAP_ERRK_BAD_ARG,       /* any other bad argument */
	DMAMAP_ERRK_COUNT
};

struct dmamap_device_stats {
	uint64_t maps;           /* single, page, resource, and each sg entry */
	uint64_t unmaps;
	uint64_t sg_maps;        /* dma_map_sg calls that succeeded */
	uint64_t bytes_mapped;
	uint64_t bytes_bounced;
	uint64_t syncs_for_cpu;
	uint64_t syncs_for_device;
	uint64_t cache_bytes_cleaned;
	uint64_t cache_bytes_invalidated;
	uint64_t allocs;         /* coherent and non-coherent allocations */
	uint64_t frees;
	uint64_t bytes_allocated;
	uint64_t iommu_pages_mapped;
	uint64_t dev_bytes_read;   /* by the device, through dmamap_device_read() */
	uint64_t dev_bytes_written;
	uint64_t faults;
	uint64_t errors;           /* sum of errors_by_kind */
	uint64_t errors_by_kind[DMAMAP_ERRK_COUNT];
};

/**
 * dmamap_device_stats() - a snapshot of a device's counters
 * @dev: device
 * @s: receives the counters
 *
 * Return: 0, or -EINVAL for a NULL @dev or @s.
 */
DMAMAP_API int dmamap_device_stats(struct device *dev,
				   struct dmamap_device_stats *s);
/**
 * dmamap_device_stats_reset() - zero a device's counters
 * @dev: device; NULL is ignored
 *
 * The record of its last fault (dmamap_device_last_fault()) stays.
 */
DMAMAP_API void dmamap_device_stats_reset(struct device *dev);
/**
 * dmamap_err_kind_name() - short name of an error kind
 * @kind: DMAMAP_ERRK_*
 *
 * Return: the name ("null-arg", "bad-direction"...); "unknown" for a
 * value out of range.
 */
DMAMAP_API const char *dmamap_err_kind_name(enum dmamap_err_kind kind);

/* A device access that faulted. */
struct dmamap_fault {
	char device[DMAMAP_NAME_MAX];
	dma_addr_t addr;
	size_t len;
	bool write;
	const char *reason; /* static string */
};

/**
 * dmamap_device_last_fault() - the most recent fault of a device
 * @dev: device
 * @f: receives it
 *
 * Return: 0; -ENOENT if the device never faulted; -EINVAL for a NULL @dev
 * or @f.
 */
DMAMAP_API int dmamap_device_last_fault(struct device *dev,
					struct dmamap_fault *f);

/* The CMA area's use: pages, high-water mark and fragmentation. */
struct dmamap_cma_stats {
	phys_addr_t start;
	uint64_t total_pages;
	uint64_t used_pages;
	uint64_t high_water;
	uint64_t largest_free_run; /* pages: the largest allocation that can succeed */
	uint64_t allocs;
	uint64_t failures;
};

/**
 * dmamap_cma_stats() - the platform's CMA area counters
 * @p: platform
 * @s: receives them
 *
 * Return: 0; -EINVAL for a NULL @p or @s; -ENODEV if the platform has no
 * CMA area (the host never has one).
 */
DMAMAP_API int dmamap_cma_stats(struct dmamap_platform *p, struct dmamap_cma_stats *s);

/* ---- logging, strict mode, fault injection ---------------------------- */

enum dmamap_log_level {
	DMAMAP_LOG_ERR = 3,
	DMAMAP_LOG_WARN = 4,
	DMAMAP_LOG_NOTICE = 5,
	DMAMAP_LOG_INFO = 6,
	DMAMAP_LOG_DEBUG = 7,
};

typedef void (*dmamap_log_fn)(void *ctx, int level, const char *line);

/**
 * dmamap_set_log_hook() - where a platform's log lines go
 * @p: platform, or NULL for lines about no platform (NULL device)
 * @fn: hook, or NULL for the default (stderr, rate-limited)
 * @ctx: passed to @fn
 *
 * A hook receives every line, without rate limiting.
 */
DMAMAP_API void dmamap_set_log_hook(struct dmamap_platform *p, dmamap_log_fn fn,
				    void *ctx);

/**
 * dmamap_log_line() - one line into a platform's log
 * @p: platform, or NULL for the process's log
 * @level: DMAMAP_LOG_*
 * @fmt: printf format
 *
 * What dev_err() and friends use: the line goes where
 * dmamap_set_log_hook() says (stderr by default), at most 511 bytes.
 */
DMAMAP_API void dmamap_log_line(struct dmamap_platform *p, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * dmamap_set_strict() - abort() on the first reported problem
 * @p: platform, or NULL for the process-wide setting (also DMAMAP_STRICT=1)
 * @strict: on or off
 *
 * A platform never set follows the process-wide setting.
 */
DMAMAP_API void dmamap_set_strict(struct dmamap_platform *p, bool strict);

/*
 * Classes of fault-injection points. DMAMAP_FAULT_MAP: each mapping the
 * core makes one at a time: page, single, resource, and each entry of a
 * list mapped entry by entry. A table's own map_sg (the IOMMU's) is no
 * injection point. DMAMAP_FAULT_ALLOC: the page allocator, CMA, kmalloc,
 * coherent and non-coherent allocations, declared pools, dmabounce
 * registration, device creation and the checker's own memory.
 * sg_alloc_table() is none: it has no platform to ask.
 */
#define DMAMAP_FAULT_MAP 0x1u   /* mappings made one at a time (page, single, sg entry, resource) */
#define DMAMAP_FAULT_ALLOC 0x2u /* allocators (pages, CMA, kmalloc, coherent, pools, devices) */
#define DMAMAP_FAULT_ALL (DMAMAP_FAULT_MAP | DMAMAP_FAULT_ALLOC)

/**
 * dmamap_fault_inject() - make the @countdown-th injection point fail
 * @p: platform; NULL arms the process-wide injector instead
 * @classes: DMAMAP_FAULT_* points that count
 * @countdown: 1 fails the next point of those classes; 0 or less disables
 *
 * Only one point fails; the injector disarms itself after it fires. A new
 * call replaces what the last one armed. A point that fires makes its call
 * fail as out of memory.
 *
 * The process-wide injector counts the points of every platform and, as
 * DMAMAP_FAULT_ALLOC points, every heap block, mapping and memfd the
 * library itself asks the system for; it can be armed before any platform
 * exists, so that making a board is walked point by point too.
 */
DMAMAP_API void dmamap_fault_inject(struct dmamap_platform *p,
				    unsigned int classes, long countdown);
/**
 * dmamap_fault_injected() - how many points have failed so far
 * @p: platform; NULL for the process-wide injector
 *
 * Return: the count since the platform was made (for NULL: since the
 * process started).
 */
DMAMAP_API unsigned long dmamap_fault_injected(struct dmamap_platform *p);

#ifdef __cplusplus
}
#endif
#endif
