/* SPDX-License-Identifier: MIT */
/*
 * Register access, barriers and delays for drivers, with Linux's names
 * (asm/io.h, asm/barrier.h, linux/delay.h, linux/iopoll.h).
 *
 * A register block comes from dmamap_device_ioremap(): a cookie that only
 * these accessors may dereference, as __iomem pointers in the kernel. On a
 * simulated board an access reaches the device's model, and every
 * accessor, barrier and delay is a yield point: the devices make progress
 * there (docs/devices.md). On memory that is not a model's register block
 * (a real device's BAR) they are plain volatile accesses.
 *
 * Ordering follows arm64: readl() is readl_relaxed() then a read barrier,
 * so what the device wrote to memory before the register said so is seen
 * after it; writel() is a write barrier then writel_relaxed(), so the
 * descriptors written before a doorbell are visible to the device when it
 * rings. The _relaxed forms promise neither.
 */
#ifndef DMAMAP_IO_H
#define DMAMAP_IO_H

#include <dmamap/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __iomem
#define __iomem
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;

/**
 * dmamap_device_ioremap() - the register block of a device's model
 * @dev: a device with a model
 *
 * The cookie stays valid until the device is destroyed. Dereferencing it
 * directly faults (SIGSEGV), as touching MMIO without the accessors would.
 *
 * Return: the block's base (4 KiB); NULL for a NULL @dev, a device without
 * a model, or when the process already has 16,384 register blocks.
 */
DMAMAP_API void __iomem *dmamap_device_ioremap(struct device *dev);

/**
 * dmamap_io_read() - read a register (what readl() and friends call)
 * @addr: address in a register block, or any readable memory
 * @size: 1, 2, 4 or 8
 * @ordered: followed by a read barrier (readl), or not (readl_relaxed)
 *
 * A model's registers are 32-bit: a narrower read reads the register that
 * holds it and returns its bytes; an 8-byte read is the register at @addr
 * then the one after (low, high).
 *
 * Return: the value; all ones for a register the model refuses, an
 * address between blocks or a bad @size (as a bus abort reads), with a
 * report when the checker is on.
 */
DMAMAP_API uint64_t dmamap_io_read(const volatile void __iomem *addr, unsigned int size,
				   bool ordered);
/**
 * dmamap_io_write() - write a register (what writel() and friends call)
 * @addr: address in a register block, or any writable memory
 * @val: value
 * @size: 1, 2, 4 or 8
 * @ordered: preceded by a write barrier (writel), or not (writel_relaxed)
 *
 * A narrower write reads the 32-bit register that holds it, merges and
 * writes it back; an 8-byte write is low then high register. A register
 * the model refuses is ignored and, with the checker on, reported.
 */
DMAMAP_API void dmamap_io_write(volatile void __iomem *addr, uint64_t val, unsigned int size,
				bool ordered);

enum dmamap_barrier {
	DMAMAP_MB, DMAMAP_RMB, DMAMAP_WMB, DMAMAP_DMA_MB, DMAMAP_DMA_RMB, DMAMAP_DMA_WMB,
};

/**
 * dmamap_barrier() - a memory barrier (what mb() and friends call)
 * @kind: which one
 *
 * On the host a real fence. On simulated boards also a yield point, and
 * on a weakly-ordered one what orders coherent memory between the CPU and
 * the devices: the write kinds drain the CPU's buffered stores to them,
 * the read kinds let the CPU's later loads see what they wrote, DMAMAP_MB
 * and DMAMAP_DMA_MB both (docs/ordering.md).
 */
DMAMAP_API void dmamap_barrier(enum dmamap_barrier kind);

/**
 * dmamap_cpu_relax() - cpu_relax(): the body of a busy-wait loop
 *
 * A yield point: the devices of every simulated board step here.
 */
DMAMAP_API void dmamap_cpu_relax(void);
/**
 * dmamap_udelay() - udelay(): wait @usecs microseconds
 * @usecs: microseconds
 *
 * While a board steps its devices at yield points (any board with device
 * models, unless threaded), time is the devices' time: they take up to
 * @usecs steps each (one step a microsecond) and nothing sleeps.
 * Otherwise a real busy wait.
 */
DMAMAP_API void dmamap_udelay(unsigned long usecs);
/**
 * dmamap_ndelay() - ndelay(): udelay() rounded up to whole microseconds
 * @nsecs: nanoseconds
 */
DMAMAP_API void dmamap_ndelay(unsigned long nsecs);
/**
 * dmamap_msleep() - msleep(): sleep @msecs milliseconds
 * @msecs: milliseconds
 *
 * Device time as udelay() while a board has devices; a real sleep otherwise.
 */
DMAMAP_API void dmamap_msleep(unsigned int msecs);
/**
 * dmamap_usleep_range() - usleep_range(): sleep between @min and @max microseconds
 * @min: lower bound
 * @max: upper bound (the sleep is @min)
 *
 * Device time as udelay() while a board has devices; a real sleep otherwise.
 */
DMAMAP_API void dmamap_usleep_range(unsigned long min, unsigned long max);

/**
 * dmamap_poll_elapsed() - how readx_poll_timeout() keeps time
 * @start: set by the first call (0 before it)
 * @delay_us: the poll's delay
 *
 * Device time while a board steps its devices at yield points (each poll
 * counts its delay, at least 1 us), the monotonic clock otherwise (no
 * device models, or only threaded boards).
 *
 * Return: microseconds since the first call.
 */
DMAMAP_API uint64_t dmamap_poll_elapsed(uint64_t *start, unsigned long delay_us);

#define cpu_relax() dmamap_cpu_relax()
#define udelay(usecs) dmamap_udelay(usecs)
#define ndelay(nsecs) dmamap_ndelay(nsecs)
#define msleep(msecs) dmamap_msleep(msecs)
#define usleep_range(min, max) dmamap_usleep_range(min, max)
#define mb() dmamap_barrier(DMAMAP_MB)
#define rmb() dmamap_barrier(DMAMAP_RMB)
#define wmb() dmamap_barrier(DMAMAP_WMB)
#define dma_mb() dmamap_barrier(DMAMAP_DMA_MB)
#define dma_rmb() dmamap_barrier(DMAMAP_DMA_RMB)
#define dma_wmb() dmamap_barrier(DMAMAP_DMA_WMB)

static inline u8 readb_relaxed(const volatile void __iomem *a) { return (u8)dmamap_io_read(a, 1, false); }
static inline u16 readw_relaxed(const volatile void __iomem *a) { return (u16)dmamap_io_read(a, 2, false); }
static inline u32 readl_relaxed(const volatile void __iomem *a) { return (u32)dmamap_io_read(a, 4, false); }
static inline u64 readq_relaxed(const volatile void __iomem *a) { return dmamap_io_read(a, 8, false); }
static inline u8 readb(const volatile void __iomem *a) { return (u8)dmamap_io_read(a, 1, true); }
static inline u16 readw(const volatile void __iomem *a) { return (u16)dmamap_io_read(a, 2, true); }
static inline u32 readl(const volatile void __iomem *a) { return (u32)dmamap_io_read(a, 4, true); }
static inline u64 readq(const volatile void __iomem *a) { return dmamap_io_read(a, 8, true); }
static inline void writeb_relaxed(u8 v, volatile void __iomem *a) { dmamap_io_write(a, v, 1, false); }
static inline void writew_relaxed(u16 v, volatile void __iomem *a) { dmamap_io_write(a, v, 2, false); }
static inline void writel_relaxed(u32 v, volatile void __iomem *a) { dmamap_io_write(a, v, 4, false); }
static inline void writeq_relaxed(u64 v, volatile void __iomem *a) { dmamap_io_write(a, v, 8, false); }
static inline void writeb(u8 v, volatile void __iomem *a) { dmamap_io_write(a, v, 1, true); }
static inline void writew(u16 v, volatile void __iomem *a) { dmamap_io_write(a, v, 2, true); }
static inline void writel(u32 v, volatile void __iomem *a) { dmamap_io_write(a, v, 4, true); }
static inline void writeq(u64 v, volatile void __iomem *a) { dmamap_io_write(a, v, 8, true); }
static inline u32 ioread32(const volatile void __iomem *a) { return readl(a); }
static inline void iowrite32(u32 v, volatile void __iomem *a) { writel(v, a); }
static inline u16 ioread16(const volatile void __iomem *a) { return readw(a); }
static inline void iowrite16(u16 v, volatile void __iomem *a) { writew(v, a); }
static inline u8 ioread8(const volatile void __iomem *a) { return readb(a); }
static inline void iowrite8(u8 v, volatile void __iomem *a) { writeb(v, a); }

#ifndef ETIMEDOUT
#include <errno.h>
#endif

/*
 * Poll @op(@addr) into @val until @cond holds or @timeout_us passes,
 * waiting @sleep_us between reads (0: cpu_relax()). 0 or -ETIMEDOUT; @val
 * holds the last value read either way, as in linux/iopoll.h.
 */
#define readx_poll_timeout(op, addr, val, cond, sleep_us, timeout_us)          \
	({                                                                     \
		uint64_t __dm_start = 0;                                       \
		unsigned long __dm_sleep = (sleep_us);                         \
		unsigned long __dm_timeout = (timeout_us);                     \
		int __dm_ret = 0;                                              \
		for (;;) {                                                     \
			(val) = op(addr);                                      \
			if (cond)                                              \
				break;                                         \
			if (__dm_timeout &&                                    \
			    dmamap_poll_elapsed(&__dm_start, __dm_sleep) >     \
				    __dm_timeout) {                            \
				(val) = op(addr);                              \
				__dm_ret = (cond) ? 0 : -ETIMEDOUT;            \
				break;                                         \
			}                                                      \
			if (__dm_sleep)                                        \
				udelay(__dm_sleep);                            \
			else                                                   \
				cpu_relax();                                   \
		}                                                              \
		__dm_ret;                                                      \
	})
#define readl_poll_timeout(addr, val, cond, sleep_us, timeout_us) \
	readx_poll_timeout(readl, addr, val, cond, sleep_us, timeout_us)
#define readl_poll_timeout_atomic(addr, val, cond, delay_us, timeout_us) \
	readx_poll_timeout(readl, addr, val, cond, delay_us, timeout_us)
#define readl_relaxed_poll_timeout(addr, val, cond, sleep_us, timeout_us) \
	readx_poll_timeout(readl_relaxed, addr, val, cond, sleep_us, timeout_us)

#ifdef __cplusplus
}
#endif
#endif
