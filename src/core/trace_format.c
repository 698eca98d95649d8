/* SPDX-License-Identifier: MIT */
/* Trace events as text: the kernel's event names and the fields its TP_printk shows. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <dmamap/dma-mapping.h>
#include <dmamap/scatterlist.h>
#include "../base/trace.h"

static const char *const names[DMAMAP_TRACE_ID_COUNT] = {
	[DMAMAP_TRACE_DMA_MAP_PHYS] = "dma_map_phys",
	[DMAMAP_TRACE_DMA_UNMAP_PHYS] = "dma_unmap_phys",
	[DMAMAP_TRACE_DMA_MAP_SG] = "dma_map_sg",
	[DMAMAP_TRACE_DMA_MAP_SG_ERR] = "dma_map_sg_err",
	[DMAMAP_TRACE_DMA_UNMAP_SG] = "dma_unmap_sg",
	[DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_CPU] = "dma_sync_single_for_cpu",
	[DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_DEVICE] = "dma_sync_single_for_device",
	[DMAMAP_TRACE_DMA_SYNC_SG_FOR_CPU] = "dma_sync_sg_for_cpu",
	[DMAMAP_TRACE_DMA_SYNC_SG_FOR_DEVICE] = "dma_sync_sg_for_device",
	[DMAMAP_TRACE_DMA_ALLOC] = "dma_alloc",
	[DMAMAP_TRACE_DMA_FREE] = "dma_free",
	[DMAMAP_TRACE_DMA_ALLOC_PAGES] = "dma_alloc_pages",
	[DMAMAP_TRACE_DMA_FREE_PAGES] = "dma_free_pages",
	[DMAMAP_TRACE_DMA_ALLOC_SGT] = "dma_alloc_sgt",
	[DMAMAP_TRACE_DMA_ALLOC_SGT_ERR] = "dma_alloc_sgt_err",
	[DMAMAP_TRACE_DMA_FREE_SGT] = "dma_free_sgt",
	[DMAMAP_TRACE_SWIOTLB_BOUNCED] = "swiotlb_bounced",
	[DMAMAP_TRACE_IOMMU_MAP] = "map",
	[DMAMAP_TRACE_IOMMU_UNMAP] = "unmap",
	[DMAMAP_TRACE_IO_PAGE_FAULT] = "io_page_fault",
	[DMAMAP_TRACE_IRQ_HANDLER_ENTRY] = "irq_handler_entry",
	[DMAMAP_TRACE_CACHE_CLEAN] = "dmamap_cache_clean",
	[DMAMAP_TRACE_CACHE_INVALIDATE] = "dmamap_cache_invalidate",
	[DMAMAP_TRACE_DEVICE_READ] = "dmamap_device_read",
	[DMAMAP_TRACE_DEVICE_WRITE] = "dmamap_device_write",
	[DMAMAP_TRACE_REPORT] = "dmamap_report",
};

const char *dmamap_trace_name(enum dmamap_trace_id id)
{
	return (unsigned int)id < DMAMAP_TRACE_ID_COUNT && names[id] ? names[id] : "unknown";
}

static const char *dir_text(int dir)
{
	static const char *const d[] = { "BIDIRECTIONAL", "TO_DEVICE", "FROM_DEVICE", "NONE" };

	return (unsigned int)dir < 4 ? d[dir] : "?";
}

/* Appends to a line, never past its end; remembers the whole length, as snprintf. */
struct line {
	char *buf;
	size_t len, n;
};

static void put(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->n < l->len ? l->buf + l->n : NULL, l->n < l->len ? l->len - l->n : 0,
		      fmt, ap);
	va_end(ap);
	if (n > 0)
		l->n += (size_t)n;
}

static void attrs_text(struct line *l, unsigned long attrs)
{
	static const char *const a[] = { NULL, "WEAK_ORDERING", "WRITE_COMBINE", NULL,
					 "NO_KERNEL_MAPPING", "SKIP_CPU_SYNC", "FORCE_CONTIGUOUS",
					 "ALLOC_SINGLE_PAGES", "NO_WARN", "PRIVILEGED", "MMIO" };
	bool first = true;

	put(l, " attrs=");
	for (unsigned int b = 0; b < sizeof(a) / sizeof(a[0]); b++) {
		if (!(attrs & (1UL << b)) || !a[b])
			continue;
		put(l, "%s%s", first ? "" : "|", a[b]);
		first = false;
	}
}

enum sg_field { SG_PHYS, SG_DMA, SG_LEN };

/* "{0x1000,0x2000}", as __print_array. */
static void sg_array(struct line *l, const struct scatterlist *sgl, int n, enum sg_field f)
{
	const struct scatterlist *sg = sgl;

	put(l, "{");
	for (int i = 0; sg && i < n; i++, sg = sg_next((struct scatterlist *)sg)) {
		unsigned long long v = f == SG_DMA ? sg_dma_address(sg) :
				       f == SG_LEN ? sg_dma_len(sg) :
						     page_to_phys(sg_page(sg)) + sg->offset;

		put(l, "%s0x%llx", i ? "," : "", v);
	}
	put(l, "}");
}

int dmamap_trace_format(const struct dmamap_trace_event *ev, char *buf, size_t len)
{
	struct line l = { buf, len, 0 };
	unsigned long long dma = ev ? ev->dma_addr : 0, size = ev ? ev->size : 0;

	if (!ev || !buf)
		return -EINVAL;
	if (len)
		buf[0] = '\0';
	put(&l, "%s: ", dmamap_trace_name(ev->id));
	switch (ev->id) {
	case DMAMAP_TRACE_DMA_MAP_PHYS:
		put(&l, "%s dir=%s dma_addr=%llx size=%llu phys_addr=%llx", ev->device,
		    dir_text(ev->dir), dma, size, (unsigned long long)ev->phys_addr);
		attrs_text(&l, ev->attrs);
		break;
	case DMAMAP_TRACE_DMA_UNMAP_PHYS:
		put(&l, "%s dir=%s dma_addr=%llx size=%llu", ev->device, dir_text(ev->dir), dma, size);
		attrs_text(&l, ev->attrs);
		break;
	case DMAMAP_TRACE_DMA_ALLOC:
	case DMAMAP_TRACE_DMA_ALLOC_PAGES:
	case DMAMAP_TRACE_DMA_ALLOC_SGT_ERR:
		put(&l, "%s dir=%s dma_addr=%llx size=%llu virt_addr=%p flags=%#x", ev->device,
		    dir_text(ev->dir), dma, size, ev->virt_addr, ev->flags);
		attrs_text(&l, ev->attrs);
		break;
	case DMAMAP_TRACE_DMA_FREE:
	case DMAMAP_TRACE_DMA_FREE_PAGES:
		put(&l, "%s dir=%s dma_addr=%llx size=%llu virt_addr=%p", ev->device,
		    dir_text(ev->dir), dma, size, ev->virt_addr);
		attrs_text(&l, ev->attrs);
		break;
	case DMAMAP_TRACE_DMA_ALLOC_SGT:
	case DMAMAP_TRACE_DMA_FREE_SGT:
		put(&l, "%s dir=%s dma_addr=%llx size=%llu phys_addrs=", ev->device,
		    dir_text(ev->dir), dma, size);
		sg_array(&l, ev->sgl, ev->nents, SG_PHYS);
		if (ev->id == DMAMAP_TRACE_DMA_ALLOC_SGT) {
			put(&l, " flags=%#x", ev->flags);
			attrs_text(&l, ev->attrs);
		}
		break;
	case DMAMAP_TRACE_DMA_MAP_SG:
		put(&l, "%s dir=%s dma_addrs=", ev->device, dir_text(ev->dir));
		sg_array(&l, ev->sgl, ev->ents, SG_DMA);
		put(&l, " sizes=");
		sg_array(&l, ev->sgl, ev->ents, SG_LEN);
		put(&l, " phys_addrs=");
		sg_array(&l, ev->sgl, ev->nents, SG_PHYS);
		attrs_text(&l, ev->attrs);
		break;
	case DMAMAP_TRACE_DMA_MAP_SG_ERR:
		put(&l, "%s dir=%s dma_addrs=", ev->device, dir_text(ev->dir));
		sg_array(&l, ev->sgl, ev->nents, SG_PHYS);
		put(&l, " err=%d", ev->err);
		attrs_text(&l, ev->attrs);
		break;
	case DMAMAP_TRACE_DMA_UNMAP_SG:
		put(&l, "%s dir=%s phys_addrs=", ev->device, dir_text(ev->dir));
		sg_array(&l, ev->sgl, ev->nents, SG_PHYS);
		attrs_text(&l, ev->attrs);
		break;
	case DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_CPU:
	case DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_DEVICE:
		put(&l, "%s dir=%s dma_addr=%llx size=%llu", ev->device, dir_text(ev->dir), dma, size);
		break;
	case DMAMAP_TRACE_DMA_SYNC_SG_FOR_CPU:
	case DMAMAP_TRACE_DMA_SYNC_SG_FOR_DEVICE:
		put(&l, "%s dir=%s dma_addrs=", ev->device, dir_text(ev->dir));
		sg_array(&l, ev->sgl, ev->nents, SG_DMA);
		put(&l, " sizes=");
		sg_array(&l, ev->sgl, ev->nents, SG_LEN);
		break;
	case DMAMAP_TRACE_SWIOTLB_BOUNCED:
		put(&l, "dev_name: %s dev_addr=%llx size=%llu", ev->device, dma, size);
		break;
	case DMAMAP_TRACE_IOMMU_MAP:
		put(&l, "IOMMU: iova=0x%016llx - 0x%016llx paddr=0x%016llx size=%llu", dma,
		    dma + size, (unsigned long long)ev->phys_addr, size);
		break;
	case DMAMAP_TRACE_IOMMU_UNMAP:
		put(&l, "IOMMU: iova=0x%016llx - 0x%016llx size=%llu unmapped_size=%llu", dma,
		    dma + size, size, (unsigned long long)ev->unmapped_size);
		break;
	case DMAMAP_TRACE_IO_PAGE_FAULT:
		put(&l, "IOMMU: %s iova=0x%016llx flags=0x%04x", ev->device, dma, ev->flags);
		break;
	case DMAMAP_TRACE_IRQ_HANDLER_ENTRY:
		put(&l, "irq=%u name=%s", ev->irq, ev->name ? ev->name : "");
		break;
	case DMAMAP_TRACE_CACHE_CLEAN:
	case DMAMAP_TRACE_CACHE_INVALIDATE:
		put(&l, "%s phys_addr=%llx size=%llu", ev->device,
		    (unsigned long long)ev->phys_addr, size);
		break;
	case DMAMAP_TRACE_DEVICE_READ:
	case DMAMAP_TRACE_DEVICE_WRITE:
		put(&l, "%s dma_addr=%llx size=%llu", ev->device, dma, size);
		break;
	case DMAMAP_TRACE_REPORT:
		put(&l, "%s kind=%s %s", ev->device,
		    dmamap_dbg_kind_name(ev->report ? ev->report->kind : 0),
		    ev->report ? ev->report->text : "");
		break;
	default:
		break;
	}
	return (int)l.n;
}
