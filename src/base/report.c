/* SPDX-License-Identifier: MIT */
/* Reports with their device and platform, and the public calls that steer them. */
#include <string.h>
#include <stdio.h>
#include "report.h"

static struct dmamap_log *sink_of(struct dmamap_platform *p)
{
	return p ? &p->log : dmamap__log_process();
}

static bool verbose(const struct dmamap_platform *p)
{
	return p && __atomic_load_n(&p->debug, __ATOMIC_RELAXED);
}

void dmamap__report(struct dmamap_platform *p, const struct device *dev,
		    enum dmamap_dbg_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dmamap__log_vreport(sink_of(p), verbose(p), dev ? dev->name : NULL, kind, 0, 0,
			    DMA_NONE, NULL, fmt, ap);
	va_end(ap);
}

void dmamap__report_at(struct dmamap_platform *p, const struct device *dev,
		       enum dmamap_dbg_kind kind, dma_addr_t addr, u64 size,
		       int dir, void *mapped_at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dmamap__log_vreport(sink_of(p), verbose(p), dev ? dev->name : NULL, kind, addr, size,
			    dir, mapped_at, fmt, ap);
	va_end(ap);
}

void dmamap__api_error(struct device *dev, const char *func,
		       enum dmamap_err_kind ek, enum dmamap_dbg_kind dk,
		       const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	if (dev)
		dmamap__stat_add(dev, (enum dmamap_stat)(ST_ERR0 + ek), 1);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dmamap__report(dev ? dev->plat : NULL, dev, dk, "%s: %s", func, msg);
}

void dmamap_set_report_hook(struct dmamap_platform *p, dmamap_report_fn fn,
			    void *ctx)
{
	if (!p)
		return;
	p->log.report_ctx = ctx;
	__atomic_store_n(&p->log.report_fn, fn, __ATOMIC_RELEASE);
}

int dmamap_debug_set_filter(struct dmamap_platform *p, const char *device)
{
	if (!p || (device && strlen(device) >= sizeof(p->log.filter)))
		return -EINVAL;
	snprintf(p->log.filter, sizeof(p->log.filter), "%s", device ? device : "");
	return 0;
}

void dmamap_debug_set_print_limit(struct dmamap_platform *p, unsigned long n)
{
	if (!p)
		return;
	p->log.print_limit = n;
	__atomic_store_n(&p->log.printed, 0, __ATOMIC_RELAXED);
}

void dmamap_set_log_hook(struct dmamap_platform *p, dmamap_log_fn fn, void *ctx)
{
	struct dmamap_log *log = sink_of(p);

	log->log_ctx = ctx;
	__atomic_store_n(&log->log_fn, fn, __ATOMIC_RELEASE);
}

void dmamap_set_strict(struct dmamap_platform *p, bool strict)
{
	__atomic_store_n(&sink_of(p)->strict, strict ? 1 : 0, __ATOMIC_RELAXED);
}

bool dmamap_debug_enabled(const struct dmamap_platform *p)
{
	return verbose(p);
}

unsigned long dmamap_report_count(struct dmamap_platform *p,
				  enum dmamap_dbg_kind kind)
{
	unsigned long *r = sink_of(p)->reports;
	unsigned long n = 0;

	if ((unsigned int)kind >= DMAMAP_DBG_KIND_COUNT)
		return 0;
	if (kind)
		return __atomic_load_n(&r[kind], __ATOMIC_RELAXED);
	for (unsigned int k = 1; k < DMAMAP_DBG_KIND_COUNT; k++)
		n += __atomic_load_n(&r[k], __ATOMIC_RELAXED);
	return n;
}

void dmamap_report_reset(struct dmamap_platform *p)
{
	unsigned long *r = sink_of(p)->reports;

	for (unsigned int k = 0; k < DMAMAP_DBG_KIND_COUNT; k++)
		__atomic_store_n(&r[k], 0, __ATOMIC_RELAXED);
}
