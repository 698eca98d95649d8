/* SPDX-License-Identifier: MIT */
/*
 * The device side of DMA: a bus master's reads and writes at device
 * addresses, translated through the device's window to RAM. Anything the
 * hardware could not reach is a fault: logged, counted, nothing moved.
 */
#include <stdio.h>
#include <string.h>
#include "../internal.h"
#include "../debug/checker.h"

dma_addr_t dmamap_phys_to_dma(const struct device *dev, phys_addr_t phys)
{
	if (!dev)
		return DMA_MAPPING_ERROR;
	if (!dev->nr_ranges)
		return phys;
	for (unsigned int i = 0; i < dev->nr_ranges; i++) {
		const struct dmamap_dma_range *r = &dev->ranges[i];

		if (phys >= r->cpu_start && phys - r->cpu_start < r->size)
			return r->dma_start + (phys - r->cpu_start);
	}
	return DMA_MAPPING_ERROR;
}

/* [dma, dma+len) inside one window range; PHYS_NONE otherwise. */
static phys_addr_t window_to_phys(const struct device *dev, dma_addr_t dma,
				  u64 len)
{
	if (!dev->nr_ranges)
		return dma + len - 1 >= dma ? dma : PHYS_NONE;
	for (unsigned int i = 0; i < dev->nr_ranges; i++) {
		const struct dmamap_dma_range *r = &dev->ranges[i];

		if (dma >= r->dma_start && dma - r->dma_start < r->size &&
		    len <= r->size - (dma - r->dma_start))
			return r->cpu_start + (dma - r->dma_start);
	}
	return PHYS_NONE;
}

phys_addr_t dmamap_dma_to_phys(const struct device *dev, dma_addr_t dma)
{
	if (!dev)
		return PHYS_NONE;
	return window_to_phys(dev, dma, 1);
}

phys_addr_t dmamap__dev_dma_to_phys(const struct device *dev, dma_addr_t dma,
				    u64 len)
{
	if (dev->domain)
		return dmamap__iommu_walk(dev, dma);
	if (unlikely(dev->pool)) {
		phys_addr_t phys = dmamap__pool_dma_to_phys(dev, dma, len);

		if (phys != PHYS_NONE)
			return phys;
	}
	return window_to_phys(dev, dma, len);
}

u64 dmamap_bus_dma_limit(const struct device *dev)
{
	return dev ? dev->bus_dma_limit : 0;
}

bool dmamap_dma_capable(const struct device *dev, dma_addr_t dma, size_t size,
			bool is_ram)
{
	return dev && dmamap__dma_capable(dev, dma, size, is_ram);
}

int dmamap__device_fault(struct device *dev, dma_addr_t addr, size_t len,
			 bool write, const char *reason)
{
	dmamap__stat_add(dev, ST_FAULTS, 1);
	pthread_mutex_lock(&dev->fault_lock);
	dev->has_fault = true;
	snprintf(dev->last_fault.device, sizeof(dev->last_fault.device), "%s",
		 dev->name);
	dev->last_fault.addr = addr;
	dev->last_fault.len = len;
	dev->last_fault.write = write;
	dev->last_fault.reason = reason;
	pthread_mutex_unlock(&dev->fault_lock);
	dmamap__report(dev->plat, dev, DMAMAP_DBG_DEVICE_FAULT,
		       "device %s fault at [device address=0x%llx] [size=%zu]: %s",
		       write ? "write" : "read", (unsigned long long)addr, len,
		       reason);
	return -EFAULT;
}

static int access(struct device *dev, dma_addr_t addr, void *buf, size_t len,
		  bool write)
{
	phys_addr_t phys;
	u64 limit;

	if (!dev || !buf || !len)
		return -EINVAL;
	if (!__atomic_load_n(&dev->bus_master, __ATOMIC_RELAXED))
		return dmamap__device_fault(dev, addr, len, write, "bus master disabled");
	limit = *dev->dma_mask;
	if (addr + len - 1 < addr || addr + len - 1 > limit)
		return dmamap__device_fault(dev, addr, len, write, "beyond the device's address mask");
	if (dev->domain) {
		phys_addr_t first;
		int ret;

		if (dmamap__dbg_on(dev))
			dmamap__dbg_device_access(dev, addr, len, write);
		ret = dmamap__iommu_access(dev, addr, buf, len, write, &first);
		if (!ret)
			dmamap__stat_add(dev, write ? ST_DEV_WRITTEN : ST_DEV_READ, len);
		return ret;
	}
	phys = dmamap__dev_dma_to_phys(dev, addr, len);
	if (phys == PHYS_NONE)
		return dmamap__device_fault(dev, addr, len, write, "outside the device's DMA window");
	if (dmamap__dbg_on(dev))
		dmamap__dbg_device_access(dev, addr, len, write);
	if (dmamap__device_copy(dev, phys, buf, len, write))
		return dmamap__device_fault(dev, addr, len, write, "no RAM at that address");
	dmamap__stat_add(dev, write ? ST_DEV_WRITTEN : ST_DEV_READ, len);
	return 0;
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

void dmamap_device_set_bus_master(struct device *dev, bool enable)
{
	if (dev)
		__atomic_store_n(&dev->bus_master, enable, __ATOMIC_RELAXED);
}

int dmamap_device_last_fault(struct device *dev, struct dmamap_fault *f)
{
	int ret = 0;

	if (!dev || !f)
		return -EINVAL;
	pthread_mutex_lock(&dev->fault_lock);
	if (dev->has_fault)
		*f = dev->last_fault;
	else
		ret = -ENOENT;
	pthread_mutex_unlock(&dev->fault_lock);
	return ret;
}
