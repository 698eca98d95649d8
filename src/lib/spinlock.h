/* SPDX-License-Identifier: MIT */
/* Spinlocks for critical sections of a few instructions on hot paths. */
#ifndef DMAMAP_LIB_SPINLOCK_H
#define DMAMAP_LIB_SPINLOCK_H

#include <stdbool.h>

void dmamap__spin_lock_slow(int *l);

static inline void dmamap__spin_lock(int *l)
{
	if (__builtin_expect(__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE), 0))
		dmamap__spin_lock_slow(l);
}

/* Whether the lock was free and is now ours: for a signal handler, which must never wait. */
static inline bool dmamap__spin_trylock(int *l)
{
	return !__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE);
}

static inline void dmamap__spin_unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

#endif
