/* SPDX-License-Identifier: MIT */
/*
 * The checker's hooks. Each is called only when the platform's checker is
 * on, behind dmamap__dbg_on(): off, a hook costs one predictable branch.
 */
#ifndef DMAMAP_DEBUG_CHECKER_H
#define DMAMAP_DEBUG_CHECKER_H

#include "../lib/lib.h"
#include "../base/device.h"
#include "../hw/hw.h"

enum dbg_type { DBG_SINGLE, DBG_PAGE, DBG_SG, DBG_COHERENT, DBG_NONCOHERENT,
		DBG_RESOURCE, DBG_POOL, DBG_IOVA };

/* What one API call says about one mapping or allocation. */
struct dbg_ref {
	enum dbg_type type;
	dma_addr_t addr;
	u64 size;
	int dir;
	phys_addr_t phys;  /* PHYS_NONE when unknown */
	const void *cpu;   /* CPU address given or returned, if any */
	int sg_call_ents;  /* nents passed to map_sg/unmap_sg */
	int sg_mapped_ents;/* what map_sg returned */
	void *caller;      /* the driver's call site */
	unsigned long attrs; /* DMA_ATTR_* of the map, alloc or free */
};

/* Whether dma_mapping_error() was asked before the mapping was used. */
enum { MAPERR_NA, MAPERR_NOT_CHECKED, MAPERR_CHECKED };

/* A live mapping or allocation as the checker records it. */
struct dbg_entry {
	struct dbg_entry *next;
	struct device *dev;
	dma_addr_t addr;
	u64 size;
	phys_addr_t phys;
	const void *cpu;
	void *caller;
	int sg_call_ents;
	int sg_mapped_ents;
	uint8_t type;
	uint8_t dir;
	uint8_t map_err;
	uint8_t lines; /* cache-line nodes this entry holds: 0, 1 or 2 */
	/*
	 * A bounced streaming mapping: the device uses a copy, so what the
	 * CPU does to the original is seen by a hash of it, taken when the
	 * device was last given the buffer (map, sync_for_device).
	 */
	uint8_t bounced;
	uint8_t cpu_owns;       /* since a sync_for_cpu, until the next sync_for_device */
	uint8_t cpu_write_said; /* one report per mistake: later checks stay quiet */
	uint8_t guarded;        /* ownership mode: its whole pages are taken from the CPU */
	/*
	 * Synced in part at least once: who owns which part is no longer one
	 * fact, so ownership is not judged (no report, no guard) from then on.
	 */
	uint8_t partial;
	uint64_t orig_hash;
	uint32_t attrs; /* DMA_ATTR_* given at the map or allocation (all fit in 32 bits) */
};

/*
 * The entry this thread mapped last: dma_mapping_error() nearly always asks
 * about it, and then needs neither a call nor a bucket lock. Entries live
 * as long as their checker. The shortcut is taken only when that mapping
 * was of the asking device (whose platform's checker cannot be freed while
 * the device is in use; another platform's may be, on another thread) and
 * no checker was made or freed since (the epoch: a new checker can have
 * the old one's address). The entry's address and device are compared
 * before the flag is set, in case it now records another mapping.
 */
struct dbg_last_map {
	unsigned long epoch;
	const struct device *dev;
	struct dbg_entry *e;
};

extern __thread struct dbg_last_map dmamap__dbg_last_map
	__attribute__((tls_model("initial-exec")));
extern unsigned long dmamap__dbg_epoch;

static inline bool dmamap__dbg_on(const struct device *dev)
{
	return unlikely(__atomic_load_n(&dev->plat->debug, __ATOMIC_RELAXED));
}

/*
 * The memory the device really uses: a bounce buffer when the mapping
 * bounced. Cache-line checks are about that memory, not the original.
 */
static inline phys_addr_t dmamap__dbg_device_phys(struct device *dev, dma_addr_t addr,
						  u64 size)
{
	if (dev->direct_identity) /* host: the address is the memory */
		return addr;
	/*
	 * A real function (VFIO): the IOMMU's page table is the kernel's, not
	 * ours to walk, and nothing bounces: the device uses the CPU's own buffer.
	 */
	if (dev->vfio)
		return PHYS_NONE;
	return dmamap__dev_dma_to_phys(dev, addr, size);
}

void dmamap__dbg_map(struct device *dev, const struct dbg_ref *ref);
void dmamap__dbg_unmap(struct device *dev, const struct dbg_ref *ref);
/* The same for a page or single mapping, without a dbg_ref in memory. */
void dmamap__dbg_map_page(struct device *dev, enum dbg_type type, dma_addr_t addr,
			  u64 size, int dir, const void *cpu, void *caller, unsigned long attrs);
/*
 * dmamap__dbg_map_page() of an identity mapping (the buffer is at @addr),
 * returning @addr, for the core's identity case to end with.
 */
dma_addr_t dmamap__dbg_map_identity(struct device *dev, enum dbg_type type, dma_addr_t addr,
				    u64 size, int dir, void *caller);
void dmamap__dbg_unmap_page(struct device *dev, enum dbg_type type, dma_addr_t addr,
			    u64 size, int dir);
void dmamap__dbg_mapping_error_slow(struct device *dev, dma_addr_t addr);

static inline void dmamap__dbg_mapping_error(struct device *dev, dma_addr_t addr)
{
	struct dbg_entry *e = dmamap__dbg_last_map.e;

	if (likely(e && dmamap__dbg_last_map.dev == dev &&
		   dmamap__dbg_last_map.epoch ==
			__atomic_load_n(&dmamap__dbg_epoch, __ATOMIC_RELAXED) &&
		   __atomic_load_n(&e->addr, __ATOMIC_RELAXED) == addr &&
		   __atomic_load_n(&e->dev, __ATOMIC_RELAXED) == dev)) {
		if (__atomic_load_n(&e->map_err, __ATOMIC_RELAXED) == MAPERR_NOT_CHECKED)
			__atomic_store_n(&e->map_err, MAPERR_CHECKED, __ATOMIC_RELAXED);
		return;
	}
	dmamap__dbg_mapping_error_slow(dev, addr);
}
/*
 * @sg_nents: the nents a dma_sync_sg_*() call passed, on its first entry;
 * else 0. Returns whether dmamap__dbg_synced() must follow the backend's work.
 */
bool dmamap__dbg_sync(struct device *dev, dma_addr_t addr, u64 size, int dir,
		      bool to_cpu, int sg_nents);
unsigned long dmamap__dbg_device_gone(struct device *dev);
/* The dbg_type of the live entry of @dev starting at @addr, -1 if none. */
int dmamap__dbg_type_at(struct device *dev, dma_addr_t addr);
/* map_sg's return value recorded for the sg entry at @addr, 0 if none. */
int dmamap__dbg_sg_mapped_ents(struct device *dev, dma_addr_t addr);
void dmamap__dbg_platform_gone(struct dmamap_platform *p);
/*
 * dma_iova_unlink() (@unlink) and dma_iova_free(): every live entry of
 * @type whose start lies in [@addr, +@size) goes. For an unlink, none at
 * all is reported (not-mapped); for a free, any is (leak: links left in
 * place). Returns how many went.
 */
unsigned long dmamap__dbg_unmap_range(struct device *dev, enum dbg_type type, dma_addr_t addr,
				      u64 size, bool unlink);
/*
 * After a sync's backend work: a bounced original is what its copy holds
 * again; after one for the device, ownership mode takes the CPU's access.
 */
void dmamap__dbg_synced(struct device *dev, dma_addr_t addr, u64 size, bool to_cpu);
/*
 * A CPU access (@write: 1 write, 0 read, -1 unknown) trapped at @addr in a
 * page @p guarded: reported against the mapping that holds it (ownership.c).
 */
void dmamap__dbg_cpu_access_trapped(struct dmamap_platform *p, const void *addr, int write);
/* From a SIGSEGV handler's context: 1 the access wrote, 0 it read, -1 the machine does not say. */
int dmamap__fault_was_write(void *uc);
/* The live streaming mapping of @p whose CPU buffer holds @addr, copied to @out (marked said). */
bool dmamap__dbg_entry_of_cpu(struct dmamap_platform *p, const void *addr, struct dbg_entry *out);
/* The mapping holding [@addr, +@size) starts with the CPU as its owner (allocated memory). */
void dmamap__dbg_cpu_owns(struct device *dev, dma_addr_t addr, u64 size);
/*
 * @func (an mmap or sg_table view) of @addr: -EINVAL, reported, when @addr
 * lies in a live streaming mapping; views are of allocations only.
 */
int dmamap__dbg_view(struct device *dev, const char *func, dma_addr_t addr, u64 size);

#endif
