/* SPDX-License-Identifier: MIT */
/*
 * The countdown fault injector: armed with a set of classes and a count,
 * the count-th call that asks for one of those classes fails, once. Asking
 * costs one predictable branch while it is not armed.
 */
#ifndef DMAMAP_LIB_FAULT_H
#define DMAMAP_LIB_FAULT_H

#include <stdbool.h>

struct dmamap_fault_injector {
	unsigned int classes; /* DMAMAP_FAULT_*; 0: not armed. Read on hot paths: first. */
	long countdown;
	unsigned long hits;
};

/* The process-wide injector: it counts the points of every platform, and the library's own allocations. */
extern struct dmamap_fault_injector dmamap__process_fault;

bool dmamap__fault_fire(struct dmamap_fault_injector *f, unsigned int cls);

/* Whether the call asking for @cls must fail now: @f's countdown, then the process's. */
static inline bool dmamap__fault(struct dmamap_fault_injector *f, unsigned int cls)
{
	if (__builtin_expect(!(__atomic_load_n(&f->classes, __ATOMIC_RELAXED) |
			       __atomic_load_n(&dmamap__process_fault.classes, __ATOMIC_RELAXED)),
			     1))
		return false;
	return dmamap__fault_fire(f, cls) ||
	       (f != &dmamap__process_fault && dmamap__fault_fire(&dmamap__process_fault, cls));
}

/* Whether any class is armed here or process-wide: paths that skip the checks altogether ask this. */
static inline bool dmamap__fault_armed(const struct dmamap_fault_injector *f)
{
	return (__atomic_load_n(&f->classes, __ATOMIC_RELAXED) |
		__atomic_load_n(&dmamap__process_fault.classes, __ATOMIC_RELAXED)) != 0;
}

void dmamap__fault_arm(struct dmamap_fault_injector *f, unsigned int classes, long countdown);
unsigned long dmamap__fault_hits(const struct dmamap_fault_injector *f);

#endif
