/* SPDX-License-Identifier: MIT */
/*
 * Reports: every problem the library sees (bad arguments, unreachable
 * buffers, device faults, data lost in the cache) becomes one report of a
 * fixed kind, counted per platform and, with the checker on, logged as a
 * kernel-like line. Strict mode aborts on the first report.
 *
 * The checker (docs/checker.md) is Linux's dma-debug and more: with it on, every
 * live mapping and allocation is tracked, each unmap, sync and free is
 * checked against what was mapped, and on a simulated board every device
 * access and every cache line is checked too. When off it costs one
 * predictable branch per call.
 */
#ifndef DMAMAP_DEBUG_H
#define DMAMAP_DEBUG_H

#include <dmamap/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

enum dmamap_dbg_kind {
	DMAMAP_DBG_NULL_DEVICE = 1,
	DMAMAP_DBG_INVALID_DIRECTION,
	DMAMAP_DBG_ZERO_SIZE,
	DMAMAP_DBG_INVALID_ARGUMENT,
	DMAMAP_DBG_UNMAP_INVALID,   /* unmap/sync of an address that is not mapped */
	DMAMAP_DBG_UNREACHABLE,     /* buffer outside the device's window or mask */
	DMAMAP_DBG_NOT_LINEAR,      /* buffer not in the linear map (stack, alias) */
	DMAMAP_DBG_MASK_UNSUPPORTED,
	DMAMAP_DBG_ALLOC_FAILED,
	DMAMAP_DBG_FREE_INVALID,    /* free of memory that was not allocated so */
	DMAMAP_DBG_DEVICE_FAULT,    /* device access outside its window */
	DMAMAP_DBG_CPU_DATA_LOST,   /* invalidate discarded CPU-dirty bytes */
	DMAMAP_DBG_DEVICE_DATA_LOST,/* write-back overwrote device bytes */
	/* The checker's kinds: dma-debug's checks... */
	DMAMAP_DBG_NOT_MAPPED,      /* unmap/free of an address that is not live */
	DMAMAP_DBG_WRONG_SIZE,      /* unmap/free size differs from the map's */
	DMAMAP_DBG_WRONG_TYPE,      /* single vs page vs sg vs coherent vs resource */
	DMAMAP_DBG_WRONG_CPU_ADDR,  /* coherent free with another CPU address */
	DMAMAP_DBG_SG_NENTS,        /* unmap_sg nents differ from map_sg's */
	DMAMAP_DBG_WRONG_DIRECTION, /* unmap direction differs from the map's */
	DMAMAP_DBG_MAP_ERR_NOT_CHECKED, /* dma_mapping_error() not called before unmap/use */
	DMAMAP_DBG_SYNC_NOT_MAPPED, /* sync of an address that is not live */
	DMAMAP_DBG_SYNC_OUTSIDE,    /* sync range runs past the mapping */
	DMAMAP_DBG_SYNC_WRONG_DIRECTION,
	DMAMAP_DBG_SYNC_READONLY_FOR_CPU,    /* TO_DEVICE memory synced for the CPU */
	DMAMAP_DBG_SYNC_WRITEONLY_FOR_DEVICE,/* FROM_DEVICE memory synced for the device */
	DMAMAP_DBG_MAP_STACK,       /* mapping the current thread's stack */
	DMAMAP_DBG_SG_SEGMENT_TOO_LONG, /* longer than the device's max segment size */
	DMAMAP_DBG_SG_SEGMENT_BOUNDARY, /* crosses the device's segment boundary */
	DMAMAP_DBG_CACHELINE_OVERLAP,   /* two live non-TO_DEVICE mappings share a line */
	DMAMAP_DBG_LEAK,            /* live mappings when a device is destroyed */
	/* ...and what only a simulator sees */
	DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED, /* device touched memory it has no live mapping of */
	DMAMAP_DBG_DEVICE_WRITE_READONLY,  /* device wrote a TO_DEVICE mapping */
	DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS, /* CPU wrote a buffer the device owned */
	DMAMAP_DBG_MAP_UNALIGNED,   /* non-coherent device-writable buffer not line aligned */
	DMAMAP_DBG_CHECKER_DISABLED,/* the checker ran out of memory and turned itself off */
	/* Added later, kept last so the values above never change. */
	DMAMAP_DBG_MAP_RODATA,      /* mapping code or read-only data of the process */
	DMAMAP_DBG_MISSING_SYNC_FOR_DEVICE, /* device read bytes the CPU changed without a sync for it */
	DMAMAP_DBG_CACHELINE_OVERLAP_LIMIT, /* more mappings of one line than dma-debug counts */
	DMAMAP_DBG_WRONG_ATTRS,     /* free with other allocation attributes than the alloc's */
	DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS, /* ownership mode: a trapped CPU access */
	DMAMAP_DBG_IRQ_MISUSE,      /* free_irq() of no handler, enable_irq() unbalanced, handler left at destroy */
	DMAMAP_DBG_MMIO_ERROR,      /* a register access the device refused, or outside its block */
	DMAMAP_DBG_DEVICE_ACCESS_CPU_OWNS, /* device wrote a mapping a sync gave to the CPU, with no sync back */
	DMAMAP_DBG_DESCRIPTOR_WHILE_DEVICE_OWNS, /* the model saw a descriptor change while it owned it */
	DMAMAP_DBG_UNORDERED_DESCRIPTOR, /* device took a descriptor whose stores were not ordered before its ownership word's */
	DMAMAP_DBG_UNORDERED_DOORBELL,   /* device read a store a relaxed register write overtook */
	DMAMAP_DBG_UNORDERED_COMPLETION, /* CPU reused a descriptor before a read barrier after its completion */
	DMAMAP_DBG_DMABUF_FENCE_NOT_WAITED, /* device touched a shared buffer before a conflicting fence signalled */
	DMAMAP_DBG_DMABUF_CPU_UNBRACKETED,  /* non-coherent importer read what the CPU wrote outside begin/end_cpu_access */
	DMAMAP_DBG_DMABUF_STILL_MAPPED,     /* a shared buffer freed, or an importer detached, while still mapped */
	DMAMAP_DBG_DMABUF_BOUNCED,          /* an importer's mapping of a shared buffer bounced: a copy */
	DMAMAP_DBG_KIND_COUNT
};

/* One report, as the checker saw it. */
struct dmamap_report {
	enum dmamap_dbg_kind kind;
	char device[DMAMAP_NAME_MAX]; /* "" for no device */
	dma_addr_t addr;              /* device address concerned (0 if none) */
	uint64_t size;                /* size concerned (0 if none) */
	int direction;                /* DMA_* of the mapping, or DMA_NONE */
	void *mapped_at;              /* code address of the map call (0 if unknown) */
	char text[480];               /* the kernel-like line, without "DMA-API: dev: " */
};

typedef void (*dmamap_report_fn)(void *ctx, const struct dmamap_report *r);

/**
 * dmamap_set_report_hook() - receive every report as a structure
 * @p: platform; NULL is ignored (the reports about no platform, a NULL
 *     device's, cannot be hooked)
 * @fn: hook, or NULL to stop
 * @ctx: passed to @fn
 *
 * The hook is called for every report (filter and print limit do not
 * apply), whether the checker is on or not, before strict mode aborts.
 */
DMAMAP_API void dmamap_set_report_hook(struct dmamap_platform *p,
				       dmamap_report_fn fn, void *ctx);

/**
 * dmamap_report_json() - a report as one JSON object
 * @r: report
 * @buf: destination
 * @len: its size
 *
 * Return: the length written (without the NUL); -ENOSPC if @buf was too
 * small (it then holds a truncated, NUL-terminated prefix); -EINVAL for a
 * NULL @r or @buf or a zero @len.
 */
DMAMAP_API int dmamap_report_json(const struct dmamap_report *r, char *buf,
				  size_t len);

/**
 * dmamap_debug_set_filter() - log only reports about one device
 * @p: platform
 * @device: device name, or NULL for all devices
 *
 * Counters still count every report, and a report hook still gets it.
 * The name is not looked up: a device made later under it is logged.
 *
 * Return: 0; -EINVAL for a NULL @p or a name of %DMAMAP_NAME_MAX bytes or
 * longer, the filter unchanged.
 */
DMAMAP_API int dmamap_debug_set_filter(struct dmamap_platform *p,
				       const char *device);

/**
 * dmamap_debug_set_print_limit() - log at most @n reports (0: no limit)
 * @p: platform; NULL is ignored
 * @n: limit; reports past it are counted, not logged
 *
 * The count of reports logged starts again from 0.
 */
DMAMAP_API void dmamap_debug_set_print_limit(struct dmamap_platform *p,
					     unsigned long n);

/**
 * dmamap_debug_live() - live mappings and allocations the checker tracks
 * @dev: a device, or NULL with @p for every device of @p
 * @p: platform (used when @dev is NULL)
 *
 * Return: the count; 0 when the checker is off, or @dev and @p are both
 * NULL.
 */
DMAMAP_API unsigned long dmamap_debug_live(struct device *dev,
					   struct dmamap_platform *p);

/**
 * dmamap_debug_driver_released() - a device's driver let it go: report what it left
 * @dev: the device
 *
 * What dma-debug does when a driver unbinds, and what
 * device_release_driver() calls: with the checker on, one report of kind
 * leak ("device driver has pending DMA allocations while released from
 * device", with the count and one entry) if mappings or allocations of
 * @dev are live, which the checker then forgets.
 *
 * Return: how many were live; 0 when the checker is off or @dev is NULL.
 */
DMAMAP_API unsigned long dmamap_debug_driver_released(struct device *dev);

/**
 * dmamap_dbg_kind_name() - stable short name of a report kind
 * @kind: DMAMAP_DBG_*
 *
 * Return: the name ("invalid-direction", "leak"...); "none" for 0,
 * "unknown" for a value out of range.
 */
DMAMAP_API const char *dmamap_dbg_kind_name(enum dmamap_dbg_kind kind);

/**
 * dmamap_debug_enable() - turn the checker on or off (default: DMAMAP_DEBUG)
 * @p: platform; NULL is ignored
 * @on: true to track mappings and log reports
 *
 * Turn it on before the first mapping you want checked: mappings made
 * while it was off are unknown to it. Turning it off forgets them all.
 * If it cannot get its memory, or cannot register to hear device
 * accesses, it stays off and says so with a CHECKER_DISABLED report; it
 * turns itself off the same way when it runs out later (an injected
 * DMAMAP_FAULT_ALLOC included), and never fails the caller's call.
 */
DMAMAP_API void dmamap_debug_enable(struct dmamap_platform *p, bool on);
/**
 * dmamap_debug_set_ownership() - trap CPU accesses to memory a device owns
 * @p: a simulated board's platform
 * @on: true to turn the mode on (the checker with it), false to stop
 *      guarding new mappings
 *
 * While a non-coherent device owns a streaming buffer (from the map or a
 * dma_sync_*_for_device() to the unmap or a dma_sync_*_for_cpu()), the
 * CPU's access to the buffer's whole pages is taken away (mprotect). A CPU
 * read or write of them traps, is reported
 * (DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS, naming the buffer, where it
 * was mapped, the address and, on x86, whether it was a read or a write)
 * and then goes on, the page given back; in strict mode the report aborts.
 *
 * Page granularity: only pages wholly inside the buffer are guarded. A
 * buffer smaller than a page (most kmalloc'd ones) or the partial pages at
 * a buffer's ends are not, so a stray access there is not seen; map
 * whole pages (dmamap_alloc_pages(), page-sized kmalloc) to cover them.
 * Coherent devices are not guarded: they read the CPU's view.
 *
 * DMAMAP_OWNERSHIP=1 turns it on for every simulated board. It installs a
 * SIGSEGV handler that passes faults it does not own to the one before it.
 *
 * Return: 0; -EINVAL for a NULL @p; -EOPNOTSUPP on the host, where a
 * device reads the CPU's own memory and there is no view to take away.
 */
DMAMAP_API int dmamap_debug_set_ownership(struct dmamap_platform *p, bool on);
/**
 * dmamap_debug_enabled() - whether a platform's checker is on
 * @p: platform
 *
 * Return: true if it is on; false if off, turned off for lack of memory,
 * or @p is NULL.
 */
DMAMAP_API bool dmamap_debug_enabled(const struct dmamap_platform *p);

/**
 * dmamap_report_count() - reports of one kind so far
 * @p: platform, or NULL for reports about no platform (NULL device)
 * @kind: the kind, or 0 for all kinds
 *
 * Reports are counted whether the checker is on or not.
 *
 * Return: the count; 0 for a @kind out of range.
 */
DMAMAP_API unsigned long dmamap_report_count(struct dmamap_platform *p,
					     enum dmamap_dbg_kind kind);
/**
 * dmamap_report_reset() - zero the report counters
 * @p: platform, or NULL for the counters of reports about no platform
 */
DMAMAP_API void dmamap_report_reset(struct dmamap_platform *p);

#ifdef __cplusplus
}
#endif
#endif
