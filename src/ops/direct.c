/* SPDX-License-Identifier: MIT */
/*
 * The direct backend's streaming side: phys -> dma through the device's
 * ranges, a reachability check against min(mask, bus limit), bouncing
 * through swiotlb when the device cannot reach a buffer (or must not),
 * and cache maintenance when the device does not snoop.
 */
#include "../lib/lib.h"
#include "../base/bus.h"
#include "../base/report.h"
#include "../platform/port.h"
#include "direct.h"
#include "swiotlb.h"

void dmamap__direct_refresh(struct device *dev)
{
	dmamap__swiotlb_refresh(dev);
	dev->direct_identity = dmamap__port_identity(dev->plat) && !dev->dma_ops &&
			       dev->coherent && !dev->nr_ranges && !dev->dma_mem &&
			       !dmamap__swiotlb_force_bounce(dev);
}

static void set_err(int *errp, int err)
{
	if (errp)
		*errp = err;
}

static dma_addr_t unreachable(struct device *dev, phys_addr_t phys, size_t size, int *errp)
{
	set_err(errp, -EIO);
	dmamap__api_error(dev, "dma_map", DMAMAP_ERRK_UNREACHABLE,
			  DMAMAP_DBG_UNREACHABLE,
			  "buffer [phys=0x%llx] [size=%zu] is beyond the device's reach [mask=0x%llx] [bus limit=0x%llx]",
			  (unsigned long long)phys, size,
			  (unsigned long long)*dev->dma_mask,
			  (unsigned long long)dev->bus_dma_limit);
	return DMA_MAPPING_ERROR;
}

bool dmamap__direct_in_place(const struct device *dev, phys_addr_t phys, size_t size)
{
	return dmamap__reach(dev, phys, size, dev->map_limit) != DMA_MAPPING_ERROR &&
	       !dmamap__swiotlb_wanted(dev, phys, size, DMA_BIDIRECTIONAL);
}

/* Map RAM at @phys: in reach and not told to bounce, or bounced (dmamap__direct_in_place()). */
static dma_addr_t map_phys(struct device *dev, phys_addr_t phys, size_t size,
			   enum dma_data_direction dir, unsigned long attrs, int *errp)
{
	dma_addr_t dma = dmamap__reach(dev, phys, size, dev->map_limit);
	int err;

	if (unlikely(dma == DMA_MAPPING_ERROR || dmamap__swiotlb_wanted(dev, phys, size, dir))) {
		/* A bounce copy is no coherent mapping: such a caller wants a failure instead. */
		if (!dmamap__swiotlb_active(dev) || (attrs & DMA_ATTR_REQUIRE_COHERENT))
			return unreachable(dev, phys, size, errp);
		return dmamap__swiotlb_map(dev, phys, size, dir, attrs, errp ? errp : &err);
	}
	if (!dev->coherent && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmamap_arch_sync_dma_for_device(dev, phys, size, dir);
	return dma;
}

dma_addr_t dmamap__direct_map_slow(struct device *dev, void *ptr, size_t size,
				   enum dma_data_direction dir, unsigned long attrs, int *errp)
{
	phys_addr_t phys = dmamap__linear_to_phys(dev->plat, ptr);

	if (unlikely(phys == PHYS_NONE)) {
		set_err(errp, -EINVAL);
		dmamap__api_error(dev, "dma_map_page", DMAMAP_ERRK_NOT_LINEAR,
				  DMAMAP_DBG_NOT_LINEAR,
				  "buffer %p is not in this board's linear map (stack, alias or foreign memory)",
				  ptr);
		return DMA_MAPPING_ERROR;
	}
	return map_phys(dev, phys, size, dir, attrs, errp);
}

static phys_addr_t handle_to_phys(struct device *dev, dma_addr_t addr,
				  size_t size, const char *func)
{
	phys_addr_t phys = dmamap__bus_to_phys(dev, addr, size);

	if (unlikely(phys == PHYS_NONE))
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_HANDLE,
				  DMAMAP_DBG_UNMAP_INVALID,
				  "[device address=0x%llx] [size=%zu] is not memory this device can have mapped",
				  (unsigned long long)addr, size);
	return phys;
}

static void unmap_phys(struct device *dev, dma_addr_t addr, size_t size,
		       enum dma_data_direction dir, unsigned long attrs)
{
	phys_addr_t phys = handle_to_phys(dev, addr, size, "dma_unmap");
	struct dmamap_iotlb *t;

	if (phys == PHYS_NONE)
		return;
	t = dmamap__swiotlb_of(dev, phys);
	if (unlikely(t))
		dmamap__swiotlb_unmap(dev, t, phys, size, dir, attrs);
	else if (!dev->coherent && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmamap_arch_sync_dma_for_cpu(dev, phys, size, dir);
}

void dmamap__direct_unmap_slow(struct device *dev, dma_addr_t addr, size_t size,
			       enum dma_data_direction dir, unsigned long attrs)
{
	unmap_phys(dev, addr, size, dir, attrs);
}

dma_addr_t dmamap__direct_map_bounced(struct device *dev, void *ptr, size_t size,
				      unsigned long attrs)
{
	return dmamap__swiotlb_map_host(dev, (phys_addr_t)(uintptr_t)ptr, size, attrs);
}

void dmamap__direct_unmap_bounced(struct device *dev, dma_addr_t addr, size_t size,
				  enum dma_data_direction dir, unsigned long attrs)
{
	dmamap__swiotlb_unmap_host(dev, addr, size, dir, attrs);
}

static void direct_sync(struct device *dev, dma_addr_t addr, size_t size,
			enum dma_data_direction dir, bool for_cpu)
{
	phys_addr_t phys = handle_to_phys(dev, addr, size,
					  for_cpu ? "dma_sync_for_cpu" : "dma_sync_for_device");
	struct dmamap_iotlb *t;

	if (phys == PHYS_NONE)
		return;
	t = dmamap__swiotlb_of(dev, phys);
	if (unlikely(t))
		dmamap__swiotlb_sync(dev, t, phys, size, dir, for_cpu);
	else if (!dev->coherent && for_cpu)
		dmamap_arch_sync_dma_for_cpu(dev, phys, size, dir);
	else if (!dev->coherent)
		dmamap_arch_sync_dma_for_device(dev, phys, size, dir);
}

void dmamap__direct_sync_for_cpu(struct device *dev, dma_addr_t addr,
				 size_t size, enum dma_data_direction dir)
{
	direct_sync(dev, addr, size, dir, true);
}

void dmamap__direct_sync_for_device(struct device *dev, dma_addr_t addr,
				    size_t size, enum dma_data_direction dir)
{
	direct_sync(dev, addr, size, dir, false);
}

/* ---- the table, for backends that fall back to it --------------------- */

static dma_addr_t direct_map_page(struct device *dev, struct page *page,
				  unsigned long offset, size_t size,
				  enum dma_data_direction dir, unsigned long attrs)
{
	phys_addr_t phys = dmamap__linear_to_phys(dev->plat, page);
	int err;

	if (phys == PHYS_NONE)
		return DMA_MAPPING_ERROR;
	return map_phys(dev, phys + offset, size, dir, attrs, &err);
}

static dma_addr_t direct_map_resource(struct device *dev, phys_addr_t phys,
				      size_t size, enum dma_data_direction dir,
				      unsigned long attrs)
{
	(void)dir;
	(void)attrs;
	/* As the kernel does: MMIO goes out untranslated, checked against the mask only. */
	if (!dmamap_dma_capable(dev, phys, size, false))
		return DMA_MAPPING_ERROR;
	return phys;
}

const struct dma_map_ops dmamap_direct_ops = {
	.name = "direct",
	.alloc = dmamap__direct_alloc,
	.free = dmamap__direct_free,
	.mmap = dmamap__direct_mmap,
	.get_sgtable = dmamap__direct_get_sgtable,
	.alloc_noncoherent = dmamap__direct_alloc_noncoherent,
	.free_noncoherent = dmamap__direct_free_noncoherent,
	.map_page = direct_map_page,
	.unmap_page = unmap_phys,
	.map_resource = direct_map_resource,
	.sync_single_for_cpu = dmamap__direct_sync_for_cpu,
	.sync_single_for_device = dmamap__direct_sync_for_device,
	.dma_supported = dmamap__direct_supported,
	.get_required_mask = dmamap__direct_required_mask,
	.max_mapping_size = dmamap__direct_max_mapping_size,
};
