/* SPDX-License-Identifier: MIT */
/*
 * Trace events (<dmamap/trace.h>): every layer that does something emits
 * them here, and base/ hands them to the board's trace hook. While no
 * hook is set an emission is one predictable branch on a flag that shares
 * the word the API's fast paths already test (p->hooks), so the fast
 * paths pay nothing more.
 */
#ifndef DMAMAP_BASE_TRACE_H
#define DMAMAP_BASE_TRACE_H

#include "../lib/lib.h"
#include "device.h"

static inline __attribute__((always_inline)) bool dmamap__tracing(const struct dmamap_platform *p)
{
	return unlikely(__atomic_load_n(&p->trace, __ATOMIC_RELAXED));
}

/* Fills in the time and the device's name, then calls the hook. */
void dmamap__trace_emit(struct dmamap_platform *p, struct dmamap_trace_event *ev);

/* DMAMAP__TRACE(p, .id = ..., .dev = dev, ...): the event is built only when traced. */
#define DMAMAP__TRACE(p, ...)                                                    \
	do {                                                                     \
		if (dmamap__tracing(p)) {                                        \
			struct dmamap_trace_event dmamap_ev_ = { __VA_ARGS__ };  \
			dmamap__trace_emit((p), &dmamap_ev_);                    \
		}                                                                \
	} while (0)

#endif
