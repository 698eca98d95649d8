/* SPDX-License-Identifier: MIT */
/*
 * The checker's rules for shared buffers, applied where the hardware
 * acts: at each device access, before the bytes move. A board with live
 * dma-bufs has one watcher, registered as an observer while it has any;
 * it sees only the importers' mappings dma_buf.c published, under its own
 * lock, never a buffer's, so a device stepping inside a DMA API call a
 * buffer's owner made cannot deadlock against it.
 *
 * The watcher, once registered, stays until its board goes: a device step
 * on the device thread may be inside it whenever a buffer is let go.
 *
 * - A device touches a buffer while a fence its access conflicts with
 *   (another device's, or the CPU's) has not signalled: the importer did
 *   not wait (dma-buf-fence-not-waited).
 * - A non-coherent importer reads bytes the CPU still holds dirty in its
 *   cache: the CPU wrote outside dma_buf_begin_cpu_access() and
 *   dma_buf_end_cpu_access() (dma-buf-cpu-access-unbracketed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/debug.h>
#include "../lib/lib.h"
#include "../lib/mem.h"
#include "../lib/spinlock.h"
#include "../base/report.h"
#include "../platform/port.h"
#include "core.h"
#include "dma_buf.h"

struct dmamap__dmabuf_watch {
	struct dmamap_platform *p;
	struct dmamap_observer obs;
	int lock;
	unsigned int nbufs;
	struct dmamap__dmabuf **bufs;
	unsigned int cap;
	struct dmamap__attachment *mapped;
	struct dmamap__dmabuf_watch *next;
};

static pthread_mutex_t watches_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dmamap__dmabuf_watch *watches;

static const char *buf_name(const struct dmamap__dmabuf *b)
{
	return b->pub.name[0] ? b->pub.name : (b->pub.exp_name ? b->pub.exp_name : "?");
}

static const char *usage_name(enum dma_resv_usage u)
{
	static const char *const names[] = { "kernel", "write", "read", "bookkeep" };

	return (unsigned int)u < ARRAY_SIZE(names) ? names[u] : "?";
}

/* A report found under the watch's lock, made after it. */
struct finding {
	enum dmamap_dbg_kind kind;
	dma_addr_t addr;
	u64 len;
	char text[400];
};

static unsigned int check(struct dmamap__dmabuf_watch *w, struct device *dev, dma_addr_t addr,
			  u64 len, bool write, struct finding *out, unsigned int max)
{
	unsigned int n = 0;

	for (struct dmamap__attachment *a = w->mapped; a && n < max; a = a->next_mapped) {
		struct dmamap__dmabuf *b = (struct dmamap__dmabuf *)a->pub.dmabuf;
		struct dmamap__fence_seen f;

		if (a->pub.dev != dev)
			continue;
		for (unsigned int i = 0; i < a->nruns && n < max; i++) {
			const struct dmamap__dmabuf_run *r = &a->runs[i];
			dma_addr_t lo = MAX(addr, r->dma), hi = MIN(addr + len, r->dma + r->len);
			long dirty;

			if (lo >= hi)
				continue;
			if (dmamap__resv_conflict(b->pub.resv, dev, write, &f) &&
			    (f.context != a->reported_context || f.seqno != a->reported_seqno)) {
				a->reported_context = f.context;
				a->reported_seqno = f.seqno;
				out[n].kind = DMAMAP_DBG_DMABUF_FENCE_NOT_WAITED;
				out[n].addr = lo;
				out[n].len = hi - lo;
				snprintf(out[n].text, sizeof(out[n].text),
					 "%s dma-buf '%s' [device address=0x%llx] [size=%llu] while %s's %s fence (timeline %llu, seqno %llu) has not signalled: wait for it (dma_resv_wait_timeout(), dma_fence_wait()) before starting the device",
					 write ? "writes" : "reads", buf_name(b), (unsigned long long)lo,
					 (unsigned long long)(hi - lo), f.dev ? f.dev->name : "the CPU",
					 usage_name(f.usage), (unsigned long long)f.context,
					 (unsigned long long)f.seqno);
				n++;
			}
			if (write || a->coherent || a->bounced || a->dirty_reported || n >= max)
				continue;
			dirty = dmamap__cpu_dirty_offset(w->p, r->phys + (lo - r->dma), (size_t)(hi - lo));
			if (dirty < 0)
				continue;
			a->dirty_reported = true;
			out[n].kind = DMAMAP_DBG_DMABUF_CPU_UNBRACKETED;
			out[n].addr = lo;
			out[n].len = hi - lo;
			snprintf(out[n].text, sizeof(out[n].text),
				 "reads dma-buf '%s' [device address=0x%llx] [size=%llu] while the CPU still holds bytes of it dirty in its cache (from device address 0x%llx): the CPU wrote them outside dma_buf_begin_cpu_access()/dma_buf_end_cpu_access(), and this non-coherent device reads what memory held before",
				 buf_name(b), (unsigned long long)lo, (unsigned long long)(hi - lo),
				 (unsigned long long)(lo + (u64)dirty));
			n++;
		}
	}
	return n;
}

static void on_access(void *ctx, struct device *dev, dma_addr_t addr, u64 len, bool write)
{
	struct dmamap__dmabuf_watch *w = ctx;
	struct finding found[2];
	unsigned int n;

	if (!dmamap_debug_enabled(w->p))
		return;
	dmamap__spin_lock(&w->lock);
	n = check(w, dev, addr, len, write, found, ARRAY_SIZE(found));
	dmamap__spin_unlock(&w->lock);
	for (unsigned int i = 0; i < n; i++)
		dmamap__report_at(w->p, dev, found[i].kind, found[i].addr, found[i].len,
				  write ? DMA_FROM_DEVICE : DMA_TO_DEVICE, NULL, "%s", found[i].text);
}

int dmamap__dmabuf_watch(struct dmamap__dmabuf *b)
{
	struct dmamap__dmabuf_watch *w;
	int err = 0;

	pthread_mutex_lock(&watches_lock);
	for (w = watches; w && w->p != b->pub.plat; w = w->next)
		;
	if (!w) {
		w = dmamap__calloc(1, sizeof(*w));
		if (!w) {
			pthread_mutex_unlock(&watches_lock);
			return -ENOMEM;
		}
		w->p = b->pub.plat;
		w->obs.ctx = w;
		w->obs.device_access = on_access;
		err = dmamap__observer_add(w->p, &w->obs);
		if (err) {
			free(w);
			pthread_mutex_unlock(&watches_lock);
			return err;
		}
		w->next = watches;
		watches = w;
	}
	if (w->nbufs == w->cap) {
		unsigned int cap = w->cap ? w->cap * 2 : 8;
		struct dmamap__dmabuf **v = dmamap__realloc(w->bufs, cap * sizeof(*v));

		if (!v) {
			err = -ENOMEM;
			goto out;
		}
		w->bufs = v;
		w->cap = cap;
	}
	w->bufs[w->nbufs++] = b;
	b->watch = w;
out:
	/* A watcher that failed to take a buffer stays: it goes with its board, as every one does. */
	pthread_mutex_unlock(&watches_lock);
	return err;
}

void dmamap__dmabuf_unwatch(struct dmamap__dmabuf *b)
{
	struct dmamap__dmabuf_watch *w = b->watch;

	if (!w)
		return;
	pthread_mutex_lock(&watches_lock);
	for (unsigned int i = 0; i < w->nbufs; i++)
		if (w->bufs[i] == b) {
			w->bufs[i] = w->bufs[--w->nbufs];
			break;
		}
	b->watch = NULL;
	pthread_mutex_unlock(&watches_lock);
}

void dmamap__dmabuf_publish(struct dmamap__dmabuf *b, struct dmamap__attachment *a,
			    struct dmamap__dmabuf_run *runs, unsigned int nruns)
{
	struct dmamap__dmabuf_watch *w = b->watch;
	struct dmamap__dmabuf_run *old;
	struct dmamap__attachment **pp;

	dmamap__spin_lock(&w->lock);
	for (pp = &w->mapped; *pp && *pp != a; pp = &(*pp)->next_mapped)
		;
	if (*pp)
		*pp = a->next_mapped;
	old = a->runs;
	a->runs = runs;
	a->nruns = nruns;
	if (runs) {
		a->next_mapped = w->mapped;
		w->mapped = a;
	}
	dmamap__spin_unlock(&w->lock);
	free(old);
}

void dmamap__dmabuf_cpu_done(struct dmamap__dmabuf *b)
{
	struct dmamap__dmabuf_watch *w = b->watch;

	dmamap__spin_lock(&w->lock);
	for (struct dmamap__attachment *a = w->mapped; a; a = a->next_mapped)
		if (a->pub.dmabuf == &b->pub)
			a->dirty_reported = false;
	dmamap__spin_unlock(&w->lock);
}

/* The board's device thread is stopped: nothing is inside the watcher any more. */
static void watch_gone(struct dmamap_platform *p)
{
	struct dmamap__dmabuf_watch *w, **pp;

	pthread_mutex_lock(&watches_lock);
	for (pp = &watches; *pp && (*pp)->p != p; pp = &(*pp)->next)
		;
	w = *pp;
	if (w) {
		*pp = w->next;
		dmamap__observer_remove(p, &w->obs);
		free(w->bufs);
		free(w);
	}
	pthread_mutex_unlock(&watches_lock);
}

void dmamap__dmabuf_board_gone(struct dmamap_platform *p)
{
	struct dmamap__dmabuf_watch *w;

	for (;;) {
		struct dmamap__dmabuf *b = NULL;

		pthread_mutex_lock(&watches_lock);
		for (w = watches; w && w->p != p; w = w->next)
			;
		if (w && w->nbufs)
			b = w->bufs[0];
		pthread_mutex_unlock(&watches_lock);
		if (!b) {
			watch_gone(p);
			dmamap__heaps_board_gone(p);
			return;
		}
		dmamap__report(p, NULL, DMAMAP_DBG_LEAK,
			       "dma-buf '%s' (%zu bytes) still has %d reference(s) when its board is destroyed: its memory goes with the board",
			       buf_name(b), b->pub.size, __atomic_load_n(&b->refs, __ATOMIC_RELAXED));
		dmamap__dmabuf_orphan(b);
	}
}
