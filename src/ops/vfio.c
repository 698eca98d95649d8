/* SPDX-License-Identifier: MIT */
/*
 * The VFIO backend: DMA addresses are IOVAs of a real IOMMU domain that
 * the kernel programs for us (VFIO_IOMMU_MAP_DMA).
 *
 * Registered memory is mapped once, so a streaming map of it is a lookup
 * in a small sorted table: no lock, no allocation, no system call. The
 * table is replaced whole when a range is registered or unregistered, and
 * the old ones kept until the platform goes, so a reader never sees one
 * freed under it (registrations are few; the memory is a few hundred bytes
 * each).
 *
 * Anything else is mapped on the spot: a fresh IOVA range covering the
 * buffer's host pages, pinned and mapped by the kernel, unmapped at unmap.
 * An unmap tells the two apart by the handle: inside a registered range's
 * IOVAs, or not.
 *
 * The devices VFIO serves snoop the CPU's caches: there is nothing to
 * sync, and coherent allocations are plain cached memory from the
 * registered arena.
 *
 * Without an IOMMU (VFIO's unsafe no-IOMMU mode) a DMA address is the
 * physical address: registered memory is locked and its pages' frames
 * read once; a buffer maps only where its pages are physically
 * contiguous, unregistered memory not at all (nothing pins it where it
 * is), and an unmap has nothing to undo.
 */
#include <pthread.h>
#include <dmamap/vfio.h>
#include "../lib/lib.h"
#include "../lib/mem.h"
#include "../base/report.h"
#include "../mm/iova.h"
#include "../mm/mm.h"
#include "../platform/port.h"
#include "ops_helpers.h"
#include "vfio.h"

#define MAX_REGIONS 64
/* The IOVA space the allocator keeps: a 32-bit device reaches all of it. */
#define SPACE_FIRST (1ULL << 20)
#define SPACE_LAST (1ULL << 32)

struct vfio_counts {
	uint64_t slow_maps, slow_unmaps, slow_bytes_mapped, slow_bytes_unmapped, failures;
} __attribute__((aligned(64)));

/* A slow-path mapping, remembered so that its unmap undoes exactly it. */
struct slow_map {
	struct slow_map *next;
	u64 iova, len;
};

#define SLOW_BUCKETS 256

struct dmamap_vfio_space {
	struct dmamap_vfio_fast fast; /* first: what the core's short path reads */
	struct dmamap_iova *reg_iova; /* registered ranges' IOVAs: [start, fast.registered_end) */
	struct dmamap_iova *iova;     /* the slow path's: [fast.registered_end, end) */
	u64 start, end, unit;
	pthread_mutex_t lock; /* registration; never a mapping path */
	struct vfio_table *retired;
	bool noiommu;
	struct vfio_frames *all_frames; /* every frames block made, for the end */
	uint64_t registered_bytes;
	/* The slow path's live mappings by IOVA (it makes a system call anyway: a lock is cheap). */
	pthread_mutex_t slow_lock;
	struct slow_map *slow[SLOW_BUCKETS];
	struct vfio_counts counts[DMAMAP_STAT_SHARDS];
};

static struct slow_map **slow_bucket(struct dmamap_vfio_space *s, u64 iova)
{
	return &s->slow[(iova / s->unit) % SLOW_BUCKETS];
}

/* The record of the slow mapping at @iova, unlinked and returned (NULL: none); lock held. */
static struct slow_map *slow_take(struct dmamap_vfio_space *s, u64 iova)
{
	for (struct slow_map **at = slow_bucket(s, iova); *at; at = &(*at)->next) {
		struct slow_map *m = *at;

		if (m->iova == iova) {
			*at = m->next;
			return m;
		}
	}
	return NULL;
}

static inline struct vfio_counts *counts(struct dmamap_vfio_space *s)
{
	return &s->counts[dmamap__my_shard()];
}

/* The registered range whose IOVAs hold @dma, or NULL (few ranges: a scan). */
static const struct vfio_region *lookup_iova(const struct vfio_table *t, dma_addr_t dma)
{
	for (unsigned int i = 0; i < t->n; i++)
		if (dma - t->r[i].iova < t->r[i].size)
			return &t->r[i];
	return NULL;
}

/*
 * No IOMMU: the physical address of [@va, +@size) in @r, or
 * DMA_MAPPING_ERROR where its pages are not contiguous in memory.
 */
static dma_addr_t physical(const struct vfio_region *r, uintptr_t va, size_t size, u64 unit)
{
	u64 first = (va - r->va) / unit, last = (va - r->va + size - 1) / unit;

	for (u64 i = first; i < last; i++)
		if (r->frames->pa[i + 1] != r->frames->pa[i] + unit)
			return DMA_MAPPING_ERROR;
	return r->frames->pa[first] + ((va - r->va) & (unit - 1));
}

/* The device address of [@va, +@size) in registered range @r, or DMA_MAPPING_ERROR. */
static inline dma_addr_t registered_dma(const struct dmamap_vfio_space *s, const struct vfio_region *r,
					uintptr_t va, size_t size)
{
	if (unlikely(s->noiommu))
		return physical(r, va, size, s->unit);
	return r->iova + (va - r->va);
}

/* The arena address behind a coherent allocation's device address, or 0. */
static uintptr_t arena_va(const struct dmamap_vfio_space *s, dma_addr_t dma)
{
	const struct vfio_table *t = __atomic_load_n(&s->fast.table, __ATOMIC_ACQUIRE);
	const struct vfio_region *r;

	if (!s->noiommu) {
		r = lookup_iova(t, dma);
		return r && r->arena ? r->va + (uintptr_t)(dma - r->iova) : 0;
	}
	for (unsigned int i = 0; i < t->n; i++) {
		r = &t->r[i];
		for (u64 k = 0; r->arena && k < r->size / s->unit; k++)
			if (dma - r->frames->pa[k] < s->unit)
				return r->va + (uintptr_t)(k * s->unit + (dma - r->frames->pa[k]));
	}
	return 0;
}

static inline const struct vfio_table *table_of(struct dmamap_vfio_space *s)
{
	return __atomic_load_n(&s->fast.table, __ATOMIC_ACQUIRE);
}

static unsigned int order_for(u64 size)
{
	return dmamap__get_order(size);
}

static __attribute__((noinline, cold)) dma_addr_t
map_error(struct device *dev, const char *why, phys_addr_t phys, size_t size, int err)
{
	__atomic_fetch_add(&counts(dev->plat->vfio_space)->failures, 1, __ATOMIC_RELAXED);
	dmamap__api_error(dev, "dma_map_page_attrs", DMAMAP_ERRK_UNREACHABLE, DMAMAP_DBG_UNREACHABLE,
			  "[addr=%p] [size=%zu] %s%s%s", (void *)(uintptr_t)phys, size, why,
			  err ? ": " : "", err ? strerror(-err) : "");
	return DMA_MAPPING_ERROR;
}

/*
 * Memory nobody registered: pinned and mapped at a fresh IOVA range now,
 * with only the access @dir needs (the kernel pins for writing only what
 * the device may write: read-only memory maps TO_DEVICE), and remembered.
 */
static __attribute__((noinline)) dma_addr_t map_slow(struct device *dev, phys_addr_t phys,
						     size_t size, enum dma_data_direction dir)
{
	struct dmamap_vfio_space *s = dev->plat->vfio_space;
	uintptr_t first = (uintptr_t)phys & ~(uintptr_t)(s->unit - 1);
	u64 len = ((u64)phys + size - first + s->unit - 1) & ~(s->unit - 1);
	unsigned int order = order_for(len);
	struct slow_map *m;
	u64 iova;
	int ret;

	m = dmamap__malloc(sizeof(*m));
	if (!m)
		return map_error(dev, "out of memory", phys, size, 0);
	iova = dmamap__iova_alloc(s->iova, order);
	if (!iova) {
		free(m);
		return map_error(dev, "IOVA space exhausted", phys, size, 0);
	}
	if (iova + ((u64)phys - first) + size - 1 > dev->map_limit) {
		dmamap__iova_free(s->iova, iova, order);
		free(m);
		return map_error(dev, "no IOVA under the device's mask", phys, size, 0);
	}
	ret = dmamap__port_iommu_map(dev->plat, first, iova, len, dir != DMA_FROM_DEVICE,
				     dir != DMA_TO_DEVICE);
	if (ret) {
		dmamap__iova_free(s->iova, iova, order);
		free(m);
		return map_error(dev, "VFIO_IOMMU_MAP_DMA refused", phys, size, ret);
	}
	*m = (struct slow_map){ .iova = iova, .len = len };
	pthread_mutex_lock(&s->slow_lock);
	m->next = *slow_bucket(s, iova);
	*slow_bucket(s, iova) = m;
	pthread_mutex_unlock(&s->slow_lock);
	dmamap__count_add(&counts(s)->slow_maps, 1);
	dmamap__count_add(&counts(s)->slow_bytes_mapped, len);
	return iova + ((u64)phys - first);
}

static dma_addr_t vfio_map_phys(struct device *dev, phys_addr_t phys, size_t size,
				enum dma_data_direction dir)
{
	struct dmamap_vfio_space *s = dev->plat->vfio_space;
	const struct vfio_region *r = dmamap__vfio_lookup_va(table_of(s), (uintptr_t)phys, size);
	dma_addr_t dma;

	if (unlikely(!r))
		return s->noiommu ? map_error(dev, "without an IOMMU only registered (locked) memory maps",
					      phys, size, 0) :
				    map_slow(dev, phys, size, dir);
	dma = registered_dma(s, r, (uintptr_t)phys, size);
	if (unlikely(dma == DMA_MAPPING_ERROR))
		return map_error(dev, "without an IOMMU a buffer must be physically contiguous", phys,
				 size, 0);
	if (unlikely(dma + size - 1 > dev->map_limit))
		return map_error(dev, "registered memory lies above the device's mask", phys, size, 0);
	return dma;
}

static dma_addr_t vfio_map_page(struct device *dev, struct page *page, unsigned long offset,
				size_t size, enum dma_data_direction dir, unsigned long attrs)
{
	(void)attrs;
	return vfio_map_phys(dev, page_to_phys(page) + offset, size, dir);
}

static void vfio_unmap_phys(struct device *dev, dma_addr_t dma, size_t size, const char *func)
{
	struct dmamap_vfio_space *s = dev->plat->vfio_space;
	struct slow_map *m;
	u64 first, len;
	int ret;

	/* Without an IOMMU nothing was mapped; registered memory stays mapped. */
	if (s->noiommu || dma - s->start < s->fast.registered_end - s->start)
		return;
	first = dma & ~(s->unit - 1);
	len = (dma + size - first + s->unit - 1) & ~(s->unit - 1);
	/*
	 * Only what the record says, and only with the size it was mapped
	 * with: the kernel would unmap a neighbour's range too, whole.
	 */
	pthread_mutex_lock(&s->slow_lock);
	m = slow_take(s, first);
	if (m && m->len != len) {
		m->next = *slow_bucket(s, first);
		*slow_bucket(s, first) = m;
		m = NULL;
		ret = -ERANGE;
	} else {
		ret = m ? 0 : -ENOENT;
	}
	pthread_mutex_unlock(&s->slow_lock);
	if (!ret) {
		ret = dmamap__port_iommu_unmap(dev->plat, first, len);
		free(m);
	}
	if (ret) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_HANDLE, DMAMAP_DBG_UNMAP_INVALID,
				  "[IOVA=0x%llx] [size=%zu] %s", (unsigned long long)dma, size,
				  ret == -ERANGE ? "is a mapping of another size: left mapped" :
				  ret == -ENOENT ? "is not mapped" :
						   "could not be unmapped in the IOMMU");
		return;
	}
	dmamap__iova_free(s->iova, first, order_for(len));
	dmamap__count_add(&counts(s)->slow_unmaps, 1);
	dmamap__count_add(&counts(s)->slow_bytes_unmapped, len);
}

static void vfio_unmap_page(struct device *dev, dma_addr_t dma, size_t size,
			    enum dma_data_direction dir, unsigned long attrs)
{
	(void)dir;
	(void)attrs;
	vfio_unmap_phys(dev, dma, size, "dma_unmap_page_attrs");
}

/* A device register block (another device's BAR, say) is not memory VFIO can pin. */
static dma_addr_t vfio_map_resource(struct device *dev, phys_addr_t phys, size_t size,
				    enum dma_data_direction dir, unsigned long attrs)
{
	(void)dir;
	(void)attrs;
	return map_error(dev, "dma_map_resource() has no VFIO counterpart here", phys, size, 0);
}

/* Coherent memory: whole pages of the registered arena, already in the IOMMU. */
static void *vfio_alloc(struct device *dev, size_t size, dma_addr_t *dma_handle, gfp_t gfp,
			unsigned long attrs)
{
	struct dmamap_platform *p = dev->plat;
	size_t len = dmamap__port_map_size(size);
	phys_addr_t phys;
	dma_addr_t dma;
	const struct vfio_region *r;

	(void)gfp;
	phys = dmamap__pages_alloc(p, dmamap__get_order(len), ZONE_NORMAL_IDX);
	if (phys == PHYS_NONE)
		return NULL;
	/* The arena is registered: its pages are in the IOMMU already. */
	r = dmamap__vfio_lookup_va(table_of(p->vfio_space), (uintptr_t)phys, len);
	dma = r ? registered_dma(p->vfio_space, r, (uintptr_t)phys, len) : DMA_MAPPING_ERROR;
	if (dma == DMA_MAPPING_ERROR || dma + len - 1 > dev->coherent_dma_mask) {
		dmamap__free_contiguous(p, phys, len);
		return NULL;
	}
	dmamap__reset_range(p, phys, len, true);
	*dma_handle = dma;
	return (attrs & DMA_ATTR_NO_KERNEL_MAPPING) ? (void *)virt_to_page((void *)(uintptr_t)phys) :
						      (void *)(uintptr_t)phys;
}

/* The arena pages behind an allocation's handle, checked against its CPU address; PHYS_NONE if not one. */
static phys_addr_t allocation_of(struct device *dev, dma_addr_t dma, size_t size, const void *cpu,
				 const char *func)
{
	uintptr_t va = arena_va(dev->plat->vfio_space, dma);
	size_t len = dmamap__port_map_size(size);
	phys_addr_t phys = va ? (phys_addr_t)va : PHYS_NONE;

	if (phys == PHYS_NONE || !dmamap__is_contiguous(dev->plat, phys, len) ||
	    (cpu != (void *)(uintptr_t)phys && cpu != (void *)virt_to_page((void *)(uintptr_t)phys))) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_HANDLE, DMAMAP_DBG_FREE_INVALID,
				  "[IOVA=0x%llx] [size=%zu] [cpu=%p] is not a coherent allocation of this size",
				  (unsigned long long)dma, size, cpu);
		return PHYS_NONE;
	}
	return phys;
}

static void vfio_free(struct device *dev, size_t size, void *cpu, dma_addr_t dma,
		      unsigned long attrs)
{
	phys_addr_t phys = allocation_of(dev, dma, size, cpu, "dma_free_attrs");

	(void)attrs;
	if (phys != PHYS_NONE)
		dmamap__free_contiguous(dev->plat, phys, dmamap__port_map_size(size));
}

static void *vfio_alloc_noncoherent(struct device *dev, size_t size, dma_addr_t *dma_handle,
				    enum dma_data_direction dir, gfp_t gfp)
{
	(void)dir;
	return vfio_alloc(dev, size, dma_handle, gfp, 0);
}

static void vfio_free_noncoherent(struct device *dev, size_t size, void *cpu, dma_addr_t dma,
				  enum dma_data_direction dir)
{
	(void)dir;
	vfio_free(dev, size, cpu, dma, 0);
}

static int vfio_mmap(struct device *dev, struct vm_area_struct *vma, void *cpu, dma_addr_t dma,
		     size_t size, unsigned long attrs)
{
	uintptr_t va = arena_va(dev->plat->vfio_space, dma);

	(void)cpu;
	(void)attrs;
	return va ? dmamap__common_mmap(dev, vma, (phys_addr_t)va, size, VIEW_CPU) : -ENXIO;
}

static int vfio_get_sgtable(struct device *dev, struct sg_table *sgt, void *cpu, dma_addr_t dma,
			    size_t size, unsigned long attrs)
{
	uintptr_t va = arena_va(dev->plat->vfio_space, dma);

	(void)cpu;
	(void)attrs;
	return va ? dmamap__common_get_sgtable(dev, sgt, (phys_addr_t)va, size) : -ENXIO;
}

/*
 * A mask must reach the whole IOVA space (below 4 GiB, so 32 bits do):
 * IOVAs are given without regard to a mask, and registered memory is
 * wherever it was put. Linux allocates under a narrower mask instead;
 * PCIe functions that need one are rare enough to refuse.
 */
static int vfio_dma_supported(struct device *dev, u64 mask)
{
	struct dmamap_vfio_space *s = dev->plat->vfio_space;

	/* Physical addresses may be anywhere in RAM: a map above the mask is refused then. */
	if (s->noiommu)
		return mask >= DMA_BIT_MASK(32);
	return mask >= s->end - 1;
}

static u64 vfio_required_mask(struct device *dev)
{
	struct dmamap_vfio_space *s = dev->plat->vfio_space;

	if (s->noiommu)
		return DMA_BIT_MASK(64);
	return DMA_BIT_MASK(64 - __builtin_clzll(s->end - 1));
}

static size_t vfio_opt_mapping_size(void)
{
	return PAGE_SIZE << (DMAMAP_IOVA_CACHE_ORDERS - 1);
}

static const struct dma_map_ops vfio_ops = {
	.name = "vfio",
	.alloc = vfio_alloc,
	.free = vfio_free,
	.alloc_noncoherent = vfio_alloc_noncoherent,
	.free_noncoherent = vfio_free_noncoherent,
	.mmap = vfio_mmap,
	.get_sgtable = vfio_get_sgtable,
	.map_page = vfio_map_page,
	.unmap_page = vfio_unmap_page,
	.map_resource = vfio_map_resource,
	.dma_supported = vfio_dma_supported,
	.get_required_mask = vfio_required_mask,
	.opt_mapping_size = vfio_opt_mapping_size,
};

void dmamap__vfio_attach(struct device *dev)
{
	/* Without an IOMMU every map takes the general path: it checks physical contiguity. */
	dev->vfio_lookup = !dev->plat->vfio_space->noiommu;
	dev->vfio = true;
	dev->dma_ops = &vfio_ops;
	dev->coherent = true;
}

int dmamap__vfio_space_init(struct dmamap_platform *p)
{
	struct dmamap_vfio_space *s;
	u64 start[8], end[8], pgsize = 0, split;
	unsigned int n = dmamap__port_iommu_apertures(p, start, end, 8, &pgsize);

	s = dmamap__zalloc_lines(sizeof(*s));
	if (!s)
		return -ENOMEM;
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->slow_lock, NULL);
	if (dmamap__port_no_iommu(p)) {
		/* Physical addresses: no IOVA space to keep, pages in the host's unit. */
		s->noiommu = true;
		s->unit = MAX((u64)dmamap__host_page_size(), (u64)PAGE_SIZE);
		s->fast.table = dmamap__calloc(1, sizeof(struct vfio_table));
		if (!s->fast.table) {
			free(s);
			return -ENOMEM;
		}
		p->vfio_space = s;
		return 0;
	}
	s->unit = MAX(MAX((u64)dmamap__host_page_size(), pgsize), (u64)PAGE_SIZE);
	/*
	 * The largest aperture between 1 MiB and 4 GiB: an SMMU's MSI window
	 * (at 128 MiB on arm64) would leave the first one small.
	 */
	for (unsigned int i = 0; i < n && i < 8; i++) {
		u64 a = MAX((start[i] + s->unit - 1) & ~(s->unit - 1), (u64)SPACE_FIRST);
		u64 b = MIN(end[i], (u64)SPACE_LAST);

		b &= ~(s->unit - 1);
		if (b > a && b - a >= (1ULL << 24) && b - a > s->end - s->start) {
			s->start = a;
			s->end = b;
		}
	}
	if (!s->end) {
		free(s);
		return -ENOSPC;
	}
	/*
	 * Registered ranges below, the slow path's above: an unmap tells them
	 * apart by one compare. The registered part holds a 1 GiB block where
	 * the space allows ([1 GiB, 2 GiB)); else the space is halved.
	 */
	split = s->end - s->start >= (2ULL << 30) + (1ULL << 24) ? 2ULL << 30 :
		s->start + (((s->end - s->start) / 2) & ~(s->unit - 1));
	s->fast.registered_end = split;
	s->fast.table = dmamap__calloc(1, sizeof(struct vfio_table));
	/* Up to 1 GiB in one range: a registered arena of that size is one block. */
	s->reg_iova = s->fast.table ? dmamap__iova_create_order(s->start, split, 30 - PAGE_SHIFT) :
				      NULL;
	s->iova = s->reg_iova ? dmamap__iova_create(split, s->end) : NULL;
	if (!s->iova) {
		dmamap__iova_destroy(s->reg_iova);
		free((void *)s->fast.table);
		free(s);
		return -ENOMEM;
	}
	p->vfio_space = s;
	return 0;
}

void dmamap__vfio_space_fini(struct dmamap_platform *p)
{
	struct dmamap_vfio_space *s = p->vfio_space;
	struct vfio_table *t;

	if (!s)
		return;
	t = (struct vfio_table *)s->fast.table;
	for (unsigned int i = 0; i < t->n; i++) {
		if (s->noiommu)
			dmamap__port_unlock(p, t->r[i].va, t->r[i].size / s->unit);
		else
			dmamap__port_iommu_unmap(p, t->r[i].iova, t->r[i].size);
	}
	/* Slow mappings a driver leaked (the checker named them): the container's end unmaps them. */
	for (unsigned int i = 0; i < SLOW_BUCKETS; i++)
		while (s->slow[i]) {
			struct slow_map *m = s->slow[i];

			s->slow[i] = m->next;
			free(m);
		}
	while (s->all_frames) {
		struct vfio_frames *next = s->all_frames->next;

		free(s->all_frames);
		s->all_frames = next;
	}
	while (t) {
		struct vfio_table *older = t->older;

		free(t);
		t = older;
	}
	for (t = s->retired; t;) {
		struct vfio_table *older = t->older;

		free(t);
		t = older;
	}
	dmamap__iova_destroy(s->iova);
	dmamap__iova_destroy(s->reg_iova);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->slow_lock);
	free(s);
	p->vfio_space = NULL;
}

/* A copy of @t with @add inserted in order (@add NULL) or @drop left out; NULL when out of memory. */
static struct vfio_table *table_edit(const struct vfio_table *t, const struct vfio_region *add, unsigned int drop)
{
	struct vfio_table *n = dmamap__calloc(1, sizeof(*n) + (t->n + 1) * sizeof(n->r[0]));
	unsigned int k = 0;

	if (!n)
		return NULL;
	for (unsigned int i = 0; i < t->n; i++) {
		if (add && add->va < t->r[i].va && k == i)
			n->r[k++] = *add;
		if (!add && i == drop)
			continue;
		n->r[k++] = t->r[i];
	}
	if (add && k == t->n)
		n->r[k++] = *add;
	n->n = k;
	return n;
}

static void publish(struct dmamap_vfio_space *s, struct vfio_table *n)
{
	struct vfio_table *old = (struct vfio_table *)s->fast.table;

	/* Readers may still hold the old table: it is kept until the end. */
	old->older = s->retired;
	s->retired = old;
	__atomic_store_n(&s->fast.table, n, __ATOMIC_RELEASE);
}

/* No IOMMU (lock held): lock @r's pages, read where they are, publish it. */
static int register_physical(struct dmamap_platform *p, struct dmamap_vfio_space *s,
			     struct vfio_region *r)
{
	size_t npages = (size_t)(r->size / s->unit);
	struct vfio_frames *f = dmamap__calloc(1, sizeof(*f) + npages * sizeof(f->pa[0]));
	struct vfio_table *n;
	int ret;

	if (!f)
		return -ENOMEM;
	ret = dmamap__port_lock_phys(p, r->va, npages, f->pa);
	r->frames = f;
	n = ret ? NULL : table_edit(s->fast.table, r, 0);
	if (!n) {
		if (!ret)
			dmamap__port_unlock(p, r->va, npages);
		free(f);
		return ret ? ret : -ENOMEM;
	}
	/* Readers of older tables may still follow it: it lives until the end. */
	f->next = s->all_frames;
	s->all_frames = f;
	publish(s, n);
	s->registered_bytes += r->size;
	return 0;
}

int dmamap__vfio_register(struct dmamap_platform *p, uintptr_t va, u64 size, bool arena)
{
	struct dmamap_vfio_space *s = p->vfio_space;
	struct vfio_region r = { .va = va, .size = size, .arena = arena };
	struct vfio_table *t, *n;
	int ret;

	if (!s || !va || !size || (va | size) & (s->unit - 1) || va + size < va)
		return -EINVAL;
	/* Too large for any block, wherever it lies: that, before what it overlaps. */
	if (size > (1ULL << 30) || (!s->noiommu && size > s->end - s->start))
		return -ENOSPC;
	pthread_mutex_lock(&s->lock);
	t = (struct vfio_table *)s->fast.table;
	for (unsigned int i = 0; i < t->n; i++)
		if (va < t->r[i].va + t->r[i].size && t->r[i].va < va + size) {
			pthread_mutex_unlock(&s->lock);
			return -EINVAL;
		}
	if (t->n >= MAX_REGIONS || size > (1ULL << 30) || (!s->noiommu && size > s->end - s->start)) {
		pthread_mutex_unlock(&s->lock);
		return -ENOSPC;
	}
	if (s->noiommu) {
		ret = register_physical(p, s, &r);
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	r.order = order_for(size);
	r.iova = dmamap__iova_alloc(s->reg_iova, r.order);
	if (!r.iova) {
		pthread_mutex_unlock(&s->lock);
		return -ENOSPC;
	}
	/* Registered memory serves every direction: the device may read and write it. */
	ret = dmamap__port_iommu_map(p, va, r.iova, size, true, true);
	n = ret ? NULL : table_edit(t, &r, 0);
	if (!n) {
		if (!ret)
			dmamap__port_iommu_unmap(p, r.iova, size);
		dmamap__iova_free(s->reg_iova, r.iova, r.order);
		pthread_mutex_unlock(&s->lock);
		return ret ? ret : -ENOMEM;
	}
	publish(s, n);
	s->registered_bytes += size;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int dmamap__vfio_unregister(struct dmamap_platform *p, uintptr_t va)
{
	struct dmamap_vfio_space *s = p->vfio_space;
	struct vfio_table *t, *n;
	unsigned int i;
	int ret;

	if (!s)
		return -EINVAL;
	pthread_mutex_lock(&s->lock);
	t = (struct vfio_table *)s->fast.table;
	for (i = 0; i < t->n && (t->r[i].va != va || t->r[i].arena); i++)
		;
	if (i == t->n) {
		pthread_mutex_unlock(&s->lock);
		return -ENOENT;
	}
	n = table_edit(t, NULL, i);
	if (!n) {
		pthread_mutex_unlock(&s->lock);
		return -ENOMEM;
	}
	if (s->noiommu) {
		dmamap__port_unlock(p, t->r[i].va, t->r[i].size / s->unit);
	} else {
		/* Still mapped if the kernel says no: the range stays registered, its IOVAs taken. */
		ret = dmamap__port_iommu_unmap(p, t->r[i].iova, t->r[i].size);
		if (ret) {
			free(n);
			pthread_mutex_unlock(&s->lock);
			return ret;
		}
		dmamap__iova_free(s->reg_iova, t->r[i].iova, t->r[i].order);
	}
	s->registered_bytes -= t->r[i].size;
	publish(s, n);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

void dmamap__vfio_read_stats(struct device *dev, struct dmamap_vfio_stats *st)
{
	struct dmamap_vfio_space *s = dev->plat->vfio_space;
	uint64_t mapped = 0, unmapped = 0;

	memset(st, 0, sizeof(*st));
	if (!s)
		return;
	for (unsigned int i = 0; i < DMAMAP_STAT_SHARDS; i++) {
		const struct vfio_counts *c = &s->counts[i];

		st->slow_maps += __atomic_load_n(&c->slow_maps, __ATOMIC_RELAXED);
		st->slow_unmaps += __atomic_load_n(&c->slow_unmaps, __ATOMIC_RELAXED);
		st->map_failures += __atomic_load_n(&c->failures, __ATOMIC_RELAXED);
		mapped += __atomic_load_n(&c->slow_bytes_mapped, __ATOMIC_RELAXED);
		unmapped += __atomic_load_n(&c->slow_bytes_unmapped, __ATOMIC_RELAXED);
	}
	st->slow_bytes_live = mapped - unmapped;
	/* Every map that succeeded is the device's to count; those not on the slow path were lookups. */
	st->fast_maps = dmamap__count_sum(dev->stats, sizeof(dev->stats[0]),
					  offsetof(struct dmamap_stat_shard, v[ST_MAPS])) -
			st->slow_maps;
	pthread_mutex_lock(&s->lock);
	st->registered_bytes = s->registered_bytes;
	pthread_mutex_unlock(&s->lock);
	st->iova_start = s->start;
	st->iova_end = s->end;
}

