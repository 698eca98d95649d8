/* SPDX-License-Identifier: MIT */
/*
 * The trace hook: events from every layer, with the two that other
 * channels already carry joined in — device accesses (the observer list)
 * and checker reports (the log's second listener).
 */
#include <errno.h>
#include <time.h>
#include "observer.h"
#include "trace.h"

void dmamap__trace_emit(struct dmamap_platform *p, struct dmamap_trace_event *ev)
{
	dmamap_trace_fn fn = __atomic_load_n(&p->trace_fn, __ATOMIC_ACQUIRE);
	struct timespec ts;

	if (!fn)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ev->ts_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	if (!ev->device)
		ev->device = ev->dev ? ev->dev->name : "";
	fn(__atomic_load_n(&p->trace_ctx, __ATOMIC_ACQUIRE), ev);
}

static void device_access(void *ctx, struct device *dev, dma_addr_t addr, u64 len, bool write)
{
	(void)ctx;
	DMAMAP__TRACE(dev->plat, .id = write ? DMAMAP_TRACE_DEVICE_WRITE : DMAMAP_TRACE_DEVICE_READ,
		      .dev = dev, .dma_addr = addr, .size = len, .dir = DMA_NONE);
}

static void report_tap(void *ctx, const struct dmamap_report *r)
{
	struct dmamap_platform *p = ctx;

	DMAMAP__TRACE(p, .id = DMAMAP_TRACE_REPORT, .device = r->device, .dma_addr = r->addr,
		      .size = r->size, .dir = r->direction, .report = r);
}

/* One for every board: the access tells which board it is. */
static const struct dmamap_observer tracer = { .device_access = device_access };

int dmamap_set_trace_hook(struct dmamap_platform *p, dmamap_trace_fn fn, void *ctx)
{
	bool was;

	if (!p)
		return -EINVAL;
	was = __atomic_load_n(&p->trace_fn, __ATOMIC_ACQUIRE) != NULL;
	if (fn && !was && dmamap__observer_add(p, &tracer))
		return -ENOSPC;
	if (!fn && was)
		dmamap__observer_remove(p, &tracer);
	__atomic_store_n(&p->trace_ctx, ctx, __ATOMIC_RELEASE);
	__atomic_store_n(&p->trace_fn, fn, __ATOMIC_RELEASE);
	p->log.tap_ctx = fn ? p : NULL;
	__atomic_store_n(&p->log.tap_fn, fn ? report_tap : NULL, __ATOMIC_RELEASE);
	__atomic_store_n(&p->trace, fn != NULL, __ATOMIC_RELEASE);
	return 0;
}
