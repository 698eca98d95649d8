/* SPDX-License-Identifier: MIT */
/*
 * The checker's rules for shared buffers, seen at the device's access:
 * a device touching a buffer while a fence its access conflicts with has
 * not signalled (a read against a write fence, a write against any), the
 * fence's own device excepted; and a non-coherent importer reading bytes
 * the CPU wrote outside its brackets. Each is said once, and only with
 * the checker on.
 */
#include <dmamap/dmamap.h>
#include <dmamap/dma-heap.h>
#include "../helpers.h"

#define LEN (16 * 1024)

struct shared {
	struct dmamap_platform *p;
	struct device *dev[2];
	struct dma_buf *buf;
	struct dma_buf_attachment *a[2];
	struct sg_table *sgt[2];
};

static bool share(struct shared *s, const char *first, const char *second)
{
	struct dmamap_buf_plan plan;
	int err;

	memset(s, 0, sizeof(*s));
	s->p = sim_board("default");
	if (!s->p)
		return false;
	s->dev[0] = lookup(s->p, first);
	s->dev[1] = lookup(s->p, second);
	s->buf = dmamap_buf_alloc_for(s->dev, 2, LEN, &plan, &err);
	if (!s->buf)
		return false;
	dma_buf_set_name(s->buf, "shared");
	for (int i = 0; i < 2; i++) {
		s->a[i] = dma_buf_attach(s->buf, s->dev[i]);
		if (IS_ERR(s->a[i]))
			return false;
		s->sgt[i] = dma_buf_map_attachment(s->a[i], DMA_BIDIRECTIONAL);
		if (IS_ERR(s->sgt[i]))
			return false;
	}
	rec_reset();
	return true;
}

static void unshare(struct shared *s)
{
	for (int i = 0; i < 2; i++) {
		dma_buf_unmap_attachment(s->a[i], s->sgt[i], DMA_BIDIRECTIONAL);
		dma_buf_detach(s->buf, s->a[i]);
	}
	dma_buf_put(s->buf);
	DESTROY_CLEAN(s->p);
}

static int dev_read(struct shared *s, int i)
{
	uint8_t tmp[256];

	return dmamap_device_read(s->dev[i], sg_dma_address(s->sgt[i]->sgl), tmp, sizeof(tmp));
}

static int dev_write(struct shared *s, int i)
{
	uint8_t tmp[256] = { 1, 2, 3 };

	return dmamap_device_write(s->dev[i], sg_dma_address(s->sgt[i]->sgl), tmp, sizeof(tmp));
}

static const char *fence_name(struct dma_fence *f)
{
	(void)f;
	return "test";
}

static const struct dma_fence_ops ops = {
	.get_driver_name = fence_name,
	.get_timeline_name = fence_name,
};

static void add(struct dma_buf *buf, struct dma_fence *f, struct device *dev,
		enum dma_resv_usage usage, spinlock_t *lock)
{
	dma_fence_init(f, &ops, lock, dma_fence_context_alloc(1), 1);
	dmamap_fence_set_device(f, dev);
	dma_resv_lock(buf->resv, NULL);
	REQUIRE(dma_resv_reserve_fences(buf->resv, 1) == 0);
	dma_resv_add_fence(buf->resv, f, usage);
	dma_resv_unlock(buf->resv);
}

/* dma-nc writes (its fence), the IOMMU device reads too early: named once; after the signal, silent. */
TEST(dmabuf_checker_read_before_the_write_fence)
{
	struct shared s;
	struct dma_fence f;
	DEFINE_SPINLOCK(lock);

	REQUIRE(share(&s, "dma-nc", "dma-iommu"));
	add(s.buf, &f, s.dev[0], DMA_RESV_USAGE_WRITE, &lock);
	CHECK_EQ(dev_write(&s, 0), 0); /* the writer itself */
	EXPECT_NO_REPORTS();
	CHECK_EQ(dev_read(&s, 1), 0);
	CHECK_EQ(dev_read(&s, 1), 0);
	EXPECT_KINDS(DMAMAP_DBG_DMABUF_FENCE_NOT_WAITED);
	CHECK(strstr(rec.r[0].text, "dma-nc's write fence") != NULL);
	CHECK(strstr(rec.r[0].text, "'shared'") != NULL);
	CHECK(!strcmp(rec.r[0].device, "dma-iommu"));
	rec_reset();
	dma_fence_signal(&f);
	CHECK_EQ(dev_read(&s, 1), 0);
	EXPECT_NO_REPORTS();
	dma_fence_put(&f);
	unshare(&s);
}

/* A reader's fence holds off writers, not other readers; a fence of no device is the CPU's. */
TEST(dmabuf_checker_write_before_the_read_fence)
{
	struct shared s;
	struct dma_fence reader, cpu;
	DEFINE_SPINLOCK(lock);

	REQUIRE(share(&s, "dma-nc", "dma-iommu"));
	add(s.buf, &reader, s.dev[1], DMA_RESV_USAGE_READ, &lock);
	CHECK_EQ(dev_read(&s, 0), 0);
	EXPECT_NO_REPORTS();
	CHECK_EQ(dev_write(&s, 0), 0);
	EXPECT_KINDS(DMAMAP_DBG_DMABUF_FENCE_NOT_WAITED);
	dma_fence_signal(&reader);
	rec_reset();
	add(s.buf, &cpu, NULL, DMA_RESV_USAGE_WRITE, &lock);
	CHECK_EQ(dev_read(&s, 0), 0);
	EXPECT_KINDS(DMAMAP_DBG_DMABUF_FENCE_NOT_WAITED);
	CHECK(strstr(rec.r[0].text, "the CPU's write fence") != NULL);
	dma_fence_signal(&cpu);
	dma_fence_put(&reader);
	dma_fence_put(&cpu);
	unshare(&s);
}

/* With the checker off the rule is not applied: nothing is said. */
TEST(dmabuf_checker_off_says_nothing)
{
	struct shared s;
	struct dma_fence f;
	DEFINE_SPINLOCK(lock);

	REQUIRE(share(&s, "dma-nc", "dma-iommu"));
	stop_checking(s.p);
	add(s.buf, &f, s.dev[0], DMA_RESV_USAGE_WRITE, &lock);
	CHECK_EQ(dev_read(&s, 1), 0);
	CHECK_EQ(dmamap_report_count(s.p, DMAMAP_DBG_DMABUF_FENCE_NOT_WAITED), 0);
	dma_fence_signal(&f);
	dma_fence_put(&f);
	for (int i = 0; i < 2; i++) {
		dma_buf_unmap_attachment(s.a[i], s.sgt[i], DMA_BIDIRECTIONAL);
		dma_buf_detach(s.buf, s.a[i]);
	}
	dma_buf_put(s.buf);
	dmamap_platform_destroy(s.p);
}

/*
 * The CPU writes through its view without the brackets: the non-coherent
 * importer reads what memory held (the CPU's bytes still in its cache)
 * and is told; inside the brackets, the same write reaches it silently.
 */
TEST(dmabuf_checker_cpu_write_outside_the_brackets)
{
	struct shared s;
	struct iosys_map map;
	uint8_t seen[64], want[64];

	REQUIRE(share(&s, "dma-nc", "dma-coh"));
	REQUIRE(dma_buf_vmap(s.buf, &map) == 0);
	memset(want, 0x77, sizeof(want));
	CHECK_EQ(dma_buf_begin_cpu_access(s.buf, DMA_TO_DEVICE), 0);
	memcpy(map.vaddr, want, sizeof(want));
	CHECK_EQ(dma_buf_end_cpu_access(s.buf, DMA_TO_DEVICE), 0);
	CHECK_EQ(dmamap_device_read(s.dev[0], sg_dma_address(s.sgt[0]->sgl), seen, sizeof(seen)), 0);
	CHECK_MEM(seen, want, sizeof(want));
	EXPECT_NO_REPORTS();
	/* Now without them: the device reads the old bytes, and the checker names the rule. */
	memset(map.vaddr, 0x55, sizeof(want));
	CHECK_EQ(dmamap_device_read(s.dev[0], sg_dma_address(s.sgt[0]->sgl), seen, sizeof(seen)), 0);
	CHECK_MEM(seen, want, sizeof(want));
	CHECK_EQ(dmamap_report_count(s.p, DMAMAP_DBG_DMABUF_CPU_UNBRACKETED), 1);
	/* The coherent importer sees the CPU's bytes: no rule broken for it. */
	CHECK_EQ(dmamap_device_read(s.dev[1], sg_dma_address(s.sgt[1]->sgl), seen, sizeof(seen)), 0);
	CHECK(all_bytes(seen, sizeof(seen), 0x55));
	CHECK_EQ(dmamap_report_count(s.p, DMAMAP_DBG_DMABUF_CPU_UNBRACKETED), 1);
	/* Said once: the same stale bytes read again are the same mistake. */
	CHECK_EQ(dmamap_device_read(s.dev[0], sg_dma_address(s.sgt[0]->sgl), seen, sizeof(seen)), 0);
	CHECK_EQ(dmamap_report_count(s.p, DMAMAP_DBG_DMABUF_CPU_UNBRACKETED), 1);
	/*
	 * A bracket arms the rule again: its begin invalidates for the CPU,
	 * and the bytes written outside it are gone (the device reads what
	 * memory held); the next unbracketed write is news.
	 */
	CHECK_EQ(dma_buf_begin_cpu_access(s.buf, DMA_TO_DEVICE), 0);
	CHECK_EQ(dma_buf_end_cpu_access(s.buf, DMA_TO_DEVICE), 0);
	CHECK_EQ(dmamap_device_read(s.dev[0], sg_dma_address(s.sgt[0]->sgl), seen, sizeof(seen)), 0);
	CHECK_MEM(seen, want, sizeof(want));
	CHECK_EQ(dmamap_report_count(s.p, DMAMAP_DBG_DMABUF_CPU_UNBRACKETED), 1);
	memset(map.vaddr, 0x66, sizeof(want));
	CHECK_EQ(dmamap_device_read(s.dev[0], sg_dma_address(s.sgt[0]->sgl), seen, sizeof(seen)), 0);
	CHECK_MEM(seen, want, sizeof(want));
	CHECK_EQ(dmamap_report_count(s.p, DMAMAP_DBG_DMABUF_CPU_UNBRACKETED), 2);
	stop_checking(s.p);
	dma_buf_vunmap(s.buf, &map);
	for (int i = 0; i < 2; i++) {
		dma_buf_unmap_attachment(s.a[i], s.sgt[i], DMA_BIDIRECTIONAL);
		dma_buf_detach(s.buf, s.a[i]);
	}
	dma_buf_put(s.buf);
	dmamap_platform_destroy(s.p);
}
