/* SPDX-License-Identifier: MIT */
/* Reports and log lines: one place decides what is counted, printed or fatal. */
#define _GNU_SOURCE
#include <dlfcn.h>
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
	[DMAMAP_DBG_NOT_MAPPED] = "not-mapped",
	[DMAMAP_DBG_WRONG_SIZE] = "wrong-size",
	[DMAMAP_DBG_WRONG_TYPE] = "wrong-type",
	[DMAMAP_DBG_WRONG_CPU_ADDR] = "wrong-cpu-address",
	[DMAMAP_DBG_SG_NENTS] = "sg-nents",
	[DMAMAP_DBG_WRONG_DIRECTION] = "wrong-direction",
	[DMAMAP_DBG_MAP_ERR_NOT_CHECKED] = "map-error-not-checked",
	[DMAMAP_DBG_SYNC_NOT_MAPPED] = "sync-not-mapped",
	[DMAMAP_DBG_SYNC_OUTSIDE] = "sync-outside",
	[DMAMAP_DBG_SYNC_WRONG_DIRECTION] = "sync-wrong-direction",
	[DMAMAP_DBG_SYNC_READONLY_FOR_CPU] = "sync-readonly-for-cpu",
	[DMAMAP_DBG_SYNC_WRITEONLY_FOR_DEVICE] = "sync-writeonly-for-device",
	[DMAMAP_DBG_MAP_STACK] = "map-stack",
	[DMAMAP_DBG_SG_SEGMENT_TOO_LONG] = "sg-segment-too-long",
	[DMAMAP_DBG_SG_SEGMENT_BOUNDARY] = "sg-segment-boundary",
	[DMAMAP_DBG_CACHELINE_OVERLAP] = "cacheline-overlap",
	[DMAMAP_DBG_LEAK] = "leak",
	[DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED] = "device-access-unmapped",
	[DMAMAP_DBG_DEVICE_WRITE_READONLY] = "device-write-readonly",
	[DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS] = "cpu-write-while-device-owns",
	[DMAMAP_DBG_MAP_UNALIGNED] = "map-unaligned",
	[DMAMAP_DBG_CHECKER_DISABLED] = "checker-disabled",
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

/* "function+0xoff" when the symbol is known (-rdynamic), else the address. */
static void symbolize(void *addr, char *out, size_t len)
{
	Dl_info info;

	if (dladdr(addr, &info) && info.dli_sname && info.dli_saddr)
		snprintf(out, len, "%s+0x%lx", info.dli_sname,
			 (unsigned long)((uintptr_t)addr - (uintptr_t)info.dli_saddr));
	else
		snprintf(out, len, "%p", addr);
}

static bool filtered_out(struct dmamap_platform *p, const struct device *dev)
{
	return p->filter[0] && (!dev || strcmp(p->filter, dev->name) != 0);
}

static void vreport(struct dmamap_platform *p, const struct device *dev,
		    enum dmamap_dbg_kind kind, dma_addr_t addr, u64 size, int dir,
		    void *mapped_at, const char *fmt, va_list ap)
{
	struct dmamap_report r;
	char line[800];
	bool strict;
	bool print;

	if ((unsigned int)kind >= DMAMAP_DBG_KIND_COUNT)
		kind = DMAMAP_DBG_INVALID_ARGUMENT;
	if (p) {
		__atomic_fetch_add(&p->reports[kind], 1, __ATOMIC_RELAXED);
		strict = p->strict >= 0 ? p->strict > 0 : process_strict();
		/* Device faults are logged always, as hardware errors are. */
		print = (p->debug || kind == DMAMAP_DBG_DEVICE_FAULT || strict) &&
			!filtered_out(p, dev);
		if (print && p->print_limit &&
		    __atomic_fetch_add(&p->printed, 1, __ATOMIC_RELAXED) >= p->print_limit)
			print = false;
	} else {
		__atomic_fetch_add(&global.reports[kind], 1, __ATOMIC_RELAXED);
		strict = process_strict();
		print = true;
	}
	if (!print && !strict && !(p && p->report_fn))
		return;
	memset(&r, 0, sizeof(r));
	r.kind = kind;
	if (dev)
		snprintf(r.device, sizeof(r.device), "%s", dev->name);
	r.addr = addr;
	r.size = size;
	r.direction = dir;
	r.mapped_at = mapped_at;
	vsnprintf(r.text, sizeof(r.text), fmt, ap);
	if (p && p->report_fn)
		p->report_fn(p->report_ctx, &r);
	if (mapped_at) {
		char where[160];

		symbolize(mapped_at, where, sizeof(where));
		snprintf(line, sizeof(line), "DMA-API: %s: %s [mapped at %s] [%s]",
			 dev ? dev->name : "(null device)", r.text, where,
			 dmamap_dbg_kind_name(kind));
	}
	else
		snprintf(line, sizeof(line), "DMA-API: %s: %s [%s]",
			 dev ? dev->name : "(null device)", r.text,
			 dmamap_dbg_kind_name(kind));
	if (print || strict)
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
	vreport(p, dev, kind, 0, 0, DMA_NONE, NULL, fmt, ap);
	va_end(ap);
}

void dmamap__report_at(struct dmamap_platform *p, const struct device *dev,
		       enum dmamap_dbg_kind kind, dma_addr_t addr, u64 size,
		       int dir, void *mapped_at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(p, dev, kind, addr, size, dir, mapped_at, fmt, ap);
	va_end(ap);
}

void dmamap_set_report_hook(struct dmamap_platform *p, dmamap_report_fn fn,
			    void *ctx)
{
	if (!p)
		return;
	p->report_fn = fn;
	p->report_ctx = ctx;
}

int dmamap_debug_set_filter(struct dmamap_platform *p, const char *device)
{
	if (!p || (device && strlen(device) >= sizeof(p->filter)))
		return -EINVAL;
	snprintf(p->filter, sizeof(p->filter), "%s", device ? device : "");
	return 0;
}

void dmamap_debug_set_print_limit(struct dmamap_platform *p, unsigned long n)
{
	if (!p)
		return;
	p->print_limit = n;
	__atomic_store_n(&p->printed, 0, __ATOMIC_RELAXED);
}

static const char *const dir_names[] = { "DMA_BIDIRECTIONAL", "DMA_TO_DEVICE",
					 "DMA_FROM_DEVICE", "DMA_NONE" };

const char *dmamap__dir_name(int dir)
{
	return (unsigned int)dir < 4 ? dir_names[dir] : "invalid";
}

/* JSON string body: escapes quotes, backslashes and control bytes. */
static size_t json_escape(char *out, size_t cap, const char *s)
{
	size_t n = 0;

	for (; *s; s++) {
		char tmp[8];
		const char *piece = tmp;
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			snprintf(tmp, sizeof(tmp), "\\%c", c);
		else if (c < 0x20)
			snprintf(tmp, sizeof(tmp), "\\u%04x", c);
		else
			tmp[0] = (char)c, tmp[1] = 0;
		for (; *piece; piece++, n++)
			if (n + 1 < cap)
				out[n] = *piece;
	}
	if (cap)
		out[n < cap ? n : cap - 1] = 0;
	return n;
}

int dmamap_report_json(const struct dmamap_report *r, char *buf, size_t len)
{
	char dev[2 * DMAMAP_NAME_MAX * 3], text[sizeof(r->text) * 6];
	int n;

	if (!r || !buf || !len)
		return -EINVAL;
	json_escape(dev, sizeof(dev), r->device);
	json_escape(text, sizeof(text), r->text);
	n = snprintf(buf, len,
		     "{\"kind\":\"%s\",\"device\":\"%s\",\"addr\":\"0x%llx\","
		     "\"size\":%llu,\"direction\":\"%s\",\"mapped_at\":\"%p\","
		     "\"text\":\"%s\"}",
		     dmamap_dbg_kind_name(r->kind), dev, (unsigned long long)r->addr,
		     (unsigned long long)r->size, dmamap__dir_name(r->direction),
		     r->mapped_at, text);
	if (n < 0)
		return -EINVAL;
	return (size_t)n >= len ? -ENOSPC : n;
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
