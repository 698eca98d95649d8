/* SPDX-License-Identifier: MIT */
/*
 * What the dma-buf files share: the reservation object's inside, a
 * buffer's and an attachment's bookkeeping around their public parts, the
 * translation of an importer's device addresses back to the buffer, and
 * the heap buffers' memory.
 */
#ifndef DMAMAP_CORE_DMA_BUF_H
#define DMAMAP_CORE_DMA_BUF_H

#include <pthread.h>
#include <dmamap/dma-buf.h>
#include <dmamap/dma-heap.h>
#include "../base/observer.h"

struct dmamap__resv_entry {
	struct dma_fence *fence;
	enum dma_resv_usage usage;
};

struct dma_resv {
	pthread_mutex_t lock;            /* dma_resv_lock() */
	int inner;                       /* the array: never held across a call out */
	struct dmamap__resv_entry *v;
	unsigned int n, cap, reserved;
};

int dmamap__resv_init(struct dma_resv *obj);
void dmamap__resv_fini(struct dma_resv *obj);
/* What the checker needs of a fence, copied while the fence is surely alive. */
struct dmamap__fence_seen {
	u64 context, seqno;
	const struct device *dev;
	enum dma_resv_usage usage;
};
/* Whether an unsignalled fence an access by @dev conflicts with (not @dev's own) is there; *@seen describes it. */
bool dmamap__resv_conflict(struct dma_resv *obj, const struct device *dev, bool write,
			   struct dmamap__fence_seen *seen);
bool dmamap__fence_signalled(const struct dma_fence *fence);

/* One piece of an importer's mapping: device addresses [dma, +len) are the buffer's [off, +len). */
struct dmamap__dmabuf_run {
	dma_addr_t dma;
	u64 len;
	phys_addr_t phys;
};

struct dmamap__attachment {
	struct dma_buf_attachment pub;
	struct dmamap__attachment *next;
	struct sg_table *sgt;            /* NULL while unmapped */
	enum dma_data_direction dir;
	bool coherent;
	bool bounced;                    /* some of it went through bounce slots */
	/* Checked from device steps: published under the buffer list's lock. */
	struct dmamap__dmabuf_run *runs;
	unsigned int nruns;
	struct dmamap__attachment *next_mapped; /* the watch's list of mapped attachments */
	u64 reported_context, reported_seqno;   /* the last fence reported for it: once each */
	bool dirty_reported;
};

struct dmamap__dmabuf {
	struct dma_buf pub;
	int refs;
	int handles;                     /* open handles, each holding one of @refs */
	pthread_mutex_t lock;            /* attachments, vmap, cpu access */
	struct dmamap__attachment *attachments;
	struct dma_resv own_resv;
	unsigned int vmaps;
	struct iosys_map vmap;
	int cpu_depth;                   /* begin_cpu_access brackets open */
	bool orphan;                     /* its board went: only the references are left */
	struct dmamap_dma_buf_stats stats;
	struct dmamap__dmabuf_watch *watch;   /* its board's (dma_buf_watch.c) */
};

static inline struct dmamap__dmabuf *dmamap__dmabuf_of(struct dma_buf *b)
{
	return (struct dmamap__dmabuf *)b;
}

/* The checks that watch device accesses (dma_buf_watch.c). */
struct dmamap__dmabuf_watch;
int dmamap__dmabuf_watch(struct dmamap__dmabuf *b);
void dmamap__dmabuf_unwatch(struct dmamap__dmabuf *b);
/* Publish or withdraw an attachment's runs, for the watcher. */
void dmamap__dmabuf_publish(struct dmamap__dmabuf *b, struct dmamap__attachment *a,
			    struct dmamap__dmabuf_run *runs, unsigned int nruns);
/* The CPU gave the buffer back (end_cpu_access): a new dirty line is news again. */
void dmamap__dmabuf_cpu_done(struct dmamap__dmabuf *b);
/* Give back everything of @b but the structure its holders still point at. */
void dmamap__dmabuf_orphan(struct dmamap__dmabuf *b);

/* A heap buffer's memory: runs of contiguous pages, in order. */
struct dmamap__heap_mem {
	struct dmamap_platform *plat;
	size_t size;
	unsigned int nruns;
	struct dmamap__heap_run {
		phys_addr_t phys;
		size_t len;
		unsigned int order;          /* dmamap_alloc_pages() order; ~0u: from CMA */
	} *runs;
	char heap[16];
};

/* Export @mem (taken over, freed on failure) as a heap buffer. */
struct dma_buf *dmamap__heap_export(struct dmamap__heap_mem *mem, const char *exp_name);
void dmamap__heap_mem_free(struct dmamap__heap_mem *mem);
/* Give the runs back, keeping @mem for another try. */
void dmamap__heap_mem_free_runs(struct dmamap__heap_mem *mem);
/* The board goes: its heaps with it. */
void dmamap__heaps_board_gone(struct dmamap_platform *p);
/* Scattered pages for the system heap: from @gfp's zone and those below, largest runs first. */
int dmamap__heap_alloc_scattered(struct dmamap__heap_mem *mem, size_t size, gfp_t gfp);
/* One run from the board's CMA area (aligned to its size, up to 1 MiB); -ENOMEM when it has none that large. */
int dmamap__heap_alloc_cma(struct dmamap__heap_mem *mem, size_t size);
/* One run from the page allocator's @gfp zone (or lower): a block of 2^order pages. */
int dmamap__heap_alloc_block(struct dmamap__heap_mem *mem, size_t size, gfp_t gfp);

#endif
