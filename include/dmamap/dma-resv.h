/* SPDX-License-Identifier: MIT */
/*
 * Reservation objects, as Linux's <linux/dma-resv.h>: the fences of the
 * DMA in flight on one buffer, each with a usage. Every dma-buf has one
 * (dmabuf->resv). A driver that starts DMA into a shared buffer adds its
 * job's fence as a WRITE; one that reads it, as a READ; whoever comes next
 * waits for the fences its own access conflicts with: a reader for the
 * writes, a writer for everything (dma_resv_usage_rw()).
 *
 * The usages are ordered: waiting for one waits for every usage before
 * it (KERNEL < WRITE < READ < BOOKKEEP). A fence added from a timeline
 * that already has an earlier one (a lower seqno) of the same usage
 * replaces it, as later work on a timeline finishes after earlier work;
 * signalled fences are dropped as they are found.
 *
 * The lock is a plain mutex (no wound/wait: one object at a time), taken
 * around dma_resv_reserve_fences() and dma_resv_add_fence(). The checker's
 * fence rule reads the object: docs/sharing.md.
 */
#ifndef DMAMAP_DMA_RESV_H
#define DMAMAP_DMA_RESV_H

#include <dmamap/dma-fence.h>

#ifdef __cplusplus
extern "C" {
#endif

enum dma_resv_usage {
	DMA_RESV_USAGE_KERNEL,   /* the memory manager's own moves and clears */
	DMA_RESV_USAGE_WRITE,    /* implicit sync: a device writes the buffer */
	DMA_RESV_USAGE_READ,     /* implicit sync: a device reads it */
	DMA_RESV_USAGE_BOOKKEEP, /* nobody waits for these implicitly */
};

/* What an access of this kind must wait for: everything for a write, the writes for a read. */
static inline enum dma_resv_usage dma_resv_usage_rw(bool write)
{
	return write ? DMA_RESV_USAGE_READ : DMA_RESV_USAGE_WRITE;
}

struct dma_resv;

/**
 * dma_resv_lock() - take the object's lock
 * @obj: the object
 * @ctx: must be NULL (no wound/wait acquire contexts)
 *
 * Return: 0; -EINVAL for a NULL @obj or a non-NULL @ctx.
 */
DMAMAP_API int dma_resv_lock(struct dma_resv *obj, void *ctx);

/**
 * dma_resv_unlock() - release it
 * @obj: the object (NULL is ignored)
 */
DMAMAP_API void dma_resv_unlock(struct dma_resv *obj);

/**
 * dma_resv_reserve_fences() - make room for @num more fences, with the lock held
 * @obj: the object
 * @num: how many dma_resv_add_fence() calls will follow
 *
 * Return: 0; -ENOMEM (an injected DMAMAP_FAULT_ALLOC included); -EINVAL
 * for a NULL @obj.
 */
DMAMAP_API int dma_resv_reserve_fences(struct dma_resv *obj, unsigned int num);

/**
 * dma_resv_add_fence() - add a fence, with the lock held and room reserved
 * @obj: the object
 * @fence: the fence; the object takes a reference
 * @usage: DMA_RESV_USAGE_*
 *
 * An earlier fence of the same timeline and usage is replaced. Without room
 * reserved the fence is refused and logged (Linux would warn and
 * corrupt), as is a NULL argument or a @usage out of range.
 */
DMAMAP_API void dma_resv_add_fence(struct dma_resv *obj, struct dma_fence *fence,
				   enum dma_resv_usage usage);

/**
 * dma_resv_test_signaled() - whether every fence up to @usage has signalled
 * @obj: the object
 * @usage: the last usage that counts
 *
 * Return: true if none is left unsignalled (or @obj is NULL).
 */
DMAMAP_API bool dma_resv_test_signaled(struct dma_resv *obj, enum dma_resv_usage usage);

/**
 * dma_resv_wait_timeout() - wait for every fence up to @usage
 * @obj: the object
 * @usage: the last usage to wait for
 * @intr: accepted for the kernel's signature
 * @timeout: jiffies, or MAX_SCHEDULE_TIMEOUT
 *
 * The object's lock must not be held. Each fence is waited for as
 * dma_fence_wait_timeout() does, the time left carried from one to the
 * next.
 *
 * Return: the jiffies left (at least 1); 0 if the time ran out; the
 * errors of dma_fence_wait_timeout(); -EINVAL for a NULL @obj.
 */
DMAMAP_API long dma_resv_wait_timeout(struct dma_resv *obj, enum dma_resv_usage usage,
				      bool intr, unsigned long timeout);

#ifdef __cplusplus
}
#endif
#endif
