/* SPDX-License-Identifier: MIT */
/*
 * Reservation objects. Two locks: the caller's (dma_resv_lock(), held
 * across its own calls, as Linux's ww_mutex is) and an inner spinlock
 * that guards the fence array for a few instructions and is never held
 * across a call out, so that the checker can read the fences from a
 * device's step while a driver holds the object's lock.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dma-resv.h>
#include "../lib/lib.h"
#include "../lib/mem.h"
#include "../lib/spinlock.h"
#include "../base/report.h"
#include "dma_buf.h"

int dmamap__resv_init(struct dma_resv *obj)
{
	memset(obj, 0, sizeof(*obj));
	return pthread_mutex_init(&obj->lock, NULL) ? -ENOMEM : 0;
}

void dmamap__resv_fini(struct dma_resv *obj)
{
	for (unsigned int i = 0; i < obj->n; i++)
		dma_fence_put(obj->v[i].fence);
	free(obj->v);
	pthread_mutex_destroy(&obj->lock);
	memset(obj, 0, sizeof(*obj));
}

int dma_resv_lock(struct dma_resv *obj, void *ctx)
{
	if (!obj || ctx)
		return -EINVAL;
	pthread_mutex_lock(&obj->lock);
	return 0;
}

void dma_resv_unlock(struct dma_resv *obj)
{
	if (obj)
		pthread_mutex_unlock(&obj->lock);
}

/* Drop what has signalled; with the inner lock. The puts wait for the caller, outside it. */
static unsigned int prune(struct dma_resv *obj, struct dma_fence **gone, unsigned int max)
{
	unsigned int kept = 0, ngone = 0;

	for (unsigned int i = 0; i < obj->n; i++) {
		if (dmamap__fence_signalled(obj->v[i].fence) && ngone < max)
			gone[ngone++] = obj->v[i].fence;
		else
			obj->v[kept++] = obj->v[i];
	}
	obj->n = kept;
	return ngone;
}

int dma_resv_reserve_fences(struct dma_resv *obj, unsigned int num)
{
	struct dmamap__resv_entry *v;
	unsigned int want;

	if (!obj)
		return -EINVAL;
	dmamap__spin_lock(&obj->inner);
	want = obj->n + obj->reserved + num;
	dmamap__spin_unlock(&obj->inner);
	if (want < num || want > (1u << 20))
		return -ENOMEM; /* no buffer carries a million fences: a count that wrapped */
	if (want > obj->cap) {
		/* Only the lock holder grows the array: the inner lock covers the swap. */
		v = dmamap__calloc(want, sizeof(*v));
		if (!v)
			return -ENOMEM;
		dmamap__spin_lock(&obj->inner);
		if (obj->n)
			memcpy(v, obj->v, obj->n * sizeof(*v));
		free(obj->v);
		obj->v = v;
		obj->cap = want;
		dmamap__spin_unlock(&obj->inner);
	}
	dmamap__spin_lock(&obj->inner);
	obj->reserved += num;
	dmamap__spin_unlock(&obj->inner);
	return 0;
}

void dma_resv_add_fence(struct dma_resv *obj, struct dma_fence *fence, enum dma_resv_usage usage)
{
	struct dma_fence *old = NULL, *gone[8];
	unsigned int ngone, i;

	if (!obj || !fence || !fence->ops || (unsigned int)usage > DMA_RESV_USAGE_BOOKKEEP) {
		dmamap__report(NULL, NULL, DMAMAP_DBG_INVALID_ARGUMENT,
			       "dma_resv_add_fence: a NULL object or fence, or a usage out of range");
		return;
	}
	dma_fence_get(fence);
	dmamap__spin_lock(&obj->inner);
	/* Later work on a timeline ends after earlier work: only a later fence stands in for an earlier one. */
	for (i = 0; i < obj->n; i++)
		if (obj->v[i].fence->context == fence->context && obj->v[i].usage == usage &&
		    fence->seqno >= obj->v[i].fence->seqno)
			break;
	if (i < obj->n) {
		old = obj->v[i].fence;
		obj->v[i].fence = fence;
	} else if (obj->reserved && obj->n < obj->cap) {
		obj->v[obj->n].fence = fence;
		obj->v[obj->n].usage = usage;
		obj->n++;
		obj->reserved--;
	} else {
		dmamap__spin_unlock(&obj->inner);
		dma_fence_put(fence);
		dmamap__report(NULL, fence->dev, DMAMAP_DBG_INVALID_ARGUMENT,
			       "dma_resv_add_fence: no room reserved (dma_resv_reserve_fences() first)");
		return;
	}
	ngone = prune(obj, gone, ARRAY_SIZE(gone));
	dmamap__spin_unlock(&obj->inner);
	dma_fence_put(old);
	for (i = 0; i < ngone; i++)
		dma_fence_put(gone[i]);
}

/* A reference to the first unsignalled fence up to @usage, or NULL. */
static struct dma_fence *first_busy(struct dma_resv *obj, enum dma_resv_usage usage)
{
	struct dma_fence *f = NULL;

	dmamap__spin_lock(&obj->inner);
	for (unsigned int i = 0; i < obj->n && !f; i++)
		if (obj->v[i].usage <= usage && !dmamap__fence_signalled(obj->v[i].fence))
			f = dma_fence_get(obj->v[i].fence);
	dmamap__spin_unlock(&obj->inner);
	return f;
}

bool dma_resv_test_signaled(struct dma_resv *obj, enum dma_resv_usage usage)
{
	struct dma_fence *f;
	bool done = true;

	if (!obj)
		return true;
	/* Ask each fence properly (ops->signaled), outside the inner lock. */
	while (done && (f = first_busy(obj, usage))) {
		done = dma_fence_is_signaled(f);
		dma_fence_put(f);
	}
	return done;
}

long dma_resv_wait_timeout(struct dma_resv *obj, enum dma_resv_usage usage, bool intr,
			   unsigned long timeout)
{
	long left = timeout > (unsigned long)MAX_SCHEDULE_TIMEOUT ? MAX_SCHEDULE_TIMEOUT
								  : (long)timeout;
	struct dma_fence *f;

	if (!obj)
		return -EINVAL;
	while ((f = first_busy(obj, usage))) {
		long ret = dma_fence_wait_timeout(f, intr, left);

		dma_fence_put(f);
		if (ret <= 0)
			return ret;
		if (left != MAX_SCHEDULE_TIMEOUT)
			left = ret;
	}
	return left > 0 ? left : 1;
}

bool dmamap__resv_conflict(struct dma_resv *obj, const struct device *dev, bool write,
			   struct dmamap__fence_seen *seen)
{
	enum dma_resv_usage upto = dma_resv_usage_rw(write);
	bool found = false;

	/* Copied under the inner lock: a prune may put the fence's last reference once it is dropped. */
	dmamap__spin_lock(&obj->inner);
	for (unsigned int i = 0; i < obj->n && !found; i++) {
		struct dma_fence *c = obj->v[i].fence;

		if (obj->v[i].usage <= upto && !dmamap__fence_signalled(c) &&
		    __atomic_load_n(&c->dev, __ATOMIC_ACQUIRE) != dev) {
			seen->context = c->context;
			seen->seqno = c->seqno;
			seen->dev = __atomic_load_n(&c->dev, __ATOMIC_ACQUIRE);
			seen->usage = obj->v[i].usage;
			found = true;
		}
	}
	dmamap__spin_unlock(&obj->inner);
	return found;
}
