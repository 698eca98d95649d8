/* SPDX-License-Identifier: MIT */
/*
 * The streaming half of the driver API: argument checks, then the direct
 * backend without an indirect call, or the device's ops table. Scatter-gather
 * is built here on top of map_page for tables that do not provide map_sg.
 */
#include "../internal.h"
#include "../debug/checker.h"

static __attribute__((noinline, cold)) bool
report_bad_args(struct device *dev, const void *obj, size_t size, int dir,
		const char *func)
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

/* Inline, so a good call pays four compares and no call. */
static inline bool bad_map_args(struct device *dev, const void *obj, size_t size,
				int dir, const char *func)
{
	if (likely(dev && obj && valid_dma_direction(dir) && size))
		return false;
	return report_bad_args(dev, obj, size, dir, func);
}

static dma_addr_t injected(struct device *dev, int *errp)
{
	*errp = -ENOMEM;
	dmamap__stat_add(dev, ST_ERR0 + DMAMAP_ERRK_NOMEM, 1);
	return DMA_MAPPING_ERROR;
}

/* One mapping of a page range; the common path of single, page and sg. */
static inline dma_addr_t map_one(struct device *dev, struct page *page,
				 size_t offset, size_t size,
				 enum dma_data_direction dir,
				 unsigned long attrs, int *errp)
{
	const struct dma_map_ops *ops = dev->dma_ops;
	dma_addr_t addr;

	if (unlikely(dmamap__fault(dev->plat, DMAMAP_FAULT_MAP)))
		return injected(dev, errp);
	if (likely(!ops)) {
		phys_addr_t phys = dmamap__linear_to_phys(dev->plat, page);

		if (unlikely(phys == PHYS_NONE)) {
			*errp = -EINVAL;
			dmamap__api_error(dev, "dma_map_page", DMAMAP_ERRK_NOT_LINEAR,
					  DMAMAP_DBG_NOT_LINEAR,
					  "buffer %p is not in this board's linear map (stack, alias or foreign memory)",
					  (void *)page);
			return DMA_MAPPING_ERROR;
		}
		addr = dmamap__direct_map_phys(dev, phys + offset, size, dir,
					       attrs, errp);
	} else {
		addr = ops->map_page(dev, page, offset, size, dir, attrs);
		if (addr == DMA_MAPPING_ERROR)
			*errp = -EIO;
	}
	if (likely(addr != DMA_MAPPING_ERROR))
		dmamap__count_map(dev, size);
	return addr;
}

static inline void unmap_one(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir, unsigned long attrs)
{
	const struct dma_map_ops *ops = dev->dma_ops;

	if (likely(!ops))
		dmamap__direct_unmap(dev, addr, size, dir, attrs);
	else if (ops->unmap_page)
		ops->unmap_page(dev, addr, size, dir, attrs);
	dmamap__stat_add(dev, ST_UNMAPS, 1);
}

/*
 * An address outside the device's window is the backend's error
 * (UNMAP_INVALID), reported with the checker on or off; the checker stays
 * out of it rather than report the same mistake twice.
 */
static bool outside_window(struct device *dev, dma_addr_t addr, size_t size)
{
	return dev->plat->kind == PLAT_SIM && (!dev->dma_ops || dev->dmabounce) &&
	       dmamap__dev_dma_to_phys(dev, addr, size) == PHYS_NONE;
}

static void dbg_unmap(struct device *dev, enum dbg_type type, dma_addr_t addr,
		      size_t size, int dir)
{
	if (type != DBG_RESOURCE && outside_window(dev, addr, size))
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
 * A device with an ops table, good arguments, checker off, no fault armed:
 * nothing for the core to do but count.
 */
static inline dma_addr_t
map_page_ops(struct device *dev, struct page *page, size_t offset, size_t size,
	     enum dma_data_direction dir, unsigned long attrs)
{
	dma_addr_t addr = dev->dma_ops->map_page(dev, page, offset, size, dir, attrs);

	if (likely(addr != DMA_MAPPING_ERROR))
		dmamap__count_map(dev, size);
	return addr;
}

/*
 * Everything the two short paths below leave: argument reports, fault
 * injection, the checker, ops tables, dma-direct's decisions. @ptr is the
 * buffer's linear-map address (page plus offset).
 */
static __attribute__((noinline)) dma_addr_t
map_general(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
	    unsigned long attrs, enum dbg_type type, void *caller)
{
	struct page *page = virt_to_page(ptr);
	size_t offset = offset_in_page(ptr);
	dma_addr_t addr;
	int err;

	if (unlikely(bad_map_args(dev, page, size, dir, map_func(type))))
		return DMA_MAPPING_ERROR;
	if (likely(dev->dma_ops && !dmamap__dbg_on(dev) &&
		   !__atomic_load_n(&dev->plat->fault_classes, __ATOMIC_RELAXED)))
		return map_page_ops(dev, page, offset, size, dir, attrs);
	addr = map_one(dev, page, offset, size, dir, attrs, &err);
	if (addr != DMA_MAPPING_ERROR && dmamap__dbg_on(dev))
		dmamap__dbg_map_page(dev, type, addr, size, dir, ptr, caller);
	return addr;
}

/* The general path with six arguments, so that getting there is a jump. */
static __attribute__((noinline)) dma_addr_t
map_single_slow(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
		unsigned long attrs, void *caller)
{
	return map_general(dev, ptr, size, dir, attrs, DBG_SINGLE, caller);
}

static __attribute__((noinline)) dma_addr_t
map_page_slow(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
	      unsigned long attrs, void *caller)
{
	return map_general(dev, ptr, size, dir, attrs, DBG_PAGE, caller);
}

/* Ops table, checker off, no fault armed: nothing for the core to do but count. */
static __attribute__((noinline)) dma_addr_t
map_ops(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
	unsigned long attrs)
{
	return map_page_ops(dev, virt_to_page(ptr), offset_in_page(ptr), size, dir, attrs);
}

/*
 * Host, coherent, identity: the address is the pointer, if it fits the
 * mask. With the checker off, an ops table is called and counted out of
 * line, and on the host a device whose every mapping bounces goes to the
 * swiotlb's short path, which counts too. Everything else, including every
 * bad argument, an armed fault and a thread's first mapping (its counter
 * shard is not known yet), goes to the general path. All leave by a jump
 * with at most six arguments, so this needs no stack frame. A page's @ptr
 * is NULL if the page is.
 */
static inline __attribute__((always_inline)) dma_addr_t
map_common(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir,
	   unsigned long attrs, enum dbg_type type, void *caller)
{
	if (likely(dev && virt_to_page(ptr) && size && (unsigned int)dir <= DMA_FROM_DEVICE &&
		   !__atomic_load_n(&dev->plat->fault_classes, __ATOMIC_RELAXED))) {
		dma_addr_t addr = (dma_addr_t)(uintptr_t)ptr;

		if (likely(dev->fast_identity && dmamap__shard_known() &&
			   addr + size - 1 >= addr && addr + size - 1 <= dev->map_limit)) {
			dmamap__count_map(dev, size);
			if (dmamap__dbg_on(dev))
				return dmamap__dbg_map_identity(dev, type, addr, size, dir, caller);
			return addr;
		}
		if (!dmamap__dbg_on(dev)) {
			if (dev->dma_ops)
				return map_ops(dev, ptr, size, dir, attrs);
			if (dev->bounce_all) /* host: the pointer is the address */
				return dmamap__swiotlb_map_host(dev, addr, size, attrs);
		}
	}
	if (type == DBG_SINGLE)
		return map_single_slow(dev, ptr, size, dir, attrs, caller);
	return map_page_slow(dev, ptr, size, dir, attrs, caller);
}

static inline void *page_ptr(struct page *page, size_t offset)
{
	return page ? (char *)page_address(page) + offset : NULL;
}

static inline bool bad_unmap_args(struct device *dev, dma_addr_t addr, size_t size,
				  int dir, const char *func)
{
	if (bad_map_args(dev, (void *)1, size, dir, func))
		return true;
	if (likely(addr != DMA_MAPPING_ERROR))
		return false;
	dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_HANDLE, DMAMAP_DBG_UNMAP_INVALID,
			  "called with DMA_MAPPING_ERROR (a failed mapping was used) [size=%zu]",
			  size);
	return true;
}

/* Arguments a handle call can go on with: the rest is the general path's to report. */
static inline bool handle_args_ok(const struct device *dev, dma_addr_t addr, size_t size, int dir)
{
	return dev && addr != DMA_MAPPING_ERROR && size && (unsigned int)dir <= DMA_FROM_DEVICE;
}

static __attribute__((noinline)) void
unmap_page_general(struct device *dev, dma_addr_t addr, size_t size,
		   enum dma_data_direction dir, unsigned long attrs,
		   enum dbg_type type)
{
	if (unlikely(bad_unmap_args(dev, addr, size, dir, unmap_func(type))))
		return;
	if (dmamap__dbg_on(dev))
		dbg_unmap(dev, type, addr, size, dir);
	unmap_one(dev, addr, size, dir, attrs);
}

/*
 * As map_common(), out of line: with good arguments, checker off, an ops
 * table's unmap is counted and then jumped to, and a host device whose
 * every mapping bounces goes to the swiotlb's short path. Only jumps, so
 * no stack frame.
 */
static __attribute__((noinline)) void
unmap_page_slow(struct device *dev, dma_addr_t addr, size_t size,
		enum dma_data_direction dir, unsigned long attrs,
		enum dbg_type type)
{
	if (likely(handle_args_ok(dev, addr, size, dir) && !dmamap__dbg_on(dev))) {
		if (dev->dma_ops && dev->dma_ops->unmap_page && dmamap__shard_known()) {
			dmamap__stat_add(dev, ST_UNMAPS, 1);
			dev->dma_ops->unmap_page(dev, addr, size, dir, attrs);
			return;
		}
		if (dev->bounce_all) {
			dmamap__swiotlb_unmap_host(dev, addr, size, dir, attrs);
			return;
		}
	}
	unmap_page_general(dev, addr, size, dir, attrs, type);
}

/* As map_common(): anything but the plain host identity case leaves by a jump. */
static inline void unmap_page_common(struct device *dev, dma_addr_t addr,
				     size_t size, enum dma_data_direction dir,
				     unsigned long attrs, enum dbg_type type)
{
	if (likely(handle_args_ok(dev, addr, size, dir) && dev->fast_identity &&
		   addr - dev->bounce_start >= dev->bounce_len && dmamap__shard_known())) {
		dmamap__stat_add(dev, ST_UNMAPS, 1);
		/* Host identity: no window to be outside of. */
		if (dmamap__dbg_on(dev))
			dmamap__dbg_unmap_page(dev, type, addr, size, dir);
		return;
	}
	unmap_page_slow(dev, addr, size, dir, attrs, type);
}

dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page,
			      size_t offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs)
{
	return map_common(dev, page_ptr(page, offset), size, dir, attrs, DBG_PAGE,
			  __builtin_return_address(0));
}

void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs)
{
	unmap_page_common(dev, addr, size, dir, attrs, DBG_PAGE);
}

/* Single is built on page: same path, remembered as single by the checker. */
dma_addr_t dma_map_single_attrs(struct device *dev, void *ptr, size_t size,
				enum dma_data_direction dir, unsigned long attrs)
{
	return map_common(dev, ptr, size, dir, attrs, DBG_SINGLE, __builtin_return_address(0));
}

void dma_unmap_single_attrs(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir, unsigned long attrs)
{
	unmap_page_common(dev, addr, size, dir, attrs, DBG_SINGLE);
}

dma_addr_t dma_map_page(struct device *dev, struct page *page, size_t offset,
			size_t size, enum dma_data_direction dir)
{
	return map_common(dev, page_ptr(page, offset), size, dir, 0, DBG_PAGE,
			  __builtin_return_address(0));
}

void dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir)
{
	unmap_page_common(dev, addr, size, dir, 0, DBG_PAGE);
}

dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size,
			  enum dma_data_direction dir)
{
	return map_common(dev, ptr, size, dir, 0, DBG_SINGLE, __builtin_return_address(0));
}

void dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir)
{
	unmap_page_common(dev, addr, size, dir, 0, DBG_SINGLE);
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
	int err;

	if (unlikely(bad_map_args(dev, (void *)1, size, dir, __func__)))
		return DMA_MAPPING_ERROR;
	if (dev->plat->kind == PLAT_SIM &&
	    dmamap__bank_of_phys(dev->plat, phys_addr, 1)) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_ARG,
				  DMAMAP_DBG_INVALID_ARGUMENT,
				  "[phys=0x%llx] is RAM, not a resource: use dma_map_page",
				  (unsigned long long)phys_addr);
		return DMA_MAPPING_ERROR;
	}
	if (unlikely(dmamap__fault(dev->plat, DMAMAP_FAULT_MAP)))
		return injected(dev, &err);
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

	if (unlikely(bad_unmap_args(dev, addr, size, dir, __func__)))
		return;
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
		addr = map_one(dev, sg_page(sg), sg->offset, sg->length, dir,
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

		if (!outside_window(dev, r.addr, r.size))
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

static void sync_one(struct device *dev, dma_addr_t addr, size_t size,
		     enum dma_data_direction dir, bool for_cpu)
{
	const struct dma_map_ops *ops = dev->dma_ops;

	if (likely(!ops)) {
		if (for_cpu)
			dmamap__direct_sync_for_cpu(dev, addr, size, dir);
		else
			dmamap__direct_sync_for_device(dev, addr, size, dir);
	} else if (for_cpu && ops->sync_single_for_cpu) {
		ops->sync_single_for_cpu(dev, addr, size, dir);
	} else if (!for_cpu && ops->sync_single_for_device) {
		ops->sync_single_for_device(dev, addr, size, dir);
	}
	dmamap__stat_add(dev, for_cpu ? ST_SYNC_CPU : ST_SYNC_DEV, 1);
}

static __attribute__((noinline)) void
sync_slow(struct device *dev, dma_addr_t addr, size_t size,
	  enum dma_data_direction dir, bool for_cpu, const char *func)
{
	if (unlikely(bad_unmap_args(dev, addr, size, dir, func)))
		return;
	if (dmamap__dbg_on(dev) && !outside_window(dev, addr, size))
		dmamap__dbg_sync(dev, addr, size, dir, for_cpu);
	sync_one(dev, addr, size, dir, for_cpu);
}

/*
 * Host, coherent, identity, not a bounce slot: a sync has nothing to move,
 * so only the checker and the counter see it (as the unmap fast path).
 */
static inline void sync_checked(struct device *dev, dma_addr_t addr, size_t size,
				enum dma_data_direction dir, bool for_cpu,
				const char *func)
{
	if (likely(dev && dev->fast_identity && addr != DMA_MAPPING_ERROR && size &&
		   addr + size - 1 >= addr && (unsigned int)dir <= DMA_FROM_DEVICE &&
		   addr - dev->bounce_start >= dev->bounce_len)) {
		if (dmamap__dbg_on(dev))
			dmamap__dbg_sync(dev, addr, size, dir, for_cpu);
		dmamap__stat_add(dev, for_cpu ? ST_SYNC_CPU : ST_SYNC_DEV, 1);
		return;
	}
	sync_slow(dev, addr, size, dir, for_cpu, func);
}

void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir)
{
	sync_checked(dev, addr, size, dir, true, __func__);
}

void dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir)
{
	sync_checked(dev, addr, size, dir, false, __func__);
}

void dma_sync_single_range_for_cpu(struct device *dev, dma_addr_t addr,
				   unsigned long offset, size_t size,
				   enum dma_data_direction dir)
{
	sync_checked(dev, addr + offset, size, dir, true, __func__);
}

void dma_sync_single_range_for_device(struct device *dev, dma_addr_t addr,
				      unsigned long offset, size_t size,
				      enum dma_data_direction dir)
{
	sync_checked(dev, addr + offset, size, dir, false, __func__);
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
