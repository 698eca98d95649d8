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

struct region {
	uintptr_t va;
	u64 size;
	u64 iova;
	unsigned int order; /* of the IOVA block: its pages, as a power of two */
	bool arena;
};

struct table {
	struct table *older;
	unsigned int n;
	struct region r[]; /* sorted by va */
};

struct vfio_counts {
	uint64_t fast_maps, slow_maps, slow_unmaps, slow_bytes_mapped, slow_bytes_unmapped,
		failures;
} __attribute__((aligned(64)));

struct dmamap_vfio_space {
	struct table *table; /* the one in force, loaded with acquire */
	struct dmamap_iova *iova;
	u64 start, end, unit;
	pthread_mutex_t lock; /* registration; never a mapping path */
	struct table *retired;
	uint64_t registered_bytes;
	struct vfio_counts counts[DMAMAP_STAT_SHARDS];
};

static inline struct vfio_counts *counts(struct dmamap_vfio_space *s)
{
	return &s->counts[dmamap__my_shard()];
}

/* The registered range holding [@va, +@size), or NULL. */
static inline const struct region *lookup_va(const struct table *t, uintptr_t va, size_t size)
{
	unsigned int lo = 0, hi = t->n;

	/* The last range starting at or before @va. */
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (t->r[mid].va <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	{
		const struct region *r = &t->r[lo - 1];
		u64 off = va - r->va;

		return off < r->size && size <= r->size - off ? r : NULL;
	}
}

/* The registered range whose IOVAs hold @dma, or NULL (few ranges: a scan). */
static const struct region *lookup_iova(const struct table *t, dma_addr_t dma)
{
	for (unsigned int i = 0; i < t->n; i++)
		if (dma - t->r[i].iova < t->r[i].size)
			return &t->r[i];
	return NULL;
}

static inline struct table *table_of(struct dmamap_vfio_space *s)
{
	return __atomic_load_n(&s->table, __ATOMIC_ACQUIRE);
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

/* Memory nobody registered: pinned and mapped at a fresh IOVA range now. */
static __attribute__((noinline)) dma_addr_t map_slow(struct device *dev, phys_addr_t phys,
						     size_t size)
{
	struct dmamap_vfio_space *s = dev->plat->vfio_space;
	uintptr_t first = (uintptr_t)phys & ~(uintptr_t)(s->unit - 1);
	u64 len = ((u64)phys + size - first + s->unit - 1) & ~(s->unit - 1);
	unsigned int order = order_for(len);
	u64 iova = dmamap__iova_alloc(s->iova, order);
	int ret;

	if (!iova)
		return map_error(dev, "IOVA space exhausted", phys, size, 0);
	if (iova + ((u64)phys - first) + size - 1 > dev->map_limit) {
		dmamap__iova_free(s->iova, iova, order);
		return map_error(dev, "no IOVA under the device's mask", phys, size, 0);
	}
	ret = dmamap__port_iommu_map(dev->plat, first, iova, len);
	if (ret) {
		dmamap__iova_free(s->iova, iova, order);
		return map_error(dev, "VFIO_IOMMU_MAP_DMA refused", phys, size, ret);
	}
	dmamap__count_add(&counts(s)->slow_maps, 1);
	dmamap__count_add(&counts(s)->slow_bytes_mapped, len);
	return iova + ((u64)phys - first);
}

static dma_addr_t vfio_map_phys(struct device *dev, phys_addr_t phys, size_t size)
{
	struct dmamap_vfio_space *s = dev->plat->vfio_space;
	const struct region *r = lookup_va(table_of(s), (uintptr_t)phys, size);
	dma_addr_t dma;

	if (unlikely(!r))
		return map_slow(dev, phys, size);
	dma = r->iova + ((uintptr_t)phys - r->va);
	if (unlikely(dma + size - 1 > dev->map_limit))
		return map_error(dev, "registered memory lies above the device's mask", phys, size, 0);
	dmamap__count_add(&counts(s)->fast_maps, 1);
	return dma;
}

static dma_addr_t vfio_map_page(struct device *dev, struct page *page, unsigned long offset,
				size_t size, enum dma_data_direction dir, unsigned long attrs)
{
	(void)dir;
	(void)attrs;
	return vfio_map_phys(dev, page_to_phys(page) + offset, size);
}

static void vfio_unmap_phys(struct device *dev, dma_addr_t dma, size_t size, const char *func)
{
	struct dmamap_vfio_space *s = dev->plat->vfio_space;
	u64 first, len;
	int ret;

	if (likely(lookup_iova(table_of(s), dma)))
		return;
	first = dma & ~(s->unit - 1);
	len = (dma + size - first + s->unit - 1) & ~(s->unit - 1);
	ret = dmamap__port_iommu_unmap(dev->plat, first, len);
	if (ret) {
		dmamap__api_error(dev, func, DMAMAP_ERRK_BAD_HANDLE, DMAMAP_DBG_UNMAP_INVALID,
				  "[IOVA=0x%llx] [size=%zu] is not mapped in the IOMMU: %s",
				  (unsigned long long)dma, size, strerror(-ret));
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
	const struct region *r;

	(void)gfp;
	phys = dmamap__pages_alloc(p, dmamap__get_order(len), ZONE_NORMAL_IDX);
	if (phys == PHYS_NONE)
		return NULL;
	/* The arena is registered: its pages are in the IOMMU already. */
	r = lookup_va(table_of(p->vfio_space), (uintptr_t)phys, len);
	dma = r ? r->iova + ((uintptr_t)phys - r->va) : DMA_MAPPING_ERROR;
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
	const struct region *r = lookup_iova(table_of(dev->plat->vfio_space), dma);
	size_t len = dmamap__port_map_size(size);
	phys_addr_t phys = r && r->arena ? (phys_addr_t)(r->va + (dma - r->iova)) : PHYS_NONE;

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
	const struct region *r = lookup_iova(table_of(dev->plat->vfio_space), dma);

	(void)cpu;
	(void)attrs;
	if (!r || !r->arena)
		return -ENXIO;
	return dmamap__common_mmap(dev, vma, (phys_addr_t)(r->va + (dma - r->iova)), size, VIEW_CPU);
}

static int vfio_get_sgtable(struct device *dev, struct sg_table *sgt, void *cpu, dma_addr_t dma,
			    size_t size, unsigned long attrs)
{
	const struct region *r = lookup_iova(table_of(dev->plat->vfio_space), dma);

	(void)cpu;
	(void)attrs;
	if (!r || !r->arena)
		return -ENXIO;
	return dmamap__common_get_sgtable(dev, sgt, (phys_addr_t)(r->va + (dma - r->iova)), size);
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

	return mask >= s->end - 1;
}

static u64 vfio_required_mask(struct device *dev)
{
	struct dmamap_vfio_space *s = dev->plat->vfio_space;

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

dma_addr_t dmamap__vfio_map_registered(struct device *dev, const void *ptr, size_t size)
{
	struct dmamap_vfio_space *s = dev->plat->vfio_space;
	const struct region *r = lookup_va(table_of(s), (uintptr_t)ptr, size);
	dma_addr_t dma;

	if (unlikely(!r))
		return DMA_MAPPING_ERROR;
	dma = r->iova + ((uintptr_t)ptr - r->va);
	if (unlikely(dma + size - 1 > dev->map_limit))
		return DMA_MAPPING_ERROR;
	dmamap__count_add(&counts(s)->fast_maps, 1);
	return dma;
}

bool dmamap__vfio_registered_handle(struct device *dev, dma_addr_t addr)
{
	return lookup_iova(table_of(dev->plat->vfio_space), addr) != NULL;
}

void dmamap__vfio_attach(struct device *dev)
{
	dev->vfio_lookup = true;
	dev->dma_ops = &vfio_ops;
	dev->coherent = true;
}

int dmamap__vfio_space_init(struct dmamap_platform *p)
{
	struct dmamap_vfio_space *s;
	u64 start[8], end[8], pgsize = 0;
	unsigned int n = dmamap__port_iommu_apertures(p, start, end, 8, &pgsize);

	s = dmamap__zalloc_lines(sizeof(*s));
	if (!s)
		return -ENOMEM;
	pthread_mutex_init(&s->lock, NULL);
	s->unit = MAX(MAX((u64)dmamap__host_page_size(), pgsize), (u64)PAGE_SIZE);
	/* The first aperture that reaches above 1 MiB, kept below 4 GiB. */
	for (unsigned int i = 0; i < n && i < 8; i++) {
		u64 a = MAX((start[i] + s->unit - 1) & ~(s->unit - 1), (u64)SPACE_FIRST);
		u64 b = MIN(end[i], (u64)SPACE_LAST);

		b &= ~(s->unit - 1);
		if (b > a && b - a >= (1ULL << 24)) {
			s->start = a;
			s->end = b;
			break;
		}
	}
	if (!s->end) {
		free(s);
		return -ENOSPC;
	}
	s->table = dmamap__calloc(1, sizeof(struct table));
	/* Up to 1 GiB in one range: a registered arena of that size is one block. */
	s->iova = s->table ? dmamap__iova_create_order(s->start, s->end, 30 - PAGE_SHIFT) : NULL;
	if (!s->iova) {
		free(s->table);
		free(s);
		return -ENOMEM;
	}
	p->vfio_space = s;
	return 0;
}

void dmamap__vfio_space_fini(struct dmamap_platform *p)
{
	struct dmamap_vfio_space *s = p->vfio_space;
	struct table *t;

	if (!s)
		return;
	t = s->table;
	for (unsigned int i = 0; i < t->n; i++)
		dmamap__port_iommu_unmap(p, t->r[i].iova, t->r[i].size);
	while (t) {
		struct table *older = t->older;

		free(t);
		t = older;
	}
	for (t = s->retired; t;) {
		struct table *older = t->older;

		free(t);
		t = older;
	}
	dmamap__iova_destroy(s->iova);
	pthread_mutex_destroy(&s->lock);
	free(s);
	p->vfio_space = NULL;
}

/* A copy of @t with @add inserted in order (@add NULL) or @drop left out; NULL when out of memory. */
static struct table *table_edit(const struct table *t, const struct region *add, unsigned int drop)
{
	struct table *n = dmamap__calloc(1, sizeof(*n) + (t->n + 1) * sizeof(n->r[0]));
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

static void publish(struct dmamap_vfio_space *s, struct table *n)
{
	struct table *old = s->table;

	/* Readers may still hold the old table: it is kept until the end. */
	old->older = s->retired;
	s->retired = old;
	__atomic_store_n(&s->table, n, __ATOMIC_RELEASE);
}

int dmamap__vfio_register(struct dmamap_platform *p, uintptr_t va, u64 size, bool arena)
{
	struct dmamap_vfio_space *s = p->vfio_space;
	struct region r = { .va = va, .size = size, .arena = arena };
	struct table *t, *n;
	int ret;

	if (!s || !va || !size || (va | size) & (s->unit - 1) || va + size < va)
		return -EINVAL;
	pthread_mutex_lock(&s->lock);
	t = s->table;
	for (unsigned int i = 0; i < t->n; i++)
		if (va < t->r[i].va + t->r[i].size && t->r[i].va < va + size) {
			pthread_mutex_unlock(&s->lock);
			return -EINVAL;
		}
	if (t->n >= MAX_REGIONS || size > s->end - s->start) {
		pthread_mutex_unlock(&s->lock);
		return -ENOSPC;
	}
	r.order = order_for(size);
	r.iova = dmamap__iova_alloc(s->iova, r.order);
	if (!r.iova) {
		pthread_mutex_unlock(&s->lock);
		return -ENOSPC;
	}
	ret = dmamap__port_iommu_map(p, va, r.iova, size);
	n = ret ? NULL : table_edit(t, &r, 0);
	if (!n) {
		if (!ret)
			dmamap__port_iommu_unmap(p, r.iova, size);
		dmamap__iova_free(s->iova, r.iova, r.order);
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
	struct table *t, *n;
	unsigned int i;
	int ret;

	if (!s)
		return -EINVAL;
	pthread_mutex_lock(&s->lock);
	t = s->table;
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
	/* Still mapped if the kernel says no: the range stays registered, its IOVAs taken. */
	ret = dmamap__port_iommu_unmap(p, t->r[i].iova, t->r[i].size);
	if (ret) {
		free(n);
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	dmamap__iova_free(s->iova, t->r[i].iova, t->r[i].order);
	s->registered_bytes -= t->r[i].size;
	publish(s, n);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

void dmamap__vfio_read_stats(struct dmamap_platform *p, struct dmamap_vfio_stats *st)
{
	struct dmamap_vfio_space *s = p->vfio_space;
	uint64_t mapped = 0, unmapped = 0;

	memset(st, 0, sizeof(*st));
	if (!s)
		return;
	for (unsigned int i = 0; i < DMAMAP_STAT_SHARDS; i++) {
		const struct vfio_counts *c = &s->counts[i];

		st->fast_maps += __atomic_load_n(&c->fast_maps, __ATOMIC_RELAXED);
		st->slow_maps += __atomic_load_n(&c->slow_maps, __ATOMIC_RELAXED);
		st->slow_unmaps += __atomic_load_n(&c->slow_unmaps, __ATOMIC_RELAXED);
		st->map_failures += __atomic_load_n(&c->failures, __ATOMIC_RELAXED);
		mapped += __atomic_load_n(&c->slow_bytes_mapped, __ATOMIC_RELAXED);
		unmapped += __atomic_load_n(&c->slow_bytes_unmapped, __ATOMIC_RELAXED);
	}
	st->slow_bytes_live = mapped - unmapped;
	pthread_mutex_lock(&s->lock);
	st->registered_bytes = s->registered_bytes;
	pthread_mutex_unlock(&s->lock);
	st->iova_start = s->start;
	st->iova_end = s->end;
}
