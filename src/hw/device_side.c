/* SPDX-License-Identifier: MIT */
/*
 * The device side of DMA: a bus master's reads and writes at device
 * addresses, translated by its IOMMU's page table or its bus window to
 * RAM. Anything the hardware could not reach is a fault: logged, counted,
 * nothing moved. Watchers (the checker) are told of every access before
 * the bytes move.
 */
#include "../lib/lib.h"
#include "../base/bus.h"
#include "../base/observer.h"
#include "../base/trace.h"
#include "../platform/port.h"
#include "hw.h"
#include "iopt.h"

phys_addr_t dmamap__dev_dma_to_phys(const struct device *dev, dma_addr_t dma, u64 len)
{
	if (dev->iommu_hw)
		return dmamap__iopt_walk(dev->iommu_hw, dma);
	return dmamap__bus_to_phys(dev, dma, len);
}

/* An access through the IOMMU: every page translated first, so a faulting access moves nothing. */
static int iommu_access(struct device *dev, dma_addr_t iova, uint8_t *buf, size_t len,
			bool write)
{
	struct dmamap_iopt *pt = dev->iommu_hw;
	const char *why = NULL;

	/* Told first: an access to an unmapped IOVA is the checker's use-after-unmap too. */
	dmamap__notify_device_access(dev, iova, len, write);
	for (dma_addr_t at = iova & PAGE_MASK; at < iova + len; at += PAGE_SIZE) {
		if (dmamap__iommu_translate(pt, at, write, dev->dma_privileged, &why) ==
		    PHYS_NONE) {
			DMAMAP__TRACE(dev->plat, .id = DMAMAP_TRACE_IO_PAGE_FAULT, .dev = dev,
				      .dma_addr = at < iova ? iova : at, .size = len, .flags = write);
			if (pt->fault_fn)
				pt->fault_fn(pt->fault_ctx, dev, at < iova ? iova : at, write, why);
			return dmamap__device_fault(dev, iova, len, write, why);
		}
	}
	while (len) {
		size_t chunk = MIN(len, (size_t)(PAGE_SIZE - (iova & (PAGE_SIZE - 1))));
		phys_addr_t phys = dmamap__iommu_translate(pt, iova, write, dev->dma_privileged,
							   &why);

		if (dmamap__device_copy(dev, phys, buf, chunk, write))
			return dmamap__device_fault(dev, iova, chunk, write,
						    "no RAM behind the IOMMU mapping");
		iova += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}

/*
 * The widest address the device was said to drive: its coherent memory may
 * lie above the streaming mask when the driver set a wider coherent one.
 */
static u64 device_reach(const struct device *dev)
{
	return MAX(*dev->dma_mask, dev->coherent_dma_mask);
}

static int access(struct device *dev, dma_addr_t addr, void *buf, size_t len,
		  bool write)
{
	phys_addr_t phys;
	int ret;

	if (!dev || !buf || !len)
		return -EINVAL;
	if (!__atomic_load_n(&dev->bus_master, __ATOMIC_RELAXED))
		return dmamap__device_fault(dev, addr, len, write, "bus master disabled");
	if (addr + len - 1 < addr || addr + len - 1 > device_reach(dev))
		return dmamap__device_fault(dev, addr, len, write, "beyond the device's address mask");
	if (dev->iommu_hw) {
		ret = iommu_access(dev, addr, buf, len, write);
	} else {
		phys = dmamap__bus_to_phys(dev, addr, len);
		if (phys == PHYS_NONE)
			return dmamap__device_fault(dev, addr, len, write,
						    "outside the device's DMA window");
		dmamap__notify_device_access(dev, addr, len, write);
		ret = dmamap__device_copy(dev, phys, buf, len, write);
		if (ret)
			ret = dmamap__device_fault(dev, addr, len, write, "no RAM at that address");
	}
	if (!ret)
		dmamap__stat_add(dev, write ? ST_DEV_WRITTEN : ST_DEV_READ, len);
	return ret;
}

int dmamap_device_read(struct device *dev, dma_addr_t dma_addr, void *dst,
		       size_t len)
{
	return access(dev, dma_addr, dst, len, false);
}

int dmamap_device_write(struct device *dev, dma_addr_t dma_addr,
			const void *src, size_t len)
{
	return access(dev, dma_addr, (void *)src, len, true);
}

int dmamap_device_read_desc(struct device *dev, dma_addr_t dma_addr, void *dst, size_t len,
			    size_t own_off, uint32_t own_mask, uint32_t own_val)
{
	const uint8_t *w;
	phys_addr_t phys;
	uint32_t word;
	bool owned;
	int ret;

	if (!dev || !dst || own_off % 4 || own_off + 4 > len || own_off + 4 < own_off)
		return -EINVAL;
	phys = dmamap__dev_dma_to_phys(dev, dma_addr, len);
	if (phys != PHYS_NONE)
		dmamap__port_order_fetch(dev, phys, len, own_off, false, dma_addr);
	ret = dmamap_device_read(dev, dma_addr, dst, len);
	if (ret)
		return ret;
	w = (const uint8_t *)dst + own_off;
	word = (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
	owned = (word & own_mask) == own_val;
	if (owned && phys != PHYS_NONE)
		dmamap__port_order_fetch(dev, phys, len, own_off, true, dma_addr);
	return owned;
}

int dmamap_device_write_desc(struct device *dev, dma_addr_t dma_addr, const void *src,
			     size_t len, size_t own_off, size_t own_len)
{
	const uint8_t *b = src;
	size_t tail = own_off + own_len;
	int ret = 0;

	if (!dev || !src || !own_len || own_len > 8 || tail > len || tail < own_off)
		return -EINVAL;
	dmamap__port_order_writing(dev, ORDER_WRITE_BODY);
	if (own_off)
		ret = dmamap_device_write(dev, dma_addr, b, own_off);
	if (!ret && tail < len)
		ret = dmamap_device_write(dev, dma_addr + tail, b + tail, len - tail);
	dmamap__port_order_writing(dev, ORDER_WRITE_OWN);
	if (!ret)
		ret = dmamap_device_write(dev, dma_addr + own_off, b + own_off, own_len);
	dmamap__port_order_writing(dev, ORDER_WRITE_PLAIN);
	return ret;
}

/* Whether [@addr, +@len) goes straight to RAM through the bus window (no IOMMU, no fault to raise). */
static phys_addr_t direct_phys(struct device *dev, dma_addr_t addr, size_t len)
{
	if (dev->iommu_hw || addr + len - 1 < addr || addr + len - 1 > device_reach(dev))
		return PHYS_NONE;
	return dmamap__bus_to_phys(dev, addr, len);
}

int dmamap_device_transfer(struct device *dev, dma_addr_t dst, dma_addr_t src, size_t len)
{
	phys_addr_t ps, pd;
	uint8_t buf[4096];

	if (!dev || !len)
		return -EINVAL;
	ps = direct_phys(dev, src, len);
	pd = direct_phys(dev, dst, len);
	/* Memory whose order is modelled goes burst by burst, through the model. */
	if (ps != PHYS_NONE && pd != PHYS_NONE &&
	    __atomic_load_n(&dev->bus_master, __ATOMIC_RELAXED) &&
	    !dmamap__port_order_covers(dev->plat, ps, len) &&
	    !dmamap__port_order_covers(dev->plat, pd, len)) {
		dmamap__notify_device_access(dev, src, len, false);
		dmamap__notify_device_access(dev, dst, len, true);
		if (!dmamap__device_transfer(dev, pd, ps, len)) {
			dmamap__stat_add(dev, ST_DEV_READ, len);
			dmamap__stat_add(dev, ST_DEV_WRITTEN, len);
			return 0;
		}
	}
	/* Anything else (an IOMMU, a fault to raise): burst by burst, each access as the hardware makes it. */
	while (len) {
		size_t n = MIN(len, sizeof(buf));
		int ret = access(dev, src, buf, n, false);

		if (!ret)
			ret = access(dev, dst, buf, n, true);
		if (ret)
			return ret;
		src += n;
		dst += n;
		len -= n;
	}
	return 0;
}

void dmamap_device_set_bus_master(struct device *dev, bool enable)
{
	if (dev)
		__atomic_store_n(&dev->bus_master, enable, __ATOMIC_RELAXED);
}

void dmamap_device_set_privileged(struct device *dev, bool privileged)
{
	if (dev)
		__atomic_store_n(&dev->dma_privileged, privileged, __ATOMIC_RELAXED);
}
