/* SPDX-License-Identifier: MIT */
/*
 * Fences, as Linux's <linux/dma-fence.h>: a one-shot event that says "this
 * piece of DMA is finished". A driver embeds a fence in its job, hands it
 * out (through a dma-buf's reservation, <dmamap/dma-resv.h>) when it
 * starts the job and signals it from its completion interrupt; whoever
 * wants the buffer next waits on it or hangs a callback on it.
 *
 * Waiting is a busy wait through the board's yield points: on a board
 * whose devices run at yield points (the fixed and seeded schedules) a
 * wait steps the devices and takes their interrupts, so the fence the
 * waiter needs can be signalled by a handler running on the waiter's own
 * thread; in threaded mode the device thread signals it. Timeouts are in
 * jiffies of one millisecond, counted in device time where devices run at
 * yield points (docs/devices.md), in real time otherwise.
 *
 * A fence may name the device whose DMA it completes
 * (dmamap_fence_set_device()): the checker then tells that device, the
 * writer, from the others (docs/sharing.md).
 */
#ifndef DMAMAP_DMA_FENCE_H
#define DMAMAP_DMA_FENCE_H

#include <stdbool.h>
#include <dmamap/types.h>
#include <dmamap/interrupt.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HZ 1000
#define MAX_SCHEDULE_TIMEOUT ((long)(~0UL >> 1))

static inline unsigned long msecs_to_jiffies(unsigned int ms) { return ms; }

struct dma_fence;
struct dma_fence_cb;

typedef void (*dma_fence_func_t)(struct dma_fence *fence, struct dma_fence_cb *cb);

/* What a callback needs: embed it in the waiter's own structure. */
struct dma_fence_cb {
	struct dma_fence_cb *next; /* the fence's list: not the caller's */
	dma_fence_func_t func;
};

/* What the fence's owner provides. */
struct dma_fence_ops {
	const char *(*get_driver_name)(struct dma_fence *fence);   /* required */
	const char *(*get_timeline_name)(struct dma_fence *fence); /* required */
	/* Optional: whether the work finished, for fences nobody signals by interrupt. */
	bool (*signaled)(struct dma_fence *fence);
	/*
	 * Optional: the last reference went. NULL leaves the memory alone (the
	 * fence is the caller's: static, or embedded in a job it frees itself);
	 * unlike Linux, nothing is freed for it.
	 */
	void (*release)(struct dma_fence *fence);
};

#define DMA_FENCE_FLAG_SIGNALED_BIT 0

struct dma_fence {
	spinlock_t *lock;          /* the owner's, held while callbacks run */
	const struct dma_fence_ops *ops;
	struct dma_fence_cb *cb_list;
	u64 context;               /* the timeline (dma_fence_context_alloc()) */
	u64 seqno;                 /* the fence's place on it */
	unsigned long flags;       /* DMA_FENCE_FLAG_*: read with dma_fence_is_signaled() */
	int error;                 /* dma_fence_set_error() */
	int refcount;
	struct device *dev;        /* dmamap: the device whose DMA it completes, or NULL */
};

/**
 * dma_fence_init() - make a fence, unsignalled, with one reference
 * @fence: the fence (the caller's memory)
 * @ops: its operations; get_driver_name and get_timeline_name are required
 * @lock: a lock the owner keeps for it
 * @context: the timeline, from dma_fence_context_alloc()
 * @seqno: the fence's number on it
 *
 * A NULL @fence, @ops or @lock leaves @fence untouched (Linux would
 * crash) and is reported (INVALID_ARGUMENT, on the process's counters): a
 * zeroed fence stays unusable, and a later call on it returns its error
 * value.
 */
DMAMAP_API void dma_fence_init(struct dma_fence *fence, const struct dma_fence_ops *ops,
			       spinlock_t *lock, u64 context, u64 seqno);

/**
 * dma_fence_context_alloc() - reserve @num timelines
 * @num: how many
 *
 * Return: the first one; they are numbered on from it, never reused.
 */
DMAMAP_API u64 dma_fence_context_alloc(unsigned int num);

/**
 * dmamap_fence_set_device() - say which device's DMA the fence completes
 * @fence: the fence
 * @dev: the device, or NULL for a fence that is no device's (a CPU job)
 *
 * The checker's fence rule (docs/sharing.md) lets that device touch a
 * buffer the fence guards while it is unsignalled, and reports any other.
 */
DMAMAP_API void dmamap_fence_set_device(struct dma_fence *fence, struct device *dev);

/**
 * dma_fence_get() - take a reference
 * @fence: the fence, or NULL
 *
 * Return: @fence.
 */
DMAMAP_API struct dma_fence *dma_fence_get(struct dma_fence *fence);

/**
 * dma_fence_put() - drop a reference
 * @fence: the fence, or NULL (nothing happens)
 *
 * The last one calls ops->release, if any. A put past the last is
 * refused (logged, nothing released twice).
 */
DMAMAP_API void dma_fence_put(struct dma_fence *fence);

/**
 * dma_fence_signal() - the work is done: wake the waiters, run the callbacks
 * @fence: the fence
 *
 * The callbacks run on the signalling thread, in the order they were
 * added, with @fence->lock held; each is removed before it runs.
 *
 * Return: 0; -EINVAL if @fence was already signalled (nothing runs again)
 * or is NULL.
 */
DMAMAP_API int dma_fence_signal(struct dma_fence *fence);

/**
 * dma_fence_is_signaled() - whether the work is done
 * @fence: the fence
 *
 * Asks ops->signaled too, if there is one, and signals the fence if it
 * says yes.
 *
 * Return: true if signalled; true for NULL (nothing to wait for).
 */
DMAMAP_API bool dma_fence_is_signaled(struct dma_fence *fence);

/**
 * dma_fence_set_error() - record why the work failed, before signalling
 * @fence: the fence
 * @error: a negative errno
 *
 * Refused (the error left alone) on a NULL @fence, a signalled fence or
 * an @error that is not a negative errno.
 */
DMAMAP_API void dma_fence_set_error(struct dma_fence *fence, int error);

/**
 * dma_fence_get_status() - how the work ended
 * @fence: the fence
 *
 * Return: 0 if not signalled yet; 1 if it finished; the negative errno
 * given to dma_fence_set_error() if it failed; -EINVAL for NULL.
 */
DMAMAP_API int dma_fence_get_status(struct dma_fence *fence);

/**
 * dma_fence_add_callback() - call @func when the fence signals
 * @fence: the fence
 * @cb: the caller's storage for the callback
 * @func: what to call
 *
 * Return: 0, @func will be called once; -ENOENT if the fence has already
 * signalled (@func is not called: the caller goes on at once); -EINVAL
 * for a NULL argument.
 */
DMAMAP_API int dma_fence_add_callback(struct dma_fence *fence, struct dma_fence_cb *cb,
				      dma_fence_func_t func);

/**
 * dma_fence_remove_callback() - take back a callback that has not run
 * @fence: the fence
 * @cb: what dma_fence_add_callback() was given
 *
 * Return: true if it was still waiting (it will not run); false if it
 * already ran or was never added.
 */
DMAMAP_API bool dma_fence_remove_callback(struct dma_fence *fence, struct dma_fence_cb *cb);

/**
 * dma_fence_wait_timeout() - wait until the fence signals
 * @fence: the fence
 * @intr: accepted for the kernel's signature (nothing interrupts a wait)
 * @timeout: jiffies (milliseconds) to wait at most, or MAX_SCHEDULE_TIMEOUT
 *
 * Waits through the board's yield points (the devices step, their
 * interrupts are delivered). From an interrupt handler (whichever thread
 * runs it: in threaded mode the device thread, which would stop stepping
 * the devices), or with interrupts disabled on a board that delivers them
 * at yield points, a fence a handler must signal never would be: unless
 * the fence has ops->signaled to poll, the wait says so (-EDEADLK) rather
 * than spin.
 *
 * Return: the jiffies left (at least 1, at most @timeout) once signalled;
 * 0 if the time ran out; -EDEADLK as above while unsignalled; -EINVAL for
 * a NULL @fence or a negative @timeout.
 */
DMAMAP_API long dma_fence_wait_timeout(struct dma_fence *fence, bool intr, long timeout);

/**
 * dma_fence_wait() - wait without a time limit
 * @fence: the fence
 * @intr: accepted for the kernel's signature
 *
 * Return: 0 once signalled; the errors of dma_fence_wait_timeout().
 */
DMAMAP_API long dma_fence_wait(struct dma_fence *fence, bool intr);

#ifdef __cplusplus
}
#endif
#endif
