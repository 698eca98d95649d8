/* SPDX-License-Identifier: MIT */
/*
 * Register blocks and the accessors that reach them. Each model's block is
 * a 64 KiB slot of one reserved, inaccessible address range, so a cookie
 * is a real pointer (drivers add offsets to it as to an __iomem pointer)
 * that finds its device with a subtraction and a table load, and a stray
 * dereference faults. Every access is a yield point: the devices step
 * before the register is read or written, as time passes between two bus
 * transactions on hardware.
 */
#include <sched.h>
#include <sys/mman.h>
#include <time.h>
#include <dmamap/io.h>
#include "../lib/lib.h"
#include "../base/report.h"
#include "../platform/port.h"
#include "hw.h"
#include "arch_barrier.h"
#include "../lib/mem.h"

/* 4 KiB a block (every model's registers fit), 16,384 blocks in 64 MiB of address space. */
#define SLOT_SHIFT 12
#define SLOTS 16384

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t *slots_base; /* reserved on first use, never released */
static struct device *slot_dev[SLOTS];
static unsigned int slot_next; /* handed out in turn: a freed block is the last to come back */

int dmamap__mmio(struct device *dev, uint32_t reg, uint32_t *val, bool write, bool ordered,
		 const void *site)
{
	struct dmamap_sched *s = dev->plat->sched;
	int ret;

	/* A model callback (or a hook it set off) touching registers would wait on its own lock. */
	if (dmamap__model_ctx)
		return -EDEADLK;
	pthread_mutex_lock(&s->lock);
	if (!s->threaded)
		dmamap__sched_run_locked(s, 1);
	/*
	 * The devices stepped first, seeing memory as the store buffer left
	 * it; now writel()'s barrier drains it, or writel_relaxed() overtakes.
	 */
	if (write)
		dmamap__port_order_mmio_write(dev, reg, ordered, site);
	dmamap__model_set_ctx(s);
	if (write) {
		ret = dev->model->mmio_write(dev, dev->model_priv, reg, *val);
		dmamap__sched_busy_locked(dev);
	} else {
		ret = dev->model->mmio_read(dev, dev->model_priv, reg, val);
	}
	dmamap__model_set_ctx(NULL);
	/* readl(): what the device wrote before the register said so is seen after it. */
	if (!write && ordered)
		dmamap__port_order_event(dev->plat, ORDER_RMB);
	pthread_mutex_unlock(&s->lock);
	dmamap__port_order_flush(dev->plat);
	if (__atomic_load_n(&s->pending, __ATOMIC_RELAXED))
		dmamap__irq_deliver(s);
	return ret;
}

static void reserve_slots(void)
{
	void *m = dmamap__mmap_for_process(NULL, (size_t)SLOTS << SLOT_SHIFT, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (m != MAP_FAILED)
		__atomic_store_n(&slots_base, m, __ATOMIC_RELEASE);
}

void __iomem *dmamap_device_ioremap(struct device *dev)
{
	void *base = NULL;

	if (!dev || !dev->model)
		return NULL;
	pthread_mutex_lock(&slots_lock);
	if (!slots_base)
		reserve_slots();
	if (slots_base && !dev->io_slot) {
		for (unsigned int n = 0; n < SLOTS; n++) {
			unsigned int i = (slot_next + n) % SLOTS;

			if (!slot_dev[i]) {
				__atomic_store_n(&slot_dev[i], dev, __ATOMIC_RELEASE);
				dev->io_slot = (int)i + 1;
				slot_next = i + 1;
				break;
			}
		}
	}
	if (dev->io_slot)
		base = slots_base + ((size_t)(dev->io_slot - 1) << SLOT_SHIFT);
	pthread_mutex_unlock(&slots_lock);
	return base;
}

void dmamap__io_release(struct device *dev)
{
	if (!dev->io_slot)
		return;
	pthread_mutex_lock(&slots_lock);
	__atomic_store_n(&slot_dev[dev->io_slot - 1], NULL, __ATOMIC_RELEASE);
	dev->io_slot = 0;
	pthread_mutex_unlock(&slots_lock);
}

/* The device whose block holds @addr and the register offset; NULL device if it is no block. */
static bool in_blocks(const volatile void *addr, struct device **dev, uint32_t *off)
{
	uint8_t *base = __atomic_load_n(&slots_base, __ATOMIC_ACQUIRE);
	uintptr_t at = (uintptr_t)addr - (uintptr_t)base;

	if (!base || at >= (uintptr_t)SLOTS << SLOT_SHIFT)
		return false;
	*dev = __atomic_load_n(&slot_dev[at >> SLOT_SHIFT], __ATOMIC_ACQUIRE);
	*off = (uint32_t)(at & ((1u << SLOT_SHIFT) - 1));
	return true;
}

static void refused(struct device *dev, const volatile void *addr, uint32_t off, bool write,
		    int err)
{
	if (!dev) {
		dmamap__report(NULL, NULL, DMAMAP_DBG_MMIO_ERROR,
			       "%s at %p: no device's register block is there (removed?)",
			       write ? "write" : "read", (const void *)addr);
		return;
	}
	if (__atomic_load_n(&dev->plat->debug, __ATOMIC_RELAXED))
		dmamap__report(dev->plat, dev, DMAMAP_DBG_MMIO_ERROR,
			       "register %s at offset 0x%x refused by the %s model (%d)",
			       write ? "write" : "read", off, dev->model->name, err);
}

static uint32_t reg_read(struct device *dev, const volatile void *addr, uint32_t off,
			 bool ordered)
{
	uint32_t v = ~0u;
	int ret = -ENODEV;

	if (dev && dev->model->mmio_read)
		ret = dmamap__mmio(dev, off, &v, false, ordered, NULL);
	if (ret) {
		refused(dev, addr, off, false, ret);
		v = ~0u;
	}
	return v;
}

static void reg_write(struct device *dev, volatile void *addr, uint32_t off, uint32_t v,
		      bool ordered, const void *site)
{
	int ret = -ENODEV;

	if (dev && dev->model->mmio_write)
		ret = dmamap__mmio(dev, off, &v, true, ordered, site);
	if (ret)
		refused(dev, addr, off, true, ret);
}

/* readl() orders what follows after the read, writel() what came before the write: Linux's __io_ar, __io_bw. */
static void fence_after_read(bool ordered, uint64_t v)
{
	if (ordered)
		arch_io_ar(v);
}

static void fence_before_write(bool ordered)
{
	if (ordered)
		arch_io_bw();
}

uint64_t dmamap_io_read(const volatile void __iomem *addr, unsigned int size, bool ordered)
{
	struct device *dev = NULL;
	uint32_t off = 0;
	uint64_t v;

	if (!in_blocks(addr, &dev, &off)) {
		switch (size) {
		case 1: v = *(const volatile uint8_t *)addr; break;
		case 2: v = *(const volatile uint16_t *)addr; break;
		case 4: v = *(const volatile uint32_t *)addr; break;
		case 8: v = *(const volatile uint64_t *)addr; break;
		default: return ~0ULL;
		}
		fence_after_read(ordered, v);
		return v;
	}
	switch (size) {
	case 1:
	case 2:
		v = reg_read(dev, addr, off & ~3u, ordered) >> (8 * (off & 3));
		v &= size == 1 ? 0xff : 0xffff;
		break;
	case 4:
		v = reg_read(dev, addr, off, ordered);
		break;
	case 8:
		v = reg_read(dev, addr, off, false);
		v |= (uint64_t)reg_read(dev, (const volatile uint8_t *)addr + 4, off + 4, ordered)
		     << 32;
		break;
	default:
		refused(dev, addr, off, false, -EINVAL);
		return ~0ULL;
	}
	fence_after_read(ordered, v);
	return v;
}

void dmamap_io_write(volatile void __iomem *addr, uint64_t val, unsigned int size, bool ordered)
{
	const void *site = __builtin_return_address(0);
	struct device *dev = NULL;
	uint32_t off = 0;

	fence_before_write(ordered);
	if (!in_blocks(addr, &dev, &off)) {
		switch (size) {
		case 1: *(volatile uint8_t *)addr = (uint8_t)val; break;
		case 2: *(volatile uint16_t *)addr = (uint16_t)val; break;
		case 4: *(volatile uint32_t *)addr = (uint32_t)val; break;
		case 8: *(volatile uint64_t *)addr = val; break;
		default: break;
		}
		return;
	}
	switch (size) {
	case 1:
	case 2: {
		unsigned int shift = 8 * (off & 3);
		uint32_t mask = (size == 1 ? 0xffu : 0xffffu) << shift;
		uint32_t old = reg_read(dev, addr, off & ~3u, false);

		reg_write(dev, addr, off & ~3u, (old & ~mask) | ((uint32_t)val << shift & mask),
			  ordered, site);
		break;
	}
	case 4:
		reg_write(dev, addr, off, (uint32_t)val, ordered, site);
		break;
	case 8:
		reg_write(dev, addr, off, (uint32_t)val, ordered, site);
		reg_write(dev, (volatile uint8_t *)addr + 4, off + 4, (uint32_t)(val >> 32), false,
			  site);
		break;
	default:
		refused(dev, addr, off, true, -EINVAL);
	}
}

/* ---- barriers and time ------------------------------------------------------ */

void dmamap_barrier(enum dmamap_barrier kind)
{
	switch (kind) {
	case DMAMAP_RMB:
		arch_rmb();
		break;
	case DMAMAP_WMB:
		arch_wmb();
		break;
	case DMAMAP_DMA_MB:
		arch_dma_mb();
		break;
	case DMAMAP_DMA_RMB:
		arch_dma_rmb();
		break;
	case DMAMAP_DMA_WMB:
		arch_dma_wmb();
		break;
	default:
		arch_mb();
	}
	/* The devices step first, seeing memory as it was before the barrier: then it takes effect. */
	dmamap__sched_barrier_all(kind == DMAMAP_RMB || kind == DMAMAP_DMA_RMB ? ORDER_RMB
				  : kind == DMAMAP_WMB || kind == DMAMAP_DMA_WMB ? ORDER_WMB
				  : ORDER_MB);
}

void dmamap_cpu_relax(void)
{
	arch_relax();
	dmamap__sched_yield_all(1);
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

void dmamap_udelay(unsigned long usecs)
{
	uint64_t end;

	if (dmamap__device_time()) {
		dmamap__sched_yield_all(usecs ? usecs : 1);
		return;
	}
	/* Spinning, but yielding the CPU: the device threads may need it more. */
	end = now_us() + usecs;
	while (now_us() < end)
		sched_yield();
}

void dmamap_ndelay(unsigned long nsecs)
{
	dmamap_udelay((nsecs + 999) / 1000);
}

void dmamap_usleep_range(unsigned long min, unsigned long max)
{
	struct timespec ts;

	(void)max;
	if (dmamap__device_time()) {
		dmamap__sched_yield_all(min ? min : 1);
		return;
	}
	ts.tv_sec = (time_t)(min / 1000000);
	ts.tv_nsec = (long)(min % 1000000) * 1000;
	nanosleep(&ts, NULL);
}

void dmamap_msleep(unsigned int msecs)
{
	dmamap_usleep_range((unsigned long)msecs * 1000, (unsigned long)msecs * 1000);
}

uint64_t dmamap_poll_elapsed(uint64_t *start, unsigned long delay_us)
{
	if (!start)
		return 0;
	if (dmamap__device_time()) {
		*start += delay_us ? delay_us : 1;
		return *start;
	}
	/* The start plus one, so that 0 still means "not started". */
	if (!*start) {
		*start = now_us() + 1;
		return 0;
	}
	return now_us() + 1 - *start;
}
