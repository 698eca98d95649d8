/* SPDX-License-Identifier: MIT */
/*
 * Trace events: what happened to each buffer, as Linux's tracepoints say
 * it. The DMA API's events carry the names and fields of the kernel's
 * trace/events/dma.h (dma_map_phys, dma_unmap_phys, dma_map_sg and its
 * _err form, dma_unmap_sg, the syncs, dma_alloc/dma_free and their
 * _pages and _sgt forms); swiotlb's bounce and the IOMMU's map, unmap
 * and fault those of trace/events/swiotlb.h and iommu.h; and dmamap adds
 * what only a simulator sees: cache maintenance by range, each device
 * read and write, each interrupt delivered, each checker report.
 *
 * A board without a trace hook pays one predictable branch per API call
 * (the same word the checker's test reads). docs/run.md shows the traces
 * `dmamap run --trace` writes from these events.
 */
#ifndef DMAMAP_TRACE_H
#define DMAMAP_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <dmamap/debug.h>

#ifdef __cplusplus
extern "C" {
#endif

struct scatterlist;

enum dmamap_trace_id {
	/* trace/events/dma.h */
	DMAMAP_TRACE_DMA_MAP_PHYS = 1,
	DMAMAP_TRACE_DMA_UNMAP_PHYS,
	DMAMAP_TRACE_DMA_MAP_SG,
	DMAMAP_TRACE_DMA_MAP_SG_ERR,
	DMAMAP_TRACE_DMA_UNMAP_SG,
	DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_CPU,
	DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_DEVICE,
	DMAMAP_TRACE_DMA_SYNC_SG_FOR_CPU,
	DMAMAP_TRACE_DMA_SYNC_SG_FOR_DEVICE,
	DMAMAP_TRACE_DMA_ALLOC,
	DMAMAP_TRACE_DMA_FREE,
	DMAMAP_TRACE_DMA_ALLOC_PAGES,
	DMAMAP_TRACE_DMA_FREE_PAGES,
	DMAMAP_TRACE_DMA_ALLOC_SGT,
	DMAMAP_TRACE_DMA_ALLOC_SGT_ERR,
	DMAMAP_TRACE_DMA_FREE_SGT,
	/* trace/events/swiotlb.h */
	DMAMAP_TRACE_SWIOTLB_BOUNCED,
	/* trace/events/iommu.h */
	DMAMAP_TRACE_IOMMU_MAP,
	DMAMAP_TRACE_IOMMU_UNMAP,
	DMAMAP_TRACE_IO_PAGE_FAULT,
	/* trace/events/irq.h */
	DMAMAP_TRACE_IRQ_HANDLER_ENTRY,
	/* the simulator's own */
	DMAMAP_TRACE_CACHE_CLEAN,      /* written back: the device will see the CPU's bytes */
	DMAMAP_TRACE_CACHE_INVALIDATE, /* dropped: the CPU will see the device's bytes */
	DMAMAP_TRACE_DEVICE_READ,
	DMAMAP_TRACE_DEVICE_WRITE,
	DMAMAP_TRACE_REPORT,
	DMAMAP_TRACE_ID_COUNT
};

/*
 * One event. Fields an event does not have are zero (dir: DMA_NONE for
 * none); the kernel's event of the same name lists which it has.
 */
struct dmamap_trace_event {
	enum dmamap_trace_id id;
	uint64_t ts_ns;             /* CLOCK_MONOTONIC */
	struct device *dev;         /* NULL: the board's (a report about no device) */
	const char *device;         /* its name, "" for none */
	uint64_t phys_addr;         /* map, alloc_pages, cache ranges, iommu map: physical */
	uint64_t dma_addr;          /* device (or IO virtual) address */
	uint64_t size;
	int dir;                    /* enum dma_data_direction */
	unsigned long attrs;        /* DMA_ATTR_* */
	unsigned int flags;         /* gfp flags of an allocation; io_page_fault: 1 for a write */
	void *virt_addr;            /* the CPU address of an allocation */
	const struct scatterlist *sgl; /* dma_map_sg & co: the list, phys and dma addresses */
	int nents;                  /* its entries */
	int ents;                   /* dma_map_sg: device segments mapped */
	int err;                    /* dma_map_sg_err, dma_alloc_sgt_err: the error */
	uint64_t unmapped_size;     /* iommu unmap */
	unsigned int irq;           /* irq_handler_entry */
	const char *name;           /* irq_handler_entry: the handler's name */
	const struct dmamap_report *report; /* DMAMAP_TRACE_REPORT */
};

typedef void (*dmamap_trace_fn)(void *ctx, const struct dmamap_trace_event *ev);

/**
 * dmamap_set_trace_hook() - receive every trace event of a board
 * @p: the board
 * @fn: called for each event, on the thread where it happens (the device
 *      thread too, on a threaded board); NULL stops tracing
 * @ctx: passed to @fn
 *
 * @fn must not call the DMA API on the board.
 *
 * Return: 0; -EINVAL for a NULL @p; -ENOSPC when the board has no room
 * for another observer (it holds four).
 */
DMAMAP_API int dmamap_set_trace_hook(struct dmamap_platform *p, dmamap_trace_fn fn, void *ctx);

/**
 * dmamap_trace_name() - the event's name ("dma_map_phys", "swiotlb_bounced")
 * @id: DMAMAP_TRACE_*
 *
 * Return: the name; "unknown" for a value out of range.
 */
DMAMAP_API const char *dmamap_trace_name(enum dmamap_trace_id id);

/**
 * dmamap_trace_format() - an event as the kernel prints it (TP_printk)
 * @ev: the event
 * @buf: receives "name: fields", e.g. "dma_map_phys: dma-nc
 *       dir=TO_DEVICE dma_addr=6001000 size=4096 phys_addr=86001000
 *       attrs=0"
 * @len: its size
 *
 * Return: the length of the whole line (as snprintf: it may be cut);
 * -EINVAL for a NULL @ev or @buf.
 */
DMAMAP_API int dmamap_trace_format(const struct dmamap_trace_event *ev, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
