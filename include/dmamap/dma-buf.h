/* SPDX-License-Identifier: MIT */
/*
 * Buffers shared between devices, as Linux's <linux/dma-buf.h>: one
 * driver (the exporter) owns the memory and describes it with a dma_buf;
 * every other device that uses it (an importer) attaches, and gets the
 * buffer mapped through its own DMA operations: one IOVA range behind an
 * IOMMU, the pages' own addresses on a direct bus, bounce slots where it
 * cannot reach them. The CPU brackets its accesses with
 * dma_buf_begin_cpu_access()/dma_buf_end_cpu_access(), which do the cache
 * maintenance every non-coherent importer needs; the buffer's reservation
 * (dmabuf->resv, <dmamap/dma-resv.h>) carries the fences of the DMA in
 * flight on it.
 *
 * Heaps (<dmamap/dma-heap.h>) export buffers of their own, and
 * dmamap_buf_alloc_for() chooses memory every listed device reaches
 * without a copy. docs/sharing.md is the model and its rules.
 *
 * Error convention: as Linux, the calls that return a pointer return an
 * ERR_PTR() on failure (<dmamap/err.h>); actions return 0 or a negative
 * errno. With the checker on, the misuses it can see are reported:
 * docs/sharing.md lists them.
 */
#ifndef DMAMAP_DMA_BUF_H
#define DMAMAP_DMA_BUF_H

#include <dmamap/types.h>
#include <dmamap/dma-direction.h>
#include <dmamap/dma-mapping.h>
#include <dmamap/dma-resv.h>
#include <dmamap/err.h>
#include <dmamap/scatterlist.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dma_buf;
struct dma_buf_attachment;

/* A kernel virtual address, as <linux/iosys-map.h>: system memory only here. */
struct iosys_map {
	void *vaddr;
	bool is_iomem; /* always false */
};

/* What the exporter implements. map_dma_buf, unmap_dma_buf and release are required. */
struct dma_buf_ops {
	int (*attach)(struct dma_buf *dmabuf, struct dma_buf_attachment *attach);
	void (*detach)(struct dma_buf *dmabuf, struct dma_buf_attachment *attach);
	/* The buffer mapped for attach->dev, or an ERR_PTR(). */
	struct sg_table *(*map_dma_buf)(struct dma_buf_attachment *attach,
					enum dma_data_direction dir);
	void (*unmap_dma_buf)(struct dma_buf_attachment *attach, struct sg_table *sgt,
			      enum dma_data_direction dir);
	void (*release)(struct dma_buf *dmabuf);
	int (*begin_cpu_access)(struct dma_buf *dmabuf, enum dma_data_direction dir);
	int (*end_cpu_access)(struct dma_buf *dmabuf, enum dma_data_direction dir);
	int (*mmap)(struct dma_buf *dmabuf, struct vm_area_struct *vma);
	int (*vmap)(struct dma_buf *dmabuf, struct iosys_map *map);
	void (*vunmap)(struct dma_buf *dmabuf, struct iosys_map *map);
};

/* What dma_buf_export() needs: start from DEFINE_DMA_BUF_EXPORT_INFO(). */
struct dma_buf_export_info {
	const char *exp_name;          /* the exporter, for reports */
	const struct dma_buf_ops *ops;
	size_t size;
	int flags;                     /* accepted, unused (file flags) */
	struct dma_resv *resv;         /* NULL: the buffer gets its own */
	void *priv;
	struct dmamap_platform *plat;  /* dmamap: the board the memory is on (required) */
};

#define DEFINE_DMA_BUF_EXPORT_INFO(name) struct dma_buf_export_info name = { .exp_name = __FILE__ }

/* A shared buffer. The fields are read-only to everyone but the library. */
struct dma_buf {
	size_t size;
	const struct dma_buf_ops *ops;
	const char *exp_name;
	char name[32];                 /* dma_buf_set_name(); "" until then */
	void *priv;                    /* the exporter's */
	struct dma_resv *resv;
	struct dmamap_platform *plat;
};

/* One importer's use of a buffer. */
struct dma_buf_attachment {
	struct dma_buf *dmabuf;
	struct device *dev;
	void *priv;                    /* the exporter's */
	void *importer_priv;           /* the importer's */
};

/* What a buffer cost so far: dmamap_dma_buf_stats(). */
struct dmamap_dma_buf_stats {
	uint64_t attachments;          /* live */
	uint64_t maps;                 /* dma_buf_map_attachment() calls that succeeded */
	uint64_t bounced_maps;         /* ...of which bounced some bytes */
	uint64_t bytes_bounced;        /* copies made by bouncing: maps and CPU-access syncs */
	uint64_t cpu_accesses;         /* begin_cpu_access brackets */
	uint64_t cache_bytes_cleaned;  /* cache maintenance done for the importers */
	uint64_t cache_bytes_invalidated;
	uint64_t fence_waits;          /* implicit waits at begin_cpu_access that found work in flight */
};

/**
 * dma_buf_export() - wrap an exporter's memory in a dma_buf
 * @info: what it is; ops with map_dma_buf, unmap_dma_buf and release; a
 *        size; the board (plat)
 *
 * The buffer has one reference: dma_buf_put() it, or dma_buf_fd() it.
 *
 * Return: the buffer; ERR_PTR(-EINVAL) for a NULL @info, missing ops or
 * board, or a zero size (reported as invalid-argument); ERR_PTR(-ENOMEM)
 * without memory (an injected DMAMAP_FAULT_ALLOC included);
 * ERR_PTR(-ENOSPC) when the board has no room for the checker's watcher
 * (its first shared buffer, with every observer slot taken).
 */
DMAMAP_API struct dma_buf *dma_buf_export(const struct dma_buf_export_info *info);

/**
 * dma_buf_set_name() - name the buffer, for reports and stats
 * @dmabuf: the buffer
 * @name: the name (cut at 31 bytes)
 *
 * Return: 0; -EINVAL for a NULL argument.
 */
DMAMAP_API int dma_buf_set_name(struct dma_buf *dmabuf, const char *name);

/**
 * dma_buf_fd() - a handle for the buffer, as the kernel gives user space a file descriptor
 * @dmabuf: the buffer; the handle takes over the caller's reference
 * @flags: accepted, unused (O_CLOEXEC...)
 *
 * Handles are small non-negative numbers of the process, not file
 * descriptors: pass them between the parts of a program as an fd is
 * passed between processes, and dmamap_dma_buf_close() them.
 *
 * Return: the handle; -EINVAL for a NULL @dmabuf; -ENOMEM without memory
 * (an injected DMAMAP_FAULT_ALLOC included); -EMFILE past 65536 handles.
 */
DMAMAP_API int dma_buf_fd(struct dma_buf *dmabuf, int flags);

/**
 * dma_buf_get() - the buffer behind a handle, with a reference
 * @fd: a handle from dma_buf_fd()
 *
 * Return: the buffer (dma_buf_put() it); ERR_PTR(-EBADF) for a handle that
 * is not open.
 */
DMAMAP_API struct dma_buf *dma_buf_get(int fd);

/**
 * dmamap_dma_buf_close() - close a handle, as close() closes a dma-buf fd
 * @fd: the handle
 *
 * Drops the handle's reference.
 *
 * Return: 0; -EBADF for a handle that is not open.
 */
DMAMAP_API int dmamap_dma_buf_close(int fd);

/**
 * dma_buf_put() - drop a reference
 * @dmabuf: the buffer; NULL or an ERR_PTR() is ignored
 *
 * The last reference releases the buffer (ops->release). An importer
 * still attached then is reported (dma-buf-still-mapped, with whether it
 * was mapped), unmapped and detached, so that nothing leaks; a buffer
 * still vmapped likewise. A put that would take a reference an open
 * handle holds is refused and reported (invalid-argument): close the
 * handle instead. After the buffer's board was destroyed, this and
 * dmamap_dma_buf_close() are the only calls left that do anything.
 */
DMAMAP_API void dma_buf_put(struct dma_buf *dmabuf);

/**
 * dma_buf_attach() - a device will use the buffer
 * @dmabuf: the buffer
 * @dev: the importing device
 *
 * Return: the attachment; ERR_PTR(-EINVAL) for a NULL or ERR_PTR() @dmabuf
 * or a NULL @dev, or a device of another board; ERR_PTR(-ENODEV) when the
 * buffer's board is gone; ERR_PTR(-ENOMEM) without memory; the
 * exporter's attach error.
 */
DMAMAP_API struct dma_buf_attachment *dma_buf_attach(struct dma_buf *dmabuf, struct device *dev);

/**
 * dma_buf_detach() - the device is done with the buffer
 * @dmabuf: the buffer
 * @attach: its attachment
 *
 * An attachment still mapped is reported (dma-buf-still-mapped) and
 * unmapped first. An attachment of another buffer, or one detached
 * already, is refused and reported (invalid-argument) without being
 * read.
 */
DMAMAP_API void dma_buf_detach(struct dma_buf *dmabuf, struct dma_buf_attachment *attach);

/**
 * dma_buf_map_attachment() - the buffer's device addresses for the importer
 * @attach: the attachment
 * @dir: DMA_TO_DEVICE, DMA_FROM_DEVICE or DMA_BIDIRECTIONAL
 *
 * The exporter maps the buffer through the importer's own DMA operations
 * (for heap buffers: dma_map_sgtable() of the pages). The table's DMA
 * entries (sg_dma_address(), sg_dma_len(), nents) are what the importer
 * programs its device with; after this call the device owns the buffer,
 * until dma_buf_begin_cpu_access(). Bytes that had to bounce are counted
 * (dmamap_dma_buf_stats()) and reported as dma-buf-bounced: the copy a
 * shared buffer exists to avoid.
 *
 * Return: the table; ERR_PTR(-EINVAL) for a NULL @attach, a bad @dir or
 * an attachment already mapped; ERR_PTR(-ENODEV) when the buffer's board
 * is gone; the exporter's or the mapping's error (a heap buffer's:
 * -ENOMEM, -EINVAL for a device whose largest segment is under a page).
 */
DMAMAP_API struct sg_table *dma_buf_map_attachment(struct dma_buf_attachment *attach,
						   enum dma_data_direction dir);

/**
 * dma_buf_unmap_attachment() - give the mapping back
 * @attach: the attachment
 * @sgt: the table dma_buf_map_attachment() returned
 * @dir: the direction it was mapped with
 *
 * A table or direction other than the mapping's is refused and logged.
 */
DMAMAP_API void dma_buf_unmap_attachment(struct dma_buf_attachment *attach,
					 struct sg_table *sgt, enum dma_data_direction dir);

/**
 * dma_buf_begin_cpu_access() - the CPU is about to read or write the buffer
 * @dmabuf: the buffer
 * @dir: DMA_FROM_DEVICE to read what devices wrote, DMA_TO_DEVICE to write
 *       for them, DMA_BIDIRECTIONAL for both
 *
 * Waits first for the DMA in flight the access conflicts with (the
 * buffer's fences: every one for a write, the writes for a read), then
 * the exporter hands every mapped attachment to the CPU (for heap
 * buffers: dma_sync_sgtable_for_cpu(), an invalidate for each
 * non-coherent importer, a copy back for each bounced one).
 *
 * Like Linux's, it may not be called from an interrupt handler (the
 * buffer's lock is held across the syncs, which are yield points).
 *
 * Return: 0; -EINVAL for a NULL @dmabuf or a bad @dir; -ENODEV when the
 * buffer's board is gone; -ETIMEDOUT when the DMA in flight did not
 * finish within 10 s (device time on a board stepped at yield points):
 * a fence nobody signals must not hang the program, where Linux waits for
 * ever; the wait's other errors (-EDEADLK), or the exporter's.
 */
DMAMAP_API int dma_buf_begin_cpu_access(struct dma_buf *dmabuf, enum dma_data_direction dir);

/**
 * dma_buf_end_cpu_access() - the CPU is done: give the buffer back to the devices
 * @dmabuf: the buffer
 * @dir: as given to dma_buf_begin_cpu_access()
 *
 * For heap buffers, dma_sync_sgtable_for_device() for every mapped
 * attachment: a clean for each non-coherent importer, a copy out for each
 * bounced one. An end without a begin is logged and does the maintenance
 * anyway.
 *
 * Return: 0; -EINVAL for a NULL @dmabuf or a bad @dir; -ENODEV when the
 * buffer's board is gone; the exporter's error.
 */
DMAMAP_API int dma_buf_end_cpu_access(struct dma_buf *dmabuf, enum dma_data_direction dir);

/**
 * dma_buf_vmap() - a CPU address for the whole buffer
 * @dmabuf: the buffer
 * @map: receives it
 *
 * Counted: the buffer keeps one view for all its vmaps. Accesses through
 * it still need dma_buf_begin_cpu_access()/_end_cpu_access().
 *
 * Return: 0; -EINVAL for a NULL argument; -ENODEV when the buffer's
 * board is gone; -EOPNOTSUPP if the exporter has no vmap; its error.
 */
DMAMAP_API int dma_buf_vmap(struct dma_buf *dmabuf, struct iosys_map *map);

/**
 * dma_buf_vunmap() - give back a dma_buf_vmap() address
 * @dmabuf: the buffer
 * @map: what dma_buf_vmap() filled; cleared
 *
 * One more vunmap than vmaps is refused and logged.
 */
DMAMAP_API void dma_buf_vunmap(struct dma_buf *dmabuf, struct iosys_map *map);

/**
 * dma_buf_mmap() - map the buffer into the process, as a user mmap of its fd
 * @dmabuf: the buffer
 * @vma: the mapping: vm_start 0 or a host-page-aligned hint, vm_end -
 *       vm_start the length, protection as for dma_mmap_attrs(); release
 *       with dmamap_munmap()
 * @pgoff: first page of the buffer to map
 *
 * Return: 0; -EINVAL for a NULL argument, a length that is not whole
 * pages or a range past the buffer's end; -ENODEV when the buffer's
 * board is gone; -EOPNOTSUPP if the exporter has no mmap; its error.
 */
DMAMAP_API int dma_buf_mmap(struct dma_buf *dmabuf, struct vm_area_struct *vma,
			    unsigned long pgoff);

/**
 * dmamap_dma_buf_stats() - what a buffer cost so far
 * @dmabuf: the buffer
 * @s: receives the counters
 *
 * Return: 0; -EINVAL for a NULL argument.
 */
DMAMAP_API int dmamap_dma_buf_stats(struct dma_buf *dmabuf, struct dmamap_dma_buf_stats *s);

#ifdef __cplusplus
}
#endif
#endif
