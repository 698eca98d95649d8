/* SPDX-License-Identifier: MIT */
/*
 * Single, page and resource mappings, shaped as Linux's
 * kernel/dma/mapping.c: each entry point checks its arguments once, maps
 * through the direct backend without an indirect call when the device has
 * no ops table (the table otherwise), counts, and tells the checker, which
 * costs one branch while it is off. Scatter-gather (sg.c) and syncs
 * (sync.c) build on the same steps.
 */
#include "../lib/lib.h"
#include "../base/report.h"
#include "../base/trace.h"
#include "../debug/checker.h"
#include "../ops/direct.h"
#include "../ops/vfio.h"
#include "../platform/port.h"
#include "core.h"

/* An injected fault stands for running out of memory, and is counted so. */
static __attribute__((noinline, cold)) dma_addr_t injected(struct device *dev, int *errp)
{
	if (errp)
		*errp = -ENOMEM;
	dmamap__stat_add(dev, ST_ERR0 + DMAMAP_ERRK_NOMEM, 1);
	return DMA_MAPPING_ERROR;
}

static inline __attribute__((always_inline)) dma_addr_t
ops_map(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
	unsigned long attrs, int *errp)
{
	dma_addr_t addr = dev->dma_ops->map_page(dev, virt_to_page(ptr), offset_in_page(ptr),
						 size, dir, attrs);

	if (addr == DMA_MAPPING_ERROR && errp)
		*errp = -EIO;
	return addr;
}

static __attribute__((noinline)) void dbg_unmap(struct device *dev, enum dbg_type type,
						dma_addr_t addr, size_t size, int dir)
{
	if (type != DBG_RESOURCE && dmamap__backend_reports(dev, addr, size))
		return;
	dmamap__dbg_unmap_page(dev, type, addr, size, dir);
}

/* The API function to name in a report: the four page/single entry points share these paths. */
static const char *map_func(enum dbg_type type)
{
	return type == DBG_SINGLE ? "dma_map_single_attrs" : "dma_map_page_attrs";
}

static const char *unmap_func(enum dbg_type type)
{
	return type == DBG_SINGLE ? "dma_unmap_single_attrs" : "dma_unmap_page_attrs";
}

/* DMA_ATTR_REQUIRE_COHERENT asked of a device that needs cache maintenance. */
static __attribute__((noinline, cold)) dma_addr_t not_coherent(struct device *dev, int *errp)
{
	if (errp)
		*errp = -EIO;
	dmamap__not_coherent(dev, "dma_map");
	return DMA_MAPPING_ERROR;
}

/* A buffer that starts in RAM and runs past the end of its bank (or wraps, on the host). */
static __attribute__((noinline, cold)) dma_addr_t
map_past_ram(struct device *dev, void *ptr, size_t size, int *errp)
{
	if (errp)
		*errp = -EINVAL;
	dmamap__api_error(dev, "dma_map", DMAMAP_ERRK_BAD_ARG, DMAMAP_DBG_INVALID_ARGUMENT,
			  "buffer %p [size=%zu] runs past the end of its RAM bank", ptr, size);
	return DMA_MAPPING_ERROR;
}

/*
 * One mapping of the page range at @ptr (a linear-map address), as every
 * page, single and sg entry is mapped: fault injection, the direct
 * backend or the table, the count. *@errp, when given, gets the reason
 * for a failure.
 */
static inline __attribute__((always_inline)) dma_addr_t
map_one(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
	unsigned long attrs, int *errp)
{
	dma_addr_t addr;

	if (unlikely(dmamap__fault(&dev->plat->fault, DMAMAP_FAULT_MAP)))
		return injected(dev, errp);
	/* The identity case is coherent and has checked that the range does not wrap. */
	if (likely(dmamap__direct_map_identity(dev, ptr, size)))
		addr = (dma_addr_t)(uintptr_t)ptr;
	else if (unlikely(!dmamap__linear_tail_ok(dev->plat, ptr, size)))
		return map_past_ram(dev, ptr, size, errp);
	else if (dmamap__coherence_refused(dev, attrs))
		return not_coherent(dev, errp);
	else if (likely(!dev->dma_ops))
		addr = dmamap__direct_map_slow(dev, ptr, size, dir, attrs, errp);
	else
		addr = ops_map(dev, ptr, size, dir, attrs, errp);
	if (likely(addr != DMA_MAPPING_ERROR))
		dmamap__count_map(dev, size);
	return addr;
}

/* dma_map_phys and dma_unmap_phys, as the kernel traces each mapping: off the fast paths. */
static __attribute__((noinline, cold)) void trace_map(struct device *dev, phys_addr_t phys,
						      dma_addr_t addr, size_t size, int dir,
						      unsigned long attrs)
{
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_DMA_MAP_PHYS, .dev = dev, .phys_addr = phys,
		      .dma_addr = addr, .size = size, .dir = dir, .attrs = attrs);
}

static __attribute__((noinline, cold)) void trace_unmap(struct device *dev, dma_addr_t addr,
							size_t size, int dir, unsigned long attrs)
{
	DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_DMA_UNMAP_PHYS, .dev = dev, .dma_addr = addr,
		      .size = size, .dir = dir, .attrs = attrs);
}

static inline void traced_map(struct device *dev, void *ptr, dma_addr_t addr, size_t size,
			      int dir, unsigned long attrs)
{
	if (dmamap__tracing(dev->plat))
		trace_map(dev, virt_to_phys(ptr), addr, size, dir, attrs);
}

static inline void traced_unmap(struct device *dev, dma_addr_t addr, size_t size, int dir,
				unsigned long attrs)
{
	if (dmamap__tracing(dev->plat))
		trace_unmap(dev, addr, size, dir, attrs);
}

/* With the checker off there is nothing to remember of the call: the mapping and its count. */
static __attribute__((noinline)) dma_addr_t
map_page_plain(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
	       unsigned long attrs)
{
	dma_addr_t addr;

	dmamap__api_yield(dev);
	addr = map_one(dev, ptr, size, dir, attrs, NULL);
	traced_map(dev, ptr, addr, size, dir, attrs);
	return addr;
}

static __attribute__((noinline)) dma_addr_t
map_page_debugged(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
		  unsigned long attrs, enum dbg_type type, void *caller)
{
	dma_addr_t addr;

	dmamap__api_yield(dev);
	addr = map_one(dev, ptr, size, dir, attrs, NULL);
	traced_map(dev, ptr, addr, size, dir, attrs);
	if (addr != DMA_MAPPING_ERROR)
		dmamap__dbg_map_page(dev, type, addr, size, dir, ptr, caller, attrs);
	return addr;
}

static __attribute__((noinline, cold)) dma_addr_t
map_bad_args(struct device *dev, void *ptr, size_t size, int dir, enum dbg_type type)
{
	dmamap__bad_args(dev, ptr, size, dir, map_func(type));
	return DMA_MAPPING_ERROR;
}

/*
 * The arguments checked once; then two cases of the direct backend that
 * make bench shows pay for a path of their own, with no fault armed: its
 * identity case is a count, the one debug hook and the pointer (through
 * the general path the map+unmap pair takes a third longer); a host
 * device that bounces everything goes to swiotlb's short path whole when
 * the checker is off (through the general path a 4 KiB bounce runs at 51 %
 * of memcpy instead of 77 %). Everything else maps through map_one(),
 * remembered by the checker when it is on.
 */
/* An identity mapping's yield point and trace event, off its path. */
static __attribute__((noinline)) void yield_and_trace(struct device *dev, bool map, dma_addr_t addr,
						      size_t size, int dir)
{
	dmamap__api_yield(dev);
	if (map)
		traced_map(dev, (void *)(uintptr_t)addr, addr, size, dir, 0);
	else
		traced_unmap(dev, addr, size, dir, 0);
}

/* An identity map or unmap that something hooks: the devices' turn (a yield point), then the checker's. */
static __attribute__((noinline)) dma_addr_t
map_identity_hooked(struct device *dev, enum dbg_type type, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir, void *caller)
{
	union dmamap__hooks h = dmamap__hooks_now(dev);

	/* One load for the three: the devices' turn and the tracer's are rare, the checker's not. */
	if (unlikely(h.yield_on | h.trace))
		yield_and_trace(dev, true, addr, size, dir);
	if (h.debug)
		return dmamap__dbg_map_identity(dev, type, addr, size, dir, caller);
	return addr;
}

static __attribute__((noinline)) void
unmap_identity_hooked(struct device *dev, enum dbg_type type, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir)
{
	union dmamap__hooks h = dmamap__hooks_now(dev);

	if (unlikely(h.yield_on | h.trace))
		yield_and_trace(dev, false, addr, size, dir);
	if (h.debug)
		dmamap__dbg_unmap_page(dev, type, addr, size, dir);
}

static inline __attribute__((always_inline)) dma_addr_t
map_page(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
	 unsigned long attrs, enum dbg_type type, void *caller)
{
	dma_addr_t addr = (dma_addr_t)(uintptr_t)ptr;

	if (unlikely(!dmamap__map_args_ok(dev, ptr, size, dir)))
		return map_bad_args(dev, ptr, size, dir, type);
	if (likely(dmamap__direct_map_identity(dev, ptr, size) &&
		   !dmamap__fault_armed(&dev->plat->fault) && dmamap__shard_known())) {
		dmamap__count_map(dev, size);
		if (dmamap__hooks_on(dev))
			return map_identity_hooked(dev, type, addr, size, dir, caller);
		return addr;
	}
	if (dev->vfio_lookup && !dmamap__hooks_on(dev) && !dmamap__fault_armed(&dev->plat->fault) &&
	    dmamap__shard_known()) {
		addr = dmamap__vfio_map_registered(dev, ptr, size);
		if (likely(addr != DMA_MAPPING_ERROR)) {
			dmamap__count_map(dev, size);
			return addr;
		}
	}
	if (dmamap__dbg_on(dev))
		return map_page_debugged(dev, ptr, size, dir, attrs, type, caller);
	/* The bounced fast path has no yield point: with busy devices, the plain path. */
	if (dmamap__direct_bounces_all(dev) && !dmamap__hooks_on(dev) &&
	    !dmamap__fault_armed(&dev->plat->fault) &&
	    dmamap__shard_known() && (uintptr_t)ptr + size - 1 >= (uintptr_t)ptr &&
	    !(attrs & DMA_ATTR_REQUIRE_COHERENT))
		return dmamap__direct_map_bounced(dev, ptr, size, attrs);
	return map_page_plain(dev, ptr, size, dir, attrs);
}

static inline __attribute__((always_inline)) void
unmap_one(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir,
	  unsigned long attrs)
{
	const struct dma_map_ops *ops = dev->dma_ops;

	if (likely(!ops))
		dmamap__direct_unmap(dev, addr, size, dir, attrs);
	else if (ops->unmap_page)
		ops->unmap_page(dev, addr, size, dir, attrs);
	dmamap__stat_add(dev, ST_UNMAPS, 1);
}

static __attribute__((noinline)) void
unmap_page_plain(struct device *dev, dma_addr_t addr, size_t size,
		 enum dma_data_direction dir, unsigned long attrs)
{
	dmamap__api_yield(dev);
	traced_unmap(dev, addr, size, dir, attrs);
	unmap_one(dev, addr, size, dir, attrs);
}

static __attribute__((noinline)) void
unmap_page_debugged(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir, unsigned long attrs, enum dbg_type type)
{
	dmamap__api_yield(dev);
	traced_unmap(dev, addr, size, dir, attrs);
	/* Before the unmap: its cache maintenance would hide what the CPU wrote meanwhile. */
	dbg_unmap(dev, type, addr, size, dir);
	unmap_one(dev, addr, size, dir, attrs);
}

/* As map_page(): an identity handle is a count and the debug hook. */
static inline __attribute__((always_inline)) void
unmap_page(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir,
	   unsigned long attrs, enum dbg_type type)
{
	if (unlikely(!dmamap__handle_args_ok(dev, addr, size, dir))) {
		dmamap__bad_handle(dev, addr, size, dir, unmap_func(type));
		return;
	}
	if (likely(dmamap__direct_identity_handle(dev, addr) && dmamap__shard_known())) {
		dmamap__stat_add(dev, ST_UNMAPS, 1);
		if (dmamap__hooks_on(dev))
			unmap_identity_hooked(dev, type, addr, size, dir);
		return;
	}
	if (dev->vfio_lookup && !dmamap__hooks_on(dev) && dmamap__shard_known() &&
	    dmamap__vfio_registered_handle(dev, addr)) {
		dmamap__stat_add(dev, ST_UNMAPS, 1);
		return;
	}
	if (dmamap__dbg_on(dev))
		unmap_page_debugged(dev, addr, size, dir, attrs, type);
	else if (dmamap__direct_bounces_all(dev) && !dmamap__hooks_on(dev) && dmamap__shard_known())
		dmamap__direct_unmap_bounced(dev, addr, size, dir, attrs);
	else
		unmap_page_plain(dev, addr, size, dir, attrs);
}

dma_addr_t dmamap__map_entry(struct device *dev, void *ptr, size_t size,
			     enum dma_data_direction dir, unsigned long attrs, int *errp)
{
	return map_one(dev, ptr, size, dir, attrs, errp);
}

void dmamap__unmap_entry(struct device *dev, dma_addr_t addr, size_t size,
			 enum dma_data_direction dir, unsigned long attrs)
{
	unmap_one(dev, addr, size, dir, attrs);
}

/* A page and an offset past the top of the address space: no buffer at all. */
static __attribute__((noinline, cold)) dma_addr_t
map_offset_wraps(struct device *dev, struct page *page, size_t offset, size_t size, int dir,
		 const char *func)
{
	if (dmamap__bad_call_args(dev, size, dir, func))
		return DMA_MAPPING_ERROR;
	dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_ARG, DMAMAP_DBG_INVALID_ARGUMENT,
			  "offset %zu from page %p wraps the address space", offset, (void *)page);
	return DMA_MAPPING_ERROR;
}

/* dmamap__page_ptr() into *@ptr, false if the offset wraps: one add gives both. */
static inline bool page_ptr_ok(struct page *page, size_t offset, void **ptr)
{
	uintptr_t p;
	bool wraps = __builtin_add_overflow((uintptr_t)page, offset, &p);

	*ptr = page ? (void *)p : NULL;
	return !wraps;
}

dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page,
			      size_t offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs)
{
	void *ptr;

	if (unlikely(!page_ptr_ok(page, offset, &ptr)))
		return map_offset_wraps(dev, page, offset, size, dir, __func__);
	return map_page(dev, ptr, size, dir, attrs, DBG_PAGE,
			__builtin_return_address(0));
}

void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs)
{
	unmap_page(dev, addr, size, dir, attrs, DBG_PAGE);
}

/* Single is built on page: same path, remembered as single by the checker. */
dma_addr_t dma_map_single_attrs(struct device *dev, void *ptr, size_t size,
				enum dma_data_direction dir, unsigned long attrs)
{
	return map_page(dev, ptr, size, dir, attrs, DBG_SINGLE, __builtin_return_address(0));
}

void dma_unmap_single_attrs(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir, unsigned long attrs)
{
	unmap_page(dev, addr, size, dir, attrs, DBG_SINGLE);
}

dma_addr_t dma_map_page(struct device *dev, struct page *page, size_t offset,
			size_t size, enum dma_data_direction dir)
{
	void *ptr;

	if (unlikely(!page_ptr_ok(page, offset, &ptr)))
		return map_offset_wraps(dev, page, offset, size, dir, "dma_map_page_attrs");
	return map_page(dev, ptr, size, dir, 0, DBG_PAGE,
			__builtin_return_address(0));
}

void dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir)
{
	unmap_page(dev, addr, size, dir, 0, DBG_PAGE);
}

dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size,
			  enum dma_data_direction dir)
{
	return map_page(dev, ptr, size, dir, 0, DBG_SINGLE, __builtin_return_address(0));
}

void dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir)
{
	unmap_page(dev, addr, size, dir, 0, DBG_SINGLE);
}

int dma_mapping_error(struct device *dev, dma_addr_t dma_addr)
{
	if (dev && dmamap__dbg_on(dev))
		dmamap__dbg_mapping_error(dev, dma_addr);
	return unlikely(dma_addr == DMA_MAPPING_ERROR) ? -ENOMEM : 0;
}

/* ---- resources ------------------------------------------------------------ */

static dma_addr_t map_resource(struct device *dev, phys_addr_t phys_addr, size_t size,
			       enum dma_data_direction dir, unsigned long attrs,
			       const char *func, void *caller)
{
	const struct dma_map_ops *ops;
	dma_addr_t addr;

	if (unlikely(!dmamap__call_args_ok(dev, size, dir) &&
		     dmamap__bad_call_args(dev, size, dir, func)))
		return DMA_MAPPING_ERROR;
	dmamap__api_yield(dev);
	/* On a board its RAM is no resource; on the host any address may be a device's. */
	if (!dmamap__port_identity(dev->plat) && dmamap__port_is_ram(dev->plat, phys_addr, 1)) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_ARG,
				  DMAMAP_DBG_INVALID_ARGUMENT,
				  "[phys=0x%llx] is RAM, not a resource: use dma_map_page",
				  (unsigned long long)phys_addr);
		return DMA_MAPPING_ERROR;
	}
	if (unlikely(dmamap__fault(&dev->plat->fault, DMAMAP_FAULT_MAP)))
		return injected(dev, NULL);
	ops = get_dma_ops(dev);
	addr = ops->map_resource ? ops->map_resource(dev, phys_addr, size, dir, attrs) :
				   DMA_MAPPING_ERROR;
	/* As the kernel now traces a resource: a dma_map_phys of MMIO. */
	if (dmamap__tracing(dev->plat))
		trace_map(dev, phys_addr, addr, size, dir, attrs | DMA_ATTR_MMIO);
	if (addr == DMA_MAPPING_ERROR) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_UNREACHABLE,
				  DMAMAP_DBG_UNREACHABLE,
				  "resource [phys=0x%llx] [size=%zu] is beyond the device's reach",
				  (unsigned long long)phys_addr, size);
		return addr;
	}
	dmamap__count_map(dev, size);
	if (dmamap__dbg_on(dev)) {
		struct dbg_ref r = {
			.type = DBG_RESOURCE, .addr = addr, .size = size, .dir = dir,
			.phys = phys_addr, .caller = caller, .attrs = attrs,
		};

		dmamap__dbg_map(dev, &r);
	}
	return addr;
}

dma_addr_t dma_map_resource(struct device *dev, phys_addr_t phys_addr,
			    size_t size, enum dma_data_direction dir,
			    unsigned long attrs)
{
	return map_resource(dev, phys_addr, size, dir, attrs, __func__,
			    __builtin_return_address(0));
}

void dma_unmap_resource(struct device *dev, dma_addr_t addr, size_t size,
			enum dma_data_direction dir, unsigned long attrs)
{
	const struct dma_map_ops *ops;

	if (unlikely(!dmamap__handle_args_ok(dev, addr, size, dir))) {
		dmamap__bad_handle(dev, addr, size, dir, __func__);
		return;
	}
	dmamap__api_yield(dev);
	traced_unmap(dev, addr, size, dir, attrs | DMA_ATTR_MMIO);
	if (dmamap__dbg_on(dev))
		dbg_unmap(dev, DBG_RESOURCE, addr, size, dir);
	ops = get_dma_ops(dev);
	if (ops->unmap_resource)
		ops->unmap_resource(dev, addr, size, dir, attrs);
	dmamap__stat_add(dev, ST_UNMAPS, 1);
}

/* ---- physical addresses ----------------------------------------------------- */

dma_addr_t dma_map_phys(struct device *dev, phys_addr_t phys, size_t size,
			enum dma_data_direction dir, unsigned long attrs)
{
	void *ptr;

	if (dev && dmamap__coherence_refused(dev, attrs))
		return not_coherent(dev, NULL);
	if (attrs & DMA_ATTR_MMIO)
		return map_resource(dev, phys, size, dir, attrs, __func__,
				    __builtin_return_address(0));
	if (unlikely(!dmamap__call_args_ok(dev, size, dir) &&
		     dmamap__bad_call_args(dev, size, dir, __func__)))
		return DMA_MAPPING_ERROR;
	ptr = dmamap_phys_to_virt(dev->plat, phys);
	if (unlikely(!ptr)) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_NOT_LINEAR, DMAMAP_DBG_NOT_LINEAR,
				  "[phys=0x%llx] is not RAM of this board (MMIO needs DMA_ATTR_MMIO)",
				  (unsigned long long)phys);
		return DMA_MAPPING_ERROR;
	}
	return map_page(dev, ptr, size, dir, attrs, DBG_PAGE, __builtin_return_address(0));
}

void dma_unmap_phys(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir, unsigned long attrs)
{
	if (attrs & DMA_ATTR_MMIO)
		dma_unmap_resource(dev, addr, size, dir, attrs);
	else
		unmap_page(dev, addr, size, dir, attrs, DBG_PAGE);
}
