/* SPDX-License-Identifier: MIT */
/*
 * Devices: a description becomes a device on its platform's bus, attached
 * to its backend (direct, IOMMU, dmabounce), its pools and its model, as
 * Linux's of_dma_configure() and the bus's probe would. The core installs
 * the refresh that keeps what the backends cache in a device current.
 */
#include <string.h>
#include <stdlib.h>
#include <stdio.h>
#include <dmamap/swiotlb.h>
#include "../base/unbind.h"
#include "../lib/lib.h"
#include "../debug/checker.h"
#include "../hw/hw.h"
#include "../mm/mm.h"
#include "../ops/direct.h"
#include "../ops/dmabounce.h"
#include "../ops/iommu.h"
#include "../ops/swiotlb.h"
#include "../platform/port.h"
#include "core.h"

void dmamap__core_refresh(struct device *dev)
{
	dmamap__direct_refresh(dev);
}

static int check_desc(struct dmamap_platform *p,
		      const struct dmamap_device_desc *d,
		      struct dmamap_error *err)
{
	if (!d->name || !d->name[0] || strlen(d->name) >= DMAMAP_NAME_MAX) {
		dmamap__set_error(err, -EINVAL, "device name missing or longer than %d",
				  DMAMAP_NAME_MAX - 1);
		return -EINVAL;
	}
	if (d->nr_ranges > DMAMAP_MAX_RANGES) {
		dmamap__set_error(err, -EINVAL, "device %s: %u dma ranges (max %d)",
				  d->name, d->nr_ranges, DMAMAP_MAX_RANGES);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < d->nr_ranges; i++) {
		const struct dmamap_dma_range *r = &d->ranges[i];

		if (!r->size || r->cpu_start + r->size - 1 < r->cpu_start ||
		    r->dma_start + r->size - 1 < r->dma_start) {
			dmamap__set_error(err, -EINVAL,
					  "device %s: dma range %u is empty or wraps", d->name, i);
			return -EINVAL;
		}
		for (unsigned int j = 0; j < i; j++) {
			const struct dmamap_dma_range *o = &d->ranges[j];

			if (r->dma_start <= o->dma_start + o->size - 1 &&
			    o->dma_start <= r->dma_start + r->size - 1) {
				dmamap__set_error(err, -EINVAL,
						  "device %s: dma ranges %u and %u overlap in bus space",
						  d->name, j, i);
				return -EINVAL;
			}
		}
	}
	/*
	 * Behind an IOMMU every transfer goes through it: Linux gives such a
	 * device neither dmabounce nor a restricted pool (of_dma_configure
	 * sets up the pool only without an IOMMU), and addresses from either
	 * would fault at the IOMMU.
	 */
	if (d->iommu && (d->dmabounce_above || d->restricted_pool_size)) {
		dmamap__set_error(err, -EINVAL, "device %s: %s and an IOMMU exclude each other",
				  d->name, d->dmabounce_above ? "dmabounce" : "a restricted pool");
		return -EINVAL;
	}
	if (d->model && !dmamap_model_find(d->model)) {
		dmamap__set_error(err, -EINVAL, "device %s: unknown device model '%s'",
				  d->name, d->model);
		return -EINVAL;
	}
	if (d->host_noncoherent && !dmamap__port_noncoherent_ok(p)) {
		dmamap__set_error(err, -EOPNOTSUPP,
				  "device %s: this architecture's user space cannot clean the data cache for a device that does not snoop",
				  d->name);
		return -EOPNOTSUPP;
	}
	if (dmamap_device_lookup(p, d->name)) {
		dmamap__set_error(err, -EEXIST, "device %s: name already used", d->name);
		return -EEXIST;
	}
	return 0;
}

/* What the description says directly: names, masks, bus, limits. */
static void describe(struct device *dev, struct dmamap_platform *p,
		     const struct dmamap_device_desc *d)
{
	snprintf(dev->name, sizeof(dev->name), "%s", d->name);
	snprintf(dev->of_path, sizeof(dev->of_path), "%s", d->of_path ? d->of_path : "");
	dev->plat = p;
	dev->dma_mask = &dev->dma_mask_store;
	dev->dma_mask_store = d->dma_mask ? d->dma_mask : p->default_mask;
	dev->coherent_dma_mask = d->coherent_dma_mask ? d->coherent_dma_mask :
							 dev->dma_mask_store;
	/* On the host every device snoops but the ones said not to; on a board, the ones said to. */
	dev->coherent = dmamap__port_coherent(p) ? !d->host_noncoherent : d->coherent;
	dev->bus_master = true;
	dev->nr_ranges = d->nr_ranges;
	memcpy(dev->ranges, d->ranges, sizeof(d->ranges[0]) * d->nr_ranges);
	dev->bus_dma_limit = d->bus_dma_limit;
	if (!dev->bus_dma_limit) {
		for (unsigned int i = 0; i < d->nr_ranges; i++)
			dev->bus_dma_limit = MAX(dev->bus_dma_limit,
						 d->ranges[i].dma_start + d->ranges[i].size - 1);
	}
	dev->dma_parms.max_segment_size = d->max_segment_size ? d->max_segment_size : 65536;
	dev->dma_parms.segment_boundary_mask = d->segment_boundary_mask ?
						       d->segment_boundary_mask : ~0UL;
	snprintf(dev->bus, sizeof(dev->bus), "%s", d->bus ? d->bus : "");
	snprintf(dev->dma_master, sizeof(dev->dma_master), "%s", d->dma_master ? d->dma_master : "");
	dev->nr_iommu_ids = MIN(d->nr_iommu_ids, (unsigned int)DMAMAP_MAX_IOMMU_IDS);
	memcpy(dev->iommu_ids, d->iommu_ids, sizeof(d->iommu_ids[0]) * dev->nr_iommu_ids);
	pthread_mutex_init(&dev->fault.lock, NULL);
}

/* Backend, pools and model, in the order the kernel's probe sets them up. */
static int attach(struct device *dev, const struct dmamap_device_desc *d,
		  struct dmamap_error *err)
{
	int ret;

	if (d->iommu) {
		ret = dmamap__iommu_attach(dev, d->iommu, d->iommu_group, d->iommu_lazy);
		dmamap__device_refresh(dev);
		if (ret) {
			dmamap__set_error(err, ret, "device %s: cannot attach to IOMMU %s",
					  d->name, d->iommu);
			return ret;
		}
	}
	if (d->cma_size && (ret = dmamap__device_cma(dev, d->cma_start, d->cma_size))) {
		dmamap__set_error(err, ret, "device %s: no CMA area at 0x%llx+0x%llx on the board",
				  d->name, (unsigned long long)d->cma_start,
				  (unsigned long long)d->cma_size);
		return ret;
	}
	if (d->coherent_pool_size &&
	    (ret = dma_declare_coherent_memory(dev, d->coherent_pool_start,
					       dmamap_phys_to_dma(dev, d->coherent_pool_start),
					       d->coherent_pool_size))) {
		dmamap__set_error(err, ret, "device %s: its coherent pool at 0x%llx is unusable",
				  d->name, (unsigned long long)d->coherent_pool_start);
		return ret;
	}
	if (d->restricted_pool_size &&
	    (ret = dmamap_swiotlb_restricted_pool(dev, d->restricted_pool_start,
						  d->restricted_pool_size))) {
		dmamap__set_error(err, ret, "device %s: its restricted pool at 0x%llx is unusable",
				  d->name, (unsigned long long)d->restricted_pool_start);
		return ret;
	}
	if (d->dmabounce_above &&
	    (ret = dmamap__dmabounce_register_above(dev, d->dmabounce_small ?
								 d->dmabounce_small : 512,
						    d->dmabounce_large, d->dmabounce_above))) {
		dmamap__set_error(err, ret, "device %s: dmabounce registration failed", d->name);
		return ret;
	}
	if (d->model && (ret = dmamap__model_attach(dev, d->model))) {
		dmamap__set_error(err, ret, "device %s: model %s failed to probe", d->name,
				  d->model);
		return ret;
	}
	return 0;
}

/*
 * Every device is born inside a struct platform_device, as the kernel makes
 * one per device tree node: the bus's fields take the DMAMAP_DEVICE_HEAD
 * bytes before it, which the driver model fills in when it binds.
 */
_Static_assert(sizeof(struct device) <= DMAMAP_DEVICE_BYTES,
	       "struct device outgrew the room <dmamap/device.h> gives it");
_Static_assert(DMAMAP_DEVICE_HEAD % 64 == 0, "the device must stay on a cache line");

static struct device *device_alloc(void)
{
	/* The whole room the public header promises, so a platform_device is whole. */
	char *m = dmamap__zalloc_lines(DMAMAP_DEVICE_HEAD + DMAMAP_DEVICE_BYTES);

	return m ? (struct device *)(m + DMAMAP_DEVICE_HEAD) : NULL;
}

static void device_free(struct device *dev)
{
	free((char *)dev - DMAMAP_DEVICE_HEAD);
}

struct device *dmamap_device_create(struct dmamap_platform *p,
				    const struct dmamap_device_desc *d,
				    struct dmamap_error *err)
{
	struct device *dev;

	if (!p || !d) {
		dmamap__set_error(err, -EINVAL, "NULL platform or description");
		return NULL;
	}
	if (check_desc(p, d, err))
		return NULL;
	if (dmamap__fault(&p->fault, DMAMAP_FAULT_ALLOC) || !(dev = device_alloc())) {
		dmamap__set_error(err, -ENOMEM, "device %s: out of memory", d->name);
		return NULL;
	}
	describe(dev, p, d);
	dmamap__device_refresh(dev);
	if (dmamap__device_register(p, dev)) {
		pthread_mutex_destroy(&dev->fault.lock);
		device_free(dev);
		dmamap__set_error(err, -ENOMEM, "device %s: out of memory", d->name);
		return NULL;
	}
	if (attach(dev, d, err)) {
		dmamap_device_destroy(dev);
		return NULL;
	}
	return dev;
}

void dmamap_device_destroy(struct device *dev)
{
	if (!dev)
		return;
	/* A driver still bound lets go first, while the device is whole. */
	dmamap__device_unbind(dev);
	dmamap__msi_stop(dev);
	dmamap__model_detach(dev);
	dmamap__dbg_device_gone(dev);
	dmamap__dmabounce_release(dev);
	dmamap__iommu_detach(dev);
	dmamap__swiotlb_release(dev);
	dmamap__pool_destroy(dev);
	dmamap__device_unregister(dev);
	pthread_mutex_destroy(&dev->fault.lock);
	device_free(dev);
}

int dmamap_device_info(struct device *dev, struct dmamap_device_info *info)
{
	const struct dma_map_ops *ops;
	struct dmamap_swiotlb_stats sw;

	if (!dev || !info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	ops = get_dma_ops(dev);
	snprintf(info->name, sizeof(info->name), "%s", dev->name);
	snprintf(info->path, sizeof(info->path), "%s", dev->of_path);
	snprintf(info->model, sizeof(info->model), "%s", dmamap_device_model_name(dev));
	snprintf(info->ops, sizeof(info->ops), "%s", ops->name ? ops->name : "?");
	info->coherent = dev->coherent;
	info->dma_mask = *dev->dma_mask;
	info->coherent_dma_mask = dev->coherent_dma_mask;
	info->bus_dma_limit = dev->bus_dma_limit;
	info->nr_ranges = dev->nr_ranges;
	memcpy(info->ranges, dev->ranges, sizeof(dev->ranges[0]) * dev->nr_ranges);
	info->coherent_pool = dev->dma_mem != NULL;
	memcpy(info->bus, dev->bus, sizeof(info->bus));
	memcpy(info->dma_master, dev->dma_master, sizeof(info->dma_master));
	if (dev->iommu_domain) {
		snprintf(info->iommu, sizeof(info->iommu), "%s", dmamap__iommu_name(dev));
		info->nr_iommu_ids = dev->nr_iommu_ids;
		memcpy(info->iommu_ids, dev->iommu_ids, sizeof(dev->iommu_ids[0]) * dev->nr_iommu_ids);
	}
	dmamap__cma_area_of(dev, &info->cma, &info->cma_size);
	if (dev->dma_io_tlb_mem && !dmamap_swiotlb_stats(NULL, dev, &sw)) {
		info->restricted_pool = sw.start;
		info->restricted_pool_size = sw.total_slots * sw.slot_size;
	}
	return 0;
}

unsigned long dmamap_debug_driver_released(struct device *dev)
{
	return dev ? dmamap__dbg_device_gone(dev) : 0;
}
