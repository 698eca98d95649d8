/* SPDX-License-Identifier: MIT */
/*
 * The public face of the VFIO platform: a host platform whose one device
 * is a PCI function held through VFIO, its arena registered in the IOMMU
 * so that coherent allocations need no mapping of their own.
 */
#include <stdio.h>
#include <dmamap/vfio.h>
#include "../lib/lib.h"
#include "../hw/hw.h"
#include "../ops/vfio.h"
#include "../platform/port.h"
#include "core.h"

#define VFIO_ARENA_DEFAULT (16ULL << 20)

struct dmamap_platform *dmamap_platform_vfio(const char *bdf,
					     const struct dmamap_vfio_options *opt,
					     struct dmamap_error *err)
{
	u64 arena = opt && opt->arena_size ? opt->arena_size : VFIO_ARENA_DEFAULT;
	struct dmamap_device_desc desc = { .dma_mask = DMA_BIT_MASK(64), .coherent = true };
	struct dmamap_platform *p;
	const struct dmamap_bank *bank;
	struct device *dev;
	int ret;

	if (!bdf) {
		dmamap__set_error(err, -EINVAL, "vfio: no PCI address");
		return NULL;
	}
	if (arena > (1ULL << 30)) {
		dmamap__set_error(err, -EINVAL, "vfio: an arena of %llu bytes is larger than 1 GiB",
				  (unsigned long long)arena);
		return NULL;
	}
	arena = (arena + dmamap__host_page_size() - 1) & ~(u64)(dmamap__host_page_size() - 1);
	/* No bounce pool: the IOMMU reaches every page, nothing bounces. */
	p = dmamap__platform_host_sized(arena, 0, err);
	if (!p)
		return NULL;
	snprintf(p->name, sizeof(p->name), "vfio");
	ret = dmamap__port_vfio_open(p, bdf, opt && opt->unsafe_noiommu, err);
	if (!ret) {
		ret = dmamap__vfio_space_init(p);
		if (ret)
			dmamap__set_error(err, ret, ret == -ENOSPC ?
				  "vfio: the IOMMU translates no IOVA range of 16 MiB or more below 4 GiB" :
				  "vfio: out of memory");
	}
	if (!ret) {
		bank = dmamap__port_lowest_bank(p);
		ret = dmamap__vfio_register(p, (uintptr_t)bank->cpu, bank->size, true);
		if (ret)
			dmamap__set_error(err, ret,
					  "vfio: cannot %s the %llu-byte coherent arena: %s%s",
					  opt && opt->unsafe_noiommu ? "lock and locate" : "map in the IOMMU",
					  (unsigned long long)bank->size, strerror(-ret),
					  ret == -ENOMEM ? " (ulimit -l: docs/vfio.md)" :
					  ret == -EPERM ? " (physical addresses from /proc/self/pagemap need CAP_SYS_ADMIN)" : "");
	}
	if (ret) {
		dmamap_platform_destroy(p);
		return NULL;
	}
	desc.name = dmamap__port_vfio_bdf(p);
	desc.bus = "pci";
	desc.dma_master = "PCI function";
	dev = dmamap_device_create(p, &desc, err);
	if (!dev) {
		dmamap_platform_destroy(p);
		return NULL;
	}
	dmamap__vfio_attach(dev);
	dmamap__device_refresh(dev);
	/* Its MSI-X vectors, for request_irq(); a function without them is polled. */
	ret = dmamap__msi_start(dev, 32);
	if (ret) {
		dmamap__set_error(err, ret, "vfio: %s: cannot set up its MSI-X interrupts: %s",
				  desc.name, strerror(-ret));
		dmamap_platform_destroy(p);
		return NULL;
	}
	return p;
}

bool dmamap_platform_is_vfio(const struct dmamap_platform *p)
{
	return p && dmamap__port_real_iommu(p);
}

int dmamap_vfio_register(struct dmamap_platform *p, void *addr, size_t size)
{
	if (!dmamap_platform_is_vfio(p))
		return -EINVAL;
	return dmamap__vfio_register(p, (uintptr_t)addr, size, false);
}

int dmamap_vfio_unregister(struct dmamap_platform *p, void *addr)
{
	if (!dmamap_platform_is_vfio(p))
		return -EINVAL;
	return dmamap__vfio_unregister(p, (uintptr_t)addr);
}

static struct dmamap_platform *vfio_of(struct device *dev)
{
	return dev && dmamap_platform_is_vfio(dev->plat) ? dev->plat : NULL;
}

void __iomem *dmamap_vfio_bar(struct device *dev, unsigned int bar, size_t *size)
{
	struct dmamap_platform *p = vfio_of(dev);

	return p ? dmamap__port_bar(p, bar, size) : NULL;
}

int dmamap_vfio_config_read(struct device *dev, unsigned int offset, void *buf, size_t len)
{
	struct dmamap_platform *p = vfio_of(dev);

	return p && buf ? dmamap__port_config(p, offset, buf, len, false) : -EINVAL;
}

int dmamap_vfio_config_write(struct device *dev, unsigned int offset, const void *buf,
			     size_t len)
{
	struct dmamap_platform *p = vfio_of(dev);

	/* The port reads and writes through one buffer; a write only reads it. */
	return p && buf ? dmamap__port_config(p, offset, (void *)(uintptr_t)buf, len, true) :
			  -EINVAL;
}

int dmamap_vfio_reset(struct device *dev)
{
	struct dmamap_platform *p = vfio_of(dev);

	return p ? dmamap__port_reset(p) : -EINVAL;
}

int dmamap_vfio_stats(struct device *dev, struct dmamap_vfio_stats *st)
{
	struct dmamap_platform *p = vfio_of(dev);
	struct dmamap_msi_stats ms;

	if (!p || !st)
		return -EINVAL;
	dmamap__vfio_read_stats(dev, st);
	dmamap__msi_stats(dev, &ms);
	st->msix_vectors = dev->nr_msi;
	st->irqs_signalled = ms.signalled;
	st->irqs_delivered = ms.delivered;
	st->irqs_unhandled = ms.unhandled;
	return 0;
}

int dmamap_vfio_access(struct device *dev)
{
	struct dmamap_platform *p = vfio_of(dev);

	if (!p)
		return -EINVAL;
	return dmamap__port_vfio_sysfs(p) ? DMAMAP_VFIO_SYSFS :
	       dmamap__port_no_iommu(p) ? DMAMAP_VFIO_NOIOMMU :
	       dmamap__port_vfio_iommufd(p) ? DMAMAP_VFIO_IOMMUFD : DMAMAP_VFIO_IOMMU;
}
