/* SPDX-License-Identifier: MIT */
/*
 * One buffer, each kind of importer: a coherent device, a non-coherent
 * one behind a bus window, one behind an IOMMU, and one that cannot reach
 * the pages and bounces. Each maps the buffer through its own operations;
 * the bytes the CPU wrote inside its brackets are what the device reads,
 * and what the device wrote is what the CPU reads in the next bracket.
 * Between devices no copy is made: what one writes, the next reads where
 * it lies.
 */
#include <dmamap/dmamap.h>
#include <dmamap/dma-heap.h>
#include "../helpers.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#define LEN (64 * 1024)

/* The device's view of the whole buffer, segment by segment. */
static bool device_sees(struct device *dev, struct sg_table *sgt, const uint8_t *want)
{
	struct scatterlist *sg = sgt->sgl;
	size_t off = 0;

	for (unsigned int i = 0; i < sgt->nents; i++, sg = sg_next(sg)) {
		if (!dev_reads(dev, sg_dma_address(sg), want + off, sg_dma_len(sg)))
			return false;
		off += sg_dma_len(sg);
	}
	return off == LEN;
}

static void device_writes(struct device *dev, struct sg_table *sgt, const uint8_t *bytes)
{
	struct scatterlist *sg = sgt->sgl;
	size_t off = 0;

	for (unsigned int i = 0; i < sgt->nents; i++, sg = sg_next(sg)) {
		CHECK_EQ(dmamap_device_write(dev, sg_dma_address(sg), bytes + off, sg_dma_len(sg)), 0);
		off += sg_dma_len(sg);
	}
}

/* Whether the table's device addresses run on from one entry to the next: one range. */
static bool one_range(struct sg_table *sgt)
{
	struct scatterlist *sg = sgt->sgl;
	dma_addr_t next = sg_dma_address(sg);

	for (unsigned int i = 0; i < sgt->nents; i++, sg = sg_next(sg)) {
		if (sg_dma_address(sg) != next)
			return false;
		next += sg_dma_len(sg);
	}
	return true;
}

/* CPU bytes in, device bytes out, through the brackets; the device's table is returned. */
static void round_trip(struct dma_buf *buf, struct device *dev, bool *contiguous,
		       uint64_t *bounced)
{
	static uint8_t in[LEN], out[LEN];
	struct dma_buf_attachment *a;
	struct dmamap_dma_buf_stats st;
	struct iosys_map map;
	struct sg_table *sgt;

	fill_pattern(in, LEN, 11);
	fill_pattern(out, LEN, 12);
	a = dma_buf_attach(buf, dev);
	REQUIRE(!IS_ERR(a));
	sgt = dma_buf_map_attachment(a, DMA_BIDIRECTIONAL);
	REQUIRE(!IS_ERR(sgt));
	REQUIRE(dma_buf_vmap(buf, &map) == 0);
	CHECK_EQ(dma_buf_begin_cpu_access(buf, DMA_TO_DEVICE), 0);
	memcpy(map.vaddr, in, LEN);
	CHECK_EQ(dma_buf_end_cpu_access(buf, DMA_TO_DEVICE), 0);
	CHECK_MSG(device_sees(dev, sgt, in), "%s does not read what the CPU wrote", dev_name(dev));
	device_writes(dev, sgt, out);
	CHECK_EQ(dma_buf_begin_cpu_access(buf, DMA_FROM_DEVICE), 0);
	CHECK_MSG(!memcmp(map.vaddr, out, LEN), "the CPU does not read what %s wrote", dev_name(dev));
	CHECK_EQ(dma_buf_end_cpu_access(buf, DMA_FROM_DEVICE), 0);
	*contiguous = one_range(sgt);
	dma_buf_vunmap(buf, &map);
	dma_buf_unmap_attachment(a, sgt, DMA_BIDIRECTIONAL);
	dma_buf_detach(buf, a);
	CHECK_EQ(dmamap_dma_buf_stats(buf, &st), 0);
	*bounced = st.bytes_bounced;
}

/* Each kind reaches a buffer allocated for it without a copy, the CPU's bytes and its own. */
TEST(dmabuf_importers_each_kind_without_a_copy)
{
	static const char *const names[] = { "dma-coh", "dma-nc", "dma-iommu", "dma-24", "ixp-pci" };
	struct dmamap_platform *p = sim_board("default");

	REQUIRE(p);
	for (unsigned int i = 0; i < N_OF(names); i++) {
		struct device *dev = lookup(p, names[i]);
		struct dmamap_buf_plan plan;
		struct dma_buf *buf;
		uint64_t bounced = 1;
		bool contiguous = false;
		int err = 1;

		REQUIRE(dev);
		rec_reset();
		buf = dmamap_buf_alloc_for(&dev, 1, LEN, &plan, &err);
		REQUIRE_MSG(buf, "%s: %s", names[i], plan.why);
		CHECK_EQ(err, 0);
		round_trip(buf, dev, &contiguous, &bounced);
		CHECK_MSG(bounced == 0, "%s: %llu bytes bounced", names[i], (unsigned long long)bounced);
		CHECK_MSG(contiguous, "%s: not one range of device addresses", names[i]);
		dma_buf_put(buf);
		EXPECT_NO_REPORTS();
	}
	DESTROY_CLEAN(p);
}

/*
 * High-memory pages (the system heap): behind the IOMMU one range
 * whatever the runs; on direct buses the runs' own addresses; where the device
 * cannot reach them, bounced, counted and reported, and still the right
 * bytes both ways.
 */
TEST(dmabuf_importers_system_heap_pages)
{
	static const struct {
		const char *name;
		bool one_range, bounces;
	} cases[] = {
		{ "dma-iommu", true, false },
		{ "dma-coh", false, false },
		{ "dma-24", false, true },
		{ "dma-nc", false, true },
	};
	struct dmamap_platform *p = sim_board("default");
	struct dma_heap *heap = dmamap_heap_find(p, "system");

	REQUIRE(heap);
	for (unsigned int i = 0; i < N_OF(cases); i++) {
		struct device *dev = lookup(p, cases[i].name);
		struct dma_buf *buf = dma_heap_buffer_alloc(heap, LEN, 0, 0);
		uint64_t bounced = 0;
		bool contiguous = false;

		REQUIRE(dev && !IS_ERR(buf));
		rec_reset();
		round_trip(buf, dev, &contiguous, &bounced);
		if (cases[i].one_range)
			CHECK_MSG(contiguous, "%s: not one range", cases[i].name);
		CHECK_MSG((bounced != 0) == cases[i].bounces, "%s: %llu bytes bounced",
			  cases[i].name, (unsigned long long)bounced);
		if (cases[i].bounces)
			EXPECT_KINDS(DMAMAP_DBG_DMABUF_BOUNCED);
		else
			EXPECT_NO_REPORTS();
		dma_buf_put(buf);
	}
	DESTROY_CLEAN(p);
}

/* What one device writes, the next reads where it lies: no CPU, no copy between them. */
TEST(dmabuf_importers_pass_bytes_device_to_device)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *devs[3] = { lookup(p, "dma-nc"), lookup(p, "dma-iommu"), lookup(p, "ixp-pci") };
	static uint8_t bytes[LEN];
	struct dma_buf_attachment *a[3];
	struct sg_table *sgt[3];
	struct dmamap_dma_buf_stats st;
	struct dmamap_buf_plan plan;
	struct dma_buf *buf;
	int err;

	REQUIRE(devs[0] && devs[1] && devs[2]);
	buf = dmamap_buf_alloc_for(devs, 3, LEN, &plan, &err);
	REQUIRE_MSG(buf, "%s", plan.why);
	for (int i = 0; i < 3; i++) {
		a[i] = dma_buf_attach(buf, devs[i]);
		REQUIRE(!IS_ERR(a[i]));
		sgt[i] = dma_buf_map_attachment(a[i], DMA_BIDIRECTIONAL);
		REQUIRE(!IS_ERR(sgt[i]));
	}
	for (int i = 0; i < 3; i++) {
		int next = (i + 1) % 3;

		fill_pattern(bytes, LEN, 40 + (unsigned int)i);
		device_writes(devs[i], sgt[i], bytes);
		CHECK_MSG(device_sees(devs[next], sgt[next], bytes), "%s does not read what %s wrote",
			  dev_name(devs[next]), dev_name(devs[i]));
	}
	CHECK_EQ(dmamap_dma_buf_stats(buf, &st), 0);
	CHECK_EQ(st.bytes_bounced, 0);
	CHECK_EQ(st.attachments, 3);
	for (int i = 0; i < 3; i++) {
		dma_buf_unmap_attachment(a[i], sgt[i], DMA_BIDIRECTIONAL);
		dma_buf_detach(buf, a[i]);
	}
	dma_buf_put(buf);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/*
 * ARMv5 invalidates a DMA_FROM_DEVICE buffer handed back to the device,
 * dirty lines and all. The CPU's bracket must clean what it wrote for the
 * importers that read before a writing-only importer's sync can drop it,
 * whichever attached first.
 */
TEST(dmabuf_importers_a_writer_only_importer_does_not_drop_the_cpus_bytes)
{
	struct dmamap_platform *p = sim_board("armv5");
	struct device *devs[2];
	struct dma_buf_attachment *reader, *writer;
	struct sg_table *rs, *ws;
	struct dmamap_buf_plan plan;
	static uint8_t want[LEN];
	struct iosys_map map;
	struct dma_buf *buf;
	int err;

	REQUIRE(p);
	devs[0] = lookup(p, "dma-nc");
	devs[1] = lookup(p, "dma-32");
	REQUIRE(devs[0] && devs[1]);
	buf = dmamap_buf_alloc_for(devs, 2, LEN, &plan, &err);
	REQUIRE_MSG(buf, "%s", plan.why);
	reader = dma_buf_attach(buf, devs[0]);
	writer = dma_buf_attach(buf, devs[1]);
	REQUIRE(!IS_ERR(reader) && !IS_ERR(writer));
	rs = dma_buf_map_attachment(reader, DMA_TO_DEVICE);
	ws = dma_buf_map_attachment(writer, DMA_FROM_DEVICE);
	REQUIRE(!IS_ERR(rs) && !IS_ERR(ws));
	REQUIRE(dma_buf_vmap(buf, &map) == 0);
	fill_pattern(want, LEN, 77);
	CHECK_EQ(dma_buf_begin_cpu_access(buf, DMA_TO_DEVICE), 0);
	memcpy(map.vaddr, want, LEN);
	CHECK_EQ(dma_buf_end_cpu_access(buf, DMA_TO_DEVICE), 0);
	CHECK(device_sees(devs[0], rs, want));
	dma_buf_vunmap(buf, &map);
	dma_buf_unmap_attachment(writer, ws, DMA_FROM_DEVICE);
	dma_buf_unmap_attachment(reader, rs, DMA_TO_DEVICE);
	dma_buf_detach(buf, writer);
	dma_buf_detach(buf, reader);
	dma_buf_put(buf);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}
