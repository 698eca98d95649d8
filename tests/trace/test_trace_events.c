/* SPDX-License-Identifier: MIT */
/*
 * Trace events (<dmamap/trace.h>): the kernel's events with its fields for
 * the DMA API, swiotlb and the IOMMU, and dmamap's own for cache
 * maintenance, device accesses and reports (interrupts: tests/run and
 * tests/sh/example.sh); nothing once the
 * hook is gone; the text of every event.
 */
#include <stdio.h>
#include <dmamap/trace.h>
#include "../helpers.h"

#define MAX_EVENTS 256

struct recorded {
	unsigned int n;
	struct dmamap_trace_event ev[MAX_EVENTS];
	char text[MAX_EVENTS][256];
	char report_kind[MAX_EVENTS][32];
};

static void record(void *ctx, const struct dmamap_trace_event *ev)
{
	struct recorded *r = ctx;

	if (r->n == MAX_EVENTS)
		return;
	r->ev[r->n] = *ev;
	dmamap_trace_format(ev, r->text[r->n], sizeof(r->text[0]));
	if (ev->report)
		snprintf(r->report_kind[r->n], sizeof(r->report_kind[0]), "%s",
			 dmamap_dbg_kind_name(ev->report->kind));
	r->ev[r->n].report = NULL; /* not ours past the call */
	r->n++;
}

/* The index of the @nth (from 0) event of @id, or -1. */
static int find(const struct recorded *r, enum dmamap_trace_id id, unsigned int nth)
{
	for (unsigned int i = 0; i < r->n; i++)
		if (r->ev[i].id == id && !nth--)
			return (int)i;
	return -1;
}

TEST(trace_single_map_sync_unmap_on_a_non_coherent_device)
{
	static struct recorded r;
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, NC);
	uint8_t *buf = dbuf(p, 4096);
	char want[256];
	dma_addr_t h;
	int map, clean, sync, inval, unmap;

	CHECK(dmamap_set_trace_hook(p, record, &r) == 0);
	h = dma_map_single(dev, buf, 4096, DMA_FROM_DEVICE);
	dma_sync_single_for_cpu(dev, h, 4096, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 4096, DMA_FROM_DEVICE);
	map = find(&r, DMAMAP_TRACE_DMA_MAP_PHYS, 0);
	clean = find(&r, DMAMAP_TRACE_CACHE_CLEAN, 0);
	sync = find(&r, DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_CPU, 0);
	inval = find(&r, DMAMAP_TRACE_CACHE_INVALIDATE, 0);
	unmap = find(&r, DMAMAP_TRACE_DMA_UNMAP_PHYS, 0);
	/* The map cleans first, then says so; the sync's invalidate follows its event. */
	CHECK(clean >= 0 && map > clean && sync > map && inval > sync && unmap > inval);
	CHECK(r.ev[map].dma_addr == h && r.ev[map].phys_addr == virt_to_phys(buf));
	CHECK(r.ev[map].size == 4096 && r.ev[map].dir == DMA_FROM_DEVICE && r.ev[map].dev == dev);
	CHECK(r.ev[clean].phys_addr == virt_to_phys(buf) && r.ev[clean].size == 4096);
	snprintf(want, sizeof(want),
		 "dma_map_phys: dma-nc dir=FROM_DEVICE dma_addr=%llx size=4096 phys_addr=%llx attrs=",
		 (unsigned long long)h, (unsigned long long)virt_to_phys(buf));
	CHECK_MSG(!strcmp(r.text[map], want), "%s", r.text[map]);
	snprintf(want, sizeof(want), "dma_sync_single_for_cpu: dma-nc dir=FROM_DEVICE dma_addr=%llx size=4096",
		 (unsigned long long)h);
	CHECK_MSG(!strcmp(r.text[sync], want), "%s", r.text[sync]);
	CHECK(r.ev[unmap].dma_addr == h && r.ev[unmap].ts_ns >= r.ev[map].ts_ns);
	dmamap_platform_destroy(p);
}

TEST(trace_bounce_and_iommu_events_carry_their_kernel_fields)
{
	static struct recorded r;
	struct dmamap_platform *p = quiet_board();
	struct device *d24 = lookup(p, D24), *io = lookup(p, IOMMU_DEV);
	uint8_t *hi = hi24_buf(p, 512), *buf = dbuf(p, 8192);
	struct scatterlist sgl[2];
	dma_addr_t h;
	int i;

	CHECK(dmamap_set_trace_hook(p, record, &r) == 0);
	h = dma_map_single(d24, hi, 512, DMA_TO_DEVICE);
	i = find(&r, DMAMAP_TRACE_SWIOTLB_BOUNCED, 0);
	CHECK(i >= 0 && r.ev[i].size == 512 && r.ev[i].dev == d24);
	CHECK(find(&r, DMAMAP_TRACE_DMA_MAP_PHYS, 0) > i);
	dma_unmap_single(d24, h, 512, DMA_TO_DEVICE);

	sg_init_table(sgl, 2);
	sg_set_buf(&sgl[0], buf, 4096);
	sg_set_buf(&sgl[1], buf + 4096, 4096);
	CHECK(dma_map_sg(io, sgl, 2, DMA_BIDIRECTIONAL) == 1); /* merged into one IOVA range */
	i = find(&r, DMAMAP_TRACE_DMA_MAP_SG, 0);
	CHECK(i >= 0 && r.ev[i].nents == 2 && r.ev[i].ents == 1);
	CHECK_MSG(strstr(r.text[i], "dma_map_sg: dma-iommu dir=BIDIRECTIONAL dma_addrs={0x") &&
		  strstr(r.text[i], " sizes={0x2000} phys_addrs={0x"), "%s", r.text[i]);
	i = find(&r, DMAMAP_TRACE_IOMMU_MAP, 0);
	CHECK(i >= 0 && r.ev[i].phys_addr == virt_to_phys(buf) && r.ev[i].size == 4096);
	dma_unmap_sg(io, sgl, 2, DMA_BIDIRECTIONAL);
	CHECK(find(&r, DMAMAP_TRACE_DMA_UNMAP_SG, 0) >= 0);
	i = find(&r, DMAMAP_TRACE_IOMMU_UNMAP, 0);
	CHECK(i >= 0 && r.ev[i].size == 8192 && r.ev[i].unmapped_size == 8192);
	dmamap_platform_destroy(p);
}

TEST(trace_allocations_device_accesses_and_reports)
{
	static struct recorded r;
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, COH);
	dma_addr_t h;
	void *cpu;
	int i;

	dmamap_debug_enable(p, true);
	CHECK(dmamap_set_trace_hook(p, record, &r) == 0);
	cpu = dma_alloc_coherent(dev, 8192, &h, GFP_KERNEL);
	i = find(&r, DMAMAP_TRACE_DMA_ALLOC, 0);
	CHECK(i >= 0 && r.ev[i].virt_addr == cpu && r.ev[i].dma_addr == h && r.ev[i].size == 8192);
	CHECK(r.ev[i].dir == DMA_BIDIRECTIONAL && r.ev[i].flags == GFP_KERNEL);
	dma_free_coherent(dev, 4096, cpu, h); /* the wrong size: a report */
	i = find(&r, DMAMAP_TRACE_REPORT, 0);
	CHECK(i > find(&r, DMAMAP_TRACE_DMA_FREE, 0));
	CHECK_MSG(i >= 0 && !strcmp(r.report_kind[i], "wrong-size"), "%s", i >= 0 ? r.report_kind[i] : "");
	CHECK(i >= 0 && r.ev[i].dma_addr == h);
	/* A dma_pool takes its chunks as the kernel's does: traced as dma_alloc. */
	{
		struct dma_pool *pool = dma_pool_create("t", dev, 64, 64, 0);
		dma_addr_t b;
		void *blk = pool ? dma_pool_alloc(pool, GFP_KERNEL, &b) : NULL;

		i = find(&r, DMAMAP_TRACE_DMA_ALLOC, 1);
		CHECK(blk && i >= 0 && r.ev[i].size >= 4096 && b - r.ev[i].dma_addr < r.ev[i].size);
		dma_pool_free(pool, blk, b);
		dma_pool_destroy(pool);
		CHECK(find(&r, DMAMAP_TRACE_DMA_FREE, 1) > i);
	}
	/* A copy by the engine: its reads and its writes. */
	mcdma_copy_ok(p, COH, 1024, 3);
	CHECK(find(&r, DMAMAP_TRACE_DEVICE_READ, 0) >= 0);
	i = find(&r, DMAMAP_TRACE_DEVICE_WRITE, 0);
	CHECK(i >= 0 && r.ev[i].dev == dev);
	dmamap_platform_destroy(p);
}

TEST(trace_nothing_after_the_hook_is_gone)
{
	static struct recorded r;
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, NC);
	uint8_t *buf = dbuf(p, 256);
	dma_addr_t h;

	CHECK(dmamap_set_trace_hook(NULL, record, &r) == -EINVAL);
	CHECK(dmamap_set_trace_hook(p, record, &r) == 0);
	CHECK(dmamap_set_trace_hook(p, NULL, NULL) == 0);
	h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	CHECK(r.n == 0);
	CHECK(!strcmp(dmamap_trace_name(DMAMAP_TRACE_DMA_ALLOC_SGT_ERR), "dma_alloc_sgt_err"));
	CHECK(!strcmp(dmamap_trace_name(0), "unknown"));
	CHECK(dmamap_trace_format(NULL, (char[8]){ 0 }, 8) == -EINVAL);
	dmamap_platform_destroy(p);
}

#define CHECK_LINE(want) CHECK_MSG(!strcmp(line, want), "%s", line)

/*
 * The text of the events a run rarely meets, built by hand as the library
 * fills them: a failed list map with its error, a list synced back, an
 * IOMMU fault, an interrupt, several attributes, a direction out of range,
 * an event the formatter has no fields for; and a line cut by a short buffer.
 */
TEST(trace_format_writes_the_kernels_fields_for_every_event)
{
	struct dmamap_platform *p = quiet_board();
	uint8_t *buf = dbuf(p, 8192);
	struct scatterlist sg[2];
	char line[256], small[16];
	struct dmamap_trace_event ev = { .device = "dma-nc", .dir = DMA_FROM_DEVICE };
	unsigned long long phys = virt_to_phys(buf);
	char want[256];
	int n;

	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 4096);
	sg_set_buf(&sg[1], buf + 4096, 512);
	sg_dma_address(&sg[0]) = 0x10000;
	sg_dma_len(&sg[0]) = 4096;
	sg_dma_address(&sg[1]) = 0x20000;
	sg_dma_len(&sg[1]) = 512;
	ev.sgl = sg;
	ev.nents = 2;

	ev.id = DMAMAP_TRACE_DMA_MAP_SG_ERR;
	ev.err = -ENOMEM;
	ev.attrs = DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING;
	CHECK(dmamap_trace_format(&ev, line, sizeof(line)) > 0);
	snprintf(want, sizeof(want),
		 "dma_map_sg_err: dma-nc dir=FROM_DEVICE dma_addrs={0x%llx,0x%llx} err=-12 "
		 "attrs=WEAK_ORDERING|SKIP_CPU_SYNC", phys, phys + 4096);
	CHECK_MSG(!strcmp(line, want), "%s", line);

	ev.id = DMAMAP_TRACE_DMA_SYNC_SG_FOR_CPU;
	CHECK(dmamap_trace_format(&ev, line, sizeof(line)) > 0);
	CHECK_LINE("dma_sync_sg_for_cpu: dma-nc dir=FROM_DEVICE dma_addrs={0x10000,0x20000} "
			"sizes={0x1000,0x200}");

	ev.id = DMAMAP_TRACE_DMA_ALLOC_SGT;
	ev.dma_addr = 0x10000;
	ev.size = 4608;
	ev.flags = 0x10;
	ev.attrs = DMA_ATTR_ALLOC_SINGLE_PAGES;
	CHECK(dmamap_trace_format(&ev, line, sizeof(line)) > 0);
	snprintf(want, sizeof(want),
		 "dma_alloc_sgt: dma-nc dir=FROM_DEVICE dma_addr=10000 size=4608 phys_addrs={0x%llx,0x%llx} "
		 "flags=0x10 attrs=ALLOC_SINGLE_PAGES", phys, phys + 4096);
	CHECK_MSG(!strcmp(line, want), "%s", line);

	ev.id = DMAMAP_TRACE_IO_PAGE_FAULT;
	ev.dma_addr = 0xfff000;
	ev.flags = 1;
	CHECK(dmamap_trace_format(&ev, line, sizeof(line)) > 0);
	CHECK_LINE("io_page_fault: IOMMU: dma-nc iova=0x0000000000fff000 flags=0x0001");

	ev.id = DMAMAP_TRACE_IRQ_HANDLER_ENTRY;
	ev.irq = 42;
	CHECK(dmamap_trace_format(&ev, line, sizeof(line)) > 0);
	CHECK_LINE("irq_handler_entry: irq=42 name=");
	ev.name = "mce";
	CHECK(dmamap_trace_format(&ev, line, sizeof(line)) > 0);
	CHECK_LINE("irq_handler_entry: irq=42 name=mce");

	ev.id = DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_DEVICE;
	ev.dir = 7;
	CHECK(dmamap_trace_format(&ev, line, sizeof(line)) > 0);
	CHECK_LINE("dma_sync_single_for_device: dma-nc dir=? dma_addr=fff000 size=4608");

	ev.id = DMAMAP_TRACE_ID_COUNT;
	CHECK(dmamap_trace_format(&ev, line, sizeof(line)) > 0);
	CHECK_LINE("unknown: ");

	/* Cut as snprintf cuts: the whole length back, what fits written, terminated. */
	ev.id = DMAMAP_TRACE_IRQ_HANDLER_ENTRY;
	n = dmamap_trace_format(&ev, small, sizeof(small));
	CHECK_EQ(n, (int)strlen("irq_handler_entry: irq=42 name=mce"));
	CHECK_MSG(!strcmp(small, "irq_handler_ent"), "%s", small);
	CHECK_EQ(dmamap_trace_format(&ev, NULL, 0), -EINVAL);
	CHECK_EQ(dmamap_trace_format(&ev, small, 0), n);
	dmamap_platform_destroy(p);
}
