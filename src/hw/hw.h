/* SPDX-License-Identifier: MIT */
/*
 * The simulated hardware on a platform's bus, as the layers above see it:
 * where a device address lands in RAM, and a device's model.
 */
#ifndef DMAMAP_HW_HW_H
#define DMAMAP_HW_HW_H

#include <dmamap/sim.h>
#include "../base/device.h"

/*
 * The RAM behind device addresses [@dma, +@len) of @dev: through its
 * IOMMU's page table (the first page's translation), else its bus.
 * PHYS_NONE when nothing is there.
 */
phys_addr_t dmamap__dev_dma_to_phys(const struct device *dev, dma_addr_t dma, u64 len);

/* Give @dev the model registered as @name and probe it; -EINVAL if unknown, else the probe's error. */
int dmamap__model_attach(struct device *dev, const char *name);
void dmamap__model_detach(struct device *dev);

/* ---- device time (sched.c) ---------------------------------------------- */

/*
 * A board's scheduler: it serialises its models and steps the busy ones at
 * yield points, or on its device thread.
 */
struct dmamap_sched {
	pthread_mutex_t lock; /* every model callback of the board runs under it */
	struct dmamap_platform *plat;
	uint64_t seed, rng; /* seed 0: the fixed schedule */
	uint64_t now;       /* steps run */
	unsigned int n, cap; /* the board's models, in creation order */
	struct device **devs;
	unsigned int pending; /* interrupts raised and not yet delivered */
	bool threaded, stop;
	pthread_t thread;
	pthread_cond_t wake;
	struct dmamap_sched_stats stats;
};

/* The scheduler whose lock this thread holds for a model callback, else NULL. */
extern __thread struct dmamap_sched *dmamap__model_ctx;

/* Entering (@s) or leaving (NULL) a model callback; the layers below learn it as dmamap__in_model. */
static inline void dmamap__model_set_ctx(struct dmamap_sched *s)
{
	dmamap__model_ctx = s;
	dmamap__in_model = s != NULL;
}

/*
 * Take @s's lock, unless this thread holds it already (it runs a model
 * callback, whose helpers call back in): whether it was taken, for
 * dmamap__sched_leave().
 */
bool dmamap__sched_enter(struct dmamap_sched *s);
void dmamap__sched_leave(struct dmamap_sched *s, bool taken);

/* Add @dev (it has a model) to its board's scheduler, made on first use; -ENOMEM. */
int dmamap__sched_add(struct device *dev);
void dmamap__sched_remove(struct device *dev);
/* Stop the device thread and free the scheduler (platform teardown). */
void dmamap__sched_destroy(struct dmamap_platform *p);

/*
 * A yield point of the CPU: each busy device takes its steps (@budget
 * each: 1 for an API call or register access, the microseconds of a
 * delay), then pending interrupts go to their handlers if this thread
 * takes them.
 */
void dmamap__sched_yield(struct dmamap_platform *p, unsigned long budget);
/* The same for every board with devices (barriers, cpu_relax(), delays). */
void dmamap__sched_yield_all(unsigned long budget);
/*
 * A barrier of the CPU: a yield point of every board with devices, where
 * @ev (enum dmamap_order_event) takes effect after the devices stepped.
 */
void dmamap__sched_barrier_all(int ev);
/* Whether any board has a scheduler (yield points must look at them). */
bool dmamap__sched_any(void);
/*
 * Whether a board steps its devices at yield points: then delays and
 * polling timeouts count device time. With only threaded boards (their
 * devices run in real time on their own threads) they count real time.
 */
bool dmamap__device_time(void);

/* Under the scheduler's lock: steps for every busy device, then re-arm the yield flag. */
void dmamap__sched_run_locked(struct dmamap_sched *s, unsigned long budget);
/* Mark @dev busy (lock held); the yield flag and the device thread learn of it. */
void dmamap__sched_busy_locked(struct device *dev);
/* Recompute p->yield_on from the busy devices and pending interrupts (lock held). */
void dmamap__sched_rearm_locked(struct dmamap_sched *s);

/* ---- interrupts (irq.c) ---------------------------------------------------- */

/* Give @dev's model its interrupt numbers; -ENOSPC when the process has none left. */
int dmamap__irq_alloc(struct device *dev);
/* Free them: handlers still installed are reported as a leak and dropped. */
void dmamap__irq_release(struct device *dev);
/* Mark line @line of @dev pending (scheduler lock held). */
void dmamap__irq_raise_locked(struct device *dev, unsigned int line);
/* Call the handlers of @s's pending interrupts, unless this thread has them disabled. */
void dmamap__irq_deliver(struct dmamap_sched *s);
/*
 * A real function's @line fired: its handlers run on this thread now
 * (with whatever else of the device waited), counted in @delivered and
 * @unhandled; a line disabled stays pending until enabled.
 */
void dmamap__irq_fire(struct device *dev, unsigned int line, uint64_t *delivered,
		      uint64_t *unhandled);

/* ---- a real function's MSI-X vectors (msi.c) ------------------------------ */

/*
 * Interrupt numbers for up to @max of @dev's vectors and a thread that
 * waits on them (the function's platform holds it through VFIO): 0, also
 * for a function without MSI-X (it gets no lines); -ENOMEM, -ENOSPC, or
 * the kernel's -errno.
 */
int dmamap__msi_start(struct device *dev, unsigned int max);
/* The thread stopped, the vectors off, the numbers given back. */
void dmamap__msi_stop(struct device *dev);
/* Wake the thread to deliver what waited (an enable_irq(), a new handler). */
void dmamap__msi_kick(struct device *dev);
struct dmamap_msi_stats {
	uint64_t signalled, delivered, unhandled;
};
void dmamap__msi_stats(const struct device *dev, struct dmamap_msi_stats *st);

/* ---- register blocks (io.c) ------------------------------------------------ */

/*
 * Forget @dev's register block: its cookie reads as a bus abort until the
 * block is handed to another device, which takes every other block first
 * (a cookie used after its device is gone is the driver's bug, as an
 * access after iounmap() is).
 */
void dmamap__io_release(struct device *dev);
/*
 * A register access of @dev's model, a yield point: 0 or the model's
 * -errno. An @ordered write drains the CPU's store buffer first (writel()),
 * an unordered one overtakes it (writel_relaxed(), from @site); an
 * @ordered read lets the CPU's later loads see what the device wrote.
 */
int dmamap__mmio(struct device *dev, uint32_t reg, uint32_t *val, bool write, bool ordered,
		 const void *site);

#endif
