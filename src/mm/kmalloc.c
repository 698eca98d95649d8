/* SPDX-License-Identifier: MIT */
/*
 * kmalloc for a board's RAM: size classes packed into slabs, so that small
 * objects share cache lines exactly as the kernel's do (the classic source
 * of DMA corruption on non-coherent machines). Slab bookkeeping lives
 * outside RAM. On the host, kmalloc is malloc.
 */
#include <stdlib.h>
#include <string.h>
#include "../lib/lib.h"
#include "../base/report.h"
#include "../platform/port.h"
#include "zones.h"
#include "../lib/mem.h"

static const unsigned int class_size[KMALLOC_CLASSES] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192
};

#define SLAB_MAX_OBJS 512

struct dmamap_slab {
	struct dmamap_slab_cache *cache;
	phys_addr_t phys;
	uint8_t *base;
	unsigned int inuse;
	unsigned int nobj;
	struct dmamap_slab *next, *prev;
	uint64_t used[SLAB_MAX_OBJS / 64];
	uint16_t req[SLAB_MAX_OBJS]; /* bytes the caller asked for, per object */
};

struct dmamap_slab_cache {
	pthread_mutex_t lock;
	unsigned int size;
	unsigned int order;
	unsigned int zone;
	struct dmamap_slab *partial;
	struct dmamap_slab *full;
};

/* A large kmalloc is tagged in the per-page slab slot as (order << 1) | 1. */
#define LARGE_TAG(order) ((struct dmamap_slab *)(uintptr_t)(((order) << 1) | 1))
#define IS_LARGE(s) (((uintptr_t)(s)) & 1)
#define LARGE_ORDER(s) ((unsigned int)((uintptr_t)(s) >> 1))

int dmamap__slab_init(struct dmamap_platform *p)
{
	if (dmamap__port_identity(p))
		return 0;
	for (unsigned int z = 0; z <= ZONE_NORMAL_IDX; z++) {
		for (unsigned int c = 0; c < KMALLOC_CLASSES; c++) {
			struct dmamap_slab_cache *sc = dmamap__calloc(1, sizeof(*sc));

			if (!sc)
				return -ENOMEM;
			pthread_mutex_init(&sc->lock, NULL);
			sc->size = class_size[c];
			sc->order = sc->size * 2 > PAGE_SIZE ?
					    dmamap__get_order(sc->size * 2) : 0;
			sc->zone = z;
			p->mm->kmalloc[z][c] = sc;
		}
	}
	return 0;
}

static void free_list(struct dmamap_slab *s)
{
	while (s) {
		struct dmamap_slab *n = s->next;

		free(s);
		s = n;
	}
}

void dmamap__slab_fini(struct dmamap_platform *p)
{
	for (unsigned int z = 0; z < NR_ZONES; z++) {
		for (unsigned int c = 0; c < KMALLOC_CLASSES; c++) {
			struct dmamap_slab_cache *sc = p->mm->kmalloc[z][c];

			if (!sc)
				continue;
			free_list(sc->partial);
			free_list(sc->full);
			free(sc);
			p->mm->kmalloc[z][c] = NULL;
		}
	}
}

static unsigned int align_of_class(unsigned int size)
{
	return size & -size;
}

static void unlink_slab(struct dmamap_slab **head, struct dmamap_slab *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		*head = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->next = s->prev = NULL;
}

static void push_slab(struct dmamap_slab **head, struct dmamap_slab *s)
{
	s->prev = NULL;
	s->next = *head;
	if (*head)
		(*head)->prev = s;
	*head = s;
}

static void set_page_slots(struct dmamap_platform *p, phys_addr_t phys,
			   unsigned int order, struct dmamap_slab *v)
{
	struct dmamap_arena *a = dmamap__arena_of(p, phys);
	unsigned long idx = (unsigned long)((phys - a->start) >> PAGE_SHIFT);

	for (unsigned long i = 0; i < (1UL << order); i++)
		a->slabs[idx + i] = v;
}

static struct dmamap_slab *new_slab(struct dmamap_platform *p,
				    struct dmamap_slab_cache *sc)
{
	struct dmamap_slab *s = dmamap__calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->phys = dmamap__pages_alloc(p, sc->order, sc->zone);
	if (s->phys == PHYS_NONE) {
		free(s);
		return NULL;
	}
	s->cache = sc;
	s->base = dmamap__phys_to_view(p, s->phys, VIEW_CPU);
	s->nobj = (unsigned int)MIN((PAGE_SIZE << sc->order) / sc->size,
				    SLAB_MAX_OBJS);
	set_page_slots(p, s->phys, sc->order, s);
	return s;
}

static void *slab_alloc(struct dmamap_platform *p, struct dmamap_slab_cache *sc,
			size_t req)
{
	struct dmamap_slab *s;
	void *obj = NULL;

	pthread_mutex_lock(&sc->lock);
	s = sc->partial;
	if (!s) {
		s = new_slab(p, sc);
		if (!s)
			goto out;
		push_slab(&sc->partial, s);
	}
	for (unsigned int w = 0; w < SLAB_MAX_OBJS / 64; w++) {
		uint64_t freebits = ~s->used[w];
		unsigned int bit, i;

		if (!freebits)
			continue;
		bit = (unsigned int)__builtin_ctzll(freebits);
		i = w * 64 + bit;
		if (i >= s->nobj)
			break;
		s->used[w] |= 1ULL << bit;
		s->req[i] = (uint16_t)req;
		s->inuse++;
		obj = s->base + (size_t)i * sc->size;
		break;
	}
	if (s->inuse == s->nobj) {
		unlink_slab(&sc->partial, s);
		push_slab(&sc->full, s);
	}
out:
	pthread_mutex_unlock(&sc->lock);
	return obj;
}

static int slab_free(struct dmamap_platform *p, struct dmamap_slab *s,
		     const void *ptr)
{
	struct dmamap_slab_cache *sc = s->cache;
	size_t off = (size_t)((const uint8_t *)ptr - s->base);
	unsigned int i = (unsigned int)(off / sc->size);
	int ret = 0;

	pthread_mutex_lock(&sc->lock);
	if (off % sc->size || i >= s->nobj ||
	    !(s->used[i / 64] & (1ULL << (i % 64)))) {
		ret = -EINVAL;
		goto out;
	}
	if (s->inuse == s->nobj) {
		unlink_slab(&sc->full, s);
		push_slab(&sc->partial, s);
	}
	s->used[i / 64] &= ~(1ULL << (i % 64));
	if (--s->inuse == 0) {
		unlink_slab(&sc->partial, s);
		set_page_slots(p, s->phys, sc->order, NULL);
		dmamap__pages_free(p, s->phys, sc->order);
		free(s);
	}
out:
	pthread_mutex_unlock(&sc->lock);
	return ret;
}

static void *host_kmalloc(struct dmamap_platform *p, size_t size, gfp_t flags)
{
	void *ptr;

	if (flags & DMAMAP_GFP_DMA_ALIGN) {
		size_t a = p->mach.line_size;

		if (size > SIZE_MAX - a)
			return NULL;
		ptr = dmamap__aligned_alloc(a, (size + a - 1) / a * a);
	} else {
		ptr = dmamap__malloc(size);
	}
	if (ptr && (flags & __GFP_ZERO))
		memset(ptr, 0, size);
	return ptr;
}

void *dmamap_kmalloc(struct dmamap_platform *p, size_t size, gfp_t flags)
{
	unsigned int zone, need_align = 1;
	size_t asked;
	void *ptr = NULL;

	if (!p || !size)
		return NULL;
	if (dmamap__fault(&p->fault, DMAMAP_FAULT_ALLOC))
		return NULL;
	if (dmamap__port_identity(p))
		return host_kmalloc(p, size, flags);
	zone = (flags & __GFP_DMA) ? ZONE_DMA_IDX : ZONE_NORMAL_IDX;
	asked = size;
	if (flags & DMAMAP_GFP_DMA_ALIGN) {
		need_align = p->mach.line_size;
		if (size > SIZE_MAX - need_align)
			return NULL;
		size = (size + need_align - 1) / need_align * need_align;
	}
	for (unsigned int c = 0; c < KMALLOC_CLASSES; c++) {
		if (class_size[c] >= size &&
		    align_of_class(class_size[c]) >= need_align) {
			ptr = slab_alloc(p, p->mm->kmalloc[zone][c], asked);
			goto done;
		}
	}
	{
		unsigned int order = dmamap__get_order(size);
		phys_addr_t phys = dmamap__pages_alloc(p, order, zone);

		if (phys == PHYS_NONE)
			return NULL;
		set_page_slots(p, phys, 0, LARGE_TAG(order));
		ptr = dmamap__phys_to_view(p, phys, VIEW_CPU);
	}
done:
	if (ptr && (flags & __GFP_ZERO))
		memset(ptr, 0, size);
	return ptr;
}

void dmamap_kfree(struct dmamap_platform *p, void *ptr)
{
	struct dmamap_arena *a;
	struct dmamap_slab *s;
	phys_addr_t phys;
	int ret = -EINVAL;

	if (!p || !ptr)
		return;
	if (dmamap__port_identity(p)) {
		free(ptr);
		return;
	}
	phys = dmamap__linear_to_phys(p, ptr);
	a = phys == PHYS_NONE ? NULL : dmamap__arena_of(p, phys);
	if (a) {
		s = a->slabs[(phys - a->start) >> PAGE_SHIFT];
		if (s && IS_LARGE(s)) {
			if (!(phys & (PAGE_SIZE - 1))) {
				unsigned int order = LARGE_ORDER(s);

				a->slabs[(phys - a->start) >> PAGE_SHIFT] = NULL;
				ret = dmamap__pages_free(p, phys, order);
			}
		} else if (s) {
			ret = slab_free(p, s, ptr);
		}
	}
	if (ret)
		dmamap__report(p, NULL, DMAMAP_DBG_FREE_INVALID,
			       "dmamap_kfree: %p was not allocated by dmamap_kmalloc (or was freed twice)",
			       ptr);
}

bool dmamap__kmalloc_tail_shared(struct dmamap_platform *p, phys_addr_t end)
{
	struct dmamap_arena *a = !dmamap__port_identity(p) ? dmamap__arena_of(p, end - 1) : NULL;
	struct dmamap_slab *s;
	struct dmamap_slab_cache *sc;
	phys_addr_t line_end = (end + p->mach.line_size - 1) & ~(phys_addr_t)(p->mach.line_size - 1);
	unsigned int i;
	bool shared = false;

	if (!a)
		return false;
	s = a->slabs[(end - 1 - a->start) >> PAGE_SHIFT];
	if (!s || IS_LARGE(s))
		return false; /* pages: the rest of the line is the same allocation's */
	sc = s->cache;
	pthread_mutex_lock(&sc->lock);
	i = (unsigned int)((end - 1 - s->phys) / sc->size);
	/* The caller's own bytes past the buffer, then any live neighbour. */
	if (i < s->nobj && end < s->phys + (phys_addr_t)i * sc->size + s->req[i])
		shared = true;
	for (unsigned int j = i + 1; !shared && j < s->nobj &&
	     s->phys + (phys_addr_t)j * sc->size < line_end; j++)
		shared = (s->used[j / 64] >> (j % 64)) & 1;
	pthread_mutex_unlock(&sc->lock);
	return shared;
}
