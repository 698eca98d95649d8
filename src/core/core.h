/* SPDX-License-Identifier: MIT */
/*
 * What the core's entry points share: the argument checks (inline, a few
 * compares for a good call) and their reports (args.c), one mapping as
 * every page, single and sg entry is mapped (mapping.c), and the device
 * refresh the core installs on every platform (device.c).
 */
#ifndef DMAMAP_CORE_CORE_H
#define DMAMAP_CORE_CORE_H

#include "../lib/lib.h"
#include "../base/bus.h"
#include "../hw/hw.h"

/* Each test its own branch: folded into one flag they cost more than they save. */
static inline bool dmamap__call_args_ok(const struct device *dev, size_t size, int dir)
{
	if (unlikely(!dev))
		return false;
	if (unlikely(!size))
		return false;
	return likely((unsigned int)dir <= DMA_FROM_DEVICE);
}

/* And a buffer: one in the first page has no page, a NULL one with an offset. */
static inline bool dmamap__map_args_ok(const struct device *dev, const void *obj, size_t size,
				       int dir)
{
	if (unlikely(!dmamap__call_args_ok(dev, size, dir)))
		return false;
	return likely((uintptr_t)obj >= PAGE_SIZE);
}

/* And a handle, never DMA_MAPPING_ERROR (a failed mapping used). */
static inline bool dmamap__handle_args_ok(const struct device *dev, dma_addr_t addr,
					  size_t size, int dir)
{
	if (unlikely(addr == DMA_MAPPING_ERROR))
		return false;
	return dmamap__call_args_ok(dev, size, dir);
}

/* Report the first of the device, buffer, direction and size that is bad; true if one was. */
bool dmamap__bad_args(struct device *dev, const void *obj, size_t size, int dir,
		      const char *func) __attribute__((cold));
/* The same for a call without a buffer (a resource, a handle). */
bool dmamap__bad_call_args(struct device *dev, size_t size, int dir, const char *func)
	__attribute__((cold));
/* The same for a handle's arguments, then a DMA_MAPPING_ERROR handle. */
void dmamap__bad_handle(struct device *dev, dma_addr_t addr, size_t size, int dir,
			const char *func) __attribute__((cold));
void dmamap__null_table(struct device *dev, const char *func) __attribute__((cold));
/* @nents runs past the end of the list, which has only @found entries. */
void dmamap__sg_too_short(struct device *dev, const char *func, int found, int nents)
	__attribute__((cold));

/* DMA_ATTR_REQUIRE_COHERENT asked of a device that needs cache maintenance. */
static inline bool dmamap__coherence_refused(const struct device *dev, unsigned long attrs)
{
	return unlikely((attrs & DMA_ATTR_REQUIRE_COHERENT) && !dev->coherent);
}

/* Its report, under @func (UNREACHABLE): every entry point refuses it the same way. */
void dmamap__not_coherent(struct device *dev, const char *func) __attribute__((cold));

static inline bool dmamap__bad_map_args(struct device *dev, const void *obj, size_t size,
					int dir, const char *func)
{
	if (dmamap__map_args_ok(dev, obj, size, dir))
		return false;
	return dmamap__bad_args(dev, obj, size, dir, func);
}

/*
 * An address outside the device's window is the backend's error
 * (UNMAP_INVALID), reported with the checker on or off: the direct table's
 * window check, which dmabounce falls back to for what it did not bounce.
 * The checker stays out of it rather than report the same mistake twice.
 * Identity devices have no window.
 */
static inline bool dmamap__backend_reports(struct device *dev, dma_addr_t addr, size_t size)
{
	return !dev->direct_identity && (!dev->dma_ops || dev->dmabounce) &&
	       dmamap__bus_to_phys(dev, addr, size) == PHYS_NONE;
}

/* A page and an offset as one linear-map pointer (NULL for a NULL page). */
static inline void *dmamap__page_ptr(struct page *page, size_t offset)
{
	return page ? (char *)page_address(page) + offset : NULL;
}

/*
 * One mapping of the page range at @ptr, as every sg entry is mapped:
 * fault injection, the direct backend or the table, the count. *@errp
 * (when not NULL) gets -ENOMEM, -EIO or -EINVAL on failure.
 */
dma_addr_t dmamap__map_entry(struct device *dev, void *ptr, size_t size,
			     enum dma_data_direction dir, unsigned long attrs, int *errp);
void dmamap__unmap_entry(struct device *dev, dma_addr_t addr, size_t size,
			 enum dma_data_direction dir, unsigned long attrs);

/*
 * Coherent memory the checker does not record, for a dma_pool's backing:
 * the pool tracks the blocks it hands out instead. Counted, and a failure
 * reported under @func, as dma_alloc_attrs() does.
 */
void *dmamap__alloc_untracked(struct device *dev, size_t size, dma_addr_t *dma_handle,
			      gfp_t gfp, const char *func);
void dmamap__free_untracked(struct device *dev, size_t size, void *cpu_addr,
			    dma_addr_t dma_handle);

/*
 * Cacheable memory the CPU syncs by hand, as dma_alloc_noncoherent() and
 * dma_free_noncoherent() (reports under @func); @tracked: the checker
 * records it as a non-coherent allocation, else the caller records what it
 * makes of it (dma_alloc_noncontiguous(): a mapped list).
 */
void *dmamap__alloc_noncoherent(struct device *dev, size_t size, dma_addr_t *dma_handle,
				enum dma_data_direction dir, gfp_t gfp, const char *func,
				void *caller, bool tracked);
void dmamap__free_noncoherent(struct device *dev, size_t size, void *vaddr,
			      dma_addr_t dma_handle, enum dma_data_direction dir,
			      const char *func, bool tracked);

/* Re-derive what the backends cache in @dev (the platform's refresh hook). */
void dmamap__core_refresh(struct device *dev);
/*
 * The host platform with an arena of @arena_size bytes (0: the default)
 * and a bounce pool of @swiotlb_size carved from it (0: none).
 */
struct dmamap_platform *dmamap__platform_host_sized(u64 arena_size, u64 swiotlb_size,
						    struct dmamap_error *err);

/*
 * Every DMA API call is a yield point: the board's busy devices step
 * before it acts. One predictable branch while no device is busy.
 */
static inline __attribute__((always_inline)) void dmamap__api_yield(struct device *dev)
{
	if (unlikely(__atomic_load_n(&dev->plat->yield_on, __ATOMIC_RELAXED)))
		dmamap__sched_yield(dev->plat, 1);
}

_Static_assert(offsetof(struct dmamap_platform, yield_on) - offsetof(struct dmamap_platform, debug) ==
		       offsetof(union dmamap__hooks, yield_on) &&
	       offsetof(struct dmamap_platform, trace) - offsetof(struct dmamap_platform, debug) ==
		       offsetof(union dmamap__hooks, trace),
	       "union dmamap__hooks must read the platform's hooks word");

/* The hooks word, loaded once, as its flags. */
static inline __attribute__((always_inline)) union dmamap__hooks
dmamap__hooks_now(const struct device *dev)
{
	union dmamap__hooks h;

	h.word = __atomic_load_n(&dev->plat->hooks, __ATOMIC_RELAXED);
	return h;
}

/*
 * The fast paths ask once whether anything hooks the call (the checker,
 * or busy devices): the two flags share a word, so it is the one load and
 * branch the checker's test alone used to be.
 */
static inline __attribute__((always_inline)) bool dmamap__hooks_on(const struct device *dev)
{
	return unlikely(__atomic_load_n(&dev->plat->hooks, __ATOMIC_RELAXED) != 0);
}

/* The board goes: report its shared buffers still referenced and give their memory back. */
void dmamap__dmabuf_board_gone(struct dmamap_platform *p);

#endif
