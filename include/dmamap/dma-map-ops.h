/* SPDX-License-Identifier: MIT */
/*
 * For backend writers: the ops table every device carries, and the named
 * helpers a backend uses to reach the rest of the system (address
 * translation, cache maintenance, the direct table to fall back to).
 * Backends never reach each other's internals; they call through these
 * helpers or another table.
 */
#ifndef DMAMAP_DMA_MAP_OPS_H
#define DMAMAP_DMA_MAP_OPS_H

#include <dmamap/dma-mapping.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Every callback is optional except map_page/unmap_page for a table used
 * for streaming mappings. Missing sg callbacks are built by the core on
 * top of map_page/unmap_page/sync_single_*; a missing set_dma_mask means
 * the generic rule (dma_supported, then store); map_sg returns the number
 * of device segments or a negative errno (-EINVAL, -ENOMEM, -EIO) and
 * must leave nothing mapped when it fails.
 */
struct dma_map_ops {
	const char *name;
	void *(*alloc)(struct device *dev, size_t size, dma_addr_t *dma_handle,
		       gfp_t gfp, unsigned long attrs);
	void (*free)(struct device *dev, size_t size, void *vaddr,
		     dma_addr_t dma_handle, unsigned long attrs);
	int (*mmap)(struct device *dev, struct vm_area_struct *vma,
		    void *cpu_addr, dma_addr_t dma_addr, size_t size,
		    unsigned long attrs);
	int (*get_sgtable)(struct device *dev, struct sg_table *sgt,
			   void *cpu_addr, dma_addr_t dma_addr, size_t size,
			   unsigned long attrs);
	void *(*alloc_noncoherent)(struct device *dev, size_t size,
				   dma_addr_t *dma_handle,
				   enum dma_data_direction dir, gfp_t gfp);
	void (*free_noncoherent)(struct device *dev, size_t size, void *vaddr,
				 dma_addr_t dma_handle,
				 enum dma_data_direction dir);
	dma_addr_t (*map_page)(struct device *dev, struct page *page,
			       unsigned long offset, size_t size,
			       enum dma_data_direction dir, unsigned long attrs);
	void (*unmap_page)(struct device *dev, dma_addr_t dma_handle,
			   size_t size, enum dma_data_direction dir,
			   unsigned long attrs);
	int (*map_sg)(struct device *dev, struct scatterlist *sg, int nents,
		      enum dma_data_direction dir, unsigned long attrs);
	void (*unmap_sg)(struct device *dev, struct scatterlist *sg, int nents,
			 enum dma_data_direction dir, unsigned long attrs);
	dma_addr_t (*map_resource)(struct device *dev, phys_addr_t phys_addr,
				   size_t size, enum dma_data_direction dir,
				   unsigned long attrs);
	void (*unmap_resource)(struct device *dev, dma_addr_t dma_handle,
			       size_t size, enum dma_data_direction dir,
			       unsigned long attrs);
	void (*sync_single_for_cpu)(struct device *dev, dma_addr_t dma_handle,
				    size_t size, enum dma_data_direction dir);
	void (*sync_single_for_device)(struct device *dev,
				       dma_addr_t dma_handle, size_t size,
				       enum dma_data_direction dir);
	void (*sync_sg_for_cpu)(struct device *dev, struct scatterlist *sg,
				int nents, enum dma_data_direction dir);
	void (*sync_sg_for_device)(struct device *dev, struct scatterlist *sg,
				   int nents, enum dma_data_direction dir);
	int (*dma_supported)(struct device *dev, u64 mask);
	int (*set_dma_mask)(struct device *dev, u64 mask);
	u64 (*get_required_mask)(struct device *dev);
	size_t (*max_mapping_size)(struct device *dev);
	size_t (*opt_mapping_size)(void);
	unsigned long (*get_merge_boundary)(struct device *dev);
};

/*
 * The direct table: phys -> dma through the device's ranges, with cache
 * maintenance when the device is not coherent. Every platform's default.
 */
DMAMAP_API extern const struct dma_map_ops dmamap_direct_ops;

/**
 * dev_is_dma_coherent() - whether the device snoops the CPU cache
 * @dev: device
 *
 * Return: true if it does (every device on the host does); false if not,
 * or @dev is NULL.
 */
DMAMAP_API bool dev_is_dma_coherent(const struct device *dev);

/**
 * dmamap_phys_to_dma() - the device address of a physical address
 * @dev: device
 * @phys: CPU physical address
 *
 * The bus window alone: a declared pool's own device address and an
 * IOMMU's page table play no part.
 *
 * Return: the address through the device's dma ranges (identity without
 * ranges), or DMA_MAPPING_ERROR if no range covers @phys or @dev is NULL.
 */
DMAMAP_API dma_addr_t dmamap_phys_to_dma(const struct device *dev,
					 phys_addr_t phys);
/**
 * dmamap_dma_to_phys() - the physical address behind a device address
 * @dev: device
 * @dma: device address
 *
 * The bus window alone, as dmamap_phys_to_dma().
 *
 * Return: the physical address, or (phys_addr_t)-1 if no range covers
 * @dma or @dev is NULL.
 */
DMAMAP_API phys_addr_t dmamap_dma_to_phys(const struct device *dev,
					  dma_addr_t dma);
/**
 * dmamap_dma_capable() - whether the device can address [@dma, @dma+@size)
 * @dev: device
 * @dma: first address
 * @size: length
 * @is_ram: true for RAM (the bus limit applies), false for MMIO
 *
 * Return: true if the range fits min(*dma_mask, bus_dma_limit) for RAM,
 * the mask alone for MMIO; false if not, and for a NULL @dev, a zero
 * @size or a range that wraps.
 */
DMAMAP_API bool dmamap_dma_capable(const struct device *dev, dma_addr_t dma,
				   size_t size, bool is_ram);
/**
 * dmamap_bus_dma_limit() - the highest address the device's bus carries
 * @dev: device
 *
 * Return: the limit; 0 for none, or for a NULL @dev.
 */
DMAMAP_API u64 dmamap_bus_dma_limit(const struct device *dev);

/**
 * dmamap_arch_sync_dma_for_device() - cache maintenance before the device owns a buffer
 * @dev: the device (its board's cache rules apply; counted in its stats)
 * @phys: physical address
 * @size: length
 * @dir: direction of the mapping
 *
 * No maintenance is done, and nothing reported, for a NULL @dev, a zero
 * @size, a coherent device, or a range that is not inside one RAM bank
 * (on the host: not all mapped in the process). On the host, a device
 * created with host_noncoherent has the real data cache cleaned by line
 * (docs/portability.md). Maintenance that loses bytes is reported
 * (CPU_DATA_LOST, DEVICE_DATA_LOST).
 */
DMAMAP_API void dmamap_arch_sync_dma_for_device(struct device *dev,
						phys_addr_t phys, size_t size,
						enum dma_data_direction dir);
/**
 * dmamap_arch_sync_dma_for_cpu() - cache maintenance before the CPU owns a buffer
 * @dev: the device
 * @phys: physical address
 * @size: length
 * @dir: direction of the mapping
 *
 * No maintenance is done, and nothing reported, in the cases
 * dmamap_arch_sync_dma_for_device() lists; maintenance that loses bytes
 * is reported the same way.
 */
DMAMAP_API void dmamap_arch_sync_dma_for_cpu(struct device *dev,
					     phys_addr_t phys, size_t size,
					     enum dma_data_direction dir);

/**
 * dmamap_phys_to_virt() - linear-map address of a physical address
 * @p: platform
 * @phys: physical address
 *
 * Return: CPU address; NULL if @phys is not RAM of a board, or @p is
 * NULL. On the host, @phys itself.
 */
DMAMAP_API void *dmamap_phys_to_virt(struct dmamap_platform *p,
				     phys_addr_t phys);

#ifdef __cplusplus
}
#endif
#endif
