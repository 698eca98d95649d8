/* SPDX-License-Identifier: MIT */
/*
 * Observers: how the layers that do things (the device side, the
 * simulated cache) tell the layers that watch (the checker, tracing)
 * without calling up. A watcher registers callbacks on a platform; each
 * notifier costs one predictable branch while nobody watches.
 */
#ifndef DMAMAP_BASE_OBSERVER_H
#define DMAMAP_BASE_OBSERVER_H

#include "../lib/lib.h"
#include "device.h"

/* Why bytes of a cache line were lost (the simulated cache). */
enum dmamap_line_loss {
	LOSS_CPU_DATA,    /* CPU-dirty bytes discarded by an invalidate */
	LOSS_DEVICE_DATA, /* device-written bytes overwritten by a write-back */
};

/* Every callback is optional; @ctx is the observer's own. */
struct dmamap_observer {
	void *ctx;
	/* A bus master reads or writes device addresses [@addr, +@len), before the bytes move. */
	void (*device_access)(void *ctx, struct device *dev, dma_addr_t addr, u64 len,
			      bool write);
	/* The library's CPU wrote [@phys, +@len) on the CPU's behalf (a bounce copy). */
	void (*cpu_write)(void *ctx, struct dmamap_platform *p, phys_addr_t phys, size_t len);
	/* @nbytes bytes from @phys of a line were lost (@dev did the maintenance, or NULL). */
	void (*line_lost)(void *ctx, struct dmamap_platform *p, struct device *dev,
			  enum dmamap_line_loss why, phys_addr_t phys, unsigned int nbytes);
};

/* Start or stop calling @o (which must outlive its registration). 0, -ENOSPC or -ENOENT. */
int dmamap__observer_add(struct dmamap_platform *p, const struct dmamap_observer *o);
int dmamap__observer_remove(struct dmamap_platform *p, const struct dmamap_observer *o);

void dmamap__notify_device_access_slow(struct device *dev, dma_addr_t addr, u64 len,
				       bool write);
void dmamap__notify_cpu_write_slow(struct dmamap_platform *p, phys_addr_t phys, size_t len);
void dmamap__notify_line_lost_slow(struct dmamap_platform *p, struct device *dev,
				   enum dmamap_line_loss why, phys_addr_t phys,
				   unsigned int nbytes);

static inline bool dmamap__observed(const struct dmamap_platform *p)
{
	return unlikely(__atomic_load_n(&p->observers.n, __ATOMIC_ACQUIRE) != 0);
}

static inline void dmamap__notify_device_access(struct device *dev, dma_addr_t addr,
						u64 len, bool write)
{
	if (dmamap__observed(dev->plat))
		dmamap__notify_device_access_slow(dev, addr, len, write);
}

static inline void dmamap__notify_cpu_write(struct dmamap_platform *p, phys_addr_t phys,
					    size_t len)
{
	if (dmamap__observed(p))
		dmamap__notify_cpu_write_slow(p, phys, len);
}

static inline void dmamap__notify_line_lost(struct dmamap_platform *p, struct device *dev,
					    enum dmamap_line_loss why, phys_addr_t phys,
					    unsigned int nbytes)
{
	if (dmamap__observed(p))
		dmamap__notify_line_lost_slow(p, dev, why, phys, nbytes);
}

#endif
