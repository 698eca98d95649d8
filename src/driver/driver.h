/* SPDX-License-Identifier: MIT */
/*
 * The driver model's private header: what a bound device carries (its
 * driver, match, node, resources and devres list) and the devres entries.
 * The layer is a client of the public API, as a driver is, plus the
 * device tree helpers of src/of/.
 */
#ifndef DMAMAP_DRIVER_DRIVER_H
#define DMAMAP_DRIVER_DRIVER_H

#include <pthread.h>
#include <dmamap/platform_device.h>
#include "../of/of.h"

#define DRIVER_MAX_RESOURCES 8

struct devres;

struct dmamap_pdev_state {
	struct platform_device *pdev;
	struct platform_driver *drv;
	const struct of_device_id *match; /* NULL: bound by name */
	bool has_node;
	struct device_node node;
	struct resource res[DRIVER_MAX_RESOURCES];
	char res_names[DRIVER_MAX_RESOURCES][16];
	/* Devres, newest first: released from the head. */
	pthread_mutex_t lock;
	struct devres *devres;
	unsigned int nr_devres;
	/* Every bound device, for unregistering a driver (under the bus lock). */
	struct dmamap_pdev_state *next_bound;
};

/* One thing a driver acquired through a devm_ or dmam_ call. */
struct devres {
	struct devres *next;
	void (*release)(struct device *dev, void *data);
	/* What a devm_*_free() call must name to take it back early. */
	const void *key;
	u64 key2, key3;
	/* The resource's own record (or, for devm_kmalloc, the memory), in the same allocation. */
	void *data;
};

static inline struct dmamap_pdev_state *dmamap__pdev_state(const struct device *dev)
{
	return dev ? to_platform_device(dev)->dmamap_state : NULL;
}

/*
 * A devres entry with @size bytes of record, from the board's kmalloc
 * (the fault injector's allocation point); @align its data's alignment.
 * NULL for no memory. Added with dmamap__devres_add().
 */
struct devres *dmamap__devres_alloc(struct device *dev, void (*release)(struct device *, void *),
				    size_t size, size_t align);
void dmamap__devres_free(struct device *dev, struct devres *dr);
void dmamap__devres_add(struct device *dev, struct devres *dr);
/* Unlink the entry released by @release with @key (and @key2, @key3 unless ~0): it, or NULL. */
struct devres *dmamap__devres_take(struct device *dev, void (*release)(struct device *, void *),
				   const void *key, u64 key2, u64 key3);
/* Release every entry, newest first. */
void dmamap__devres_release_all(struct device *dev);

/* The driver dmamap_device_attach() would try first for @dev, or NULL; nothing is probed. */
const struct platform_driver *dmamap__driver_match(struct device *dev);

/* Bind a device's state for @drv: resources and node (bus.c). */
int dmamap__pdev_fill(struct dmamap_pdev_state *st);

#endif
