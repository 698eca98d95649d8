/* SPDX-License-Identifier: MIT */
/*
 * Platform drivers, as <linux/platform_device.h>: a driver names the
 * device tree compatibles it handles, and its probe gets each matching
 * device with its register block (resource 0, the device model's
 * registers, read and written with <dmamap/io.h>) and its interrupt lines.
 * A driver written for the kernel compiles with the includes changed:
 *
 *	static const struct of_device_id acme_of_match[] = {
 *		{ .compatible = "acme,dma" },
 *		{ }
 *	};
 *	static struct platform_driver acme_driver = {
 *		.probe = acme_probe,
 *		.remove = acme_remove,
 *		.driver = { .name = "acme-dma", .of_match_table = acme_of_match },
 *	};
 *	module_platform_driver(acme_driver);
 *
 * docs/driver-model.md lists what there is next to the kernel's.
 */
#ifndef DMAMAP_PLATFORM_DEVICE_H
#define DMAMAP_PLATFORM_DEVICE_H

#include <stddef.h>
#include <dmamap/device.h>
#include <dmamap/interrupt.h>
#include <dmamap/io.h>
#include <dmamap/of.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IORESOURCE_IO 0x00000100UL
#define IORESOURCE_MEM 0x00000200UL
#define IORESOURCE_IRQ 0x00000400UL

struct resource {
	phys_addr_t start;
	phys_addr_t end; /* last byte */
	const char *name;
	unsigned long flags; /* IORESOURCE_MEM or IORESOURCE_IRQ */
};

static inline u64 resource_size(const struct resource *res)
{
	return res->end - res->start + 1;
}

struct dmamap_pdev_state;

/*
 * The bus's view of a device. The fields are filled in when a driver is
 * bound and stay until it is released; dev is the device itself.
 */
struct platform_device {
	const char *name; /* the device's name */
	int id;           /* PLATFORM_DEVID_NONE: one device of its name */
	u32 num_resources;
	struct resource *resource;
	void *dmamap_driver_data; /* dev_get_drvdata() */
	struct dmamap_pdev_state *dmamap_state; /* the driver model's */
	struct device dev;
};
#define PLATFORM_DEVID_NONE (-1)

#define to_platform_device(d) \
	((struct platform_device *)((char *)(d) - offsetof(struct platform_device, dev)))

struct device_driver {
	const char *name;
	const struct of_device_id *of_match_table;
};

struct platform_driver {
	/* Return 0, or a negative errno: the device stays unbound. */
	int (*probe)(struct platform_device *pdev);
	/* Undo probe (devres undoes the rest, after it). */
	void (*remove)(struct platform_device *pdev);
	struct device_driver driver;
};

/**
 * dmamap_platform_driver_register() - platform_driver_register(): make a driver bindable
 * @drv: the driver (must outlive its registration)
 *
 * Drivers are process-wide: dmamap_bus_probe() and device_attach() of
 * every board consider them, in the order they were registered. Devices
 * are not probed here: boards bind when asked to.
 *
 * Return: 0; -EINVAL for a NULL @drv, one without probe, or without a
 * name; -EEXIST if a driver of that name is registered; -ENOSPC when 64
 * drivers are.
 */
DMAMAP_API int dmamap_platform_driver_register(struct platform_driver *drv);
/**
 * dmamap_platform_driver_unregister() - platform_driver_unregister()
 * @drv: a registered driver (anything else is ignored)
 *
 * Every device still bound to @drv is released first
 * (device_release_driver()), on whatever board it is.
 */
DMAMAP_API void dmamap_platform_driver_unregister(struct platform_driver *drv);
#define platform_driver_register(drv) dmamap_platform_driver_register(drv)
#define platform_driver_unregister(drv) dmamap_platform_driver_unregister(drv)

/*
 * Registers the driver when the program or shared object is loaded, and
 * unregisters it when it is unloaded. A registration that fails says why
 * on stderr.
 */
#define module_platform_driver(drv)                                              \
	__attribute__((constructor)) static void dmamap_register_##drv(void)     \
	{                                                                        \
		dmamap_platform_driver_register(&(drv));                         \
	}                                                                        \
	__attribute__((destructor)) static void dmamap_unregister_##drv(void)    \
	{                                                                        \
		dmamap_platform_driver_unregister(&(drv));                       \
	}
#define builtin_platform_driver(drv) module_platform_driver(drv)
/* Kept for the kernel's source. */
#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_ALIAS(x)

/**
 * dmamap_platform_get_resource() - platform_get_resource()
 * @pdev: a bound device
 * @type: IORESOURCE_MEM or IORESOURCE_IRQ
 * @num: which one of that type, from 0
 *
 * Memory resources come from the node's reg, through its parent's
 * #address-cells and #size-cells; a device with a model whose node has
 * no reg gets one, the model's 4 KiB register block, at 0. Interrupt
 * resources are the model's lines (start = end = the number
 * platform_get_irq() returns).
 *
 * Return: the resource, valid while the driver is bound; NULL for a NULL
 * or unbound @pdev, or no such resource.
 */
DMAMAP_API struct resource *dmamap_platform_get_resource(struct platform_device *pdev,
							 unsigned long type, unsigned int num);
#define platform_get_resource(pdev, type, num) dmamap_platform_get_resource(pdev, type, num)

/**
 * dmamap_platform_get_irq() - platform_get_irq(): the interrupt number of a line
 * @pdev: a device
 * @num: the model's line, from 0
 *
 * Logs "IRQ index N not found" when there is none, as the kernel does.
 *
 * Return: a number above 0 for request_irq(); -EINVAL for a NULL @pdev;
 * -ENXIO for no such line.
 */
DMAMAP_API int dmamap_platform_get_irq(struct platform_device *pdev, unsigned int num);
/**
 * dmamap_platform_get_irq_optional() - platform_get_irq_optional(): the same, silently
 * @pdev: a device
 * @num: the model's line, from 0
 *
 * Return: as dmamap_platform_get_irq().
 */
DMAMAP_API int dmamap_platform_get_irq_optional(struct platform_device *pdev, unsigned int num);
#define platform_get_irq(pdev, num) dmamap_platform_get_irq(pdev, num)
#define platform_get_irq_optional(pdev, num) dmamap_platform_get_irq_optional(pdev, num)

/**
 * dmamap_devm_platform_ioremap_resource() - devm_platform_ioremap_resource()
 * @pdev: the device being probed
 * @index: memory resource number; only 0 has registers behind it
 *
 * The model's register block (dmamap_device_ioremap()), accessed with
 * readl()/writel() and friends; it stays mapped until the board is
 * destroyed, so the release has nothing to undo.
 *
 * Return: the block; an error pointer (IS_ERR()) on failure:
 * ERR_PTR(-EINVAL) for a NULL @pdev or no memory resource @index,
 * ERR_PTR(-ENODEV) for a device with no model (nothing answers there) or
 * an @index above 0, ERR_PTR(-ENOMEM) when no block can be mapped.
 */
DMAMAP_API void __iomem *dmamap_devm_platform_ioremap_resource(struct platform_device *pdev,
							      unsigned int index);
#define devm_platform_ioremap_resource(pdev, index) \
	dmamap_devm_platform_ioremap_resource(pdev, index)

/**
 * dmamap_devm_request_irq() - devm_request_irq(): a handler freed at release
 * @dev: the device being probed
 * @irq: from platform_get_irq()
 * @handler: the handler
 * @flags: 0 or IRQF_SHARED
 * @name: shown in reports (NULL: the device's name)
 * @dev_id: the handler's argument
 *
 * Return: 0; -EINVAL for a NULL @dev; -ENOMEM; the errors of request_irq().
 */
DMAMAP_API int dmamap_devm_request_irq(struct device *dev, unsigned int irq,
				       irq_handler_t handler, unsigned long flags,
				       const char *name, void *dev_id);
#define devm_request_irq(dev, irq, handler, flags, name, dev_id) \
	dmamap_devm_request_irq(dev, irq, handler, flags, name, dev_id)

static inline void *platform_get_drvdata(const struct platform_device *pdev)
{
	return dmamap_dev_get_drvdata(&pdev->dev);
}
static inline void platform_set_drvdata(struct platform_device *pdev, void *data)
{
	dmamap_dev_set_drvdata(&pdev->dev, data);
}

#ifdef __cplusplus
}
#endif
#endif
