/* SPDX-License-Identifier: MIT */
/*
 * Heap buffers: memory in runs of contiguous pages, exported with ops
 * that map each importer through its own DMA operations, as Linux's
 * system and CMA heaps do. The runs are whole host pages, so that a vmap
 * or a user mapping of them is possible on a large-page host too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "../lib/lib.h"
#include "../lib/mem.h"
#include "../mm/mm.h"
#include "../ops/ops_helpers.h"
#include "../platform/port.h"
#include "core.h"
#include "dma_buf.h"

struct dma_heap {
	struct dmamap_platform *p;
	const char *name;
	struct dma_heap *next;
};

static pthread_mutex_t heaps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dma_heap *heaps;

/* A heap buffer's private part: its memory and its CPU view once made. */
struct heap_buffer {
	struct dmamap__heap_mem *mem;
	void *vaddr;
	bool remapped; /* vaddr is a view of its own (scattered runs), not the linear map */
};

static const unsigned int system_orders[] = { 8, 4, 0 };

void dmamap__heap_mem_free_runs(struct dmamap__heap_mem *mem)
{
	for (unsigned int i = 0; i < mem->nruns; i++) {
		struct dmamap__heap_run *r = &mem->runs[i];

		if (r->order == ~0u)
			dmamap__free_contiguous(mem->plat, r->phys, r->len);
		else
			dmamap_free_pages(mem->plat, virt_to_page(dmamap_phys_to_virt(mem->plat, r->phys)),
					  r->order);
	}
	free(mem->runs);
	mem->runs = NULL;
	mem->nruns = 0;
	mem->size = 0;
}

void dmamap__heap_mem_free(struct dmamap__heap_mem *mem)
{
	if (!mem)
		return;
	dmamap__heap_mem_free_runs(mem);
	free(mem);
}

static int add_run(struct dmamap__heap_mem *mem, phys_addr_t phys, size_t len, unsigned int order)
{
	struct dmamap__heap_run *r = dmamap__realloc(mem->runs, (mem->nruns + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	mem->runs = r;
	/* Zeroed, in memory and every view: what the device and the CPU see agree. */
	dmamap__reset_range(mem->plat, phys, len, true);
	r[mem->nruns].phys = phys;
	r[mem->nruns].len = len;
	r[mem->nruns].order = order;
	mem->nruns++;
	return 0;
}

/* Give back a run that did not make it into the list. */
static void drop_block(struct dmamap__heap_mem *mem, struct page *pg, unsigned int order)
{
	dmamap_free_pages(mem->plat, pg, order);
}

int dmamap__heap_alloc_scattered(struct dmamap__heap_mem *mem, size_t size, gfp_t gfp)
{
	const unsigned int min_order = dmamap__port_map_order();
	size_t left = dmamap__port_map_size(PAGE_ALIGN(size));

	mem->size = left;
	while (left) {
		struct page *pg = NULL;
		unsigned int order = min_order;

		for (unsigned int i = 0; i < ARRAY_SIZE(system_orders) && !pg; i++) {
			order = MAX(system_orders[i], min_order);
			if (((size_t)PAGE_SIZE << order) > left && order != min_order)
				continue;
			pg = dmamap_alloc_pages(mem->plat, order, gfp);
		}
		if (!pg)
			return -ENOMEM;
		if (add_run(mem, page_to_phys(pg), (size_t)PAGE_SIZE << order, order)) {
			drop_block(mem, pg, order);
			return -ENOMEM;
		}
		left -= (size_t)PAGE_SIZE << order;
	}
	return 0;
}

int dmamap__heap_alloc_cma(struct dmamap__heap_mem *mem, size_t size)
{
	size_t len = dmamap__port_map_size(PAGE_ALIGN(size));
	phys_addr_t phys;

	phys = dmamap__alloc_from_board_cma(mem->plat, len);
	if (phys == PHYS_NONE)
		return -ENOMEM;
	mem->size = len;
	if (add_run(mem, phys, len, ~0u)) {
		dmamap__free_contiguous(mem->plat, phys, len);
		return -ENOMEM;
	}
	return 0;
}

int dmamap__heap_alloc_block(struct dmamap__heap_mem *mem, size_t size, gfp_t gfp)
{
	size_t len = dmamap__port_map_size(PAGE_ALIGN(size));
	unsigned int order = 0;
	struct page *pg;

	while (((size_t)PAGE_SIZE << order) < len)
		order++;
	pg = dmamap_alloc_pages(mem->plat, order, gfp);
	if (!pg)
		return -ENOMEM;
	mem->size = len;
	if (add_run(mem, page_to_phys(pg), len, order)) {
		drop_block(mem, pg, order);
		return -ENOMEM;
	}
	/* The block's tail past @len is idle: it goes back with the block. */
	mem->runs[0].len = len;
	return 0;
}

/* ---- the exporter -------------------------------------------------------- */

static struct heap_buffer *hb_of(struct dma_buf *b)
{
	return b->priv;
}

/* The importer's table: the runs, cut where its segments must end. */
static struct sg_table *table_for(struct dmamap__heap_mem *mem, struct device *dev)
{
	const size_t seg = dma_get_max_seg_size(dev) & ~(size_t)(PAGE_SIZE - 1);
	struct sg_table *sgt;
	struct scatterlist *sg;
	unsigned int n = 0;

	if (!seg)
		return ERR_PTR(-EINVAL); /* a device whose segments hold less than a page */
	sgt = dmamap__calloc(1, sizeof(*sgt));
	if (!sgt)
		return ERR_PTR(-ENOMEM);
	for (unsigned int i = 0; i < mem->nruns; i++)
		n += (unsigned int)((mem->runs[i].len + seg - 1) / seg);
	if (sg_alloc_table(sgt, n, GFP_KERNEL)) {
		free(sgt);
		return ERR_PTR(-ENOMEM);
	}
	sg = sgt->sgl;
	for (unsigned int i = 0; i < mem->nruns; i++)
		for (size_t off = 0; off < mem->runs[i].len && sg; off += seg) {
			size_t len = MIN(seg, mem->runs[i].len - off);
			void *va = dmamap_phys_to_virt(mem->plat, mem->runs[i].phys + off);

			sg_set_page(sg, virt_to_page(va), (unsigned int)len, 0);
			sg = sg_next(sg);
		}
	return sgt;
}

static struct sg_table *heap_map(struct dma_buf_attachment *a, enum dma_data_direction dir)
{
	struct sg_table *sgt = table_for(hb_of(a->dmabuf)->mem, a->dev);
	int err;

	if (IS_ERR(sgt))
		return sgt;
	/*
	 * Several importers map the same lines, which the checker (as
	 * dma-debug) refuses of mappings that do their own cache maintenance:
	 * the exporter does it instead, here and in the CPU's brackets.
	 */
	err = dma_map_sgtable(a->dev, sgt, dir, DMA_ATTR_SKIP_CPU_SYNC);
	if (err) {
		sg_free_table(sgt);
		free(sgt);
		return ERR_PTR(err);
	}
	dma_sync_sgtable_for_device(a->dev, sgt, dir);
	return sgt;
}

static void heap_unmap(struct dma_buf_attachment *a, struct sg_table *sgt,
		       enum dma_data_direction dir)
{
	dma_sync_sgtable_for_cpu(a->dev, sgt, dir);
	dma_unmap_sgtable(a->dev, sgt, dir, DMA_ATTR_SKIP_CPU_SYNC);
	sg_free_table(sgt);
	free(sgt);
}

/*
 * Every mapped importer, in its own mapping's direction: a sync in
 * another one is an error to the checker, as to dma-debug. Back to the
 * devices, the importers that read go first: their sync cleans what the
 * CPU wrote, where a DMA_FROM_DEVICE importer's may invalidate it (ARMv5)
 * and would lose it if it came first.
 */
static void sync_all(struct dma_buf *buf, bool for_cpu)
{
	struct dmamap__dmabuf *b = dmamap__dmabuf_of(buf);

	pthread_mutex_lock(&b->lock);
	for (int pass = 0; pass < 2; pass++)
		for (struct dmamap__attachment *a = b->attachments; a; a = a->next) {
			if (!a->sgt || (pass == 0) == (a->dir == DMA_FROM_DEVICE))
				continue;
			if (for_cpu)
				dma_sync_sgtable_for_cpu(a->pub.dev, a->sgt, a->dir);
			else
				dma_sync_sgtable_for_device(a->pub.dev, a->sgt, a->dir);
		}
	pthread_mutex_unlock(&b->lock);
}

static int heap_begin(struct dma_buf *b, enum dma_data_direction dir)
{
	(void)dir;
	sync_all(b, true);
	return 0;
}

static int heap_end(struct dma_buf *b, enum dma_data_direction dir)
{
	(void)dir;
	sync_all(b, false);
	return 0;
}

/* Each simulated page's address, from page @first, @n of them. */
static phys_addr_t *pages_of(struct dmamap__heap_mem *mem, unsigned long first, unsigned long n)
{
	phys_addr_t *v = dmamap__calloc(n ? n : 1, sizeof(*v));
	unsigned long at = 0, k = 0;

	if (!v)
		return NULL;
	for (unsigned int i = 0; i < mem->nruns && k < n; i++)
		for (size_t off = 0; off < mem->runs[i].len && k < n; off += PAGE_SIZE, at++)
			if (at >= first)
				v[k++] = mem->runs[i].phys + off;
	return v;
}

static int heap_vmap(struct dma_buf *b, struct iosys_map *map)
{
	struct heap_buffer *hb = hb_of(b);
	struct dmamap__heap_mem *mem = hb->mem;

	if (!hb->vaddr && mem->nruns == 1) {
		hb->vaddr = dmamap_phys_to_virt(mem->plat, mem->runs[0].phys);
		hb->remapped = false;
	} else if (!hb->vaddr) {
		unsigned long n = (unsigned long)(mem->size >> PAGE_SHIFT);
		phys_addr_t *phys = pages_of(mem, 0, n);

		if (!phys)
			return -ENOMEM;
		hb->vaddr = dmamap__port_remap(mem->plat, phys, n, 0, PROT_READ | PROT_WRITE, VIEW_CPU);
		free(phys);
		if (!hb->vaddr)
			return -ENOMEM;
		hb->remapped = true;
	}
	map->vaddr = hb->vaddr;
	map->is_iomem = false;
	return 0;
}

static void heap_vunmap(struct dma_buf *b, struct iosys_map *map)
{
	struct heap_buffer *hb = hb_of(b);

	(void)map;
	if (hb->remapped && hb->vaddr)
		dmamap__munmap(hb->vaddr, hb->mem->size);
	hb->vaddr = NULL;
	hb->remapped = false;
}

static int heap_mmap(struct dma_buf *b, struct vm_area_struct *vma)
{
	struct dmamap__heap_mem *mem = hb_of(b)->mem;
	unsigned long len = vma->vm_end - vma->vm_start, n = len >> PAGE_SHIFT;
	unsigned long npages = (unsigned long)(mem->size >> PAGE_SHIFT);
	phys_addr_t *phys;
	uint8_t *va;

	if (vma->vm_start & (dmamap__host_page_size() - 1))
		return -EINVAL;
	n = dmamap__port_map_pages(n, vma->vm_pgoff, npages);
	if (!n)
		return -EINVAL;
	phys = pages_of(mem, vma->vm_pgoff, n);
	if (!phys)
		return -ENOMEM;
	va = dmamap__port_remap(mem->plat, phys, n, vma->vm_start, dmamap__vma_prot(vma), VIEW_CPU);
	free(phys);
	if (!va)
		return -ENOMEM;
	vma->vm_start = (unsigned long)va;
	vma->vm_end = vma->vm_start + len;
	return 0;
}

static void heap_release(struct dma_buf *b)
{
	struct heap_buffer *hb = hb_of(b);

	if (hb->remapped && hb->vaddr)
		dmamap__munmap(hb->vaddr, hb->mem->size);
	dmamap__heap_mem_free(hb->mem);
	free(hb);
}

static const struct dma_buf_ops heap_ops = {
	.map_dma_buf = heap_map,
	.unmap_dma_buf = heap_unmap,
	.release = heap_release,
	.begin_cpu_access = heap_begin,
	.end_cpu_access = heap_end,
	.mmap = heap_mmap,
	.vmap = heap_vmap,
	.vunmap = heap_vunmap,
};

struct dma_buf *dmamap__heap_export(struct dmamap__heap_mem *mem, const char *exp_name)
{
	DEFINE_DMA_BUF_EXPORT_INFO(info);
	struct heap_buffer *hb = dmamap__calloc(1, sizeof(*hb));
	struct dma_buf *b;

	if (!hb) {
		dmamap__heap_mem_free(mem);
		return ERR_PTR(-ENOMEM);
	}
	hb->mem = mem;
	info.exp_name = exp_name;
	info.ops = &heap_ops;
	info.size = mem->size;
	info.priv = hb;
	info.plat = mem->plat;
	b = dma_buf_export(&info);
	if (IS_ERR(b)) {
		dmamap__heap_mem_free(mem);
		free(hb);
	}
	return b;
}

/* ---- the heaps ------------------------------------------------------------ */

struct dma_heap *dmamap_heap_find(struct dmamap_platform *p, const char *name)
{
	static const char *const names[] = { "system", "cma" };
	struct dma_heap *h;
	const char *known = NULL;
	phys_addr_t cma;
	u64 cma_size;

	struct dmamap_ram_bank bank;

	if (!p || !name || dmamap_ram_bank(p, 0, &bank))
		return NULL; /* the host has no banks to carve heaps from */
	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			known = names[i];
	dmamap__board_cma_range(p, &cma, &cma_size);
	if (!known || (known == names[1] && !cma_size))
		return NULL;
	pthread_mutex_lock(&heaps_lock);
	for (h = heaps; h && (h->p != p || h->name != known); h = h->next)
		;
	if (!h && (h = dmamap__calloc(1, sizeof(*h)))) {
		h->p = p;
		h->name = known;
		h->next = heaps;
		heaps = h;
	}
	pthread_mutex_unlock(&heaps_lock);
	return h;
}

void dmamap__heaps_board_gone(struct dmamap_platform *p)
{
	struct dma_heap **pp = &heaps;

	pthread_mutex_lock(&heaps_lock);
	while (*pp) {
		struct dma_heap *h = *pp;

		if (h->p == p) {
			*pp = h->next;
			free(h);
		} else {
			pp = &h->next;
		}
	}
	pthread_mutex_unlock(&heaps_lock);
}

const char *dma_heap_get_name(struct dma_heap *heap)
{
	return heap ? heap->name : "";
}

struct dma_buf *dma_heap_buffer_alloc(struct dma_heap *heap, size_t len, uint32_t fd_flags,
				      u64 heap_flags)
{
	struct dmamap__heap_mem *mem;
	int err;

	(void)fd_flags;
	if (!heap || !len || heap_flags)
		return ERR_PTR(-EINVAL);
	/* No board has that much memory, and rounding it up to pages would wrap. */
	if (len > SIZE_MAX / 2)
		return ERR_PTR(-ENOMEM);
	mem = dmamap__calloc(1, sizeof(*mem));
	if (!mem)
		return ERR_PTR(-ENOMEM);
	mem->plat = heap->p;
	snprintf(mem->heap, sizeof(mem->heap), "%s", heap->name);
	if (!strcmp(heap->name, "cma"))
		err = dmamap__heap_alloc_cma(mem, len);
	else
		err = dmamap__heap_alloc_scattered(mem, len, GFP_KERNEL | __GFP_HIGHMEM);
	if (err) {
		dmamap__heap_mem_free(mem);
		return ERR_PTR(err);
	}
	return dmamap__heap_export(mem, heap->name);
}
