/* SPDX-License-Identifier: MIT */
/*
 * The host's real data cache, for a device that does not snoop it: clean
 * before the device reads, clean and invalidate before the CPU reads what
 * it wrote. Only to the point of coherency will do (where a bus master
 * sees memory); user space reaches that on arm64 (DC CVAC and DC CIVAC,
 * which Linux lets EL0 run) and on x86 (CLFLUSH). 32-bit ARM user space
 * has only the cacheflush system call, which stops at the point of
 * unification; RISC-V's Zicbom is not generally enabled for user space.
 */
#include <sys/mman.h>
#include "host.h"
#include "../../lib/mem.h"

#if defined(__aarch64__)
#define HOST_CAN_MAINTAIN 1

/* The smallest data cache line, from CTR_EL0.DminLine (log2 of 4-byte words). */
static unsigned int read_line_size(void)
{
	unsigned long ctr;

	__asm__ __volatile__("mrs %0, ctr_el0" : "=r"(ctr));
	return 4u << ((ctr >> 16) & 0xf);
}

static inline void clean_line(uintptr_t a)
{
	__asm__ __volatile__("dc cvac, %0" ::"r"(a) : "memory");
}

static inline void flush_line(uintptr_t a)
{
	__asm__ __volatile__("dc civac, %0" ::"r"(a) : "memory");
}

/* The maintenance completes before the device is told to go, or the CPU reads. */
static inline void maintenance_done(void)
{
	__asm__ __volatile__("dsb sy" ::: "memory");
}
#elif defined(__x86_64__) || defined(__i386__)
#define HOST_CAN_MAINTAIN 1
#include <cpuid.h>

/* CPUID leaf 1, EBX[15:8]: the CLFLUSH line size in 8-byte units. */
static unsigned int read_line_size(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !((b >> 8) & 0xff))
		return 64;
	return ((b >> 8) & 0xff) * 8;
}

/* x86 has no clean that keeps the line everywhere (CLWB is not universal): CLFLUSH writes back and drops. */
static inline void clean_line(uintptr_t a)
{
	__asm__ __volatile__("clflush (%0)" ::"r"(a) : "memory");
}

static inline void flush_line(uintptr_t a)
{
	__asm__ __volatile__("clflush (%0)" ::"r"(a) : "memory");
}

/* CLFLUSH is ordered only against writes to its line: the fence orders it against the rest. */
static inline void maintenance_done(void)
{
#if defined(__x86_64__) || defined(__SSE2__)
	__asm__ __volatile__("mfence" ::: "memory");
#else
	__asm__ __volatile__("lock; addl $0,-4(%%esp)" ::: "memory", "cc");
#endif
}
#else
#define HOST_CAN_MAINTAIN 0
#endif

bool dmamap__host_can_maintain_cache(void)
{
#if defined(__i386__)
	/* CPUID.01:EDX[19]: a 32-bit x86 may predate CLFLUSH. */
	unsigned int a, b, c, d;

	return __get_cpuid(1, &a, &b, &c, &d) && (d & (1u << 19));
#else
	return HOST_CAN_MAINTAIN;
#endif
}

#if HOST_CAN_MAINTAIN
/* The line the operations step by, read once. */
static unsigned int cache_line(void)
{
	static unsigned int line;
	unsigned int l = __atomic_load_n(&line, __ATOMIC_RELAXED);

	if (!l) {
		l = read_line_size();
		/* A figure no cache has would make the loop below wrong: take the smallest real one. */
		if (l < 16 || (l & (l - 1)))
			l = 16;
		__atomic_store_n(&line, l, __ATOMIC_RELAXED);
	}
	return l;
}

/*
 * Whether all of [@addr, +@size) is mapped in this process: a bad handle
 * or pointer must give an error report, not a fault in a cache
 * instruction. One system call; the lines that follow cost more.
 */
static bool mapped(uintptr_t addr, size_t size)
{
	uintptr_t page = dmamap__host_page_size();
	uintptr_t lo = addr & ~(page - 1), hi = addr + size;

	return hi > addr && msync((void *)lo, hi - lo, MS_ASYNC) == 0;
}
#endif

u64 dmamap__host_maintain(uintptr_t addr, size_t size, bool invalidate)
{
#if HOST_CAN_MAINTAIN
	uintptr_t line = cache_line();
	uintptr_t a = addr & ~(line - 1), end = addr + size;
	u64 bytes = 0;

	if (!size || !mapped(addr, size))
		return 0;
	for (; a < end; a += line, bytes += line) {
		if (invalidate)
			flush_line(a);
		else
			clean_line(a);
	}
	maintenance_done();
	return bytes;
#else
	(void)addr;
	(void)size;
	(void)invalidate;
	return 0;
#endif
}
