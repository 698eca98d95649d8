/* SPDX-License-Identifier: MIT */
/*
 * The streaming half of the driver API, shaped as Linux's
 * kernel/dma/mapping.c: each entry point checks its arguments once, maps
 * through the direct backend without an indirect call when the device has
 * no ops table (the table otherwise), counts, and tells the checker, which
 * costs one branch while it is off. Scatter-gather is built here on top of
 * single mappings for the direct backend and for tables without map_sg.
 */
#include "../lib/lib.h"
#include "../base/bus.h"
#include "../base/report.h"
#include "../debug/checker.h"
#include "../ops/direct.h"
#include "../platform/port.h"

/* Report the first of the device, buffer, direction and size that is bad; true if one was. */
static __attribute__((noinline, cold)) bool
bad_args(struct device *dev, const void *obj, size_t size, int dir, const char *func)
{
	if (unlikely(!dev)) {
		dmamap__api_error(NULL, func, DMAMAP_ERRK_NULL_ARG,
				  DMAMAP_DBG_NULL_DEVICE, "called with a NULL device");
		return true;
	}
	if (unlikely(!obj)) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_NULL_ARG,
				  DMAMAP_DBG_INVALID_ARGUMENT, "called with a NULL buffer");
		return true;
	}
	if (unlikely(!valid_dma_direction(dir))) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_DIR,
				  DMAMAP_DBG_INVALID_DIRECTION,
				  "invalid DMA direction %d", dir);
		return true;
	}
	if (unlikely(!size)) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_ZERO_SIZE,
				  DMAMAP_DBG_ZERO_SIZE, "zero-sized buffer");
		return true;
	}
	return false;
}

/* Each test its own branch: folded into one flag they cost more than they save. */
static inline bool map_args_ok(const struct device *dev, const void *obj, size_t size,
			       int dir)
{
	if (unlikely(!dev))
		return false;
	if (unlikely(!obj))
		return false;
	if (unlikely(!size))
		return false;
	return likely((unsigned int)dir <= DMA_FROM_DEVICE);
}

/* Inline, so a good call pays four compares and no call. */
static inline bool bad_map_args(struct device *dev, const void *obj, size_t size,
				int dir, const char *func)
{
	if (map_args_ok(dev, obj, size, dir))
		return false;
	return bad_args(dev, obj, size, dir, func);
}

/* A handle argument: as a buffer's, and never DMA_MAPPING_ERROR (a failed mapping used). */
static __attribute__((noinline, cold)) void
bad_handle(struct device *dev, dma_addr_t addr, size_t size, int dir, const char *func)
{
	if (!bad_args(dev, (void *)1, size, dir, func) && addr == DMA_MAPPING_ERROR)
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_HANDLE, DMAMAP_DBG_UNMAP_INVALID,
				  "called with DMA_MAPPING_ERROR (a failed mapping was used) [size=%zu]",
				  size);
}

static inline bool handle_args_ok(const struct device *dev, dma_addr_t addr, size_t size,
				  int dir)
{
	if (unlikely(!dev))
		return false;
	if (unlikely(addr == DMA_MAPPING_ERROR))
		return false;
	if (unlikely(!size))
		return false;
	return likely((unsigned int)dir <= DMA_FROM_DEVICE);
}

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

/*
 * An address outside the device's window is the backend's error
 * (UNMAP_INVALID), reported with the checker on or off; the checker stays
 * out of it rather than report the same mistake twice. Identity devices
 * have no window.
 */
static inline bool backend_reports(struct device *dev, dma_addr_t addr, size_t size)
{
	return !dev->direct_identity && (!dev->dma_ops || dev->dmabounce) &&
	       dmamap__bus_to_phys(dev, addr, size) == PHYS_NONE;
}

static __attribute__((noinline)) void dbg_unmap(struct device *dev, enum dbg_type type,
						dma_addr_t addr, size_t size, int dir)
{
	if (type != DBG_RESOURCE && backend_reports(dev, addr, size))
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
	if (likely(!dev->dma_ops))
		addr = dmamap__direct_map(dev, ptr, size, dir, attrs, errp);
	else
		addr = ops_map(dev, ptr, size, dir, attrs, errp);
	if (likely(addr != DMA_MAPPING_ERROR))
		dmamap__count_map(dev, size);
	return addr;
}

/* With the checker off there is nothing to remember of the call: the mapping and its count. */
static __attribute__((noinline)) dma_addr_t
map_page_plain(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
	       unsigned long attrs)
{
	return map_one(dev, ptr, size, dir, attrs, NULL);
}

static __attribute__((noinline)) dma_addr_t
map_page_debugged(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
		  unsigned long attrs, enum dbg_type type, void *caller)
{
	dma_addr_t addr = map_one(dev, ptr, size, dir, attrs, NULL);

	if (addr != DMA_MAPPING_ERROR)
		dmamap__dbg_map_page(dev, type, addr, size, dir, ptr, caller);
	return addr;
}

static __attribute__((noinline, cold)) dma_addr_t
map_bad_args(struct device *dev, void *ptr, size_t size, int dir, enum dbg_type type)
{
	bad_args(dev, virt_to_page(ptr), size, dir, map_func(type));
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
static inline __attribute__((always_inline)) dma_addr_t
map_page(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
	 unsigned long attrs, enum dbg_type type, void *caller)
{
	dma_addr_t addr = (dma_addr_t)(uintptr_t)ptr;

	/* A pointer into the first page has no page: a NULL buffer, as it always was. */
	if (unlikely(!map_args_ok(dev, virt_to_page(ptr), size, dir)))
		return map_bad_args(dev, ptr, size, dir, type);
	if (likely(dmamap__direct_map_identity(dev, ptr, size) &&
		   !dmamap__fault_armed(&dev->plat->fault) && dmamap__shard_known())) {
		dmamap__count_map(dev, size);
		if (dmamap__dbg_on(dev))
			return dmamap__dbg_map_identity(dev, type, addr, size, dir, caller);
		return addr;
	}
	if (dmamap__dbg_on(dev))
		return map_page_debugged(dev, ptr, size, dir, attrs, type, caller);
	if (dmamap__direct_bounces_all(dev) && !dmamap__fault_armed(&dev->plat->fault) &&
	    dmamap__shard_known())
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
	unmap_one(dev, addr, size, dir, attrs);
}

static __attribute__((noinline)) void
unmap_page_debugged(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir, unsigned long attrs, enum dbg_type type)
{
	/* Before the unmap: its cache maintenance would hide what the CPU wrote meanwhile. */
	dbg_unmap(dev, type, addr, size, dir);
	unmap_one(dev, addr, size, dir, attrs);
}

/* As map_page(): an identity handle is a count and the debug hook. */
static inline __attribute__((always_inline)) void
unmap_page(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir,
	   unsigned long attrs, enum dbg_type type)
{
	if (unlikely(!handle_args_ok(dev, addr, size, dir))) {
		bad_handle(dev, addr, size, dir, unmap_func(type));
		return;
	}
	if (likely(dmamap__direct_identity_handle(dev, addr) && dmamap__shard_known())) {
		dmamap__stat_add(dev, ST_UNMAPS, 1);
		if (dmamap__dbg_on(dev))
			dmamap__dbg_unmap_page(dev, type, addr, size, dir);
		return;
	}
	if (dmamap__dbg_on(dev))
		unmap_page_debugged(dev, addr, size, dir, attrs, type);
	else if (dmamap__direct_bounces_all(dev) && dmamap__shard_known())
		dmamap__direct_unmap_bounced(dev, addr, size, dir, attrs);
	else
		unmap_page_plain(dev, addr, size, dir, attrs);
}

static inline void *page_ptr(struct page *page, size_t offset)
{
	return page ? (char *)page_address(page) + offset : NULL;
}

dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page,
			      size_t offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs)
{
	return map_page(dev, page_ptr(page, offset), size, dir, attrs, DBG_PAGE,
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
	return map_page(dev, page_ptr(page, offset), size, dir, 0, DBG_PAGE,
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

dma_addr_t dma_map_resource(struct device *dev, phys_addr_t phys_addr,
			    size_t size, enum dma_data_direction dir,
			    unsigned long attrs)
{
	const struct dma_map_ops *ops;
	dma_addr_t addr;

	if (unlikely(bad_map_args(dev, (void *)1, size, dir, __func__)))
		return DMA_MAPPING_ERROR;
	/* On a board its RAM is no resource; on the host any address may be a device's. */
	if (!dmamap__port_identity(dev->plat) && dmamap__port_is_ram(dev->plat, phys_addr, 1)) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_ARG,
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
	if (addr == DMA_MAPPING_ERROR) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_UNREACHABLE,
				  DMAMAP_DBG_UNREACHABLE,
				  "resource [phys=0x%llx] [size=%zu] is beyond the device's reach",
				  (unsigned long long)phys_addr, size);
		return addr;
	}
	dmamap__count_map(dev, size);
	if (dmamap__dbg_on(dev)) {
		struct dbg_ref r = {
			.type = DBG_RESOURCE, .addr = addr, .size = size, .dir = dir,
			.phys = phys_addr, .caller = __builtin_return_address(0),
		};

		dmamap__dbg_map(dev, &r);
	}
	return addr;
}

void dma_unmap_resource(struct device *dev, dma_addr_t addr, size_t size,
			enum dma_data_direction dir, unsigned long attrs)
{
	const struct dma_map_ops *ops;

	if (unlikely(!handle_args_ok(dev, addr, size, dir))) {
		bad_handle(dev, addr, size, dir, __func__);
		return;
	}
	if (dmamap__dbg_on(dev))
		dbg_unmap(dev, DBG_RESOURCE, addr, size, dir);
	ops = get_dma_ops(dev);
	if (ops->unmap_resource)
		ops->unmap_resource(dev, addr, size, dir, attrs);
	dmamap__stat_add(dev, ST_UNMAPS, 1);
}

/* ---- scatter-gather --------------------------------------------------------- */

/* A table argument that is NULL. */
static void null_table(struct device *dev, const char *func)
{
	dmamap__api_error(dev, func, DMAMAP_ERRK_NULL_ARG,
			  dev ? DMAMAP_DBG_INVALID_ARGUMENT : DMAMAP_DBG_NULL_DEVICE,
			  "called with a NULL table");
}

/* @nents runs past the end of the list, which has only @found entries. */
static void sg_too_short(struct device *dev, const char *func, int found,
			 int nents)
{
	dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_ARG,
			  DMAMAP_DBG_INVALID_ARGUMENT,
			  "nents %d is beyond the end of the list (%d entries)",
			  nents, found);
}

static void generic_unmap_sg(struct device *dev, struct scatterlist *sgl,
			     int nents, enum dma_data_direction dir,
			     unsigned long attrs)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i) {
		if (unlikely(!sg)) {
			sg_too_short(dev, "dma_unmap_sg", i, nents);
			return;
		}
		unmap_one(dev, sg_dma_address(sg), sg_dma_len(sg), dir, attrs);
	}
}

/* Map every entry; on failure at entry k unmap 0..k-1. Returns count or -errno. */
static int generic_map_sg(struct device *dev, struct scatterlist *sgl,
			  int nents, enum dma_data_direction dir,
			  unsigned long attrs)
{
	struct scatterlist *sg;
	int i, err = -EIO;

	for_each_sg(sgl, sg, nents, i) {
		dma_addr_t addr;

		if (unlikely(!sg || !sg->length || !sg_page(sg))) {
			err = -EINVAL;
			dmamap__api_error(dev, "dma_map_sg", DMAMAP_ERRK_BAD_ARG,
					  DMAMAP_DBG_INVALID_ARGUMENT,
					  "entry %d of %d is %s", i, nents,
					  !sg ? "missing (list shorter than nents)" :
					  !sg->length ? "empty" : "without a page");
			goto unwind;
		}
		addr = map_one(dev, page_ptr(sg_page(sg), sg->offset), sg->length, dir,
			       attrs, &err);
		if (addr == DMA_MAPPING_ERROR)
			goto unwind;
		sg_dma_address(sg) = addr;
		sg_dma_len(sg) = sg->length;
	}
	return nents;
unwind:
	generic_unmap_sg(dev, sgl, i, dir, attrs | DMA_ATTR_SKIP_CPU_SYNC);
	return err;
}

static void dbg_map_sg(struct device *dev, struct scatterlist *sgl, int nents,
		       int mapped, int dir, void *caller)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, mapped, i) {
		struct dbg_ref r = {
			.type = DBG_SG, .addr = sg_dma_address(sg),
			.size = sg_dma_len(sg), .dir = dir,
			.phys = mapped != nents ? PHYS_NONE :
				dmamap__dbg_device_phys(dev, sg_dma_address(sg), sg_dma_len(sg)),
			.cpu = sg_virt(sg), .sg_call_ents = nents,
			.sg_mapped_ents = mapped, .caller = caller,
		};

		dmamap__dbg_map(dev, &r);
	}
}

/* The checker looks at as many entries as map_sg returned, as the kernel's does. */
static void dbg_unmap_sg(struct device *dev, struct scatterlist *sgl, int nents,
			 int dir)
{
	int mapped = dmamap__dbg_sg_mapped_ents(dev, sg_dma_address(sgl));
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, mapped ? MIN(mapped, nents) : nents, i) {
		if (!sg)
			break;
		struct dbg_ref r = {
			.type = DBG_SG, .addr = sg_dma_address(sg), .size = sg_dma_len(sg),
			.dir = dir, .phys = PHYS_NONE, .sg_call_ents = nents,
		};

		if (!backend_reports(dev, r.addr, r.size))
			dmamap__dbg_unmap(dev, &r);
	}
}

static int map_sg(struct device *dev, struct scatterlist *sg, int nents,
		  enum dma_data_direction dir, unsigned long attrs,
		  void *caller, const char *func)
{
	const struct dma_map_ops *ops;
	int ret;

	if (unlikely(bad_map_args(dev, sg, (size_t)(nents > 0), dir, func)))
		return -EINVAL;
	ops = dev->dma_ops;
	if (ops && ops->map_sg) {
		ret = ops->map_sg(dev, sg, nents, dir, attrs);
		if (ret > 0) {
			struct scatterlist *s;
			uint64_t bytes = 0;
			int i;

			for_each_sg(sg, s, nents, i)
				bytes += s->length;
			dmamap__stat_add(dev, ST_MAPS, (uint64_t)nents);
			dmamap__stat_add(dev, ST_BYTES_MAPPED, bytes);
		}
	} else {
		ret = generic_map_sg(dev, sg, nents, dir, attrs);
	}
	if (ret > 0) {
		dmamap__stat_add(dev, ST_SG_MAPS, 1);
		if (dmamap__dbg_on(dev))
			dbg_map_sg(dev, sg, nents, ret, dir, caller);
	}
	return ret;
}

int dma_map_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
		     enum dma_data_direction dir, unsigned long attrs)
{
	int ret = map_sg(dev, sg, nents, dir, attrs, __builtin_return_address(0),
			 __func__);

	return ret > 0 ? ret : 0;
}

void dma_unmap_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
			enum dma_data_direction dir, unsigned long attrs)
{
	const struct dma_map_ops *ops;

	if (unlikely(bad_map_args(dev, sg, (size_t)(nents > 0), dir, __func__)))
		return;
	if (dmamap__dbg_on(dev))
		dbg_unmap_sg(dev, sg, nents, dir);
	ops = dev->dma_ops;
	if (ops && ops->unmap_sg) {
		ops->unmap_sg(dev, sg, nents, dir, attrs);
		dmamap__stat_add(dev, ST_UNMAPS, (uint64_t)nents);
	} else {
		generic_unmap_sg(dev, sg, nents, dir, attrs);
	}
}

int dma_map_sg(struct device *dev, struct scatterlist *sg, int nents,
	       enum dma_data_direction dir)
{
	int ret = map_sg(dev, sg, nents, dir, 0, __builtin_return_address(0),
			 "dma_map_sg_attrs");

	return ret > 0 ? ret : 0;
}

void dma_unmap_sg(struct device *dev, struct scatterlist *sg, int nents,
		  enum dma_data_direction dir)
{
	dma_unmap_sg_attrs(dev, sg, nents, dir, 0);
}

int dma_map_sgtable(struct device *dev, struct sg_table *sgt,
		    enum dma_data_direction dir, unsigned long attrs)
{
	int ret;

	if (unlikely(!sgt)) {
		null_table(dev, __func__);
		return -EINVAL;
	}
	ret = map_sg(dev, sgt->sgl, (int)sgt->orig_nents, dir, attrs,
		     __builtin_return_address(0), __func__);
	if (ret < 0)
		return ret;
	if (ret == 0)
		return -EIO;
	sgt->nents = (unsigned int)ret;
	return 0;
}

void dma_unmap_sgtable(struct device *dev, struct sg_table *sgt,
		       enum dma_data_direction dir, unsigned long attrs)
{
	if (unlikely(!sgt)) {
		null_table(dev, __func__);
		return;
	}
	dma_unmap_sg_attrs(dev, sgt->sgl, (int)sgt->orig_nents, dir, attrs);
}

/* ---- syncs ------------------------------------------------------------------ */

static inline void sync_one(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir, bool for_cpu)
{
	const struct dma_map_ops *ops = dev->dma_ops;

	if (likely(!ops))
		dmamap__direct_sync(dev, addr, size, dir, for_cpu);
	else if (for_cpu && ops->sync_single_for_cpu)
		ops->sync_single_for_cpu(dev, addr, size, dir);
	else if (!for_cpu && ops->sync_single_for_device)
		ops->sync_single_for_device(dev, addr, size, dir);
	dmamap__stat_add(dev, for_cpu ? ST_SYNC_CPU : ST_SYNC_DEV, 1);
}

static __attribute__((noinline)) void dbg_sync(struct device *dev, dma_addr_t addr,
					       size_t size, int dir, bool for_cpu)
{
	if (!backend_reports(dev, addr, size))
		dmamap__dbg_sync(dev, addr, size, dir, for_cpu);
}

static inline __attribute__((always_inline)) void
sync_single(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir,
	    bool for_cpu, const char *func)
{
	if (unlikely(!handle_args_ok(dev, addr, size, dir))) {
		bad_handle(dev, addr, size, dir, func);
		return;
	}
	if (dmamap__dbg_on(dev))
		dbg_sync(dev, addr, size, dir, for_cpu);
	sync_one(dev, addr, size, dir, for_cpu);
}

void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir)
{
	sync_single(dev, addr, size, dir, true, __func__);
}

void dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir)
{
	sync_single(dev, addr, size, dir, false, __func__);
}

void dma_sync_single_range_for_cpu(struct device *dev, dma_addr_t addr,
				   unsigned long offset, size_t size,
				   enum dma_data_direction dir)
{
	sync_single(dev, addr + offset, size, dir, true, __func__);
}

void dma_sync_single_range_for_device(struct device *dev, dma_addr_t addr,
				      unsigned long offset, size_t size,
				      enum dma_data_direction dir)
{
	sync_single(dev, addr + offset, size, dir, false, __func__);
}

static void sync_sg(struct device *dev, struct scatterlist *sgl, int nelems,
		    enum dma_data_direction dir, bool for_cpu, const char *func)
{
	const struct dma_map_ops *ops;
	struct scatterlist *sg;
	int i;

	if (unlikely(bad_map_args(dev, sgl, (size_t)(nelems > 0), dir, func)))
		return;
	if (dmamap__dbg_on(dev)) {
		/* As many device segments as map_sg returned, as dma-debug counts. */
		int mapped = dmamap__dbg_sg_mapped_ents(dev, sg_dma_address(sgl));

		for_each_sg(sgl, sg, mapped ? MIN(mapped, nelems) : nelems, i) {
			if (!sg)
				break;
			dmamap__dbg_sync(dev, sg_dma_address(sg), sg_dma_len(sg), dir,
					 for_cpu);
		}
	}
	ops = dev->dma_ops;
	if (ops && for_cpu && ops->sync_sg_for_cpu) {
		ops->sync_sg_for_cpu(dev, sgl, nelems, dir);
		return;
	}
	if (ops && !for_cpu && ops->sync_sg_for_device) {
		ops->sync_sg_for_device(dev, sgl, nelems, dir);
		return;
	}
	for_each_sg(sgl, sg, nelems, i) {
		if (unlikely(!sg)) {
			sg_too_short(dev, func, i, nelems);
			return;
		}
		sync_one(dev, sg_dma_address(sg), sg_dma_len(sg), dir, for_cpu);
	}
}

void dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg, int nelems,
			 enum dma_data_direction dir)
{
	sync_sg(dev, sg, nelems, dir, true, __func__);
}

void dma_sync_sg_for_device(struct device *dev, struct scatterlist *sg,
			    int nelems, enum dma_data_direction dir)
{
	sync_sg(dev, sg, nelems, dir, false, __func__);
}

void dma_sync_sgtable_for_cpu(struct device *dev, struct sg_table *sgt,
			      enum dma_data_direction dir)
{
	if (unlikely(!sgt)) {
		null_table(dev, __func__);
		return;
	}
	sync_sg(dev, sgt->sgl, (int)sgt->orig_nents, dir, true, __func__);
}

void dma_sync_sgtable_for_device(struct device *dev, struct sg_table *sgt,
				 enum dma_data_direction dir)
{
	if (unlikely(!sgt)) {
		null_table(dev, __func__);
		return;
	}
	sync_sg(dev, sgt->sgl, (int)sgt->orig_nents, dir, false, __func__);
}
