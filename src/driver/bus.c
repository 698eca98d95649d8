/* SPDX-License-Identifier: MIT */
/*
 * The platform bus: registered drivers, matching a device to one by its
 * node's compatibles (or by name), probe and release. As the kernel's
 * driver core: drivers are tried in registration order, the first that
 * matches is probed, and a probe that says -ENODEV or -ENXIO ("not my
 * device after all") lets the next one try.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <dmamap/debug.h>
#include <dmamap/dma-mapping.h>
#include "../lib/lib.h"
#include "../base/unbind.h"
#include "driver.h"

#define MAX_DRIVERS 64
#define EPROBE_DEFER 517

_Static_assert(offsetof(struct platform_device, dev) == DMAMAP_DEVICE_HEAD,
	       "the device must sit where the library allocates it");

static pthread_mutex_t bus_lock = PTHREAD_MUTEX_INITIALIZER;
static struct platform_driver *drivers[MAX_DRIVERS];
static unsigned int nr_drivers;
static struct dmamap_pdev_state *bound;
/*
 * Binding and releasing run one at a time, as the kernel holds the device
 * lock around probe and remove; recursive, for a probe that binds another
 * device or a remove that releases one.
 */
static pthread_mutex_t bind_lock;
static pthread_once_t bind_once = PTHREAD_ONCE_INIT;

static void bind_lock_init(void)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&bind_lock, &a);
	pthread_mutexattr_destroy(&a);
}

static void bind_begin(void)
{
	pthread_once(&bind_once, bind_lock_init);
	pthread_mutex_lock(&bind_lock);
}

static void bind_end(void)
{
	pthread_mutex_unlock(&bind_lock);
}

int dmamap_platform_driver_register(struct platform_driver *drv)
{
	int ret = 0;

	if (!drv || !drv->probe || !drv->driver.name)
		ret = -EINVAL;
	pthread_mutex_lock(&bus_lock);
	for (unsigned int i = 0; !ret && i < nr_drivers; i++)
		if (drivers[i] == drv || !strcmp(drivers[i]->driver.name, drv->driver.name))
			ret = -EEXIST;
	if (!ret && nr_drivers == MAX_DRIVERS)
		ret = -ENOSPC;
	if (!ret)
		drivers[nr_drivers++] = drv;
	pthread_mutex_unlock(&bus_lock);
	/* A device destroyed while bound is released first (the core calls this). */
	if (!ret)
		dmamap__set_unbind_hook(dmamap_device_release_driver);
	if (ret)
		fprintf(stderr, "dmamap: cannot register driver %s: error %d\n",
			drv && drv->driver.name ? drv->driver.name : "(unnamed)", ret);
	return ret;
}

void dmamap_platform_driver_unregister(struct platform_driver *drv)
{
	for (;;) {
		struct device *victim = NULL;

		pthread_mutex_lock(&bus_lock);
		for (struct dmamap_pdev_state *st = bound; st; st = st->next_bound)
			if (st->drv == drv) {
				victim = &st->pdev->dev;
				break;
			}
		pthread_mutex_unlock(&bus_lock);
		if (!victim)
			break;
		dmamap_device_release_driver(victim);
	}
	pthread_mutex_lock(&bus_lock);
	for (unsigned int i = 0; i < nr_drivers; i++) {
		if (drivers[i] != drv)
			continue;
		memmove(&drivers[i], &drivers[i + 1], (nr_drivers - i - 1) * sizeof(drivers[0]));
		nr_drivers--;
		break;
	}
	pthread_mutex_unlock(&bus_lock);
}

/*
 * The line of @table that matches @np best: the earlier a compatible
 * comes in the node's list, the better (the node lists its most specific
 * first). NULL for none.
 */
static const struct of_device_id *of_match(const struct of_device_id *table,
					   const struct device_node *np)
{
	const struct of_device_id *best = NULL;
	int best_at = INT32_MAX;

	/* The table ends with an empty line; a line may name no compatible. */
	for (const struct of_device_id *id = table;
	     id && (id->compatible[0] || id->name[0] || id->type[0]); id++) {
		int at = id->compatible[0] ?
			 dmamap_of_property_match_string(np, "compatible", id->compatible) : -1;

		if (at >= 0 && at < best_at) {
			best = id;
			best_at = at;
		}
	}
	return best;
}

static bool matches(struct platform_driver *drv, struct dmamap_pdev_state *st,
		    const struct of_device_id **match)
{
	*match = st->has_node ? of_match(drv->driver.of_match_table, &st->node) : NULL;
	if (*match)
		return true;
	/* A device from no tree: the kernel's last resort, the names. */
	return !st->has_node && !strcmp(drv->driver.name, dev_name(&st->pdev->dev));
}

static struct dmamap_pdev_state *state_new(struct platform_device *pdev)
{
	struct dmamap_platform *p = dmamap_device_platform(&pdev->dev);
	struct dmamap_pdev_state *st = dmamap_kmalloc(p, sizeof(*st), GFP_KERNEL | __GFP_ZERO);
	struct dmamap_device_info info;
	size_t fdt_size;
	const void *fdt = dmamap_platform_fdt(p, &fdt_size);

	if (!st)
		return NULL;
	st->pdev = pdev;
	pthread_mutex_init(&st->lock, NULL);
	if (fdt && !dmamap_device_info(&pdev->dev, &info))
		st->has_node = !dmamap__of_node_init(&st->node, fdt, info.path);
	return st;
}

static void state_free(struct dmamap_pdev_state *st)
{
	struct platform_device *pdev = st->pdev;

	pthread_mutex_destroy(&st->lock);
	pdev->dmamap_state = NULL;
	pdev->dmamap_driver_data = NULL;
	pdev->resource = NULL;
	pdev->num_resources = 0;
	pdev->name = NULL;
	dmamap_kfree(dmamap_device_platform(&pdev->dev), st);
}

/* Give back what a driver held: its devres, its data, and (checker on) report what is left. */
static void unwind(struct dmamap_pdev_state *st)
{
	struct device *dev = &st->pdev->dev;

	dmamap__devres_release_all(dev);
	dmamap_dev_set_drvdata(dev, NULL);
	dmamap_debug_driver_released(dev);
}

static int probe_with(struct dmamap_pdev_state *st, struct platform_driver *drv,
		      const struct of_device_id *match)
{
	struct platform_device *pdev = st->pdev;
	int ret;

	st->drv = drv;
	st->match = match;
	pdev->name = dev_name(&pdev->dev);
	pdev->id = PLATFORM_DEVID_NONE;
	ret = dmamap__pdev_fill(st);
	if (ret)
		return ret;
	pdev->dmamap_state = st;
	ret = drv->probe(pdev);
	if (!ret) {
		pthread_mutex_lock(&bus_lock);
		st->next_bound = bound;
		bound = st;
		pthread_mutex_unlock(&bus_lock);
		return 0;
	}
	unwind(st);
	if (ret == -EPROBE_DEFER)
		dmamap_dev_printk(DMAMAP_LOG_INFO, &pdev->dev,
				  "probe with driver %s deferred (no deferred probing here: it stays unbound)",
				  drv->driver.name);
	else
		dmamap_dev_printk(ret == -ENODEV || ret == -ENXIO ? DMAMAP_LOG_INFO : DMAMAP_LOG_WARN,
				  &pdev->dev, "probe with driver %s failed with error %d",
				  drv->driver.name, ret);
	st->drv = NULL;
	st->match = NULL;
	pdev->dmamap_state = NULL;
	return ret;
}

const struct platform_driver *dmamap__driver_match(struct device *dev)
{
	struct platform_device *pdev = to_platform_device(dev);
	const struct platform_driver *found = NULL;
	struct dmamap_pdev_state *st;

	if (pdev->dmamap_state)
		return pdev->dmamap_state->drv;
	st = state_new(pdev);
	if (!st)
		return NULL;
	pthread_mutex_lock(&bus_lock);
	for (unsigned int i = 0; i < nr_drivers && !found; i++) {
		const struct of_device_id *match;

		if (matches(drivers[i], st, &match))
			found = drivers[i];
	}
	pthread_mutex_unlock(&bus_lock);
	state_free(st);
	return found;
}

static int attach(struct device *dev)
{
	struct platform_driver *snapshot[MAX_DRIVERS];
	struct platform_device *pdev;
	struct dmamap_pdev_state *st;
	unsigned int n;
	int ret = 0;

	if (!dev)
		return -EINVAL;
	pdev = to_platform_device(dev);
	if (pdev->dmamap_state)
		return 1;
	st = state_new(pdev);
	if (!st)
		return -ENOMEM;
	pthread_mutex_lock(&bus_lock);
	n = nr_drivers;
	memcpy(snapshot, drivers, n * sizeof(drivers[0]));
	pthread_mutex_unlock(&bus_lock);
	for (unsigned int i = 0; i < n; i++) {
		const struct of_device_id *match;

		if (!matches(snapshot[i], st, &match))
			continue;
		ret = probe_with(st, snapshot[i], match);
		if (!ret)
			return 1;
		if (ret != -ENODEV && ret != -ENXIO)
			break;
		ret = 0;
	}
	state_free(st);
	return ret;
}

int dmamap_device_attach(struct device *dev)
{
	int ret;

	if (!dev)
		return -EINVAL;
	bind_begin();
	ret = attach(dev);
	bind_end();
	return ret;
}

static void release(struct device *dev)
{
	struct dmamap_pdev_state *st = dmamap__pdev_state(dev);

	if (!st)
		return;
	pthread_mutex_lock(&bus_lock);
	for (struct dmamap_pdev_state **pp = &bound; *pp; pp = &(*pp)->next_bound)
		if (*pp == st) {
			*pp = st->next_bound;
			break;
		}
	pthread_mutex_unlock(&bus_lock);
	if (st->drv->remove)
		st->drv->remove(st->pdev);
	unwind(st);
	state_free(st);
}

void dmamap_device_release_driver(struct device *dev)
{
	if (!dev)
		return;
	bind_begin();
	release(dev);
	bind_end();
}

int dmamap_bus_probe(struct dmamap_platform *p)
{
	int nbound = 0;

	if (!p)
		return -EINVAL;
	for (unsigned int i = 0; i < dmamap_device_count(p); i++)
		if (dmamap_device_attach(dmamap_device_at(p, i)) == 1)
			nbound++;
	return nbound;
}

void dmamap_bus_remove(struct dmamap_platform *p)
{
	if (!p)
		return;
	for (unsigned int i = dmamap_device_count(p); i-- > 0;)
		dmamap_device_release_driver(dmamap_device_at(p, i));
}

void *dmamap_dev_get_drvdata(const struct device *dev)
{
	return dev ? to_platform_device(dev)->dmamap_driver_data : NULL;
}

void dmamap_dev_set_drvdata(struct device *dev, void *data)
{
	if (dev)
		to_platform_device(dev)->dmamap_driver_data = data;
}

const char *dmamap_dev_driver_name(const struct device *dev)
{
	struct dmamap_pdev_state *st = dmamap__pdev_state(dev);

	return st && st->drv ? st->drv->driver.name : "";
}

const void *dmamap_device_get_match_data(const struct device *dev)
{
	struct dmamap_pdev_state *st = dmamap__pdev_state(dev);

	return st && st->match ? st->match->data : NULL;
}

struct device_node *dmamap_dev_of_node(struct device *dev)
{
	struct dmamap_pdev_state *st = dmamap__pdev_state(dev);

	return st && st->has_node ? &st->node : NULL;
}
