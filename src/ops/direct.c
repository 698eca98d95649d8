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
	dma_addr_t dma = dmamap_phys_to_dma(dev, phys);

	if (unlikely(dma == DMA_MAPPING_ERROR || !dmamap_dma_capable(dev, dma, size, true)))
		return unreachable(dev, phys, size, errp);
	/* The whole buffer must sit in one window range, not only its start. */
	if (unlikely(dev->nr_ranges &&
		     dmamap_phys_to_dma(dev, phys + size - 1) != dma + size - 1))
		return unreachable(dev, phys, size, errp);
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

	if (phys != PHYS_NONE && !dev->coherent &&
	    !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmamap__sim_sync_for_cpu(dev, phys, size, dir);
}

void dmamap__direct_sync_for_cpu(struct device *dev, dma_addr_t addr,
				 size_t size, enum dma_data_direction dir)
{
	phys_addr_t phys = handle_to_phys(dev, addr, size, "dma_sync_for_cpu");

	if (phys != PHYS_NONE && !dev->coherent)
		dmamap__sim_sync_for_cpu(dev, phys, size, dir);
}

void dmamap__direct_sync_for_device(struct device *dev, dma_addr_t addr,
				    size_t size, enum dma_data_direction dir)
{
	phys_addr_t phys = handle_to_phys(dev, addr, size, "dma_sync_for_device");

	if (phys != PHYS_NONE && !dev->coherent)
		dmamap__sim_sync_for_device(dev, phys, size, dir);
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

void *dmamap__direct_alloc(struct device *dev, size_t size,
			   dma_addr_t *dma_handle, gfp_t gfp,
			   unsigned long attrs);
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
u64 dmamap__direct_required_mask(struct device *dev);

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
