/* SPDX-License-Identifier: MIT */
/*
 * The observer list. Registration takes the list's lock; notifying reads
 * the slots without it (a watcher goes away only with its platform, or
 * after it stopped acting on what it is told), so a notification costs
 * no lock.
 */
#include <errno.h>
#include "observer.h"

int dmamap__observer_add(struct dmamap_platform *p, const struct dmamap_observer *o)
{
	struct dmamap_observers *l = &p->observers;
	int ret = -ENOSPC;

	pthread_mutex_lock(&l->lock);
	for (unsigned int i = 0; i < DMAMAP_MAX_OBSERVERS; i++) {
		if (!__atomic_load_n(&l->list[i], __ATOMIC_RELAXED)) {
			__atomic_store_n(&l->list[i], o, __ATOMIC_RELEASE);
			__atomic_add_fetch(&l->n, 1, __ATOMIC_RELEASE);
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&l->lock);
	return ret;
}

int dmamap__observer_remove(struct dmamap_platform *p, const struct dmamap_observer *o)
{
	struct dmamap_observers *l = &p->observers;
	int ret = -ENOENT;

	pthread_mutex_lock(&l->lock);
	for (unsigned int i = 0; i < DMAMAP_MAX_OBSERVERS; i++) {
		if (__atomic_load_n(&l->list[i], __ATOMIC_RELAXED) == o) {
			__atomic_store_n(&l->list[i], NULL, __ATOMIC_RELEASE);
			__atomic_sub_fetch(&l->n, 1, __ATOMIC_RELEASE);
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&l->lock);
	return ret;
}

/* Each observer in turn; the macro keeps the three notifiers one loop each. */
#define FOR_EACH_OBSERVER(p, o)                                                  \
	for (unsigned int i_ = 0; i_ < DMAMAP_MAX_OBSERVERS; i_++)               \
		if (((o) = __atomic_load_n(&(p)->observers.list[i_], __ATOMIC_ACQUIRE)))

void dmamap__notify_device_access_slow(struct device *dev, dma_addr_t addr, u64 len,
				       bool write)
{
	const struct dmamap_observer *o;

	FOR_EACH_OBSERVER(dev->plat, o)
		if (o->device_access)
			o->device_access(o->ctx, dev, addr, len, write);
}

void dmamap__notify_cpu_write_slow(struct dmamap_platform *p, phys_addr_t phys, size_t len)
{
	const struct dmamap_observer *o;

	FOR_EACH_OBSERVER(p, o)
		if (o->cpu_write)
			o->cpu_write(o->ctx, p, phys, len);
}

void dmamap__notify_line_lost_slow(struct dmamap_platform *p, struct device *dev,
				   enum dmamap_line_loss why, phys_addr_t phys,
				   unsigned int nbytes)
{
	const struct dmamap_observer *o;

	FOR_EACH_OBSERVER(p, o)
		if (o->line_lost)
			o->line_lost(o->ctx, p, dev, why, phys, nbytes);
}
