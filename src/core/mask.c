/* SPDX-License-Identifier: MIT */
/* Masks, limits and the ops table of a device. */
#include <stdint.h>
#include "../base/report.h"
#include "../ops/direct.h"

const struct dma_map_ops *get_dma_ops(struct device *dev)
{
	if (!dev)
		return NULL;
	return dev->dma_ops ? dev->dma_ops : &dmamap_direct_ops;
}

void set_dma_ops(struct device *dev, const struct dma_map_ops *ops)
{
	if (!dev)
		return;
	/* The core calls map_page without a test; every other member is optional. */
	if (ops && !ops->map_page) {
		dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_ARG, DMAMAP_DBG_INVALID_ARGUMENT,
				  "the %s ops table has no map_page: refused, the device keeps its table",
				  ops->name ? ops->name : "unnamed");
		return;
	}
	/* The direct table is stored as NULL so the core keeps its direct path. */
	dev->dma_ops = ops == &dmamap_direct_ops ? NULL : ops;
	dmamap__device_refresh(dev);
}

int dma_supported(struct device *dev, u64 mask)
{
	const struct dma_map_ops *ops = get_dma_ops(dev);

	if (!ops)
		return 0;
	if (!ops->dma_supported)
		return 1;
	return ops->dma_supported(dev, mask) ? 1 : 0;
}

static int mask_error(struct device *dev, const char *func, u64 mask)
{
	dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_MASK,
			  DMAMAP_DBG_MASK_UNSUPPORTED,
			  "mask 0x%llx cannot be supported on this board",
			  (unsigned long long)mask);
	return -EIO;
}

int dma_set_mask(struct device *dev, u64 mask)
{
	const struct dma_map_ops *ops;

	if (!dev) {
		dmamap__api_error(NULL, __func__, DMAMAP_ERRK_NULL_ARG,
				  DMAMAP_DBG_NULL_DEVICE, "called with a NULL device");
		return -EINVAL;
	}
	ops = get_dma_ops(dev);
	if (ops->set_dma_mask) {
		int ret = ops->set_dma_mask(dev, mask);

		if (ret)
			dmamap__api_error(dev, __func__, DMAMAP_ERRK_BAD_MASK,
					  DMAMAP_DBG_MASK_UNSUPPORTED,
					  "mask 0x%llx refused by the %s ops (%d)",
					  (unsigned long long)mask,
					  ops->name ? ops->name : "device's", ret);
		return ret;
	}
	if (!dev->dma_mask || !dma_supported(dev, mask))
		return mask_error(dev, __func__, mask);
	*dev->dma_mask = mask;
	dmamap__device_refresh(dev);
	return 0;
}

int dma_set_coherent_mask(struct device *dev, u64 mask)
{
	if (!dev) {
		dmamap__api_error(NULL, __func__, DMAMAP_ERRK_NULL_ARG,
				  DMAMAP_DBG_NULL_DEVICE, "called with a NULL device");
		return -EINVAL;
	}
	if (!dma_supported(dev, mask))
		return mask_error(dev, __func__, mask);
	dev->coherent_dma_mask = mask;
	return 0;
}

int dma_set_mask_and_coherent(struct device *dev, u64 mask)
{
	int ret = dma_set_mask(dev, mask);

	if (!ret)
		ret = dma_set_coherent_mask(dev, mask);
	return ret;
}

int dma_coerce_mask_and_coherent(struct device *dev, u64 mask)
{
	/* Linux points a device without a streaming mask at its coherent one; ours always has one. */
	if (dev && !dev->dma_mask)
		dev->dma_mask = &dev->dma_mask_store;
	return dma_set_mask_and_coherent(dev, mask);
}

u64 dma_get_mask(struct device *dev)
{
	u64 mask = dev && dev->dma_mask ? *dev->dma_mask : 0;

	/* No mask set yet: the 32 bits every device is assumed to reach. */
	return mask ? mask : DMA_BIT_MASK(32);
}

u64 dma_get_required_mask(struct device *dev)
{
	const struct dma_map_ops *ops = get_dma_ops(dev);

	if (!ops)
		return 0;
	if (ops->get_required_mask)
		return ops->get_required_mask(dev);
	/* As Linux: every table supports 32 bits, the right answer for most IOMMUs. */
	return DMA_BIT_MASK(32);
}

bool dma_addressing_limited(struct device *dev)
{
	u64 mask, reach;

	if (!dev)
		return false;
	mask = dma_get_mask(dev);
	reach = dev->bus_dma_limit ? MIN(mask, dev->bus_dma_limit) : mask;
	if (reach < dma_get_required_mask(dev))
		return true;
	/* Another table (an IOMMU's) reaches what it maps; the direct one only its window. */
	if (dev->dma_ops)
		return false;
	return !dmamap__direct_all_ram_mapped(dev);
}

size_t dma_max_mapping_size(struct device *dev)
{
	const struct dma_map_ops *ops = get_dma_ops(dev);

	if (!ops)
		return 0;
	if (ops->max_mapping_size)
		return ops->max_mapping_size(dev);
	return SIZE_MAX;
}
