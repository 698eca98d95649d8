/* SPDX-License-Identifier: MIT */
/*
 * Fences: a flag, a reference count and a list of callbacks. The flag is
 * read without the owner's lock (the checker reads it from a device's
 * step), so it is set with release and read with acquire; the callbacks
 * run under the owner's lock, as Linux runs them.
 */
#include <string.h>
#include <dmamap/dma-fence.h>
#include <dmamap/io.h>
#include "../lib/lib.h"
#include "../base/report.h"
#include "core.h"

static u64 next_context = 1;

static bool usable(const struct dma_fence *f)
{
	return f && f->ops && f->lock;
}

static void refuse(const char *func, const char *why)
{
	dmamap__report(NULL, NULL, DMAMAP_DBG_INVALID_ARGUMENT, "%s: %s", func, why);
}

void dma_fence_init(struct dma_fence *fence, const struct dma_fence_ops *ops, spinlock_t *lock,
		    u64 context, u64 seqno)
{
	if (!fence || !ops || !lock) {
		refuse(__func__, "a fence needs its memory, its ops and a lock");
		return;
	}
	memset(fence, 0, sizeof(*fence));
	fence->ops = ops;
	fence->lock = lock;
	fence->context = context;
	fence->seqno = seqno;
	fence->refcount = 1;
}

u64 dma_fence_context_alloc(unsigned int num)
{
	return __atomic_fetch_add(&next_context, num, __ATOMIC_RELAXED);
}

void dmamap_fence_set_device(struct dma_fence *fence, struct device *dev)
{
	if (fence)
		__atomic_store_n(&fence->dev, dev, __ATOMIC_RELEASE);
}

struct dma_fence *dma_fence_get(struct dma_fence *fence)
{
	if (usable(fence))
		__atomic_fetch_add(&fence->refcount, 1, __ATOMIC_RELAXED);
	return fence;
}

void dma_fence_put(struct dma_fence *fence)
{
	int left;

	if (!usable(fence))
		return;
	left = __atomic_sub_fetch(&fence->refcount, 1, __ATOMIC_ACQ_REL);
	if (left < 0) {
		__atomic_fetch_add(&fence->refcount, 1, __ATOMIC_RELAXED);
		refuse(__func__, "one put more than the fence has references");
		return;
	}
	if (!left && fence->ops->release)
		fence->ops->release(fence);
}

bool dmamap__fence_signalled(const struct dma_fence *fence)
{
	return !fence ||
	       (__atomic_load_n(&fence->flags, __ATOMIC_ACQUIRE) & (1UL << DMA_FENCE_FLAG_SIGNALED_BIT));
}

int dma_fence_signal(struct dma_fence *fence)
{
	struct dma_fence_cb *cb;
	unsigned long flags;

	if (!usable(fence))
		return -EINVAL;
	/* Interrupts off, as Linux: a callback's register access must not run a handler under the lock. */
	spin_lock_irqsave(fence->lock, flags);
	if (dmamap__fence_signalled(fence)) {
		spin_unlock_irqrestore(fence->lock, flags);
		return -EINVAL;
	}
	__atomic_fetch_or(&fence->flags, 1UL << DMA_FENCE_FLAG_SIGNALED_BIT, __ATOMIC_RELEASE);
	while ((cb = fence->cb_list)) {
		fence->cb_list = cb->next;
		cb->next = NULL;
		cb->func(fence, cb);
	}
	spin_unlock_irqrestore(fence->lock, flags);
	return 0;
}

bool dma_fence_is_signaled(struct dma_fence *fence)
{
	if (dmamap__fence_signalled(fence))
		return true;
	if (!usable(fence) || !fence->ops->signaled || !fence->ops->signaled(fence))
		return false;
	dma_fence_signal(fence);
	return true;
}

void dma_fence_set_error(struct dma_fence *fence, int error)
{
	if (!usable(fence) || error >= 0 || error < -4095 || dmamap__fence_signalled(fence)) {
		refuse(__func__, "an error is a negative errno, set before the fence signals");
		return;
	}
	fence->error = error;
}

int dma_fence_get_status(struct dma_fence *fence)
{
	if (!usable(fence))
		return -EINVAL;
	if (!dma_fence_is_signaled(fence))
		return 0;
	return fence->error ? fence->error : 1;
}

int dma_fence_add_callback(struct dma_fence *fence, struct dma_fence_cb *cb,
			   dma_fence_func_t func)
{
	struct dma_fence_cb **tail;
	unsigned long flags;

	if (!usable(fence) || !cb || !func)
		return -EINVAL;
	if (dma_fence_is_signaled(fence))
		return -ENOENT;
	spin_lock_irqsave(fence->lock, flags);
	if (dmamap__fence_signalled(fence)) {
		spin_unlock_irqrestore(fence->lock, flags);
		return -ENOENT;
	}
	cb->func = func;
	cb->next = NULL;
	for (tail = &fence->cb_list; *tail; tail = &(*tail)->next)
		;
	*tail = cb;
	spin_unlock_irqrestore(fence->lock, flags);
	return 0;
}

bool dma_fence_remove_callback(struct dma_fence *fence, struct dma_fence_cb *cb)
{
	struct dma_fence_cb **pp;
	unsigned long flags;
	bool found = false;

	if (!usable(fence) || !cb)
		return false;
	spin_lock_irqsave(fence->lock, flags);
	for (pp = &fence->cb_list; *pp; pp = &(*pp)->next)
		if (*pp == cb) {
			*pp = cb->next;
			cb->next = NULL;
			found = true;
			break;
		}
	spin_unlock_irqrestore(fence->lock, flags);
	return found;
}

long dma_fence_wait_timeout(struct dma_fence *fence, bool intr, long timeout)
{
	const bool forever = timeout == MAX_SCHEDULE_TIMEOUT;
	/* A budget too large for microseconds is as good as for ever, not a wrapped short one. */
	const uint64_t budget_us = forever || (uint64_t)timeout > UINT64_MAX / 1000
					   ? UINT64_MAX
					   : (uint64_t)timeout * 1000;
	uint64_t start = 0, elapsed = 0;

	(void)intr;
	if (!usable(fence) || timeout < 0)
		return -EINVAL;
	for (;;) {
		if (dma_fence_is_signaled(fence)) {
			long left;

			/* The thread may have been held past the deadline: never more than was given. */
			if (forever)
				return timeout;
			left = elapsed >= budget_us ? 0 : (long)((budget_us - elapsed) / 1000);
			return left > timeout ? timeout : (left > 0 ? left : 1);
		}
		/*
		 * A handler waiting holds up the thread that delivers interrupts
		 * (its own, or the device thread, which also steps the devices);
		 * with interrupts off where they are delivered at yield points,
		 * no handler can run here to signal it either.
		 */
		if ((dmamap_in_interrupt() || (dmamap_irqs_disabled() && dmamap__device_time())) &&
		    !fence->ops->signaled)
			return -EDEADLK;
		if (elapsed >= budget_us)
			return 0;
		dmamap_udelay(1);
		elapsed = dmamap_poll_elapsed(&start, 1);
	}
}

long dma_fence_wait(struct dma_fence *fence, bool intr)
{
	long ret = dma_fence_wait_timeout(fence, intr, MAX_SCHEDULE_TIMEOUT);

	return ret < 0 ? ret : 0;
}
