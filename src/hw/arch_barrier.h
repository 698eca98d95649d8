/* SPDX-License-Identifier: MIT */
/*
 * The CPU's own barriers and spin-wait hint, as Linux's asm/barrier.h and
 * asm/processor.h define them for each architecture. A real device (the
 * host platform's) sees memory through them; a simulated one through the
 * board's order model, which io.c drives as well.
 *
 * mb/rmb/wmb order against every agent, MMIO included; dma_mb/dma_rmb/
 * dma_wmb only against DMA to and from coherent memory, which is why
 * arm64 uses a full-system DSB for the first three and an outer-shareable
 * DMB for the others, and x86 (whose stores and loads to normal memory are
 * not reordered with each other) needs only the compiler for dma_rmb and
 * dma_wmb. An architecture not listed gets the C11 fence of the same
 * strength, which orders normal memory only.
 */
#ifndef DMAMAP_HW_ARCH_BARRIER_H
#define DMAMAP_HW_ARCH_BARRIER_H

#if defined(__SANITIZE_THREAD__)
/*
 * ThreadSanitizer does not model fences: an atomic read-modify-write it
 * understands stands in, on every architecture (the C11 branches below).
 */
static int fence_word;
#define ARCH_FENCE_(order) ((void)__atomic_fetch_add(&fence_word, 0, __ATOMIC_SEQ_CST))
#define ARCH_C11_ONLY_ 1
#else
#define ARCH_FENCE_(order) __atomic_thread_fence(order)
#define ARCH_C11_ONLY_ 0
#endif

#define ARCH_COMPILER_BARRIER_() __asm__ __volatile__("" ::: "memory")

#if !ARCH_C11_ONLY_ && defined(__aarch64__)
#define arch_mb() __asm__ __volatile__("dsb sy" ::: "memory")
#define arch_rmb() __asm__ __volatile__("dsb ld" ::: "memory")
#define arch_wmb() __asm__ __volatile__("dsb st" ::: "memory")
#define arch_dma_mb() __asm__ __volatile__("dmb osh" ::: "memory")
#define arch_dma_rmb() __asm__ __volatile__("dmb oshld" ::: "memory")
#define arch_dma_wmb() __asm__ __volatile__("dmb oshst" ::: "memory")
#elif !ARCH_C11_ONLY_ && (defined(__arm__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7)
/*
 * ARMv7 has no load-only DSB: rmb is a full one. Linux gives ARMv7 no
 * dma_mb of its own, so it falls back to mb: a DSB, not a DMB.
 */
#define arch_mb() __asm__ __volatile__("dsb" ::: "memory")
#define arch_rmb() __asm__ __volatile__("dsb" ::: "memory")
#define arch_wmb() __asm__ __volatile__("dsb st" ::: "memory")
#define arch_dma_mb() arch_mb()
#define arch_dma_rmb() __asm__ __volatile__("dmb osh" ::: "memory")
#define arch_dma_wmb() __asm__ __volatile__("dmb oshst" ::: "memory")
#elif !ARCH_C11_ONLY_ && (defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__)))
#define arch_mb() __asm__ __volatile__("mfence" ::: "memory")
#define arch_rmb() __asm__ __volatile__("lfence" ::: "memory")
#define arch_wmb() __asm__ __volatile__("sfence" ::: "memory")
#define arch_dma_mb() __asm__ __volatile__("mfence" ::: "memory")
#define arch_dma_rmb() ARCH_COMPILER_BARRIER_()
#define arch_dma_wmb() ARCH_COMPILER_BARRIER_()
#elif !ARCH_C11_ONLY_ && (defined(__i386__))
/* Before SSE2 a locked add to the stack is the full barrier (Linux's alternative). */
#define arch_mb() __asm__ __volatile__("lock; addl $0,-4(%%esp)" ::: "memory", "cc")
#define arch_rmb() arch_mb()
#define arch_wmb() arch_mb()
#define arch_dma_mb() arch_mb()
#define arch_dma_rmb() ARCH_COMPILER_BARRIER_()
#define arch_dma_wmb() ARCH_COMPILER_BARRIER_()
#elif !ARCH_C11_ONLY_ && (defined(__riscv))
/*
 * RISC-V Linux defines no dma_* barriers of its own: they are mb/rmb/wmb,
 * whose I/O bits also order a device's view of memory against MMIO.
 */
#define arch_mb() __asm__ __volatile__("fence iorw,iorw" ::: "memory")
#define arch_rmb() __asm__ __volatile__("fence ir,ir" ::: "memory")
#define arch_wmb() __asm__ __volatile__("fence ow,ow" ::: "memory")
#define arch_dma_mb() arch_mb()
#define arch_dma_rmb() arch_rmb()
#define arch_dma_wmb() arch_wmb()
#else
#define arch_mb() ARCH_FENCE_(__ATOMIC_SEQ_CST)
#define arch_rmb() ARCH_FENCE_(__ATOMIC_ACQUIRE)
#define arch_wmb() ARCH_FENCE_(__ATOMIC_RELEASE)
#define arch_dma_mb() ARCH_FENCE_(__ATOMIC_SEQ_CST)
#define arch_dma_rmb() ARCH_FENCE_(__ATOMIC_ACQUIRE)
#define arch_dma_wmb() ARCH_FENCE_(__ATOMIC_RELEASE)
#endif

/*
 * readl()'s barrier after the read of @v and writel()'s before the write:
 * Linux's __io_ar() and __io_bw(). On arm64 the DMB alone lets a later
 * counter read (a delay loop's) run ahead of the MMIO read, so a branch
 * that depends on the value read, and is never taken, holds it back.
 */
#if !ARCH_C11_ONLY_ && defined(__aarch64__)
#define arch_io_ar(v)                                                                    \
	do {                                                                             \
		unsigned long io_ar_tmp_;                                                \
		arch_dma_rmb();                                                          \
		__asm__ __volatile__("eor %0, %1, %1\n\tcbnz %0, ."                    \
				     : "=r"(io_ar_tmp_) : "r"((unsigned long)(v)) : "memory"); \
	} while (0)
#define arch_io_bw() arch_dma_wmb()
#elif !ARCH_C11_ONLY_ && defined(__arm__)
#define arch_io_ar(v) do { (void)(v); arch_rmb(); } while (0)
#define arch_io_bw() arch_wmb()
#elif !ARCH_C11_ONLY_ && defined(__riscv)
#define arch_io_ar(v) do { (void)(v); __asm__ __volatile__("fence i,ir" ::: "memory"); } while (0)
#define arch_io_bw() __asm__ __volatile__("fence w,o" ::: "memory")
#else
#define arch_io_ar(v) do { (void)(v); arch_dma_rmb(); } while (0)
#define arch_io_bw() arch_dma_wmb()
#endif

/* The body of a spin-wait: let a sibling hardware thread (or the hypervisor) run. */
#if defined(__x86_64__) || defined(__i386__)
#define arch_relax() __asm__ __volatile__("pause" ::: "memory")
#elif defined(__aarch64__) || (defined(__arm__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7)
/* ARMv7 Linux spins on a compiler barrier; YIELD is the hint the architecture has (a NOP without threads). */
#define arch_relax() __asm__ __volatile__("yield" ::: "memory")
#elif defined(__riscv)
/* Zihintpause's PAUSE, encoded so that an assembler without the extension takes it (a hint: a no-op where absent). */
#define arch_relax() __asm__ __volatile__(".4byte 0x100000f" ::: "memory")
#else
#define arch_relax() ARCH_COMPILER_BARRIER_()
#endif

#endif
