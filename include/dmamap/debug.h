/* SPDX-License-Identifier: MIT */
/*
 * Reports: every problem the library sees (bad arguments, unreachable
 * buffers, device faults, data lost in the cache) becomes one report of a
 * fixed kind, counted per platform and, with the checker on, logged as a
 * kernel-like line. Strict mode aborts on the first report.
 */
#ifndef DMAMAP_DEBUG_H
#define DMAMAP_DEBUG_H

#include <dmamap/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

enum dmamap_dbg_kind {
	DMAMAP_DBG_NULL_DEVICE = 1,
	DMAMAP_DBG_INVALID_DIRECTION,
	DMAMAP_DBG_ZERO_SIZE,
	DMAMAP_DBG_INVALID_ARGUMENT,
	DMAMAP_DBG_UNMAP_INVALID,   /* unmap/sync of an address that is not mapped */
	DMAMAP_DBG_UNREACHABLE,     /* buffer outside the device's window or mask */
	DMAMAP_DBG_NOT_LINEAR,      /* buffer not in the linear map (stack, alias) */
	DMAMAP_DBG_MASK_UNSUPPORTED,
	DMAMAP_DBG_ALLOC_FAILED,
	DMAMAP_DBG_FREE_INVALID,    /* free of memory that was not allocated so */
	DMAMAP_DBG_DEVICE_FAULT,    /* device access outside its window */
	DMAMAP_DBG_CPU_DATA_LOST,   /* invalidate discarded CPU-dirty bytes */
	DMAMAP_DBG_DEVICE_DATA_LOST,/* write-back overwrote device bytes */
	DMAMAP_DBG_KIND_COUNT
};

/** dmamap_dbg_kind_name() - stable short name of a kind. Return: name. */
DMAMAP_API const char *dmamap_dbg_kind_name(enum dmamap_dbg_kind kind);

/**
 * dmamap_debug_enable() - turn the checker on or off (default: DMAMAP_DEBUG)
 * @p: platform
 * @on: true to log reports
 */
DMAMAP_API void dmamap_debug_enable(struct dmamap_platform *p, bool on);
/** dmamap_debug_enabled() - whether @p's checker is on. Return: true/false. */
DMAMAP_API bool dmamap_debug_enabled(const struct dmamap_platform *p);

/**
 * dmamap_report_count() - reports of one kind so far
 * @p: platform, or NULL for reports about no platform (NULL device)
 * @kind: the kind, or 0 for all kinds
 *
 * Return: the count.
 */
DMAMAP_API unsigned long dmamap_report_count(struct dmamap_platform *p,
					     enum dmamap_dbg_kind kind);
/** dmamap_report_reset() - zero @p's report counters. @p: platform or NULL. */
DMAMAP_API void dmamap_report_reset(struct dmamap_platform *p);

#ifdef __cplusplus
}
#endif
#endif
