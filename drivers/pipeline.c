/* SPDX-License-Identifier: MIT */
/*
 * The media pipeline (pipeline.h): three small drivers that share one
 * job shape (program a frame, fence it, signal the fence from the
 * interrupt), and the frame loop that strings them together through one
 * dma-buf.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "patience.h"
#include "pipeline.h"

struct media_job {
	struct dma_fence fence;
};

static const char *job_driver(struct dma_fence *f)
{
	(void)f;
	return "media";
}

static const char *job_timeline(struct dma_fence *f)
{
	return f->dev ? dev_name(f->dev) : "media";
}

static void job_release(struct dma_fence *f)
{
	free((struct media_job *)f);
}

static const struct dma_fence_ops job_ops = {
	.get_driver_name = job_driver,
	.get_timeline_name = job_timeline,
	.release = job_release,
};

/* The frame is done (or faulted): the job's fence says so. */
static irqreturn_t media_irq(int irq, void *data)
{
	struct mediadrv *m = data;
	struct dma_fence *job;
	uint32_t st;

	(void)irq;
	if (!(readl(m->regs + MEDIA_REG_INT_STATUS) & MEDIA_INT_DONE))
		return IRQ_NONE;
	writel(MEDIA_INT_DONE, m->regs + MEDIA_REG_INT_STATUS);
	st = readl(m->regs + MEDIA_REG_STATUS);
	spin_lock(&m->lock);
	job = m->job;
	m->job = NULL;
	m->irqs++;
	spin_unlock(&m->lock);
	if (job) {
		if (st & MEDIA_STATUS_FAULT) {
			m->faults++;
			dma_fence_set_error(job, -EIO);
		}
		dma_fence_signal(job);
		dma_fence_put(job);
	}
	return IRQ_HANDLED;
}

int mediadrv_probe(struct mediadrv *m, struct device *dev)
{
	memset(m, 0, sizeof(*m));
	m->dev = dev;
	m->regs = dmamap_device_ioremap(dev);
	m->irq = dmamap_device_irq(dev, 0);
	if (!m->regs || m->irq <= 0)
		return -ENODEV;
	spin_lock_init(&m->lock);
	m->context = dma_fence_context_alloc(1);
	return request_irq((unsigned int)m->irq, media_irq, 0, "media", m);
}

void mediadrv_remove(struct mediadrv *m)
{
	mediadrv_wait(m);
	free_irq((unsigned int)m->irq, m);
}

int mediadrv_start(struct mediadrv *m, dma_addr_t dma, uint32_t len, uint32_t param,
		   struct dma_resv *resv, enum dma_resv_usage usage)
{
	struct media_job *job;
	unsigned long flags;
	int err;

	if (m->last)
		return -EBUSY;
	job = calloc(1, sizeof(*job));
	if (!job)
		return -ENOMEM;
	dma_fence_init(&job->fence, &job_ops, &m->lock, m->context, ++m->seqno);
	dmamap_fence_set_device(&job->fence, m->dev);
	/* Published before the doorbell: whoever comes next finds it. */
	if (resv) {
		dma_resv_lock(resv, NULL);
		err = dma_resv_reserve_fences(resv, 1);
		if (!err)
			dma_resv_add_fence(resv, &job->fence, usage);
		dma_resv_unlock(resv);
		if (err) {
			dma_fence_put(&job->fence);
			return err;
		}
	}
	spin_lock_irqsave(&m->lock, flags);
	m->job = dma_fence_get(&job->fence);
	spin_unlock_irqrestore(&m->lock, flags);
	m->last = &job->fence;
	writel((uint32_t)dma, m->regs + MEDIA_REG_ADDR_LO);
	writel((uint32_t)(dma >> 32), m->regs + MEDIA_REG_ADDR_HI);
	writel(len, m->regs + MEDIA_REG_LEN);
	writel(param, m->regs + MEDIA_REG_PARAM);
	writel(1, m->regs + MEDIA_REG_GO);
	return 0;
}

int mediadrv_wait(struct mediadrv *m)
{
	struct dma_fence *f = m->last;
	long left;
	int st;

	if (!f)
		return 0;
	left = dma_fence_wait_timeout(f, true, msecs_to_jiffies(drv_dev_patience_ms(m->dev)));
	if (left <= 0) {
		struct dma_fence *job;
		unsigned long flags;

		/* The device never finished: the job ends as failed, so nobody waits on it for ever. */
		spin_lock_irqsave(&m->lock, flags);
		job = m->job;
		m->job = NULL;
		spin_unlock_irqrestore(&m->lock, flags);
		if (job) {
			dma_fence_set_error(job, -ETIMEDOUT);
			dma_fence_signal(job);
			dma_fence_put(job);
		}
	}
	st = dma_fence_get_status(f);
	m->last = NULL;
	dma_fence_put(f);
	if (left <= 0)
		return left ? (int)left : -ETIMEDOUT;
	return st < 0 ? st : 0;
}

/* ---- the pipeline ------------------------------------------------------------ */

enum { CAM, ISP, DISP };

struct importer {
	struct mediadrv drv;
	struct dma_buf_attachment *a;
	struct sg_table *sgt;
	enum dma_data_direction dir;
	dma_addr_t dma;          /* where the device works: the shared buffer, or its own */
	void *own;               /* its own buffer, when it cannot use the shared one */
	dma_addr_t own_dma;
};

static int fail(struct pipe_result *r, int err, const char *what, const char *who)
{
	if (!r->err) {
		r->err = err;
		snprintf(r->why, sizeof(r->why), "%s%s%s: %s", who ? who : "", who ? ": " : "",
			 what, strerror(-err));
	}
	return err;
}

/* The runs of device addresses the mapping makes (1: the device can take it as one buffer). */
static unsigned int ranges_of(struct sg_table *sgt)
{
	struct scatterlist *sg = sgt->sgl;
	dma_addr_t next = sg_dma_address(sg);
	unsigned int runs = 1;

	for (unsigned int i = 0; i < sgt->nents; i++, sg = sg_next(sg)) {
		runs += sg_dma_address(sg) != next;
		next = sg_dma_address(sg) + sg_dma_len(sg);
	}
	return runs;
}

/* Attach and map; a device that cannot work on the mapping as it is gets a buffer of its own. */
static int import(struct dma_buf *buf, struct importer *im, size_t len, struct pipe_result *r,
		  unsigned int i)
{
	struct dmamap_dma_buf_stats before, after;

	im->a = dma_buf_attach(buf, im->drv.dev);
	if (IS_ERR(im->a)) {
		int err = (int)PTR_ERR(im->a);

		im->a = NULL;
		return fail(r, err, "attach", dev_name(im->drv.dev));
	}
	dmamap_dma_buf_stats(buf, &before);
	im->sgt = dma_buf_map_attachment(im->a, im->dir);
	if (IS_ERR(im->sgt)) {
		int err = (int)PTR_ERR(im->sgt);

		im->sgt = NULL;
		return fail(r, err, "map", dev_name(im->drv.dev));
	}
	dmamap_dma_buf_stats(buf, &after);
	r->segments[i] = im->sgt->nents;
	r->ranges[i] = ranges_of(im->sgt);
	/* Bounce slots are not the buffer: what the other devices write never reaches them. */
	if (r->ranges[i] == 1 && after.bounced_maps == before.bounced_maps) {
		im->dma = sg_dma_address(im->sgt->sgl);
		return 0;
	}
	r->own_buffer[i] = true;
	im->own = dma_alloc_coherent(im->drv.dev, len, &im->own_dma, GFP_KERNEL);
	if (!im->own)
		return fail(r, -ENOMEM, "a buffer of its own", dev_name(im->drv.dev));
	im->dma = im->own_dma;
	return 0;
}

/* Wait for what an access conflicts with, counting the waits that found work in flight. */
static int wait_for(struct dma_buf *buf, enum dma_resv_usage usage, unsigned int wait_ms,
		    struct pipe_result *r)
{
	long left;

	if (dma_resv_test_signaled(buf->resv, usage))
		return 0;
	r->fence_waits++;
	left = dma_resv_wait_timeout(buf->resv, usage, true, msecs_to_jiffies(wait_ms));
	return left > 0 ? 0 : (left ? (int)left : -ETIMEDOUT);
}

/* The CPU copies between the shared buffer and a device's own, inside a bracket. */
static int cpu_copy(struct dma_buf *buf, void *vaddr, void *own, size_t len, bool to_shared,
		    struct pipe_result *r)
{
	int err = dma_buf_begin_cpu_access(buf, to_shared ? DMA_TO_DEVICE : DMA_FROM_DEVICE);

	if (err)
		return err;
	if (to_shared)
		memcpy(vaddr, own, len);
	else
		memcpy(own, vaddr, len);
	r->bytes_copied += len;
	return dma_buf_end_cpu_access(buf, to_shared ? DMA_TO_DEVICE : DMA_FROM_DEVICE);
}

static void stamp(uint8_t *at, uint32_t seq)
{
	for (unsigned int j = 0; j < PIPE_OVERLAY_LEN; j++)
		at[j] = (uint8_t)(0xf0 ^ (seq + j));
}

/* What the display must show for frame @seq. */
static void expected(uint8_t *want, size_t len, uint32_t seq)
{
	for (size_t i = 0; i < len; i++)
		want[i] = media_camera_byte(seq, i) ^ PIPE_ISP_KEY;
	stamp(want, seq);
}

static int one_frame(struct dma_buf *buf, struct importer *im, void *vaddr, size_t len,
		     uint32_t seq, enum pipe_bug bug, struct pipe_result *r)
{
	unsigned int wait_ms = drv_dev_patience_ms(im[CAM].drv.dev);
	struct dma_resv *resv = buf->resv;
	int err;

	/* A writer waits for every access before it: the display may still be scanning out. */
	if ((err = wait_for(buf, DMA_RESV_USAGE_READ, wait_ms, r)))
		return fail(r, err, "wait before capture", NULL);
	err = mediadrv_start(&im[CAM].drv, im[CAM].dma, (uint32_t)len, seq,
			     im[CAM].own ? NULL : resv, DMA_RESV_USAGE_WRITE);
	if (err)
		return fail(r, err, "start", "camera");
	if (im[CAM].own) {
		if ((err = mediadrv_wait(&im[CAM].drv)) ||
		    (err = cpu_copy(buf, vaddr, im[CAM].own, len, true, r)))
			return fail(r, err, "capture copy", "camera");
	}
	if (bug != PIPE_BUG_MISSING_FENCE_WAIT && (err = wait_for(buf, DMA_RESV_USAGE_WRITE, wait_ms, r)))
		return fail(r, err, "wait before processing", NULL);
	err = mediadrv_start(&im[ISP].drv, im[ISP].dma, (uint32_t)len, PIPE_ISP_KEY, resv,
			     DMA_RESV_USAGE_WRITE);
	if (err)
		return fail(r, err, "start", "isp");
	if (bug == PIPE_BUG_MISSING_CPU_ACCESS) {
		/* It waits as it should, then writes without the bracket. */
		if ((err = wait_for(buf, DMA_RESV_USAGE_READ, wait_ms, r)))
			return fail(r, err, "wait before overlay", NULL);
		stamp(vaddr, seq);
	} else {
		/* The bracket waits for the devices itself (implicit sync). */
		if ((err = dma_buf_begin_cpu_access(buf, DMA_BIDIRECTIONAL)))
			return fail(r, err, "begin_cpu_access", NULL);
		stamp(vaddr, seq);
		if ((err = dma_buf_end_cpu_access(buf, DMA_BIDIRECTIONAL)))
			return fail(r, err, "end_cpu_access", NULL);
	}
	if ((err = wait_for(buf, DMA_RESV_USAGE_WRITE, wait_ms, r)))
		return fail(r, err, "wait before scan-out", NULL);
	if (im[DISP].own && (err = cpu_copy(buf, vaddr, im[DISP].own, len, false, r)))
		return fail(r, err, "scan-out copy", "display");
	err = mediadrv_start(&im[DISP].drv, im[DISP].dma, (uint32_t)len, 0,
			     im[DISP].own ? NULL : resv, DMA_RESV_USAGE_READ);
	if (err)
		return fail(r, err, "start", "display");
	for (int i = CAM; i <= DISP; i++)
		if ((err = mediadrv_wait(&im[i].drv)))
			return fail(r, err, "frame", dev_name(im[i].drv.dev));
	return 0;
}

int pipe_run(struct dmamap_platform *p, const char *camera, const char *isp,
	     const char *display, size_t len, unsigned int frames, enum pipe_alloc alloc,
	     enum pipe_bug bug, struct pipe_result *r)
{
	const char *names[3] = { camera, isp, display };
	static const enum dma_data_direction dirs[3] = { DMA_FROM_DEVICE, DMA_BIDIRECTIONAL,
							 DMA_TO_DEVICE };
	struct importer im[3];
	struct device *devs[3];
	struct dma_buf *buf = NULL;
	struct iosys_map map = { 0 };
	uint8_t *want = NULL, *got = NULL;
	unsigned int probed = 0;
	int err = 0;

	memset(r, 0, sizeof(*r));
	memset(im, 0, sizeof(im));
	if (!p || !len || len > MEDIA_MAX_FRAME || len < PIPE_OVERLAY_LEN)
		return fail(r, -EINVAL, "a board and a frame of 64 bytes to 16 MiB", NULL);
	for (int i = 0; i < 3; i++) {
		devs[i] = dmamap_device_lookup(p, names[i]);
		if (!devs[i])
			return fail(r, -ENODEV, "no such device", names[i]);
	}
	for (; probed < 3; probed++) {
		im[probed].dir = dirs[probed];
		if ((err = mediadrv_probe(&im[probed].drv, devs[probed]))) {
			fail(r, err, "probe", names[probed]);
			goto out;
		}
	}
	if (alloc == PIPE_ALLOC_FOR_DEVICES) {
		struct dmamap_buf_plan plan;

		buf = dmamap_buf_alloc_for(devs, 3, len, &plan, &err);
		if (!buf) {
			fail(r, err, plan.why, "dmamap_buf_alloc_for");
			goto out;
		}
		snprintf(r->heap, sizeof(r->heap), "%s", plan.heap);
	} else {
		buf = dma_heap_buffer_alloc(dmamap_heap_find(p, "system"), len, 0, 0);
		if (IS_ERR(buf)) {
			fail(r, (int)PTR_ERR(buf), "system heap", NULL);
			buf = NULL;
			goto out;
		}
		snprintf(r->heap, sizeof(r->heap), "system");
	}
	dma_buf_set_name(buf, "frame");
	for (unsigned int i = 0; i < 3; i++)
		if ((err = import(buf, &im[i], len, r, i)))
			goto out;
	if ((err = dma_buf_vmap(buf, &map))) {
		fail(r, err, "vmap", NULL);
		goto out;
	}
	want = malloc(len);
	got = malloc(len);
	if (!want || !got) {
		fail(r, -ENOMEM, "frame buffers", NULL);
		goto out;
	}
	for (uint32_t seq = 1; seq <= frames; seq++) {
		if ((err = one_frame(buf, im, map.vaddr, len, seq, bug, r)))
			goto out;
		expected(want, len, seq);
		r->frames++;
		if (dmamap_display_scanout(devs[DISP], got, len) != (long)len || memcmp(got, want, len))
			r->frames_wrong++;
	}
out:
	for (int i = 0; i < 3; i++)
		if (i < (int)probed)
			mediadrv_wait(&im[i].drv);
	if (buf) {
		struct dmamap_dma_buf_stats st;

		if (map.vaddr)
			dma_buf_vunmap(buf, &map);
		for (int i = 0; i < 3; i++) {
			if (im[i].sgt)
				dma_buf_unmap_attachment(im[i].a, im[i].sgt, im[i].dir);
			if (im[i].a)
				dma_buf_detach(buf, im[i].a);
		}
		dmamap_dma_buf_stats(buf, &st);
		r->bytes_bounced = st.bytes_bounced;
		r->cache_bytes = st.cache_bytes_cleaned + st.cache_bytes_invalidated;
		dma_buf_put(buf);
	}
	for (int i = 0; i < 3; i++) {
		if (im[i].own)
			dma_free_coherent(devs[i], len, im[i].own, im[i].own_dma);
		if (i < (int)probed)
			mediadrv_remove(&im[i].drv);
	}
	free(want);
	free(got);
	return r->err;
}

const char *pipe_bug_name(enum pipe_bug bug)
{
	static const char *const names[PIPE_BUG_COUNT] = {
		[PIPE_BUG_NONE] = "none",
		[PIPE_BUG_MISSING_FENCE_WAIT] = "missing-fence-wait",
		[PIPE_BUG_MISSING_CPU_ACCESS] = "missing-begin-cpu-access",
	};

	return (unsigned int)bug < PIPE_BUG_COUNT ? names[bug] : "unknown";
}
