/* SPDX-License-Identifier: MIT */
/* Reports and log lines: one place decides what is counted, printed or fatal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../internal.h"

static const char *const kind_names[DMAMAP_DBG_KIND_COUNT] = {
	[0] = "none",
	[DMAMAP_DBG_NULL_DEVICE] = "null-device",
	[DMAMAP_DBG_INVALID_DIRECTION] = "invalid-direction",
	[DMAMAP_DBG_ZERO_SIZE] = "zero-size",
	[DMAMAP_DBG_INVALID_ARGUMENT] = "invalid-argument",
	[DMAMAP_DBG_UNMAP_INVALID] = "unmap-invalid",
	[DMAMAP_DBG_UNREACHABLE] = "unreachable",
	[DMAMAP_DBG_NOT_LINEAR] = "not-linear",
	[DMAMAP_DBG_MASK_UNSUPPORTED] = "mask-unsupported",
	[DMAMAP_DBG_ALLOC_FAILED] = "alloc-failed",
	[DMAMAP_DBG_FREE_INVALID] = "free-invalid",
	[DMAMAP_DBG_DEVICE_FAULT] = "device-fault",
	[DMAMAP_DBG_CPU_DATA_LOST] = "cpu-data-lost",
	[DMAMAP_DBG_DEVICE_DATA_LOST] = "device-data-lost",
};

const char *dmamap_dbg_kind_name(enum dmamap_dbg_kind kind)
{
	if ((unsigned int)kind >= DMAMAP_DBG_KIND_COUNT)
		return "unknown";
	return kind_names[kind];
}

/* Reports about no platform (NULL device) land here. */
static struct {
	pthread_mutex_t lock;
	dmamap_log_fn fn;
	void *ctx;
	unsigned long reports[DMAMAP_DBG_KIND_COUNT];
	int strict; /* -1: read DMAMAP_STRICT */
	uint64_t rl_window;
	unsigned int rl_count;
} global = { PTHREAD_MUTEX_INITIALIZER, NULL, NULL, { 0 }, -1, 0, 0 };

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static bool env_flag(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

static bool process_strict(void)
{
	int s = __atomic_load_n(&global.strict, __ATOMIC_RELAXED);

	if (s < 0) {
		s = env_flag("DMAMAP_STRICT");
		__atomic_store_n(&global.strict, s, __ATOMIC_RELAXED);
	}
	return s > 0;
}

bool dmamap__env_debug(void)
{
	return env_flag("DMAMAP_DEBUG");
}

/* The default sink: stderr, at most 10 lines a second, as printk_ratelimit. */
static void default_sink(uint64_t *window, unsigned int *count, int level,
			 const char *line)
{
	struct timespec ts;
	uint64_t now;
	bool print;

	(void)level;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec;
	pthread_mutex_lock(&log_lock);
	if (*window != now) {
		if (*count > 10)
			fprintf(stderr, "dmamap: %u lines suppressed\n", *count - 10);
		*window = now;
		*count = 0;
	}
	print = ++*count <= 10;
	if (print)
		fprintf(stderr, "%s\n", line);
	pthread_mutex_unlock(&log_lock);
}

static void emit(struct dmamap_platform *p, int level, const char *line)
{
	if (p && p->log_fn)
		p->log_fn(p->log_ctx, level, line);
	else if (!p && global.fn)
		global.fn(global.ctx, level, line);
	else if (p)
		default_sink(&p->rl_window, &p->rl_count, level, line);
	else
		default_sink(&global.rl_window, &global.rl_count, level, line);
}

void dmamap__log(struct dmamap_platform *p, int level, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	emit(p, level, line);
}

static void vreport(struct dmamap_platform *p, const struct device *dev,
		    enum dmamap_dbg_kind kind, const char *fmt, va_list ap)
{
	char msg[384];
	char line[512];
	bool strict;
	bool print;

	if ((unsigned int)kind >= DMAMAP_DBG_KIND_COUNT)
		kind = DMAMAP_DBG_INVALID_ARGUMENT;
	if (p) {
		__atomic_fetch_add(&p->reports[kind], 1, __ATOMIC_RELAXED);
		strict = p->strict >= 0 ? p->strict > 0 : process_strict();
		/* Device faults are logged always, as hardware errors are. */
		print = p->debug || kind == DMAMAP_DBG_DEVICE_FAULT || strict;
	} else {
		__atomic_fetch_add(&global.reports[kind], 1, __ATOMIC_RELAXED);
		strict = process_strict();
		print = true;
	}
	if (!print && !strict)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	snprintf(line, sizeof(line), "DMA-API: %s: %s [%s]",
		 dev ? dev->name : "(null device)", msg,
		 dmamap_dbg_kind_name(kind));
	emit(p, DMAMAP_LOG_ERR, line);
	if (strict) {
		fprintf(stderr, "%s\ndmamap: strict mode: aborting\n", line);
		abort();
	}
}

void dmamap__report(struct dmamap_platform *p, const struct device *dev,
		    enum dmamap_dbg_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(p, dev, kind, fmt, ap);
	va_end(ap);
}

void dmamap__api_error(struct device *dev, const char *func,
		       enum dmamap_err_kind ek, enum dmamap_dbg_kind dk,
		       const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	if (dev) {
		dmamap__stat_add(dev, (enum dmamap_stat)(ST_ERR0 + ek), 1);
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dmamap__report(dev ? dev->plat : NULL, dev, dk, "%s: %s", func, msg);
}

void dmamap__set_error(struct dmamap_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

void dmamap_set_log_hook(struct dmamap_platform *p, dmamap_log_fn fn, void *ctx)
{
	if (p) {
		p->log_fn = fn;
		p->log_ctx = ctx;
		return;
	}
	pthread_mutex_lock(&global.lock);
	global.fn = fn;
	global.ctx = ctx;
	pthread_mutex_unlock(&global.lock);
}

void dmamap_set_strict(struct dmamap_platform *p, bool strict)
{
	if (p)
		p->strict = strict;
	else
		__atomic_store_n(&global.strict, strict ? 1 : 0, __ATOMIC_RELAXED);
}

void dmamap_debug_enable(struct dmamap_platform *p, bool on)
{
	if (p)
		p->debug = on;
}

bool dmamap_debug_enabled(const struct dmamap_platform *p)
{
	return p && p->debug;
}

unsigned long dmamap_report_count(struct dmamap_platform *p,
				  enum dmamap_dbg_kind kind)
{
	unsigned long *r = p ? p->reports : global.reports;
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
	unsigned long *r = p ? p->reports : global.reports;

	for (unsigned int k = 0; k < DMAMAP_DBG_KIND_COUNT; k++)
		__atomic_store_n(&r[k], 0, __ATOMIC_RELAXED);
}
