/* SPDX-License-Identifier: MIT */
/* The countdown: lock-free, so an armed injector serialises nothing. */
#include "fault.h"

struct dmamap_fault_injector dmamap__process_fault;

bool dmamap__fault_fire(struct dmamap_fault_injector *f, unsigned int cls)
{
	long left;

	if (!(__atomic_load_n(&f->classes, __ATOMIC_RELAXED) & cls))
		return false;
	left = __atomic_load_n(&f->countdown, __ATOMIC_RELAXED);
	do {
		if (left <= 0)
			return false;
	} while (!__atomic_compare_exchange_n(&f->countdown, &left, left - 1, false,
					      __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
	/* Exactly one caller takes the count from 1 to 0: that call fails. */
	if (left != 1)
		return false;
	__atomic_fetch_add(&f->hits, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&f->classes, 0, __ATOMIC_RELAXED);
	return true;
}

void dmamap__fault_arm(struct dmamap_fault_injector *f, unsigned int classes, long countdown)
{
	__atomic_store_n(&f->classes, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&f->countdown, countdown > 0 ? countdown : 0, __ATOMIC_RELAXED);
	__atomic_store_n(&f->classes, countdown > 0 ? classes : 0, __ATOMIC_RELEASE);
}

unsigned long dmamap__fault_hits(const struct dmamap_fault_injector *f)
{
	return __atomic_load_n(&f->hits, __ATOMIC_RELAXED);
}
