/* SPDX-License-Identifier: MIT */
/*
 * The log sink: one place decides what a report does (counted, handed to
 * a hook, printed, rate limited, fatal in strict mode). A platform owns
 * one; reports about no platform go to the process's own. It knows
 * devices only by name.
 */
#ifndef DMAMAP_LIB_LOG_H
#define DMAMAP_LIB_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <dmamap/platform.h>
#include <dmamap/debug.h>

struct dmamap_log {
	int strict; /* -1: the process's setting (DMAMAP_STRICT) */
	dmamap_log_fn log_fn;
	void *log_ctx;
	dmamap_report_fn report_fn;
	void *report_ctx;
	/* A second listener, the tracer's, beside the user's hook. */
	dmamap_report_fn tap_fn;
	void *tap_ctx;
	char filter[DMAMAP_NAME_MAX]; /* "": every device */
	unsigned long print_limit;    /* 0: none */
	unsigned long printed;
	unsigned long reports[DMAMAP_DBG_KIND_COUNT];
	/* The default printer's rate limit: a window of one second and its count. */
	uint64_t rl_window;
	unsigned int rl_count;
};

void dmamap__log_init(struct dmamap_log *log);

/*
 * A report of @kind about @device (NULL: none) into @log (NULL: the
 * process's sink). @verbose prints it (the checker is on); device faults,
 * strict mode and a process sink print regardless. @mapped_at, when
 * known, is the code address of the call that made the mapping.
 */
void dmamap__log_vreport(struct dmamap_log *log, bool verbose, const char *device,
			 enum dmamap_dbg_kind kind, dma_addr_t addr, u64 size, int dir,
			 void *mapped_at, const char *fmt, va_list ap);
/* A plain line at @level into @log (NULL: the process's sink). */
void dmamap__log_line(struct dmamap_log *log, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The process's sink, for the public calls that take a NULL platform. */
struct dmamap_log *dmamap__log_process(void);
/* Whether a boolean environment variable is set (non-empty, not "0"). */
bool dmamap__env_flag(const char *name);
const char *dmamap__dir_name(int dir);
void dmamap__set_error(struct dmamap_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "function+0xoff" for a code address when the symbol is known (-rdynamic), else the address. */
void dmamap__symbolize(const void *addr, char *out, size_t len);

#endif
