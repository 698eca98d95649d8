/* SPDX-License-Identifier: MIT */
/*
 * Device-managed resources: a list per bound device, newest first, each
 * entry one allocation from the board's kmalloc holding its record (so
 * the fault injector reaches every devm_ and dmam_ call), released
 * newest first when the driver goes.
 */
#include <errno.h>
#include <string.h>
#include <dmamap/dma-mapping.h>
#include "../lib/lib.h"
#include "driver.h"

struct devres *dmamap__devres_alloc(struct device *dev, void (*release)(struct device *, void *),
				    size_t size, size_t align)
{
	size_t head = (sizeof(struct devres) + align - 1) & ~(align - 1);
	struct devres *dr;

	if (size > SIZE_MAX - head)
		return NULL;
	dr = dmamap_kmalloc(dmamap_device_platform(dev), head + size,
			    (align > 16 ? DMAMAP_GFP_DMA_ALIGN : 0) | GFP_KERNEL);
	if (!dr)
		return NULL;
	memset(dr, 0, sizeof(*dr));
	dr->release = release;
	dr->data = (char *)dr + head;
	return dr;
}

void dmamap__devres_free(struct device *dev, struct devres *dr)
{
	dmamap_kfree(dmamap_device_platform(dev), dr);
}

void dmamap__devres_add(struct device *dev, struct devres *dr)
{
	struct dmamap_pdev_state *st = dmamap__pdev_state(dev);

	pthread_mutex_lock(&st->lock);
	dr->next = st->devres;
	st->devres = dr;
	st->nr_devres++;
	pthread_mutex_unlock(&st->lock);
}

struct devres *dmamap__devres_take(struct device *dev, void (*release)(struct device *, void *),
				   const void *key, u64 key2, u64 key3)
{
	struct dmamap_pdev_state *st = dmamap__pdev_state(dev);
	struct devres *found = NULL;

	if (!st)
		return NULL;
	pthread_mutex_lock(&st->lock);
	for (struct devres **pp = &st->devres; *pp; pp = &(*pp)->next) {
		struct devres *dr = *pp;

		if (dr->release == release && dr->key == key && (key2 == ~0ULL || dr->key2 == key2) &&
		    (key3 == ~0ULL || dr->key3 == key3)) {
			*pp = dr->next;
			st->nr_devres--;
			found = dr;
			break;
		}
	}
	pthread_mutex_unlock(&st->lock);
	return found;
}

void dmamap__devres_release_all(struct device *dev)
{
	struct dmamap_pdev_state *st = dmamap__pdev_state(dev);

	for (;;) {
		struct devres *dr;

		pthread_mutex_lock(&st->lock);
		dr = st->devres;
		if (dr) {
			st->devres = dr->next;
			st->nr_devres--;
		}
		pthread_mutex_unlock(&st->lock);
		if (!dr)
			break;
		/* Unlocked: a release may itself use devres (a pool's blocks, say). */
		if (dr->release)
			dr->release(dev, dr->data);
		dmamap__devres_free(dev, dr);
	}
}

unsigned int dmamap_devres_count(const struct device *dev)
{
	struct dmamap_pdev_state *st = dmamap__pdev_state(dev);
	unsigned int n;

	if (!st)
		return 0;
	pthread_mutex_lock(&st->lock);
	n = st->nr_devres;
	pthread_mutex_unlock(&st->lock);
	return n;
}

/* ---- devm_kmalloc ------------------------------------------------------------ */

/* The memory goes with the entry: nothing to undo but the allocation. */
static void kmalloc_release(struct device *dev, void *data)
{
	(void)dev;
	(void)data;
}

void *dmamap_devm_kmalloc(struct device *dev, size_t size, gfp_t gfp)
{
	struct devres *dr;

	if (!dmamap__pdev_state(dev) || !size)
		return NULL;
	/* Aligned for DMA as the kernel's devres data: a whole cache line of its own. */
	dr = dmamap__devres_alloc(dev, kmalloc_release, size,
				  dmamap_cache_line_size(dmamap_device_platform(dev)));
	if (!dr)
		return NULL;
	if (gfp & __GFP_ZERO)
		memset(dr->data, 0, size);
	dr->key = dr->data;
	dmamap__devres_add(dev, dr);
	return dr->data;
}

void dmamap_devm_kfree(struct device *dev, const void *p)
{
	struct devres *dr;

	if (!p)
		return;
	dr = dmamap__devres_take(dev, kmalloc_release, p, ~0ULL, ~0ULL);
	if (!dr) {
		dev_warn(dev, "devm_kfree() of %p, which devm_kmalloc() did not give it", p);
		return;
	}
	dmamap__devres_free(dev, dr);
}

/* ---- actions ---------------------------------------------------------------- */

struct action {
	void (*fn)(void *);
	void *data;
};

static void action_release(struct device *dev, void *data)
{
	struct action *a = data;

	(void)dev;
	a->fn(a->data);
}

int dmamap_devm_add_action(struct device *dev, void (*action_fn)(void *), void *data)
{
	struct devres *dr;
	struct action *a;

	if (!dmamap__pdev_state(dev) || !action_fn)
		return -EINVAL;
	dr = dmamap__devres_alloc(dev, action_release, sizeof(*a), 16);
	if (!dr)
		return -ENOMEM;
	a = dr->data;
	a->fn = action_fn;
	a->data = data;
	dmamap__devres_add(dev, dr);
	return 0;
}

int dmamap_devm_add_action_or_reset(struct device *dev, void (*action_fn)(void *), void *data)
{
	int ret = dmamap_devm_add_action(dev, action_fn, data);

	if (ret && action_fn)
		action_fn(data);
	return ret;
}
