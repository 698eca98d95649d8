/* SPDX-License-Identifier: MIT */
/* Reports and log lines: one place decides what is counted, printed or fatal. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "json.h"
#include "log.h"

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
	[DMAMAP_DBG_MAP_RODATA] = "map-rodata",
	[DMAMAP_DBG_MISSING_SYNC_FOR_DEVICE] = "missing-sync-for-device",
	[DMAMAP_DBG_CACHELINE_OVERLAP_LIMIT] = "cacheline-overlap-limit",
	[DMAMAP_DBG_WRONG_ATTRS] = "wrong-attrs",
	[DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS] = "cpu-access-while-device-owns",
	[DMAMAP_DBG_IRQ_MISUSE] = "irq-misuse",
	[DMAMAP_DBG_MMIO_ERROR] = "mmio-error",
	[DMAMAP_DBG_DEVICE_ACCESS_CPU_OWNS] = "device-access-while-cpu-owns",
	[DMAMAP_DBG_DESCRIPTOR_WHILE_DEVICE_OWNS] = "descriptor-touched-while-device-owns",
	[DMAMAP_DBG_UNORDERED_DESCRIPTOR] = "unordered-descriptor",
	[DMAMAP_DBG_UNORDERED_DOORBELL] = "unordered-doorbell",
	[DMAMAP_DBG_UNORDERED_COMPLETION] = "unordered-completion",
	[DMAMAP_DBG_DMABUF_FENCE_NOT_WAITED] = "dma-buf-fence-not-waited",
	[DMAMAP_DBG_DMABUF_CPU_UNBRACKETED] = "dma-buf-cpu-access-unbracketed",
	[DMAMAP_DBG_DMABUF_STILL_MAPPED] = "dma-buf-still-mapped",
	[DMAMAP_DBG_DMABUF_BOUNCED] = "dma-buf-bounced",
};

const char *dmamap_dbg_kind_name(enum dmamap_dbg_kind kind)
{
	if ((unsigned int)kind >= DMAMAP_DBG_KIND_COUNT)
		return "unknown";
	return kind_names[kind];
}

/* Reports about no platform (a NULL device) land here. */
static struct dmamap_log process_log = { .strict = -1 };
/* Serialises the default printer, so lines from threads never interleave. */
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

void dmamap__log_init(struct dmamap_log *log)
{
	memset(log, 0, sizeof(*log));
	log->strict = -1;
}

struct dmamap_log *dmamap__log_process(void)
{
	return &process_log;
}

bool dmamap__env_flag(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

/* DMAMAP_STRICT, read once and kept in the process sink. */
static bool process_strict(void)
{
	int s = __atomic_load_n(&process_log.strict, __ATOMIC_RELAXED);

	if (s < 0) {
		s = dmamap__env_flag("DMAMAP_STRICT");
		__atomic_store_n(&process_log.strict, s, __ATOMIC_RELAXED);
	}
	return s > 0;
}

/* The default printer: stderr, at most 10 lines a second, as printk_ratelimit. */
static void default_sink(struct dmamap_log *log, const char *line)
{
	struct timespec ts;
	uint64_t now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec;
	pthread_mutex_lock(&print_lock);
	if (log->rl_window != now) {
		if (log->rl_count > 10)
			fprintf(stderr, "dmamap: %u lines suppressed\n", log->rl_count - 10);
		log->rl_window = now;
		log->rl_count = 0;
	}
	if (++log->rl_count <= 10)
		fprintf(stderr, "%s\n", line);
	pthread_mutex_unlock(&print_lock);
}

static void emit(struct dmamap_log *log, int level, const char *line)
{
	dmamap_log_fn fn = __atomic_load_n(&log->log_fn, __ATOMIC_ACQUIRE);

	if (fn)
		fn(log->log_ctx, level, line);
	else
		default_sink(log, line);
}

void dmamap__log_line(struct dmamap_log *log, int level, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	emit(log ? log : &process_log, level, line);
}

void dmamap__symbolize(const void *addr, char *out, size_t len)
{
	Dl_info info;

	if (dladdr(addr, &info) && info.dli_sname && info.dli_saddr)
		snprintf(out, len, "%s+0x%lx", info.dli_sname,
			 (unsigned long)((uintptr_t)addr - (uintptr_t)info.dli_saddr));
	else
		snprintf(out, len, "%p", addr);
}

void dmamap__log_vreport(struct dmamap_log *log, bool verbose, const char *device,
			 enum dmamap_dbg_kind kind, dma_addr_t addr, u64 size, int dir,
			 void *mapped_at, const char *fmt, va_list ap)
{
	struct dmamap_report r;
	char line[800];
	bool strict, print;

	if ((unsigned int)kind >= DMAMAP_DBG_KIND_COUNT)
		kind = DMAMAP_DBG_INVALID_ARGUMENT;
	if (!log)
		log = &process_log;
	__atomic_fetch_add(&log->reports[kind], 1, __ATOMIC_RELAXED);
	if (log == &process_log) {
		strict = process_strict();
		print = true;
	} else {
		strict = log->strict >= 0 ? log->strict > 0 : process_strict();
		/* Device faults are logged always, as hardware errors are. */
		print = (verbose || kind == DMAMAP_DBG_DEVICE_FAULT || strict) &&
			!(log->filter[0] && (!device || strcmp(log->filter, device) != 0));
		if (print && log->print_limit &&
		    __atomic_fetch_add(&log->printed, 1, __ATOMIC_RELAXED) >= log->print_limit)
			print = false;
	}
	if (!print && !strict && !log->report_fn && !log->tap_fn)
		return;
	memset(&r, 0, sizeof(r));
	r.kind = kind;
	if (device)
		snprintf(r.device, sizeof(r.device), "%s", device);
	r.addr = addr;
	r.size = size;
	r.direction = dir;
	r.mapped_at = mapped_at;
	vsnprintf(r.text, sizeof(r.text), fmt, ap);
	if (log->tap_fn)
		log->tap_fn(log->tap_ctx, &r);
	if (log->report_fn)
		log->report_fn(log->report_ctx, &r);
	if (mapped_at) {
		char where[160];

		dmamap__symbolize(mapped_at, where, sizeof(where));
		snprintf(line, sizeof(line), "DMA-API: %s: %s [mapped at %s] [%s]",
			 device ? device : "(null device)", r.text, where,
			 dmamap_dbg_kind_name(kind));
	} else {
		snprintf(line, sizeof(line), "DMA-API: %s: %s [%s]",
			 device ? device : "(null device)", r.text, dmamap_dbg_kind_name(kind));
	}
	/* What the program printed before the report comes before it, even when
	 * stdout is a pipe or file sharing stderr's destination, and survives the abort. */
	if (strict)
		fflush(stdout);
	if (print || strict)
		emit(log, DMAMAP_LOG_ERR, line);
	if (strict) {
		fprintf(stderr, "%s\ndmamap: strict mode: aborting\n", line);
		fflush(NULL);
		abort();
	}
}

static const char *const dir_names[] = { "DMA_BIDIRECTIONAL", "DMA_TO_DEVICE",
					 "DMA_FROM_DEVICE", "DMA_NONE" };

const char *dmamap__dir_name(int dir)
{
	return (unsigned int)dir < 4 ? dir_names[dir] : "invalid";
}

int dmamap_report_json(const struct dmamap_report *r, char *buf, size_t len)
{
	char dev[2 * DMAMAP_NAME_MAX * 3], text[sizeof(r->text) * 6];
	int n;

	if (!r || !buf || !len)
		return -EINVAL;
	dmamap__json_escape(dev, sizeof(dev), r->device);
	dmamap__json_escape(text, sizeof(text), r->text);
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
