/* SPDX-License-Identifier: MIT */
/*
 * The simulated SoC's cache model (docs/cache-model.md), seen from tests and tools:
 * counters, the record of lost data, chaos mode, and probe access to the
 * memory view and CPU view of RAM.
 */
#ifndef DMAMAP_SIM_H
#define DMAMAP_SIM_H

#include <dmamap/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmamap_sim_cache_stats {
	uint64_t lines_cleaned;     /* lines a clean looked at */
	uint64_t lines_invalidated; /* lines an invalidate looked at */
	uint64_t lines_written_back;/* CPU-dirty lines copied to memory */
	uint64_t dirty_lines_lost;  /* CPU-dirty lines discarded by an invalidate */
	uint64_t cpu_bytes_lost;
	uint64_t device_bytes_lost; /* device data overwritten by a write-back */
	uint64_t conflicts;         /* lines both CPU-dirty and device-written */
	uint64_t chaos_evictions;
	uint64_t chaos_prefetches;
};

enum dmamap_sim_event_kind {
	DMAMAP_SIM_CPU_DATA_LOST = 1,    /* invalidate discarded CPU-dirty bytes */
	DMAMAP_SIM_DEVICE_DATA_LOST = 2, /* write-back overwrote device-written bytes */
};

/* One line that lost data, with both writers. */
struct dmamap_sim_event {
	enum dmamap_sim_event_kind kind;
	phys_addr_t line;        /* physical address of the cache line */
	unsigned int first_byte; /* first lost byte, offset in the line */
	unsigned int nbytes;     /* bytes lost in the line */
	bool conflict;           /* the line was CPU-dirty and device-written */
	char device[DMAMAP_NAME_MAX]; /* last device that wrote the line, "" if none */
	const char *cause;       /* "invalidate", "clean", "chaos eviction" */
};

/**
 * dmamap_sim_cache_stats() - the cache model's counters
 * @p: simulated platform
 * @s: receives them
 *
 * Return: 0; -EINVAL for a NULL @p or @s, or a host platform.
 */
DMAMAP_API int dmamap_sim_cache_stats(struct dmamap_platform *p,
				      struct dmamap_sim_cache_stats *s);

/**
 * dmamap_sim_events() - the most recent data-loss records, oldest first
 * @p: simulated platform
 * @out: array to fill
 * @max: its size
 *
 * Return: number of records copied (at most @max; the model keeps 256);
 * 0 for a NULL @p or @out, or a host platform.
 */
DMAMAP_API unsigned int dmamap_sim_events(struct dmamap_platform *p,
					  struct dmamap_sim_event *out,
					  unsigned int max);
/**
 * dmamap_sim_events_clear() - forget the records and zero the counters
 * @p: simulated platform; NULL or a host platform is ignored
 */
DMAMAP_API void dmamap_sim_events_clear(struct dmamap_platform *p);

/**
 * dmamap_sim_set_chaos() - evict dirty lines and prefetch clean ones at random
 * @p: simulated platform
 * @seed: seed of the deterministic generator; 0 turns chaos off
 * @permille: chance per cache operation or device access (0: 250; above
 *            1000: 1000)
 *
 * An armv5 board never prefetches (it does not speculate); it still evicts.
 *
 * Return: 0, or -EINVAL for a NULL @p or a host platform.
 */
DMAMAP_API int dmamap_sim_set_chaos(struct dmamap_platform *p, uint64_t seed,
				    unsigned int permille);

/**
 * dmamap_sim_mem_read() - read the memory view, as a debug probe would
 * @p: simulated platform
 * @phys: physical address
 * @dst: destination
 * @len: bytes
 *
 * Return: 0; -EINVAL for a NULL @p or @dst, a zero @len or a host
 * platform; -EFAULT if [@phys, @phys + @len) is not inside one RAM bank.
 */
DMAMAP_API int dmamap_sim_mem_read(struct dmamap_platform *p, phys_addr_t phys,
				   void *dst, size_t len);
/**
 * dmamap_sim_line_state() - what the model knows of one line
 * @p: simulated platform
 * @phys: any address in the line
 * @cpu_dirty: receives whether the CPU view differs from the last fill/clean
 * @dev_changed: receives whether the memory view does
 *
 * Return: 0; -EINVAL for a NULL argument or a host platform; -EFAULT if
 * the line is not RAM.
 */
DMAMAP_API int dmamap_sim_line_state(struct dmamap_platform *p,
				     phys_addr_t phys, bool *cpu_dirty,
				     bool *dev_changed);

/* ---- device time (docs/devices.md) ---------------------------------------- */

/**
 * dmamap_sim_set_schedule() - how far each device gets at each yield point
 * @p: platform (simulated or host: any board with device models)
 * @seed: 0 for the fixed schedule (each busy device one step per yield
 *        point, in device order); otherwise the seed of a generator that
 *        gives each device 0 to 4 steps, now and then none for a while or
 *        everything it has, in a seeded order. The same seed replays the
 *        same run.
 *
 * Return: 0; -EINVAL for a NULL @p; -ENOMEM if the board's scheduler
 * cannot be made.
 */
DMAMAP_API int dmamap_sim_set_schedule(struct dmamap_platform *p, uint64_t seed);

/**
 * dmamap_sim_set_threaded() - run the devices on a thread of their own
 * @p: platform
 * @on: true: a device thread steps busy devices and delivers interrupts,
 *      as fast as it can; yield points no longer step anything. false:
 *      stop it (waits for it) and go back to the seeded or fixed schedule.
 *
 * For thread-safety tests: runs are no longer reproducible.
 *
 * Return: 0; -EINVAL for a NULL @p; -ENOMEM if the board's scheduler
 * cannot be made; -EAGAIN if the thread cannot start; -EDEADLK to stop it
 * from the device thread itself (an interrupt handler).
 */
DMAMAP_API int dmamap_sim_set_threaded(struct dmamap_platform *p, bool on);

/**
 * dmamap_sim_threaded() - whether @p's devices run on a thread of their own
 * @p: platform
 *
 * In threaded mode dmamap_poll_elapsed() counts the clock, and the device
 * thread may wait for a core on a loaded machine: a driver that gives up
 * after a while of it may give such a board longer.
 *
 * Return: true while dmamap_sim_set_threaded(@p, true) is in force; false
 * otherwise and for a NULL @p.
 */
DMAMAP_API bool dmamap_sim_threaded(const struct dmamap_platform *p);

/**
 * dmamap_sim_run_devices() - step the devices until all are idle
 * @p: platform
 * @max_steps: give up after this many steps in all (0: 1,000,000)
 *
 * Interrupts that become pending are delivered (to this thread, if it has
 * them enabled), as at any yield point. It ends as a full barrier does on a
 * weakly-ordered board: the CPU's stores have reached the devices and
 * their writes its loads.
 *
 * Return: the steps run; -EINVAL for a NULL @p; -EBUSY if the devices were
 * still busy after @max_steps (a device that never idles). In threaded
 * mode, 0 at once: the device thread runs them.
 */
DMAMAP_API long dmamap_sim_run_devices(struct dmamap_platform *p, unsigned long max_steps);

struct dmamap_sched_stats {
	uint64_t yields;      /* yield points that found a device busy */
	uint64_t steps;       /* device steps run */
	uint64_t irqs_raised;
	uint64_t irqs_delivered; /* handler calls */
	uint64_t irqs_unhandled; /* deliveries every handler answered IRQ_NONE */
};

/**
 * dmamap_sim_sched_stats() - what the scheduler did on @p
 * @p: platform
 * @s: receives the counters
 *
 * Return: 0, or -EINVAL for a NULL argument.
 */
DMAMAP_API int dmamap_sim_sched_stats(struct dmamap_platform *p, struct dmamap_sched_stats *s);

/* ---- memory order (docs/ordering.md) -------------------------------------- */

/**
 * dmamap_sim_set_memory_model() - how the board orders CPU stores and device writes
 * @p: a simulated platform
 * @model: DMAMAP_MEMORY_WEAK (the store buffer and out-of-order loads of
 *         ARMv8) or DMAMAP_MEMORY_TSO (program order: what x86 gives)
 *
 * The board's description sets it (dmamap,memory-model in a device tree);
 * this changes it for the coherent allocations made from now on. Going to
 * TSO first lets every buffered store and device write through. While the
 * board's devices run threaded the model is paused (their thread sees the
 * host's own order) and resumes when they stop.
 *
 * Return: 0; -EINVAL for a NULL @p, the host or an unknown @model.
 */
DMAMAP_API int dmamap_sim_set_memory_model(struct dmamap_platform *p,
					   enum dmamap_memory_model model);

/**
 * dmamap_sim_memory_model() - the board's memory model
 * @p: a simulated platform
 *
 * Return: DMAMAP_MEMORY_WEAK or DMAMAP_MEMORY_TSO; -EINVAL for a NULL @p
 * or the host.
 */
DMAMAP_API int dmamap_sim_memory_model(struct dmamap_platform *p);

struct dmamap_sim_order_stats {
	uint64_t regions;         /* coherent allocations the model follows now */
	uint64_t stores_early;    /* ownership words a polling device saw before earlier stores */
	uint64_t stale_reads;     /* device reads that missed a CPU store still buffered */
	uint64_t writes_held;     /* device writes the CPU saw after a newer one */
	uint64_t barriers;        /* barriers and ordered register accesses that drained */
	uint64_t drains;          /* times the buffer drained on its own (no barrier came) */
};

/**
 * dmamap_sim_order_stats() - what the memory-order model did on @p
 * @p: platform
 * @s: receives the counters (all zero on a TSO board or the host)
 *
 * Return: 0, or -EINVAL for a NULL argument.
 */
DMAMAP_API int dmamap_sim_order_stats(struct dmamap_platform *p, struct dmamap_sim_order_stats *s);

#ifdef __cplusplus
}
#endif
#endif
