/* SPDX-License-Identifier: MIT */
/*
 * A zero-copy media pipeline, written against the public headers only: a
 * camera captures a frame into a shared buffer, an ISP behind an IOMMU
 * processes it in place, the CPU stamps an overlay on it, a display scans
 * it out. One dma-buf travels through all of them; each device's driver
 * adds a fence for its job to the buffer's reservation and signals it
 * from its interrupt handler; each waits for the fences its access
 * conflicts with before it starts its device.
 *
 * Where a device cannot use the shared buffer as it lies (it needs one
 * contiguous range of device addresses and the mapping has several, as a
 * device without an IOMMU does with scattered pages), its driver falls
 * back to a buffer of its own and the CPU copies the frame across, as a
 * compositor does when an import fails: the cost the pipeline measures.
 */
#ifndef DMAMAP_DRIVERS_PIPELINE_H
#define DMAMAP_DRIVERS_PIPELINE_H

#include <dmamap/dma-buf.h>
#include <dmamap/dma-fence.h>
#include <dmamap/dma-heap.h>
#include <dmamap/interrupt.h>
#include <dmamap/io.h>
#include <dmamap/hw/media.h>

enum pipe_alloc {
	PIPE_ALLOC_FOR_DEVICES, /* dmamap_buf_alloc_for() the three devices */
	PIPE_ALLOC_SYSTEM_HEAP, /* the naive way: the system heap, for nobody in particular */
};

enum pipe_bug {
	PIPE_BUG_NONE = 0,
	/* The ISP's driver starts it without waiting for the camera's fence. */
	PIPE_BUG_MISSING_FENCE_WAIT,
	/* The CPU stamps its overlay without dma_buf_begin/end_cpu_access(). */
	PIPE_BUG_MISSING_CPU_ACCESS,
	PIPE_BUG_COUNT
};

#define PIPE_ISP_KEY 0x5a
#define PIPE_OVERLAY_LEN 64

/* One media device as its driver holds it. */
struct mediadrv {
	struct device *dev;
	void __iomem *regs;
	int irq;
	spinlock_t lock;
	struct dma_fence *job;   /* in flight; the interrupt handler signals it */
	struct dma_fence *last;  /* the frame started last, until mediadrv_wait() */
	u64 context;
	unsigned int seqno;
	unsigned long irqs, faults;
};

int mediadrv_probe(struct mediadrv *m, struct device *dev);
void mediadrv_remove(struct mediadrv *m);
/*
 * Start one frame at device address @dma; the job's fence goes into @resv
 * with @usage (reserved here). 0, or a negative errno (-EBUSY while a
 * frame is in flight).
 */
int mediadrv_start(struct mediadrv *m, dma_addr_t dma, uint32_t len, uint32_t param,
		   struct dma_resv *resv, enum dma_resv_usage usage);
/* Wait for the frame in flight: 0, -EIO if the device faulted, -ETIMEDOUT. */
int mediadrv_wait(struct mediadrv *m);

struct pipe_result {
	unsigned int frames, frames_wrong;
	char heap[16];                /* where the shared buffer came from */
	unsigned int segments[3];     /* the mapping's entries, per device */
	unsigned int ranges[3];       /* ...and the runs of device addresses they make */
	bool own_buffer[3];           /* the device could not use the shared buffer */
	uint64_t bytes_copied;        /* by the CPU, for the devices that could not */
	uint64_t bytes_bounced;       /* bounce copies the shared buffer's mappings made */
	uint64_t cache_bytes;         /* cache maintenance for it: cleaned + invalidated */
	uint64_t fence_waits;         /* waits that found a device still at work */
	int err;                      /* 0, or what stopped the run */
	char why[400];
};

/*
 * Run @frames frames of @len bytes through @camera, @isp and @display (the
 * three devices' names on @p), the shared buffer allocated @alloc, with
 * one @bug. Every frame scanned out is compared with what it should be.
 */
int pipe_run(struct dmamap_platform *p, const char *camera, const char *isp,
	     const char *display, size_t len, unsigned int frames, enum pipe_alloc alloc,
	     enum pipe_bug bug, struct pipe_result *r);

const char *pipe_bug_name(enum pipe_bug bug);

#endif
