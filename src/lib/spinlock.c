/* SPDX-License-Identifier: MIT */
#include <sched.h>
#include "spinlock.h"

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ volatile("yield")
#else
#define cpu_relax() do { } while (0)
#endif

/* Held for a few instructions; a preempted holder is waited out with a yield. */
void dmamap__spin_lock_slow(int *l)
{
	unsigned int spins = 0;

	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(l, __ATOMIC_RELAXED)) {
			if (++spins > 1000) {
				sched_yield();
				spins = 0;
			} else {
				cpu_relax();
			}
		}
	}
}
