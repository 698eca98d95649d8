/* SPDX-License-Identifier: MIT */
/*
 * The direct backend's streaming side: phys -> dma through the device's
 * ranges, a reachability check against min(mask, bus limit), and cache
 * maintenance when the device does not snoop.
 */
#include "../internal.h"

static dma_addr_t unreachable(struct device *dev, phys_addr_t phys, size_t size,
			      int *errp)
{
	*errp = -EIO;
	dmamap__api_error(dev, "dma_map", DMAMAP_ERRK_UNREACHABLE,
			  DMAMAP_DBG_UNREACHABLE,
			  "buffer [phys=0x%llx] [size=%zu] is beyond the device's reach [mask=0x%llx] [bus limit=0x%llx]",
			  (unsigned long long)phys, size,
			  (unsigned long long)*dev->dma_mask,
			  (unsigned long long)dev->bus_dma_limit);
	return DMA_MAPPING_ERROR;
}

dma_addr_t dmamap__direct_map_phys(struct device *dev, phys_addr_t phys,
				   size_t size, enum dma_data_direction dir,
				   unsigned long attrs, int *errp)
{
	dma_addr_t dma = dmamap__reach(dev, phys, size, dev->map_limit);

	/* Out of reach (the whole buffer, in one window range), or told to: bounce. */
	if (unlikely(dma == DMA_MAPPING_ERROR || dmamap__swiotlb_wanted(dev, phys, size, dir))) {
		if (!dev->restricted && (!dev->plat->swiotlb || dev->plat->swiotlb_off))
			return unreachable(dev, phys, size, errp);
		return dmamap__swiotlb_map(dev, phys, size, dir, attrs, errp);
	}
	if (!dev->coherent && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmamap__sim_sync_for_device(dev, phys, size, dir);
	return dma;
}

static phys_addr_t handle_to_phys(struct device *dev, dma_addr_t addr,
				  size_t size, const char *func)
{
	phys_addr_t phys = dmamap__dev_dma_to_phys(dev, addr, size);

	if (unlikely(phys == PHYS_NONE))
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_HANDLE,
				  DMAMAP_DBG_UNMAP_INVALID,
				  "[device address=0x%llx] [size=%zu] is not memory this device can have mapped",
				  (unsigned long long)addr, size);
	return phys;
}

void dmamap__direct_unmap(struct device *dev, dma_addr_t addr, size_t size,
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
		dmamap__sim_sync_for_cpu(dev, phys, size, dir);
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
		dmamap__sim_sync_for_cpu(dev, phys, size, dir);
	else if (!dev->coherent)
		dmamap__sim_sync_for_device(dev, phys, size, dir);
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
	return dmamap__direct_map_phys(dev, phys + offset, size, dir, attrs, &err);
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



/* A device that may bounce can map no more than a bounce pool segment. */
static size_t direct_max_mapping_size(struct device *dev)
{
	/* A min_align_mask offset can cost up to one more slot, as the kernel counts. */
	if (dev->restricted || (dev->plat->swiotlb && !dev->plat->swiotlb_off))
		return DMAMAP_SWIOTLB_MAX_MAPPING -
		       ((dev->min_align_mask + IO_TLB_SIZE - 1) & ~(IO_TLB_SIZE - 1));
	return SIZE_MAX;
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
	.unmap_page = dmamap__direct_unmap,
	.map_resource = direct_map_resource,
	.sync_single_for_cpu = dmamap__direct_sync_for_cpu,
	.sync_single_for_device = dmamap__direct_sync_for_device,
	.dma_supported = dmamap__direct_supported,
	.get_required_mask = dmamap__direct_required_mask,
	.max_mapping_size = direct_max_mapping_size,
};

void dmamap_arch_sync_dma_for_device(struct device *dev, phys_addr_t phys,
				     size_t size, enum dma_data_direction dir)
{
	if (dev && size && !dev->coherent && dev->plat->kind == PLAT_SIM)
		dmamap__sim_sync_for_device(dev, phys, size, dir);
}

void dmamap_arch_sync_dma_for_cpu(struct device *dev, phys_addr_t phys,
				  size_t size, enum dma_data_direction dir)
{
	if (dev && size && !dev->coherent && dev->plat->kind == PLAT_SIM)
		dmamap__sim_sync_for_cpu(dev, phys, size, dir);
}
