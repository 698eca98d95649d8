/* SPDX-License-Identifier: MIT */
/* Reports about a device or a platform, into the platform's log sink. */
#ifndef DMAMAP_BASE_REPORT_H
#define DMAMAP_BASE_REPORT_H

#include "device.h"

/* A report of @kind about @dev (may be NULL) on @p (NULL: the process's sink). */
void dmamap__report(struct dmamap_platform *p, const struct device *dev,
		    enum dmamap_dbg_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A report about one mapping: its address, size, direction and map site. */
void dmamap__report_at(struct dmamap_platform *p, const struct device *dev,
		       enum dmamap_dbg_kind kind, dma_addr_t addr, u64 size,
		       int dir, void *mapped_at, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));
/* Count an API error in @dev's stats (if any) and report it, naming @func. */
void dmamap__api_error(struct device *dev, const char *func,
		       enum dmamap_err_kind ek, enum dmamap_dbg_kind dk,
		       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
