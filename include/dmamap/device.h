/* SPDX-License-Identifier: MIT */
/*
 * The driver model's device side, as <linux/device.h>: a device's driver
 * data, its log lines (dev_err() and friends), device-managed resources
 * (devres) and binding a device to its driver. docs/driver-model.md walks
 * through a platform driver; <dmamap/platform_device.h> is the bus side.
 *
 * Every device of a board is born inside a struct platform_device, as the
 * kernel makes one for each device tree node, so &pdev->dev is the device
 * the DMA API takes and to_platform_device() finds the way back. Its
 * contents stay private: the header gives struct device only its size, so
 * that a platform_device can hold one.
 *
 * Binding: dmamap_bus_probe() (or device_attach() for one device) calls
 * the probe of the registered driver whose of_match_table names a
 * compatible of the device's node (or whose name is the device's).
 * device_release_driver() calls its remove, then releases what the driver
 * acquired with devm_ and dmam_ calls, last acquired first; the same
 * happens after a failed probe. With the checker on, DMA mappings and
 * allocations still live after that are reported as leaks.
 */
#ifndef DMAMAP_DEVICE_H
#define DMAMAP_DEVICE_H

#include <stdint.h>
#include <dmamap/platform.h>
#include <dmamap/err.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef DMAMAP_DEVICE_DEFINED
#define DMAMAP_DEVICE_DEFINED
/* Room for the library's device; nothing in it is for drivers to read. */
struct device {
	unsigned char dmamap_private[DMAMAP_DEVICE_BYTES];
} __attribute__((aligned(64)));
#endif

/* ---- driver data ------------------------------------------------------ */

/**
 * dmamap_dev_get_drvdata() - dev_get_drvdata(): what the bound driver stored
 * @dev: a device
 *
 * Return: the pointer given to dev_set_drvdata(); NULL for a NULL @dev or
 * one never given any (it is cleared when the driver is released).
 */
DMAMAP_API void *dmamap_dev_get_drvdata(const struct device *dev);
/**
 * dmamap_dev_set_drvdata() - dev_set_drvdata(): keep a pointer for the driver
 * @dev: a device (NULL is ignored)
 * @data: usually the driver's private structure
 */
DMAMAP_API void dmamap_dev_set_drvdata(struct device *dev, void *data);
#define dev_get_drvdata(dev) dmamap_dev_get_drvdata(dev)
#define dev_set_drvdata(dev, data) dmamap_dev_set_drvdata(dev, data)

/**
 * dmamap_dev_driver_name() - dev_driver_string(): the bound driver's name
 * @dev: a device
 *
 * Return: the driver's .driver.name; "" when none is bound or @dev is NULL.
 */
DMAMAP_API const char *dmamap_dev_driver_name(const struct device *dev);
#define dev_driver_string(dev) dmamap_dev_driver_name(dev)

/* ---- log lines ---------------------------------------------------------- */

/**
 * dmamap_dev_printk() - a log line about a device, as dev_printk()
 * @level: DMAMAP_LOG_ERR, _WARN, _NOTICE or _INFO
 * @dev: the device (NULL: the line says "(NULL device *)", as the kernel's)
 * @fmt: printf format
 *
 * The line, "DRIVER DEVICE: message" ("DEVICE: message" with no driver
 * bound), goes to the board's log hook (dmamap_set_log_hook()), or to
 * stderr. A trailing newline in @fmt is dropped, as the kernel's.
 */
DMAMAP_API void dmamap_dev_printk(int level, const struct device *dev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/**
 * dmamap_dev_err_probe() - dev_err_probe(): log why a probe fails, return the error
 * @dev: the device being probed
 * @err: the negative errno the probe returns
 * @fmt: printf format of what failed
 *
 * Logs "error ERR: message" at DMAMAP_LOG_ERR, except for -EPROBE_DEFER
 * (517), which is not an error yet and is not logged.
 *
 * Return: @err, so that a probe can "return dev_err_probe(...)".
 */
DMAMAP_API int dmamap_dev_err_probe(const struct device *dev, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define dev_err(dev, fmt, ...) dmamap_dev_printk(DMAMAP_LOG_ERR, dev, fmt, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...) dmamap_dev_printk(DMAMAP_LOG_WARN, dev, fmt, ##__VA_ARGS__)
#define dev_notice(dev, fmt, ...) dmamap_dev_printk(DMAMAP_LOG_NOTICE, dev, fmt, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...) dmamap_dev_printk(DMAMAP_LOG_INFO, dev, fmt, ##__VA_ARGS__)
#define dev_err_probe(dev, err, fmt, ...) dmamap_dev_err_probe(dev, err, fmt, ##__VA_ARGS__)
/* As the kernel without dynamic debug: printed only where DEBUG is defined. */
#ifdef DEBUG
#define dev_dbg(dev, fmt, ...) dmamap_dev_printk(DMAMAP_LOG_DEBUG, dev, fmt, ##__VA_ARGS__)
#else
#define dev_dbg(dev, fmt, ...)                                                  \
	do {                                                                    \
		if (0)                                                          \
			dmamap_dev_printk(DMAMAP_LOG_DEBUG, dev, fmt, ##__VA_ARGS__); \
	} while (0)
#endif

/* ---- device-managed resources -------------------------------------------- */

/**
 * dmamap_devm_kmalloc() - devm_kmalloc(): memory released with the driver
 * @dev: the device being probed (or bound)
 * @size: bytes (0 returns NULL)
 * @gfp: GFP_KERNEL and friends; __GFP_ZERO zeroes it (devm_kzalloc())
 *
 * kmalloc memory of the device's board (dmamap_kmalloc()), aligned for
 * DMA as the kernel's devres data is (ARCH_DMA_MINALIGN, the board's
 * cache line), so a driver may map it with dma_map_single().
 *
 * Return: the memory; NULL for a NULL @dev, a 0 @size, or no memory.
 */
DMAMAP_API void *dmamap_devm_kmalloc(struct device *dev, size_t size, gfp_t gfp);
/**
 * dmamap_devm_kfree() - devm_kfree(): release devm_kmalloc() memory early
 * @dev: the device it was allocated for
 * @p: the memory (NULL is ignored)
 *
 * Memory not allocated with devm_kmalloc() for @dev is left alone and
 * logged as an error, as the kernel WARNs.
 */
DMAMAP_API void dmamap_devm_kfree(struct device *dev, const void *p);
#define devm_kmalloc(dev, size, gfp) dmamap_devm_kmalloc(dev, size, gfp)
#define devm_kzalloc(dev, size, gfp) dmamap_devm_kmalloc(dev, size, (gfp) | __GFP_ZERO)
#define devm_kfree(dev, p) dmamap_devm_kfree(dev, p)
static inline void *devm_kmalloc_array(struct device *dev, size_t n, size_t size, gfp_t gfp)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return dmamap_devm_kmalloc(dev, n * size, gfp);
}
static inline void *devm_kcalloc(struct device *dev, size_t n, size_t size, gfp_t gfp)
{
	return devm_kmalloc_array(dev, n, size, gfp | __GFP_ZERO);
}

/**
 * dmamap_devm_add_action() - devm_add_action(): call @action(@data) at release
 * @dev: the device being probed (or bound)
 * @action: what undoes something the driver did
 * @data: its argument
 *
 * Return: 0; -EINVAL for a NULL @dev or @action; -ENOMEM.
 */
DMAMAP_API int dmamap_devm_add_action(struct device *dev, void (*action)(void *), void *data);
/**
 * dmamap_devm_add_action_or_reset() - devm_add_action_or_reset()
 * @dev: the device being probed (or bound)
 * @action: what undoes something the driver did
 * @data: its argument
 *
 * As dmamap_devm_add_action(), but when it fails @action(@data) is called
 * at once, so the caller can simply return the error.
 *
 * Return: as dmamap_devm_add_action().
 */
DMAMAP_API int dmamap_devm_add_action_or_reset(struct device *dev, void (*action)(void *),
					       void *data);
#define devm_add_action(dev, action, data) dmamap_devm_add_action(dev, action, data)
#define devm_add_action_or_reset(dev, action, data) \
	dmamap_devm_add_action_or_reset(dev, action, data)

/**
 * dmamap_devres_count() - how many resources a device's driver holds through devres
 * @dev: a device
 *
 * Return: the count; 0 for a NULL @dev or an unbound one.
 */
DMAMAP_API unsigned int dmamap_devres_count(const struct device *dev);

/* ---- binding --------------------------------------------------------------- */

/**
 * dmamap_device_attach() - device_attach(): bind a device to its driver
 * @dev: a device
 *
 * Finds the first registered platform driver that matches @dev (a
 * compatible of its device tree node in the driver's of_match_table, in
 * the order the node lists them; or, for a device not from a tree, the
 * driver's name equal to the device's) and calls its probe. A probe that
 * fails has everything it acquired through devres released, and is
 * logged ("probe with driver NAME failed with error -N"); there is no
 * deferred probing: -EPROBE_DEFER (517) leaves the device unbound too.
 * Binding and releasing run one at a time in the process, as the kernel
 * holds the device lock around probe and remove.
 *
 * Return: 1 if @dev is bound (now or already); 0 if no driver matches;
 * the probe's negative errno if it failed; -EINVAL for a NULL @dev;
 * -ENOMEM.
 */
DMAMAP_API int dmamap_device_attach(struct device *dev);
/**
 * dmamap_device_release_driver() - device_release_driver(): unbind
 * @dev: a device (NULL or unbound: nothing happens)
 *
 * Calls the driver's remove, releases its device-managed resources in
 * the reverse order of their acquisition, clears the driver data and,
 * with the checker on, reports a mapping or allocation of @dev still live
 * ("device driver has pending DMA allocations while released from
 * device", kind leak) and forgets it, as dma-debug does when a driver
 * unbinds.
 */
DMAMAP_API void dmamap_device_release_driver(struct device *dev);
#define device_attach(dev) dmamap_device_attach(dev)
#define device_release_driver(dev) dmamap_device_release_driver(dev)

/**
 * dmamap_bus_probe() - bind every device of a board to its driver
 * @p: the board
 *
 * dmamap_device_attach() on each device, in board order; a failed probe
 * does not stop the others.
 *
 * Return: how many devices are bound; -EINVAL for a NULL @p.
 */
DMAMAP_API int dmamap_bus_probe(struct dmamap_platform *p);
/**
 * dmamap_bus_remove() - release every bound device of a board
 * @p: the board (NULL is ignored)
 *
 * dmamap_device_release_driver() on each device, last first.
 * dmamap_device_destroy() and dmamap_platform_destroy() release a bound
 * device themselves before it goes.
 */
DMAMAP_API void dmamap_bus_remove(struct dmamap_platform *p);

#ifdef __cplusplus
}
#endif
#endif
