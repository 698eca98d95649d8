/* SPDX-License-Identifier: MIT */
/*
 * dma-buf: the generic half, whatever the exporter. It keeps the
 * attachments and the reference count, calls the exporter's ops, and
 * measures what each call cost the devices attached (bytes bounced, cache
 * maintenance) from their counters, so an exporter of the caller's own is
 * measured as a heap's is. No lock of a buffer is held across a call to
 * the exporter that the checker's watcher could need: the watcher reads
 * only what dma_buf_watch.c publishes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dma-map-ops.h>
#include <dmamap/iommu.h>
#include "../lib/lib.h"
#include "../lib/mem.h"
#include "../base/report.h"
#include "../ops/iommu.h"
#include "core.h"
#include "dma_buf.h"

#define MAX_HANDLES 65536
/* How long a CPU bracket waits for the DMA in flight: jiffies, 10 s. */
#define CPU_ACCESS_WAIT 10000

static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dma_buf **handles;
static unsigned int nhandles;
static unsigned int lowest_free; /* no handle below it is free: the search starts there */

static const char *name_of(const struct dma_buf *b)
{
	return b->name[0] ? b->name : (b->exp_name ? b->exp_name : "?");
}

static bool good_dir(enum dma_data_direction dir)
{
	return (unsigned int)dir <= DMA_FROM_DEVICE;
}

static void refuse(struct dma_buf *b, const struct device *dev, const char *func, const char *why)
{
	/* A buffer that outlived its board reports on the process's counters. */
	bool gone = b && dmamap__dmabuf_of(b)->orphan;

	dmamap__report(b && !gone ? b->plat : NULL, gone ? NULL : dev,
		       DMAMAP_DBG_INVALID_ARGUMENT, "%s: %s", func, why);
}

/* What the devices attached to @b have spent so far, summed. */
struct spent {
	uint64_t bounced, cleaned, invalidated;
};

static void spent_of(struct dmamap__dmabuf *b, struct device *only, struct spent *s)
{
	struct device *seen[16];
	unsigned int nseen = 0;

	memset(s, 0, sizeof(*s));
	pthread_mutex_lock(&b->lock);
	for (struct dmamap__attachment *a = b->attachments; a; a = a->next) {
		struct device *dev = a->pub.dev;
		struct dmamap_device_stats st;
		bool dup = false;

		if (only && dev != only)
			continue;
		for (unsigned int i = 0; i < nseen; i++)
			dup |= seen[i] == dev;
		if (dup || dmamap_device_stats(dev, &st))
			continue;
		if (nseen < ARRAY_SIZE(seen))
			seen[nseen++] = dev;
		s->bounced += st.bytes_bounced;
		s->cleaned += st.cache_bytes_cleaned;
		s->invalidated += st.cache_bytes_invalidated;
	}
	pthread_mutex_unlock(&b->lock);
}

/* Charge what was spent since @before to the buffer; the bytes bounced. */
static uint64_t charge(struct dmamap__dmabuf *b, struct device *only, const struct spent *before)
{
	struct spent now;
	uint64_t bounced;

	spent_of(b, only, &now);
	bounced = now.bounced - before->bounced;
	pthread_mutex_lock(&b->lock);
	b->stats.bytes_bounced += bounced;
	b->stats.cache_bytes_cleaned += now.cleaned - before->cleaned;
	b->stats.cache_bytes_invalidated += now.invalidated - before->invalidated;
	pthread_mutex_unlock(&b->lock);
	return bounced;
}

struct dma_buf *dma_buf_export(const struct dma_buf_export_info *info)
{
	struct dmamap__dmabuf *b;
	int err;

	if (!info || !info->ops || !info->ops->map_dma_buf || !info->ops->unmap_dma_buf ||
	    !info->ops->release || !info->size || !info->plat) {
		dmamap__report(info ? info->plat : NULL, NULL, DMAMAP_DBG_INVALID_ARGUMENT,
			       "dma_buf_export: needs ops (map_dma_buf, unmap_dma_buf, release), a size and a board");
		return ERR_PTR(-EINVAL);
	}
	b = dmamap__calloc(1, sizeof(*b));
	if (!b)
		return ERR_PTR(-ENOMEM);
	if (pthread_mutex_init(&b->lock, NULL)) {
		free(b);
		return ERR_PTR(-ENOMEM);
	}
	if (!info->resv && dmamap__resv_init(&b->own_resv)) {
		pthread_mutex_destroy(&b->lock);
		free(b);
		return ERR_PTR(-ENOMEM);
	}
	b->pub.size = info->size;
	b->pub.ops = info->ops;
	b->pub.exp_name = info->exp_name;
	b->pub.priv = info->priv;
	b->pub.plat = info->plat;
	b->pub.resv = info->resv ? info->resv : &b->own_resv;
	b->refs = 1;
	err = dmamap__dmabuf_watch(b);
	if (err) {
		if (!info->resv)
			dmamap__resv_fini(&b->own_resv);
		pthread_mutex_destroy(&b->lock);
		free(b);
		return ERR_PTR(err);
	}
	return &b->pub;
}

int dma_buf_set_name(struct dma_buf *dmabuf, const char *name)
{
	if (IS_ERR_OR_NULL(dmabuf) || !name)
		return -EINVAL;
	pthread_mutex_lock(&dmamap__dmabuf_of(dmabuf)->lock);
	snprintf(dmabuf->name, sizeof(dmabuf->name), "%s", name);
	pthread_mutex_unlock(&dmamap__dmabuf_of(dmabuf)->lock);
	return 0;
}

/* ---- handles ---------------------------------------------------------- */

int dma_buf_fd(struct dma_buf *dmabuf, int flags)
{
	unsigned int fd;

	(void)flags;
	if (IS_ERR_OR_NULL(dmabuf))
		return -EINVAL;
	pthread_mutex_lock(&handles_lock);
	/* The lowest free number, as open() gives, without walking the taken ones again. */
	for (fd = lowest_free; fd < nhandles && handles[fd]; fd++)
		;
	if (fd == nhandles) {
		unsigned int cap = nhandles ? nhandles * 2 : 16;
		struct dma_buf **n;

		if (nhandles == MAX_HANDLES) {
			pthread_mutex_unlock(&handles_lock);
			return -EMFILE;
		}
		n = dmamap__realloc(handles, cap * sizeof(*n));
		if (!n) {
			pthread_mutex_unlock(&handles_lock);
			return -ENOMEM;
		}
		memset(n + nhandles, 0, (cap - nhandles) * sizeof(*n));
		handles = n;
		nhandles = cap;
	}
	handles[fd] = dmabuf;
	lowest_free = fd + 1;
	__atomic_fetch_add(&dmamap__dmabuf_of(dmabuf)->handles, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&handles_lock);
	return (int)fd;
}

struct dma_buf *dma_buf_get(int fd)
{
	struct dma_buf *b = NULL;

	pthread_mutex_lock(&handles_lock);
	if (fd >= 0 && (unsigned int)fd < nhandles && handles[fd]) {
		b = handles[fd];
		__atomic_fetch_add(&dmamap__dmabuf_of(b)->refs, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&handles_lock);
	return b ? b : ERR_PTR(-EBADF);
}

int dmamap_dma_buf_close(int fd)
{
	struct dma_buf *b = NULL;

	pthread_mutex_lock(&handles_lock);
	if (fd >= 0 && (unsigned int)fd < nhandles) {
		b = handles[fd];
		handles[fd] = NULL;
	}
	if (b) {
		__atomic_fetch_sub(&dmamap__dmabuf_of(b)->handles, 1, __ATOMIC_RELAXED);
		if ((unsigned int)fd < lowest_free)
			lowest_free = (unsigned int)fd;
	}
	pthread_mutex_unlock(&handles_lock);
	if (!b)
		return -EBADF;
	dma_buf_put(b);
	return 0;
}

/* ---- lifetime ---------------------------------------------------------- */

static void unmap_now(struct dmamap__dmabuf *b, struct dmamap__attachment *a)
{
	struct sg_table *sgt;

	/* Off the list a CPU bracket syncs first: no sync of a table being taken down. */
	pthread_mutex_lock(&b->lock);
	sgt = a->sgt;
	a->sgt = NULL;
	pthread_mutex_unlock(&b->lock);
	dmamap__dmabuf_publish(b, a, NULL, 0);
	if (sgt)
		b->pub.ops->unmap_dma_buf(&a->pub, sgt, a->dir);
}

/*
 * Give back everything the buffer holds on its board. At the last put
 * (@freeing) the attachments go too, and what importers left is
 * reported; when the board goes first, their structures stay for the
 * importers that still hold them, to be detached or freed with the buffer.
 */
static void let_go(struct dmamap__dmabuf *b, bool freeing)
{
	struct dmamap__attachment *a, *next;

	/* Importers hold references: one still here at the last put means a put too many somewhere. */
	for (a = b->attachments; a; a = next) {
		next = a->next;
		if (freeing)
			dmamap__report(b->pub.plat, a->pub.dev, DMAMAP_DBG_DMABUF_STILL_MAPPED,
				       "dma-buf '%s' freed while this device is still attached%s: its last reference went with an importer using it",
				       name_of(&b->pub), a->sgt ? " and has it mapped" : "");
		if (a->sgt)
			unmap_now(b, a);
		if (b->pub.ops->detach)
			b->pub.ops->detach(&b->pub, &a->pub);
		if (freeing) {
			b->attachments = next;
			free(a->runs);
			free(a);
		}
	}
	if (b->vmaps) {
		if (freeing)
			dmamap__report(b->pub.plat, NULL, DMAMAP_DBG_DMABUF_STILL_MAPPED,
				       "dma-buf '%s' freed with %u vmap(s) not given back",
				       name_of(&b->pub), b->vmaps);
		if (b->pub.ops->vunmap)
			b->pub.ops->vunmap(&b->pub, &b->vmap);
		b->vmaps = 0;
	}
	dmamap__dmabuf_unwatch(b);
	b->pub.ops->release(&b->pub);
	if (b->pub.resv == &b->own_resv)
		dmamap__resv_fini(&b->own_resv);
	b->pub.resv = NULL;
}

void dmamap__dmabuf_orphan(struct dmamap__dmabuf *b)
{
	let_go(b, false);
	b->orphan = true;
}

static void release(struct dmamap__dmabuf *b)
{
	struct dmamap__attachment *a;

	if (!b->orphan)
		let_go(b, true);
	/* An orphan's attachments nobody detached. */
	while ((a = b->attachments)) {
		b->attachments = a->next;
		free(a->runs);
		free(a);
	}
	pthread_mutex_destroy(&b->lock);
	free(b);
}

void dma_buf_put(struct dma_buf *dmabuf)
{
	struct dmamap__dmabuf *b;
	int refs;

	if (IS_ERR_OR_NULL(dmabuf))
		return;
	b = dmamap__dmabuf_of(dmabuf);
	/* The open handles hold references of their own: a put may not take those. */
	refs = __atomic_load_n(&b->refs, __ATOMIC_RELAXED);
	do {
		if (refs - 1 < __atomic_load_n(&b->handles, __ATOMIC_RELAXED)) {
			refuse(dmabuf, NULL, __func__,
			       "one put more than the buffer has references (its open handles hold the rest: dmamap_dma_buf_close() them)");
			return;
		}
	} while (!__atomic_compare_exchange_n(&b->refs, &refs, refs - 1, false, __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	if (refs == 1)
		release(b);
}

/* A buffer whose board is gone has nothing left to call: only its references. */
static bool orphaned(struct dma_buf *dmabuf, const char *func)
{
	if (!dmamap__dmabuf_of(dmabuf)->orphan)
		return false;
	dmamap__report(NULL, NULL, DMAMAP_DBG_INVALID_ARGUMENT,
		       "%s: dma-buf '%s' outlived its board: only dma_buf_put() is left", func,
		       name_of(dmabuf));
	return true;
}

/* ---- attachments ------------------------------------------------------- */

struct dma_buf_attachment *dma_buf_attach(struct dma_buf *dmabuf, struct device *dev)
{
	struct dmamap__dmabuf *b;
	struct dmamap__attachment *a;
	int err;

	if (IS_ERR_OR_NULL(dmabuf) || !dev || dev->plat != dmabuf->plat) {
		refuse(IS_ERR(dmabuf) ? NULL : dmabuf, dev, __func__,
		       "needs a buffer and a device of the buffer's board");
		return ERR_PTR(-EINVAL);
	}
	if (orphaned(dmabuf, __func__))
		return ERR_PTR(-ENODEV);
	b = dmamap__dmabuf_of(dmabuf);
	a = dmamap__calloc(1, sizeof(*a));
	if (!a)
		return ERR_PTR(-ENOMEM);
	a->pub.dmabuf = dmabuf;
	a->pub.dev = dev;
	a->coherent = dev->coherent;
	if (dmabuf->ops->attach && (err = dmabuf->ops->attach(dmabuf, &a->pub)) != 0) {
		free(a);
		return ERR_PTR(err);
	}
	pthread_mutex_lock(&b->lock);
	a->next = b->attachments;
	b->attachments = a;
	b->stats.attachments++;
	pthread_mutex_unlock(&b->lock);
	return &a->pub;
}

/* Take @pub off its buffer's list; false if it is not on it. */
static bool unlink_attachment(struct dmamap__dmabuf *b, struct dma_buf_attachment *pub)
{
	struct dmamap__attachment **pp;
	bool found = false;

	pthread_mutex_lock(&b->lock);
	for (pp = &b->attachments; *pp; pp = &(*pp)->next)
		if (&(*pp)->pub == pub) {
			*pp = (*pp)->next;
			b->stats.attachments--;
			found = true;
			break;
		}
	pthread_mutex_unlock(&b->lock);
	return found;
}

/* Whether @pub is on @b's list: by its address alone, never read before it is known to be live. */
static bool is_attachment(struct dmamap__dmabuf *b, const struct dma_buf_attachment *pub)
{
	bool found = false;

	pthread_mutex_lock(&b->lock);
	for (struct dmamap__attachment *a = b->attachments; a && !found; a = a->next)
		found = &a->pub == pub;
	pthread_mutex_unlock(&b->lock);
	return found;
}

void dma_buf_detach(struct dma_buf *dmabuf, struct dma_buf_attachment *attach)
{
	struct dmamap__attachment *a = (struct dmamap__attachment *)attach;
	struct dmamap__dmabuf *b;

	if (IS_ERR_OR_NULL(dmabuf) || IS_ERR_OR_NULL(attach) ||
	    !is_attachment(dmamap__dmabuf_of(dmabuf), attach)) {
		refuse(IS_ERR(dmabuf) ? NULL : dmabuf, NULL, __func__,
		       "not an attachment of this buffer (detached already?)");
		return;
	}
	b = dmamap__dmabuf_of(dmabuf);
	if (b->orphan) {
		/* Its board is gone and the exporter has let it go: only the structure is left. */
		unlink_attachment(b, attach);
		free(a->runs);
		free(a);
		return;
	}
	if (a->sgt) {
		dmamap__report(dmabuf->plat, attach->dev, DMAMAP_DBG_DMABUF_STILL_MAPPED,
			       "detaches from dma-buf '%s' with the buffer still mapped: dma_buf_unmap_attachment() first",
			       name_of(dmabuf));
		unmap_now(b, a);
	}
	if (!unlink_attachment(b, attach)) {
		refuse(dmabuf, attach->dev, __func__, "not an attachment of this buffer");
		return;
	}
	if (dmabuf->ops->detach)
		dmabuf->ops->detach(dmabuf, attach);
	free(a->runs);
	free(a);
}

/*
 * Where the importer's device addresses land in the buffer's pages: the
 * CPU entries and the DMA entries walked side by side (behind an IOMMU
 * one DMA entry spans many pages).
 */
static int runs_of(struct sg_table *sgt, struct dmamap__dmabuf_run **out, unsigned int *nout)
{
	struct scatterlist *cpu = sgt->sgl, *dma = sgt->sgl;
	u64 cpu_left = cpu ? cpu->length : 0, dma_left = 0;
	unsigned int n = 0, cap = 0, di = 0;
	struct dmamap__dmabuf_run *runs = NULL;

	if (sgt->nents)
		dma_left = sg_dma_len(dma);
	while (cpu && dma && di < sgt->nents) {
		u64 len = cpu_left < dma_left ? cpu_left : dma_left;

		if (len) {
			if (n == cap) {
				struct dmamap__dmabuf_run *r;

				cap = cap ? cap * 2 : 8;
				r = dmamap__realloc(runs, cap * sizeof(*r));
				if (!r) {
					free(runs);
					return -ENOMEM;
				}
				runs = r;
			}
			runs[n].dma = sg_dma_address(dma) + (sg_dma_len(dma) - dma_left);
			runs[n].phys = page_to_phys(sg_page(cpu)) + cpu->offset + (cpu->length - cpu_left);
			runs[n].len = len;
			n++;
		}
		cpu_left -= len;
		dma_left -= len;
		if (!cpu_left && (cpu = sg_next(cpu)))
			cpu_left = cpu->length;
		if (!dma_left && ++di < sgt->nents && (dma = sg_next(dma)))
			dma_left = sg_dma_len(dma);
	}
	*out = runs;
	*nout = n;
	return 0;
}

/* Bytes whose device address leads somewhere else than the buffer's page: bounce slots. */
static uint64_t bytes_elsewhere(struct device *dev, const struct dmamap__dmabuf_run *runs,
				unsigned int nruns)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < nruns; i++) {
		phys_addr_t at = dmamap__iommu_in_use(dev) ? dmamap_iommu_iova_to_phys(dev, runs[i].dma)
							   : dmamap_dma_to_phys(dev, runs[i].dma);

		if (at != runs[i].phys)
			n += runs[i].len;
	}
	return n;
}

struct sg_table *dma_buf_map_attachment(struct dma_buf_attachment *attach,
					enum dma_data_direction dir)
{
	struct dmamap__attachment *a = (struct dmamap__attachment *)attach;
	struct dmamap__dmabuf_run *runs = NULL;
	struct dmamap__dmabuf *b;
	struct sg_table *sgt;
	struct spent before;
	unsigned int nruns = 0;
	uint64_t bounced;

	if (IS_ERR_OR_NULL(attach) || !good_dir(dir) || a->sgt) {
		refuse(IS_ERR_OR_NULL(attach) ? NULL : attach->dmabuf,
		       IS_ERR_OR_NULL(attach) ? NULL : attach->dev, __func__,
		       "needs an unmapped attachment and a direction");
		return ERR_PTR(-EINVAL);
	}
	if (orphaned(attach->dmabuf, __func__))
		return ERR_PTR(-ENODEV);
	b = dmamap__dmabuf_of(attach->dmabuf);
	spent_of(b, attach->dev, &before);
	sgt = attach->dmabuf->ops->map_dma_buf(attach, dir);
	if (IS_ERR_OR_NULL(sgt))
		return sgt ? sgt : ERR_PTR(-ENOMEM);
	charge(b, attach->dev, &before);
	if (runs_of(sgt, &runs, &nruns)) {
		attach->dmabuf->ops->unmap_dma_buf(attach, sgt, dir);
		return ERR_PTR(-ENOMEM);
	}
	bounced = bytes_elsewhere(attach->dev, runs, nruns);
	pthread_mutex_lock(&b->lock);
	a->sgt = sgt;
	a->dir = dir;
	pthread_mutex_unlock(&b->lock);
	a->bounced = bounced != 0;
	a->reported_context = a->reported_seqno = 0;
	a->dirty_reported = false;
	dmamap__dmabuf_publish(b, a, runs, nruns);
	pthread_mutex_lock(&b->lock);
	b->stats.maps++;
	b->stats.bounced_maps += bounced != 0;
	pthread_mutex_unlock(&b->lock);
	if (bounced)
		dmamap__report(b->pub.plat, attach->dev, DMAMAP_DBG_DMABUF_BOUNCED,
			       "cannot reach %llu bytes of dma-buf '%s' (%zu bytes): they bounce, a copy at each map, unmap and CPU access, and what other devices write there never reaches this one without one; allocate it for its devices (dmamap_buf_alloc_for())",
			       (unsigned long long)bounced, name_of(&b->pub), b->pub.size);
	return sgt;
}

void dma_buf_unmap_attachment(struct dma_buf_attachment *attach, struct sg_table *sgt,
			      enum dma_data_direction dir)
{
	struct dmamap__attachment *a = (struct dmamap__attachment *)attach;
	struct dmamap__dmabuf *b;
	struct spent before;

	if (IS_ERR_OR_NULL(attach) || !a->sgt || sgt != a->sgt || dir != a->dir) {
		refuse(IS_ERR_OR_NULL(attach) ? NULL : attach->dmabuf,
		       IS_ERR_OR_NULL(attach) ? NULL : attach->dev, __func__,
		       "not the table and direction this attachment is mapped with");
		return;
	}
	b = dmamap__dmabuf_of(attach->dmabuf);
	spent_of(b, attach->dev, &before);
	unmap_now(b, a);
	charge(b, attach->dev, &before);
}

/* ---- the CPU's brackets ------------------------------------------------- */

/* Both brackets' arguments: 0, -EINVAL (reported) or -ENODEV (its board is gone). */
static int bracket_args(struct dma_buf *dmabuf, enum dma_data_direction dir, const char *func)
{
	if (IS_ERR_OR_NULL(dmabuf) || !good_dir(dir)) {
		refuse(IS_ERR(dmabuf) ? NULL : dmabuf, NULL, func, "needs a buffer and a direction");
		return -EINVAL;
	}
	return orphaned(dmabuf, func) ? -ENODEV : 0;
}

/* The exporter's half of a bracket, its cost charged to the buffer. */
static int bracket_op(struct dmamap__dmabuf *b,
		      int (*op)(struct dma_buf *dmabuf, enum dma_data_direction dir),
		      enum dma_data_direction dir)
{
	struct spent before;
	int err = 0;

	spent_of(b, NULL, &before);
	if (op)
		err = op(&b->pub, dir);
	charge(b, NULL, &before);
	return err;
}

int dma_buf_begin_cpu_access(struct dma_buf *dmabuf, enum dma_data_direction dir)
{
	struct dmamap__dmabuf *b;
	long waited;
	int err = bracket_args(dmabuf, dir, __func__);

	if (err)
		return err;
	b = dmamap__dmabuf_of(dmabuf);
	/* Implicit sync, as Linux: a read waits for the writers, a write for everyone. */
	if (!dma_resv_test_signaled(dmabuf->resv, dma_resv_usage_rw(dir != DMA_FROM_DEVICE))) {
		pthread_mutex_lock(&b->lock);
		b->stats.fence_waits++;
		pthread_mutex_unlock(&b->lock);
		/* Linux waits for ever; a fence nobody signals must not hang a user-space program. */
		waited = dma_resv_wait_timeout(dmabuf->resv, dma_resv_usage_rw(dir != DMA_FROM_DEVICE),
					       true, CPU_ACCESS_WAIT);
		if (waited <= 0)
			return waited ? (int)waited : -ETIMEDOUT;
	}
	err = bracket_op(b, dmabuf->ops->begin_cpu_access, dir);
	if (err)
		return err;
	pthread_mutex_lock(&b->lock);
	b->cpu_depth++;
	b->stats.cpu_accesses++;
	pthread_mutex_unlock(&b->lock);
	return 0;
}

int dma_buf_end_cpu_access(struct dma_buf *dmabuf, enum dma_data_direction dir)
{
	struct dmamap__dmabuf *b;
	bool open;
	int err = bracket_args(dmabuf, dir, __func__);

	if (err)
		return err;
	b = dmamap__dmabuf_of(dmabuf);
	pthread_mutex_lock(&b->lock);
	open = b->cpu_depth > 0;
	if (open)
		b->cpu_depth--;
	pthread_mutex_unlock(&b->lock);
	if (!open)
		refuse(dmabuf, NULL, __func__, "no dma_buf_begin_cpu_access() to end (the maintenance is done anyway)");
	err = bracket_op(b, dmabuf->ops->end_cpu_access, dir);
	dmamap__dmabuf_cpu_done(b);
	return err;
}

/* ---- CPU views ---------------------------------------------------------- */

int dma_buf_vmap(struct dma_buf *dmabuf, struct iosys_map *map)
{
	struct dmamap__dmabuf *b;
	int err = 0;

	if (IS_ERR_OR_NULL(dmabuf) || !map)
		return -EINVAL;
	memset(map, 0, sizeof(*map));
	if (orphaned(dmabuf, __func__))
		return -ENODEV;
	if (!dmabuf->ops->vmap)
		return -EOPNOTSUPP;
	b = dmamap__dmabuf_of(dmabuf);
	pthread_mutex_lock(&b->lock);
	if (!b->vmaps)
		err = dmabuf->ops->vmap(dmabuf, &b->vmap);
	if (!err) {
		b->vmaps++;
		*map = b->vmap;
	}
	pthread_mutex_unlock(&b->lock);
	return err;
}

void dma_buf_vunmap(struct dma_buf *dmabuf, struct iosys_map *map)
{
	struct dmamap__dmabuf *b;

	if (IS_ERR_OR_NULL(dmabuf) || !map)
		return;
	b = dmamap__dmabuf_of(dmabuf);
	pthread_mutex_lock(&b->lock);
	if (!b->vmaps || map->vaddr != b->vmap.vaddr) {
		pthread_mutex_unlock(&b->lock);
		refuse(dmabuf, NULL, __func__, "not an address dma_buf_vmap() gave for this buffer");
		return;
	}
	if (!--b->vmaps && dmabuf->ops->vunmap)
		dmabuf->ops->vunmap(dmabuf, &b->vmap);
	pthread_mutex_unlock(&b->lock);
	memset(map, 0, sizeof(*map));
}

int dma_buf_mmap(struct dma_buf *dmabuf, struct vm_area_struct *vma, unsigned long pgoff)
{
	unsigned long len, pages;

	if (IS_ERR_OR_NULL(dmabuf) || !vma)
		return -EINVAL;
	if (orphaned(dmabuf, __func__))
		return -ENODEV;
	if (!dmabuf->ops->mmap)
		return -EOPNOTSUPP;
	len = vma->vm_end - vma->vm_start;
	pages = (unsigned long)((dmabuf->size + PAGE_SIZE - 1) >> PAGE_SHIFT);
	if (vma->vm_end <= vma->vm_start || (len & (PAGE_SIZE - 1)) || pgoff >= pages ||
	    (len >> PAGE_SHIFT) > pages - pgoff)
		return -EINVAL;
	vma->vm_pgoff = pgoff;
	return dmabuf->ops->mmap(dmabuf, vma);
}

int dmamap_dma_buf_stats(struct dma_buf *dmabuf, struct dmamap_dma_buf_stats *s)
{
	struct dmamap__dmabuf *b;

	if (IS_ERR_OR_NULL(dmabuf) || !s)
		return -EINVAL;
	b = dmamap__dmabuf_of(dmabuf);
	pthread_mutex_lock(&b->lock);
	*s = b->stats;
	pthread_mutex_unlock(&b->lock);
	return 0;
}
