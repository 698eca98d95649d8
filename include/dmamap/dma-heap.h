/* SPDX-License-Identifier: MIT */
/*
 * Heaps, as Linux's dma-heap: named allocators that export dma-bufs.
 * Every board has two:
 *
 * - "system": scattered pages, in the largest runs there are (1 MiB,
 *   64 KiB, then single pages), from any zone including high memory. Good
 *   for devices behind an IOMMU; a device without one sees many segments.
 * - "cma": one contiguous run from the board's CMA area. Good for devices
 *   without an IOMMU, as long as they reach the area.
 *
 * Neither knows who will use the buffer. dmamap_buf_alloc_for() does: it
 * takes the devices that will share the buffer and chooses memory every
 * one of them reaches without bouncing (docs/sharing.md has its rules).
 *
 * Heap buffers implement every dma_buf_ops: attachments mapped with
 * dma_map_sgtable() for the importer, begin/end_cpu_access as syncs of
 * every mapped attachment, vmap (one CPU view of the pages) and mmap. The
 * memory is cacheable and zeroed.
 */
#ifndef DMAMAP_DMA_HEAP_H
#define DMAMAP_DMA_HEAP_H

#include <dmamap/dma-buf.h>
#include <dmamap/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dma_heap;

/**
 * dmamap_heap_find() - a board's heap by name
 * @p: the board
 * @name: "system" or "cma"
 *
 * Return: the heap (it lives as long as the board); NULL for a NULL
 * argument, an unknown name, a board without a CMA area asked for "cma",
 * or the host, which has no heaps.
 */
DMAMAP_API struct dma_heap *dmamap_heap_find(struct dmamap_platform *p, const char *name);

/**
 * dma_heap_get_name() - a heap's name
 * @heap: the heap
 *
 * Return: the name; "" for NULL.
 */
DMAMAP_API const char *dma_heap_get_name(struct dma_heap *heap);

/**
 * dma_heap_buffer_alloc() - a buffer from a heap, exported
 * @heap: the heap
 * @len: bytes (rounded up to whole pages)
 * @fd_flags: accepted, unused
 * @heap_flags: must be 0
 *
 * Return: the buffer, with one reference; ERR_PTR(-EINVAL) for a NULL
 * @heap, a zero @len or unknown @heap_flags; ERR_PTR(-ENOMEM) when the
 * heap has no such memory (an injected DMAMAP_FAULT_ALLOC included, and
 * any @len above half the address space); ERR_PTR(-ENOSPC) as
 * dma_buf_export().
 */
DMAMAP_API struct dma_buf *dma_heap_buffer_alloc(struct dma_heap *heap, size_t len,
						 uint32_t fd_flags, u64 heap_flags);

/* What every device of a set needs from a buffer, and why. */
struct dmamap_buf_plan {
	size_t size;                   /* what will be allocated: rounded up to @align */
	bool contiguous;               /* some device has no IOMMU */
	char contiguous_for[DMAMAP_NAME_MAX]; /* the first such device ("" if none) */
	phys_addr_t phys_lo, phys_hi;  /* contiguous: the window every device reaches (last byte) */
	char limit_by[DMAMAP_NAME_MAX];       /* the device whose reach set phys_hi */
	size_t align;                  /* the largest alignment any device needs */
	char align_by[DMAMAP_NAME_MAX];
	bool cpu_maintenance;          /* some device is non-coherent: the CPU brackets do cache maintenance */
	bool coherency_mixed;          /* some snoop and some do not: a CPU bracket between a non-coherent writer and a coherent reader */
	char heap[16];                 /* where the memory came from: "cma", "buddy", "system" */
	int err;                       /* 0, or why it failed (as the return) */
	char why[256];                 /* on failure: the device and the constraint */
};

/**
 * dmamap_buf_plan() - what a buffer shared by @devs must be, without allocating it
 * @devs: the devices that will attach (all of one board)
 * @n: how many (1 to 64)
 * @size: bytes
 * @plan: receives the constraints, or the reason none fits
 *
 * The rules, in order (docs/sharing.md): memory is contiguous if any
 * device lacks an IOMMU (the DMA API cannot say that a device gathers);
 * it lies where every such device reaches it without bouncing (its mask,
 * its bus's limit and window, a dmabounce bus's own limit); it is aligned
 * to the larger of the host page and each non-coherent device's cache
 * line, and its size rounded up to that; a device
 * that bounces everything (a restricted DMA pool, swiotlb=force) cannot
 * share without a copy at all. @plan->why names the device and the rule
 * when the set cannot be met.
 *
 * Return: 0; -EINVAL for a NULL @devs or @plan, an @n out of range, a
 * NULL device, devices of several boards or a zero @size; -ERANGE when no
 * memory of the board is reachable by every device that needs contiguous
 * memory; -EOPNOTSUPP when a device bounces every mapping; -E2BIG when
 * the window they share is smaller than @size.
 */
DMAMAP_API int dmamap_buf_plan(struct device *const *devs, unsigned int n, size_t size,
			       struct dmamap_buf_plan *plan);

/**
 * dmamap_buf_alloc_for() - a buffer every one of @devs reaches without a copy
 * @devs: the devices that will attach
 * @n: how many
 * @size: bytes
 * @plan: receives the plan and where the memory came from, or NULL
 * @err: receives 0 or the negative errno, or NULL
 *
 * Plans as dmamap_buf_plan(), then allocates: contiguous memory from the
 * CMA area when it lies in the shared window, else from the page
 * allocator's zones that do; scattered pages ("system") when every device
 * has an IOMMU. The memory found is checked against every device before
 * it is used; the buffer is a heap buffer (<dmamap/dma-heap.h>).
 *
 * Return: the buffer, with one reference; NULL with *@err set: the errors
 * of dmamap_buf_plan(), -ENOMEM when no memory of the plan is free (an
 * injected DMAMAP_FAULT_ALLOC included), or -ENOSPC as dma_buf_export(),
 * @plan->why saying which.
 */
DMAMAP_API struct dma_buf *dmamap_buf_alloc_for(struct device *const *devs, unsigned int n,
						size_t size, struct dmamap_buf_plan *plan,
						int *err);

#ifdef __cplusplus
}
#endif
#endif
