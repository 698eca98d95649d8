/* SPDX-License-Identifier: MIT */
/* The device registry, what a device says about itself, and its counters. */
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <stdio.h>
#include "bus.h"
#include "report.h"
#include "unbind.h"
#include "../lib/mem.h"

__thread bool dmamap__in_model;

static void (*unbind_hook)(struct device *dev);

void dmamap__set_unbind_hook(void (*release)(struct device *dev))
{
	__atomic_store_n(&unbind_hook, release, __ATOMIC_RELEASE);
}

void dmamap__device_unbind(struct device *dev)
{
	void (*release)(struct device *) = __atomic_load_n(&unbind_hook, __ATOMIC_ACQUIRE);

	if (release)
		release(dev);
}

void dmamap__device_refresh(struct device *dev)
{
	dev->map_limit = dmamap__reach_limit(dev, *dev->dma_mask);
	if (dev->plat->refresh)
		dev->plat->refresh(dev);
}

int dmamap__device_register(struct dmamap_platform *p, struct device *dev)
{
	struct dmamap_devices *d = &p->devices;

	pthread_mutex_lock(&d->lock);
	if (d->n == d->cap) {
		unsigned int cap = d->cap ? d->cap * 2 : 8;
		struct device **n = dmamap__realloc(d->list, cap * sizeof(*n));

		if (!n) {
			pthread_mutex_unlock(&d->lock);
			return -ENOMEM;
		}
		d->list = n;
		d->cap = cap;
	}
	dev->id = d->next_id++;
	d->list[d->n++] = dev;
	pthread_mutex_unlock(&d->lock);
	return 0;
}

void dmamap__device_unregister(struct device *dev)
{
	struct dmamap_devices *d = &dev->plat->devices;

	pthread_mutex_lock(&d->lock);
	for (unsigned int i = 0; i < d->n; i++) {
		if (d->list[i] == dev) {
			memmove(&d->list[i], &d->list[i + 1], (d->n - i - 1) * sizeof(dev));
			d->n--;
			break;
		}
	}
	pthread_mutex_unlock(&d->lock);
}

void dmamap__device_name_of(struct dmamap_platform *p, uint16_t id, char *out)
{
	struct dmamap_devices *d = &p->devices;

	out[0] = 0;
	pthread_mutex_lock(&d->lock);
	for (unsigned int i = 0; i < d->n; i++) {
		if (d->list[i]->id == id) {
			memcpy(out, d->list[i]->name, DMAMAP_NAME_MAX);
			break;
		}
	}
	pthread_mutex_unlock(&d->lock);
}

void dmamap__device_for_each(struct dmamap_platform *p, void (*fn)(struct device *dev))
{
	pthread_mutex_lock(&p->devices.lock);
	for (unsigned int i = 0; i < p->devices.n; i++)
		fn(p->devices.list[i]);
	pthread_mutex_unlock(&p->devices.lock);
}

struct device *dmamap_device_lookup(struct dmamap_platform *p, const char *name)
{
	struct device *found = NULL;

	if (!p || !name)
		return NULL;
	pthread_mutex_lock(&p->devices.lock);
	for (unsigned int i = 0; i < p->devices.n; i++) {
		if (!strcmp(p->devices.list[i]->name, name)) {
			found = p->devices.list[i];
			break;
		}
	}
	pthread_mutex_unlock(&p->devices.lock);
	return found;
}

unsigned int dmamap_device_count(struct dmamap_platform *p)
{
	return p ? __atomic_load_n(&p->devices.n, __ATOMIC_RELAXED) : 0;
}

struct device *dmamap_device_at(struct dmamap_platform *p, unsigned int i)
{
	struct device *dev = NULL;

	if (!p)
		return NULL;
	pthread_mutex_lock(&p->devices.lock);
	if (i < p->devices.n)
		dev = p->devices.list[i];
	pthread_mutex_unlock(&p->devices.lock);
	return dev;
}

const char *dev_name(const struct device *dev)
{
	return dev ? dev->name : "(null)";
}

struct dmamap_platform *dmamap_device_platform(const struct device *dev)
{
	return dev ? dev->plat : NULL;
}

bool dev_is_dma_coherent(const struct device *dev)
{
	return dev && dev->coherent;
}

/* ---- counters ------------------------------------------------------------ */

int dmamap_device_stats(struct device *dev, struct dmamap_device_stats *s)
{
	uint64_t v[ST_COUNT] = { 0 };

	if (!dev || !s)
		return -EINVAL;
	for (unsigned int k = 0; k < ST_COUNT; k++)
		v[k] = dmamap__count_sum(dev->stats, sizeof(dev->stats[0]),
					 offsetof(struct dmamap_stat_shard, v) + k * sizeof(uint64_t));
	memset(s, 0, sizeof(*s));
	s->maps = v[ST_MAPS];
	s->unmaps = v[ST_UNMAPS];
	s->sg_maps = v[ST_SG_MAPS];
	s->bytes_mapped = v[ST_BYTES_MAPPED];
	s->bytes_bounced = v[ST_BYTES_BOUNCED];
	s->syncs_for_cpu = v[ST_SYNC_CPU];
	s->syncs_for_device = v[ST_SYNC_DEV];
	s->cache_bytes_cleaned = v[ST_CLEANED];
	s->cache_bytes_invalidated = v[ST_INVALIDATED];
	s->allocs = v[ST_ALLOCS];
	s->frees = v[ST_FREES];
	s->bytes_allocated = v[ST_BYTES_ALLOC];
	s->iommu_pages_mapped = v[ST_IOMMU_PAGES];
	s->dev_bytes_read = v[ST_DEV_READ];
	s->dev_bytes_written = v[ST_DEV_WRITTEN];
	s->faults = v[ST_FAULTS];
	for (unsigned int k = 0; k < DMAMAP_ERRK_COUNT; k++) {
		s->errors_by_kind[k] = v[ST_ERR0 + k];
		s->errors += v[ST_ERR0 + k];
	}
	return 0;
}

void dmamap_device_stats_reset(struct device *dev)
{
	if (!dev)
		return;
	for (unsigned int i = 0; i < DMAMAP_STAT_SHARDS; i++)
		for (unsigned int k = 0; k < ST_COUNT; k++)
			__atomic_store_n(&dev->stats[i].v[k], 0, __ATOMIC_RELAXED);
}

const char *dmamap_err_kind_name(enum dmamap_err_kind kind)
{
	static const char *const names[DMAMAP_ERRK_COUNT] = {
		"null-arg", "bad-direction", "zero-size", "bad-handle",
		"unreachable", "not-linear", "bad-mask", "no-memory", "bad-arg",
	};

	return (unsigned int)kind < DMAMAP_ERRK_COUNT ? names[kind] : "unknown";
}

/* ---- faults ---------------------------------------------------------------- */

int dmamap__device_fault(struct device *dev, dma_addr_t addr, size_t len,
			 bool write, const char *reason)
{
	struct dmamap_fault_record *f = &dev->fault;

	dmamap__stat_add(dev, ST_FAULTS, 1);
	pthread_mutex_lock(&f->lock);
	f->valid = true;
	snprintf(f->last.device, sizeof(f->last.device), "%s", dev->name);
	f->last.addr = addr;
	f->last.len = len;
	f->last.write = write;
	f->last.reason = reason;
	pthread_mutex_unlock(&f->lock);
	dmamap__report(dev->plat, dev, DMAMAP_DBG_DEVICE_FAULT,
		       "device %s fault at [device address=0x%llx] [size=%zu]: %s",
		       write ? "write" : "read", (unsigned long long)addr, len,
		       reason);
	return -EFAULT;
}

int dmamap_device_last_fault(struct device *dev, struct dmamap_fault *f)
{
	int ret = 0;

	if (!dev || !f)
		return -EINVAL;
	pthread_mutex_lock(&dev->fault.lock);
	if (dev->fault.valid)
		*f = dev->fault.last;
	else
		ret = -ENOENT;
	pthread_mutex_unlock(&dev->fault.lock);
	return ret;
}
