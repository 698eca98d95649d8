/* SPDX-License-Identifier: MIT */
/*
 * dma-buf lifetimes and bad input: what dma_buf_export() refuses, when
 * an exporter's release runs (once, at the last reference), handles and
 * their references, attachments, mappings and CPU brackets given back in
 * the wrong order or to the wrong buffer, counted vmaps, the heaps' and
 * dmamap_buf_alloc_for()'s own argument checks and CPU views, every
 * allocation failure of a buffer's life walked, and a board destroyed
 * under buffers that still have holders.
 *
 * Most tests use a small exporter of their own ("toy") that maps one
 * block of board pages through the importer's DMA operations and keeps a
 * trail of the calls it got, so that a test can say both how often and in
 * which order the generic layer called it.
 */
#include <dmamap/dmamap.h>
#include <dmamap/dma-buf.h>
#include <dmamap/dma-heap.h>
#include "../helpers.h"
#include "../../src/lib/mem.h"

#define TOY_ORDER 1
#define TOY_SIZE (PAGE_SIZE << TOY_ORDER)

/* ---- a minimal exporter that remembers what it was asked ------------------- */

struct toy {
	struct dmamap_platform *p;
	struct page *pg;
	int attach_err;     /* what the next attach returns */
	int map_err;        /* what the next map fails with (0: it maps) */
	int vmap_err;
	int begin_err;
	char trail[64];     /* one letter per call: a d m u v x b e r */
	unsigned int n;
};

static void step(struct toy *t, char c)
{
	if (t->n < sizeof(t->trail) - 1)
		t->trail[t->n++] = c;
}

static unsigned int calls(const struct toy *t, char c)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < t->n; i++)
		n += t->trail[i] == c;
	return n;
}

static int toy_attach(struct dma_buf *b, struct dma_buf_attachment *a)
{
	struct toy *t = b->priv;

	(void)a;
	step(t, 'a');
	return t->attach_err;
}

static void toy_detach(struct dma_buf *b, struct dma_buf_attachment *a)
{
	(void)a;
	step(b->priv, 'd');
}

/* As a real exporter: its pages mapped through the importer's own operations. */
static struct sg_table *toy_map(struct dma_buf_attachment *a, enum dma_data_direction dir)
{
	struct toy *t = a->dmabuf->priv;
	struct sg_table *sgt;

	if (t->map_err)
		return ERR_PTR(t->map_err);
	sgt = calloc(1, sizeof(*sgt));
	if (!sgt)
		return ERR_PTR(-ENOMEM);
	if (sg_alloc_table(sgt, 1, GFP_KERNEL)) {
		free(sgt);
		return ERR_PTR(-ENOMEM);
	}
	sg_set_page(sgt->sgl, t->pg, TOY_SIZE, 0);
	if (dma_map_sgtable(a->dev, sgt, dir, 0)) {
		sg_free_table(sgt);
		free(sgt);
		return ERR_PTR(-EIO);
	}
	step(t, 'm');
	return sgt;
}

static void toy_unmap(struct dma_buf_attachment *a, struct sg_table *sgt,
		      enum dma_data_direction dir)
{
	step(a->dmabuf->priv, 'u');
	dma_unmap_sgtable(a->dev, sgt, dir, 0);
	sg_free_table(sgt);
	free(sgt);
}

static void toy_release(struct dma_buf *b)
{
	struct toy *t = b->priv;

	step(t, 'r');
	dmamap_free_pages(t->p, t->pg, TOY_ORDER);
	t->pg = NULL;
}

static int toy_vmap(struct dma_buf *b, struct iosys_map *map)
{
	struct toy *t = b->priv;

	step(t, 'v');
	if (t->vmap_err)
		return t->vmap_err;
	map->vaddr = page_address(t->pg);
	map->is_iomem = false;
	return 0;
}

static void toy_vunmap(struct dma_buf *b, struct iosys_map *map)
{
	(void)map;
	step(b->priv, 'x');
}

static int toy_begin(struct dma_buf *b, enum dma_data_direction dir)
{
	struct toy *t = b->priv;

	(void)dir;
	step(t, 'b');
	return t->begin_err;
}

static int toy_end(struct dma_buf *b, enum dma_data_direction dir)
{
	(void)dir;
	step(b->priv, 'e');
	return 0;
}

static const struct dma_buf_ops toy_ops = {
	.attach = toy_attach,
	.detach = toy_detach,
	.map_dma_buf = toy_map,
	.unmap_dma_buf = toy_unmap,
	.release = toy_release,
	.vmap = toy_vmap,
	.vunmap = toy_vunmap,
	.begin_cpu_access = toy_begin,
	.end_cpu_access = toy_end,
};

/* Only what dma_buf_export() requires. */
static const struct dma_buf_ops toy_min_ops = {
	.map_dma_buf = toy_map,
	.unmap_dma_buf = toy_unmap,
	.release = toy_release,
};

static struct dma_buf *toy_export(struct dmamap_platform *p, struct toy *t,
				  const struct dma_buf_ops *ops, const char *name)
{
	DEFINE_DMA_BUF_EXPORT_INFO(info);
	struct dma_buf *b;

	memset(t, 0, sizeof(*t));
	t->p = p;
	/* ZONE_DMA: every device of the default board reaches it without bouncing. */
	t->pg = dmamap_alloc_pages(p, TOY_ORDER, GFP_DMA);
	if (!t->pg)
		return ERR_PTR(-ENOMEM);
	info.exp_name = "toy";
	info.ops = ops;
	info.size = TOY_SIZE;
	info.priv = t;
	info.plat = p;
	b = dma_buf_export(&info);
	if (IS_ERR(b)) {
		dmamap_free_pages(p, t->pg, TOY_ORDER);
		t->pg = NULL;
	} else if (name) {
		dma_buf_set_name(b, name);
	}
	return b;
}

static struct dmamap_dma_buf_stats buf_stats(struct dma_buf *b)
{
	struct dmamap_dma_buf_stats s;

	if (dmamap_dma_buf_stats(b, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

/* Refusals of calls that had no board to tell: counted on no platform. */
static unsigned long orphan_refusals(void)
{
	return dmamap_report_count(NULL, DMAMAP_DBG_INVALID_ARGUMENT);
}

/* ---- 1. export and the last reference ----------------------------------- */

TEST(dmabuf_life_export_refuses_bad_info)
{
	static const struct dma_buf_ops no_map = { .unmap_dma_buf = toy_unmap,
						   .release = toy_release };
	static const struct dma_buf_ops no_unmap = { .map_dma_buf = toy_map,
						     .release = toy_release };
	static const struct dma_buf_ops no_release = { .map_dma_buf = toy_map,
						       .unmap_dma_buf = toy_unmap };
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf_export_info bad[6];
	unsigned long before;
	struct toy t = { 0 };

	REQUIRE(p);
	t.p = p;
	for (unsigned int i = 0; i < 6; i++) {
		DEFINE_DMA_BUF_EXPORT_INFO(good);

		good.ops = &toy_ops;
		good.size = TOY_SIZE;
		good.priv = &t;
		good.plat = p;
		bad[i] = good;
	}
	bad[0].ops = NULL;
	bad[1].ops = &no_map;
	bad[2].ops = &no_unmap;
	bad[3].ops = &no_release;
	bad[4].size = 0;
	bad[5].plat = NULL;

	/* Refusals of calls without a board go to stderr: keep the run's output readable. */
	stderr_capture();
	before = orphan_refusals();
	CHECK(dma_buf_export(NULL) == ERR_PTR(-EINVAL));
	CHECK_EQ(orphan_refusals(), before + 1);
	for (unsigned int i = 0; i < 6; i++) {
		/* The board may be told, or no platform: either way exactly one refusal. */
		unsigned long n0 = orphan_refusals() +
				   dmamap_report_count(p, DMAMAP_DBG_INVALID_ARGUMENT);
		struct dma_buf *b = dma_buf_export(&bad[i]);

		CHECK_MSG(b == ERR_PTR(-EINVAL), "bad info %u: got %p", i, (void *)b);
		CHECK_MSG(orphan_refusals() + dmamap_report_count(p, DMAMAP_DBG_INVALID_ARGUMENT) ==
				  n0 + 1,
			  "bad info %u: not reported once as invalid-argument", i);
		if (!IS_ERR(b))
			dma_buf_put(b);
	}
	stderr_text();
	/* Nothing was made, so nothing was released either. */
	CHECK_EQ(t.n, 0);
	CHECK_EQ(dma_buf_set_name(NULL, "x"), -EINVAL);
	DESTROY_CLEAN(p);
}

TEST(dmabuf_life_release_once_at_last_put)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf *b, *r1, *r2;
	struct toy t;
	int fd;

	REQUIRE(p);
	/* The reference dma_buf_export() gives is the last one: its put releases. */
	b = toy_export(p, &t, &toy_ops, "once");
	REQUIRE(!IS_ERR(b));
	dma_buf_put(b);
	CHECK_EQ(calls(&t, 'r'), 1);

	/* The handle holds one reference and two dma_buf_get()s two more. */
	b = toy_export(p, &t, &toy_ops, "once");
	REQUIRE(!IS_ERR(b));
	fd = dma_buf_fd(b, 0);
	REQUIRE(fd >= 0);
	r1 = dma_buf_get(fd);
	r2 = dma_buf_get(fd);
	CHECK(r1 == b && r2 == b);
	dma_buf_put(r1);
	dma_buf_put(r2);
	CHECK_MSG(calls(&t, 'r') == 0, "released while its handle was open: '%s'", t.trail);
	CHECK_EQ(dmamap_dma_buf_close(fd), 0);
	CHECK_EQ(calls(&t, 'r'), 1);
	CHECK_EQ(strcmp(t.trail, "r"), 0);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

TEST(dmabuf_life_put_null_and_err_ptr_harmless)
{
	struct dmamap_platform *p = sim_board("default");
	unsigned long before = dmamap_report_count(NULL, 0);

	REQUIRE(p);
	dma_buf_put(NULL);
	dma_buf_put(ERR_PTR(-ENOMEM));
	dma_buf_put(ERR_PTR(-EINVAL));
	CHECK_EQ(dmamap_report_count(NULL, 0), before);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/*
 * The handle's reference is not the caller's to drop: with a handle open,
 * a second put of a dma_buf_get() reference is one too many and must be
 * refused, the buffer kept for its handle.
 */
TEST(dmabuf_life_put_too_many_refused)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf *b, *ref;
	struct toy t;
	int fd;

	REQUIRE(p);
	b = toy_export(p, &t, &toy_ops, "too-many");
	REQUIRE(!IS_ERR(b));
	fd = dma_buf_fd(b, 0);
	REQUIRE(fd >= 0);
	ref = dma_buf_get(fd);
	REQUIRE(ref == b);
	dma_buf_put(ref);
	EXPECT_NO_REPORTS();
	rec_reset();
	dma_buf_put(ref);
	/* Had it been released, the handle would point at freed memory: stop here. */
	REQUIRE_MSG(calls(&t, 'r') == 0,
		    "a put too many released the buffer under its open handle %d", fd);
	EXPECT_KINDS(DMAMAP_DBG_INVALID_ARGUMENT);
	ref = dma_buf_get(fd);
	CHECK(ref == b);
	dma_buf_put(ref);
	rec_reset();
	CHECK_EQ(dmamap_dma_buf_close(fd), 0);
	CHECK_EQ(calls(&t, 'r'), 1);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/* ---- 2. handles ------------------------------------------------------------ */

TEST(dmabuf_life_handles)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf *b1, *b2, *b3, *got;
	struct toy t1, t2, t3;
	int fd1, fd2, fd3, again;

	REQUIRE(p);
	b1 = toy_export(p, &t1, &toy_ops, "h1");
	b2 = toy_export(p, &t2, &toy_ops, "h2");
	REQUIRE(!IS_ERR(b1) && !IS_ERR(b2));
	CHECK_EQ(dma_buf_fd(NULL, 0), -EINVAL);
	CHECK_EQ(dma_buf_fd(ERR_PTR(-ENOMEM), 0), -EINVAL);
	fd1 = dma_buf_fd(b1, 0);
	fd2 = dma_buf_fd(b2, 0);
	/* Small numbers, as a process's file descriptors: this process has no others. */
	CHECK_MSG(fd1 >= 0 && fd1 < 16 && fd2 >= 0 && fd2 < 16 && fd1 != fd2,
		  "handles %d and %d", fd1, fd2);
	REQUIRE(fd1 >= 0 && fd2 >= 0);

	/* dma_buf_get() takes a reference of its own: it outlives the handle. */
	got = dma_buf_get(fd1);
	CHECK(got == b1);
	CHECK_EQ(dmamap_dma_buf_close(fd1), 0);
	CHECK_MSG(calls(&t1, 'r') == 0, "released with a dma_buf_get() reference left");
	CHECK(dma_buf_get(fd1) == ERR_PTR(-EBADF));
	CHECK_EQ(dmamap_dma_buf_close(fd1), -EBADF);
	dma_buf_put(got);
	CHECK_EQ(calls(&t1, 'r'), 1);

	/* Handles that were never open. */
	CHECK(dma_buf_get(-1) == ERR_PTR(-EBADF));
	CHECK(dma_buf_get(1 << 20) == ERR_PTR(-EBADF));
	CHECK(dma_buf_get(0x7fffffff) == ERR_PTR(-EBADF));
	CHECK_EQ(dmamap_dma_buf_close(-1), -EBADF);
	CHECK_EQ(dmamap_dma_buf_close(60000), -EBADF);
	CHECK_EQ(dmamap_dma_buf_close(0x7fffffff), -EBADF);

	/* The lowest free number comes back, as open() gives. */
	b3 = toy_export(p, &t3, &toy_ops, "h3");
	REQUIRE(!IS_ERR(b3));
	fd3 = dma_buf_fd(b3, 0);
	CHECK_EQ(fd3, fd1);
	CHECK(dma_buf_get(fd2) == b2 && calls(&t2, 'r') == 0);
	dma_buf_put(b2); /* the reference just taken */

	/* Two handles of one buffer: each holds a reference, the second close releases. */
	got = dma_buf_get(fd3);
	REQUIRE(got == b3);
	again = dma_buf_fd(got, 0);
	CHECK(again >= 0 && again != fd3 && again != fd2);
	CHECK_EQ(dmamap_dma_buf_close(fd3), 0);
	CHECK_EQ(calls(&t3, 'r'), 0);
	CHECK_EQ(dmamap_dma_buf_close(again), 0);
	CHECK_EQ(calls(&t3, 'r'), 1);

	CHECK_EQ(dmamap_dma_buf_close(fd2), 0);
	CHECK_EQ(calls(&t2, 'r'), 1);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/* Handles are many but not endless: past 65536 the call fails and keeps nothing. */
TEST(dmabuf_life_handles_run_out)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf *b, *ref;
	static int fds[65536];
	unsigned int n = 0;
	struct toy t;
	int fd;

	REQUIRE(p);
	b = toy_export(p, &t, &toy_ops, "many");
	REQUIRE(!IS_ERR(b));
	fds[n++] = dma_buf_fd(b, 0);
	REQUIRE(fds[0] >= 0);
	for (;;) {
		ref = dma_buf_get(fds[0]);
		REQUIRE(ref == b);
		fd = dma_buf_fd(ref, 0);
		if (fd < 0)
			break;
		REQUIRE_MSG(n < 65536, "handle %u given: %d", n + 1, fd);
		fds[n++] = fd;
	}
	CHECK_EQ(fd, -EMFILE);
	CHECK_EQ(n, 65536);
	/* The refused handle did not take the reference: it is still the caller's. */
	dma_buf_put(ref);
	CHECK_EQ(calls(&t, 'r'), 0);
	for (unsigned int i = 0; i < n; i++)
		CHECK_EQ(dmamap_dma_buf_close(fds[i]), 0);
	CHECK_EQ(calls(&t, 'r'), 1);
	/* One closed is one to give again. */
	b = toy_export(p, &t, &toy_ops, "many");
	REQUIRE(!IS_ERR(b));
	fd = dma_buf_fd(b, 0);
	CHECK(fd >= 0 && fd < 16);
	CHECK_EQ(dmamap_dma_buf_close(fd), 0);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

TEST(dmabuf_life_set_name)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf *b;
	struct toy t;

	REQUIRE(p);
	b = toy_export(p, &t, &toy_ops, NULL);
	REQUIRE(!IS_ERR(b));
	CHECK_EQ(b->name[0], 0);
	CHECK_EQ(dma_buf_set_name(b, NULL), -EINVAL);
	CHECK_EQ(dma_buf_set_name(ERR_PTR(-ENOMEM), "x"), -EINVAL);
	CHECK_EQ(dma_buf_set_name(b, "0123456789abcdef0123456789abcdefXYZ"), 0);
	CHECK_EQ(strcmp(b->name, "0123456789abcdef0123456789abcde"), 0);
	/* The name is what the reports call it by. */
	REQUIRE(dma_buf_vmap(b, &(struct iosys_map){ 0 }) == 0);
	EXPECT_ONLY(DMAMAP_DBG_DMABUF_STILL_MAPPED, dma_buf_put(b));
	CHECK(text_has(0, "0123456789abcdef0123456789abcde"));
	DESTROY_CLEAN(p);
}

/* ---- 3. attach and detach -------------------------------------------------- */

TEST(dmabuf_life_attach_refuses)
{
	struct dmamap_platform *p = sim_board("default");
	struct dmamap_platform *other = quiet_board();
	struct device *dev, *stranger;
	struct dma_buf_attachment *a;
	unsigned long before;
	struct dma_buf *b;
	struct toy t;

	REQUIRE(p && other);
	dev = lookup(p, NC);
	stranger = lookup(other, NC);
	REQUIRE(dev && stranger);
	b = toy_export(p, &t, &toy_ops, "attach");
	REQUIRE(!IS_ERR(b));

	stderr_capture();
	before = orphan_refusals();
	CHECK(dma_buf_attach(NULL, dev) == ERR_PTR(-EINVAL));
	CHECK(dma_buf_attach(ERR_PTR(-ENOMEM), dev) == ERR_PTR(-EINVAL));
	CHECK_EQ(orphan_refusals(), before + 2);
	stderr_text();

	/* The buffer is known: its board is told. */
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    CHECK(dma_buf_attach(b, NULL) == ERR_PTR(-EINVAL)));
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    CHECK(dma_buf_attach(b, stranger) == ERR_PTR(-EINVAL)));
	/* None of it reached the exporter or counted as an attachment. */
	CHECK_EQ(calls(&t, 'a'), 0);
	CHECK_EQ(buf_stats(b).attachments, 0);

	rec_reset();
	a = dma_buf_attach(b, dev);
	REQUIRE(!IS_ERR(a));
	CHECK(a->dmabuf == b && a->dev == dev);
	dma_buf_detach(b, a);
	dma_buf_put(b);
	CHECK_EQ(strcmp(t.trail, "adr"), 0);
	EXPECT_NO_REPORTS();
	dmamap_platform_destroy(other);
	DESTROY_CLEAN(p);
}

TEST(dmabuf_life_attach_error_propagates)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf_attachment *a;
	struct device *dev;
	struct dma_buf *b;
	struct toy t;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	b = toy_export(p, &t, &toy_ops, "attach-err");
	REQUIRE(!IS_ERR(b));
	t.attach_err = -ENOSPC;
	a = dma_buf_attach(b, dev);
	CHECK_MSG(a == ERR_PTR(-ENOSPC), "attach gave %p", (void *)a);
	CHECK_EQ(buf_stats(b).attachments, 0);
	/* A refused attachment is not on the buffer: the last put finds no importer. */
	rec_reset();
	dma_buf_put(b);
	CHECK_EQ(strcmp(t.trail, "ar"), 0);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

TEST(dmabuf_life_detach_of_another_buffer_refused)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf_attachment *a;
	struct dma_buf *ba, *bb;
	struct toy ta, tb;
	struct device *dev;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	ba = toy_export(p, &ta, &toy_ops, "A");
	bb = toy_export(p, &tb, &toy_ops, "B");
	REQUIRE(!IS_ERR(ba) && !IS_ERR(bb));
	a = dma_buf_attach(ba, dev);
	REQUIRE(!IS_ERR(a));

	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT, dma_buf_detach(bb, a));
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT, dma_buf_detach(ba, NULL));
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT, dma_buf_detach(ba, ERR_PTR(-EINVAL)));
	/* Still A's: neither exporter heard of a detach, A still counts it. */
	CHECK_EQ(calls(&ta, 'd') + calls(&tb, 'd'), 0);
	CHECK_EQ(buf_stats(ba).attachments, 1);
	CHECK_EQ(buf_stats(bb).attachments, 0);

	rec_reset();
	dma_buf_detach(ba, a);
	CHECK_EQ(strcmp(ta.trail, "ad"), 0);
	CHECK_EQ(buf_stats(ba).attachments, 0);
	dma_buf_put(ba);
	dma_buf_put(bb);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

TEST(dmabuf_life_detach_while_mapped)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf_attachment *a;
	unsigned long live0;
	struct sg_table *sgt;
	struct device *dev;
	struct dma_buf *b;
	struct toy t;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	live0 = dmamap_debug_live(dev, NULL);
	b = toy_export(p, &t, &toy_ops, "detach-mapped");
	REQUIRE(!IS_ERR(b));
	a = dma_buf_attach(b, dev);
	REQUIRE(!IS_ERR(a));
	sgt = dma_buf_map_attachment(a, DMA_BIDIRECTIONAL);
	REQUIRE(!IS_ERR(sgt));
	CHECK(dmamap_debug_live(dev, NULL) > live0);

	EXPECT_ONLY(DMAMAP_DBG_DMABUF_STILL_MAPPED, dma_buf_detach(b, a));
	CHECK_EQ(strcmp(rec.r[0].device, NC), 0);
	/* Unmapped by the exporter first, then detached: no DMA mapping is left behind. */
	CHECK_MSG(!strcmp(t.trail, "amud"), "exporter calls '%s'", t.trail);
	CHECK_EQ(dmamap_debug_live(dev, NULL), live0);
	CHECK_EQ(buf_stats(b).attachments, 0);
	rec_reset();
	dma_buf_put(b);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/* The last put, with an importer mapped: reported, and its mapping given back. */
TEST(dmabuf_life_put_while_importer_mapped)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_heap *cma;
	struct dma_buf_attachment *a;
	unsigned long live0;
	struct sg_table *sgt;
	struct device *dev;
	struct dma_buf *b;

	REQUIRE(p);
	dev = lookup(p, NC);
	cma = dmamap_heap_find(p, "cma");
	REQUIRE(dev && cma);
	live0 = dmamap_debug_live(dev, NULL);
	b = dma_heap_buffer_alloc(cma, 64 * KiB, 0, 0);
	REQUIRE(!IS_ERR(b));
	dma_buf_set_name(b, "put-importer");
	a = dma_buf_attach(b, dev);
	REQUIRE(!IS_ERR(a));
	sgt = dma_buf_map_attachment(a, DMA_TO_DEVICE);
	REQUIRE(!IS_ERR(sgt));
	CHECK(dmamap_debug_live(dev, NULL) > live0);

	EXPECT_ONLY(DMAMAP_DBG_DMABUF_STILL_MAPPED, dma_buf_put(b));
	CHECK(text_has(0, "put-importer"));
	CHECK_MSG(text_has(0, "mapped"), "does not say it was mapped: %s", rec.r[0].text);
	CHECK_EQ(dmamap_debug_live(dev, NULL), live0);
	DESTROY_CLEAN(p);
}

/* The same with the exporter's own calls seen: unmap, detach, then release. */
TEST(dmabuf_life_put_while_attached_order)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf_attachment *a;
	struct device *dev;
	struct dma_buf *b;
	struct toy t;

	REQUIRE(p);
	dev = lookup(p, COH);
	REQUIRE(dev);
	b = toy_export(p, &t, &toy_ops, "put-attached");
	REQUIRE(!IS_ERR(b));
	a = dma_buf_attach(b, dev);
	REQUIRE(!IS_ERR(a));
	REQUIRE(!IS_ERR(dma_buf_map_attachment(a, DMA_FROM_DEVICE)));
	EXPECT_ONLY(DMAMAP_DBG_DMABUF_STILL_MAPPED, dma_buf_put(b));
	CHECK_MSG(!strcmp(t.trail, "amudr"), "exporter calls '%s'", t.trail);
	CHECK(text_has(0, "mapped"));

	/* Attached but not mapped: still reported, without the word for a mapping. */
	b = toy_export(p, &t, &toy_ops, "put-attached");
	REQUIRE(!IS_ERR(b));
	REQUIRE(!IS_ERR(dma_buf_attach(b, dev)));
	EXPECT_ONLY(DMAMAP_DBG_DMABUF_STILL_MAPPED, dma_buf_put(b));
	CHECK_MSG(!strcmp(t.trail, "adr"), "exporter calls '%s'", t.trail);
	CHECK_MSG(!text_has(0, "mapped"), "says mapped: %s", rec.r[0].text);
	DESTROY_CLEAN(p);
}

/* ---- 4. map and unmap -------------------------------------------------------- */

TEST(dmabuf_life_map_refuses)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf_attachment *a;
	struct sg_table *sgt, *got;
	struct device *dev;
	struct dma_buf *b;
	unsigned long before;
	struct toy t;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	b = toy_export(p, &t, &toy_ops, "map");
	REQUIRE(!IS_ERR(b));
	a = dma_buf_attach(b, dev);
	REQUIRE(!IS_ERR(a));

	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    CHECK(dma_buf_map_attachment(a, DMA_NONE) == ERR_PTR(-EINVAL)));
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    CHECK(dma_buf_map_attachment(a, (enum dma_data_direction)7) ==
			  ERR_PTR(-EINVAL)));
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    CHECK(dma_buf_map_attachment(a, (enum dma_data_direction)-1) ==
			  ERR_PTR(-EINVAL)));
	stderr_capture();
	before = orphan_refusals();
	CHECK(dma_buf_map_attachment(NULL, DMA_TO_DEVICE) == ERR_PTR(-EINVAL));
	CHECK(dma_buf_map_attachment(ERR_PTR(-ENOMEM), DMA_TO_DEVICE) == ERR_PTR(-EINVAL));
	CHECK_EQ(orphan_refusals(), before + 2);
	stderr_text();
	CHECK_EQ(calls(&t, 'm'), 0);

	/* The exporter's error is the caller's, and nothing is counted as mapped. */
	t.map_err = -EIO;
	rec_reset();
	CHECK(dma_buf_map_attachment(a, DMA_TO_DEVICE) == ERR_PTR(-EIO));
	EXPECT_NO_REPORTS();
	CHECK_EQ(buf_stats(b).maps, 0);
	t.map_err = 0;

	/* ...and the attachment stays unmapped: it maps now, once. */
	sgt = dma_buf_map_attachment(a, DMA_TO_DEVICE);
	REQUIRE(!IS_ERR(sgt));
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    got = dma_buf_map_attachment(a, DMA_TO_DEVICE));
	CHECK(got == ERR_PTR(-EINVAL));
	CHECK_EQ(calls(&t, 'm'), 1);
	CHECK_EQ(buf_stats(b).maps, 1);

	rec_reset();
	dma_buf_unmap_attachment(a, sgt, DMA_TO_DEVICE);
	dma_buf_detach(b, a);
	dma_buf_put(b);
	CHECK_MSG(!strcmp(t.trail, "amudr"), "exporter calls '%s'", t.trail);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

TEST(dmabuf_life_unmap_wrong_table_or_direction_refused)
{
	struct dmamap_platform *p = sim_board("default");
	struct sg_table *sgt, stranger = { 0 };
	struct dma_buf_attachment *a;
	unsigned long live0, mapped;
	struct device *dev;
	struct dma_buf *b;
	struct toy t;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	live0 = dmamap_debug_live(dev, NULL);
	b = toy_export(p, &t, &toy_ops, "unmap");
	REQUIRE(!IS_ERR(b));
	a = dma_buf_attach(b, dev);
	REQUIRE(!IS_ERR(a));
	sgt = dma_buf_map_attachment(a, DMA_BIDIRECTIONAL);
	REQUIRE(!IS_ERR(sgt));
	mapped = dmamap_debug_live(dev, NULL);
	CHECK(mapped > live0);

	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    dma_buf_unmap_attachment(a, &stranger, DMA_BIDIRECTIONAL));
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    dma_buf_unmap_attachment(a, NULL, DMA_BIDIRECTIONAL));
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT, dma_buf_unmap_attachment(a, sgt, DMA_TO_DEVICE));
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT, dma_buf_unmap_attachment(a, sgt, DMA_FROM_DEVICE));
	/* The mapping is untouched: the exporter was not called, the device still has it. */
	CHECK_EQ(calls(&t, 'u'), 0);
	CHECK_EQ(dmamap_debug_live(dev, NULL), mapped);
	CHECK(dma_buf_map_attachment(a, DMA_BIDIRECTIONAL) == ERR_PTR(-EINVAL));

	rec_reset();
	dma_buf_unmap_attachment(a, sgt, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
	CHECK_EQ(calls(&t, 'u'), 1);
	CHECK_EQ(dmamap_debug_live(dev, NULL), live0);
	/* Once given back, the same table is no longer the attachment's. */
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    dma_buf_unmap_attachment(a, sgt, DMA_BIDIRECTIONAL));
	CHECK_EQ(calls(&t, 'u'), 1);

	rec_reset();
	dma_buf_detach(b, a);
	dma_buf_put(b);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

TEST(dmabuf_life_stats_count)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf_attachment *a1, *a2;
	struct dmamap_dma_buf_stats s;
	struct sg_table *s1, *s2;
	struct device *nc, *coh;
	struct dma_buf *b;
	struct toy t;

	REQUIRE(p);
	nc = lookup(p, NC);
	coh = lookup(p, COH);
	REQUIRE(nc && coh);
	b = toy_export(p, &t, &toy_ops, "stats");
	REQUIRE(!IS_ERR(b));
	CHECK_EQ(dmamap_dma_buf_stats(NULL, &s), -EINVAL);
	CHECK_EQ(dmamap_dma_buf_stats(ERR_PTR(-ENOMEM), &s), -EINVAL);
	CHECK_EQ(dmamap_dma_buf_stats(b, NULL), -EINVAL);
	s = buf_stats(b);
	CHECK(s.attachments == 0 && s.maps == 0 && s.bounced_maps == 0);

	a1 = dma_buf_attach(b, nc);
	a2 = dma_buf_attach(b, coh);
	REQUIRE(!IS_ERR(a1) && !IS_ERR(a2));
	CHECK_EQ(buf_stats(b).attachments, 2);
	s1 = dma_buf_map_attachment(a1, DMA_TO_DEVICE);
	s2 = dma_buf_map_attachment(a2, DMA_FROM_DEVICE);
	REQUIRE(!IS_ERR(s1) && !IS_ERR(s2));
	CHECK_EQ(buf_stats(b).maps, 2);
	/* A map that failed is no map. */
	t.map_err = -EIO;
	dma_buf_unmap_attachment(a1, s1, DMA_TO_DEVICE);
	CHECK(IS_ERR(dma_buf_map_attachment(a1, DMA_TO_DEVICE)));
	CHECK_EQ(buf_stats(b).maps, 2);
	t.map_err = 0;
	s1 = dma_buf_map_attachment(a1, DMA_TO_DEVICE);
	REQUIRE(!IS_ERR(s1));
	s = buf_stats(b);
	CHECK_EQ(s.maps, 3);
	/* Both reach the pages where they lie: nothing bounced. */
	CHECK_EQ(s.bounced_maps, 0);
	CHECK_EQ(s.bytes_bounced, 0);

	/* Attachments are the live ones; maps the total so far. */
	dma_buf_unmap_attachment(a1, s1, DMA_TO_DEVICE);
	dma_buf_detach(b, a1);
	s = buf_stats(b);
	CHECK_EQ(s.attachments, 1);
	CHECK_EQ(s.maps, 3);
	dma_buf_unmap_attachment(a2, s2, DMA_FROM_DEVICE);
	dma_buf_detach(b, a2);
	CHECK_EQ(buf_stats(b).attachments, 0);
	dma_buf_put(b);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/* The CPU's brackets: bad input refused, an exporter's error leaves no bracket open. */
TEST(dmabuf_life_cpu_access_bad_input)
{
	struct dmamap_platform *p = sim_board("default");
	unsigned long before;
	struct dma_buf *b;
	struct toy t;

	REQUIRE(p);
	b = toy_export(p, &t, &toy_ops, "brackets");
	REQUIRE(!IS_ERR(b));
	stderr_capture();
	before = orphan_refusals();
	CHECK_EQ(dma_buf_begin_cpu_access(NULL, DMA_TO_DEVICE), -EINVAL);
	CHECK_EQ(dma_buf_end_cpu_access(NULL, DMA_TO_DEVICE), -EINVAL);
	CHECK_EQ(dma_buf_begin_cpu_access(ERR_PTR(-ENOMEM), DMA_TO_DEVICE), -EINVAL);
	CHECK_EQ(orphan_refusals(), before + 3);
	stderr_text();
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    CHECK_EQ(dma_buf_begin_cpu_access(b, DMA_NONE), -EINVAL));
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    CHECK_EQ(dma_buf_end_cpu_access(b, (enum dma_data_direction)9), -EINVAL));
	CHECK_EQ(t.n, 0);

	/* The exporter's error is the caller's; no bracket was opened, none counted. */
	t.begin_err = -EAGAIN;
	rec_reset();
	CHECK_EQ(dma_buf_begin_cpu_access(b, DMA_FROM_DEVICE), -EAGAIN);
	EXPECT_NO_REPORTS();
	CHECK_EQ(buf_stats(b).cpu_accesses, 0);
	t.begin_err = 0;
	/* ...so an end now has no begin: logged, and the maintenance is done anyway. */
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    CHECK_EQ(dma_buf_end_cpu_access(b, DMA_FROM_DEVICE), 0));
	CHECK_MSG(!strcmp(t.trail, "be"), "exporter calls '%s'", t.trail);

	/* A bracket that opened closes quietly, once. */
	rec_reset();
	CHECK_EQ(dma_buf_begin_cpu_access(b, DMA_BIDIRECTIONAL), 0);
	CHECK_EQ(dma_buf_end_cpu_access(b, DMA_BIDIRECTIONAL), 0);
	EXPECT_NO_REPORTS();
	CHECK_EQ(buf_stats(b).cpu_accesses, 1);
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT,
		    CHECK_EQ(dma_buf_end_cpu_access(b, DMA_BIDIRECTIONAL), 0));
	rec_reset();
	dma_buf_put(b);
	CHECK_MSG(!strcmp(t.trail, "bebeer"), "exporter calls '%s'", t.trail);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/* ---- 5. vmap ------------------------------------------------------------------------ */

TEST(dmabuf_life_vmap_counted)
{
	struct dmamap_platform *p = sim_board("default");
	struct iosys_map m1, m2, wrong;
	struct dma_buf *b;
	struct toy t;

	REQUIRE(p);
	b = toy_export(p, &t, &toy_ops, "vmap");
	REQUIRE(!IS_ERR(b));
	CHECK_EQ(dma_buf_vmap(NULL, &m1), -EINVAL);
	CHECK_EQ(dma_buf_vmap(b, NULL), -EINVAL);

	REQUIRE(dma_buf_vmap(b, &m1) == 0);
	REQUIRE(dma_buf_vmap(b, &m2) == 0);
	CHECK(m1.vaddr && m1.vaddr == m2.vaddr);
	CHECK(m1.vaddr == page_address(t.pg));
	CHECK(!m1.is_iomem);
	CHECK_EQ(calls(&t, 'v'), 1);

	wrong = m1;
	wrong.vaddr = (uint8_t *)m1.vaddr + PAGE_SIZE;
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT, dma_buf_vunmap(b, &wrong));
	CHECK(wrong.vaddr != NULL);
	CHECK_EQ(calls(&t, 'x'), 0);

	/* The first vunmap leaves the view for the other holder. */
	rec_reset();
	dma_buf_vunmap(b, &m1);
	CHECK(m1.vaddr == NULL);
	CHECK_EQ(calls(&t, 'x'), 0);
	dma_buf_vunmap(b, &m2);
	CHECK_EQ(calls(&t, 'x'), 1);
	EXPECT_NO_REPORTS();
	/* One more than there were vmaps. */
	m1.vaddr = page_address(t.pg);
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT, dma_buf_vunmap(b, &m1));
	CHECK_EQ(calls(&t, 'x'), 1);

	/* A failed vmap holds nothing: a vunmap after it is one too many. */
	t.vmap_err = -ENOMEM;
	CHECK_EQ(dma_buf_vmap(b, &m1), -ENOMEM);
	CHECK(m1.vaddr == NULL);
	m1.vaddr = page_address(t.pg);
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT, dma_buf_vunmap(b, &m1));
	t.vmap_err = 0;
	/* After the last vunmap a new vmap asks the exporter again. */
	REQUIRE(dma_buf_vmap(b, &m1) == 0);
	CHECK_EQ(calls(&t, 'v'), 3);
	rec_reset();
	dma_buf_vunmap(b, &m1);
	dma_buf_put(b);
	CHECK_MSG(!strcmp(t.trail, "vxvvxr"), "exporter calls '%s'", t.trail);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

TEST(dmabuf_life_put_with_vmap_outstanding)
{
	struct dmamap_platform *p = sim_board("default");
	struct iosys_map m;
	struct dma_buf *b;
	struct toy t;

	REQUIRE(p);
	b = toy_export(p, &t, &toy_ops, "vmap-left");
	REQUIRE(!IS_ERR(b));
	REQUIRE(dma_buf_vmap(b, &m) == 0);
	REQUIRE(dma_buf_vmap(b, &m) == 0);
	EXPECT_ONLY(DMAMAP_DBG_DMABUF_STILL_MAPPED, dma_buf_put(b));
	CHECK(text_has(0, "vmap-left"));
	/* The view goes back to the exporter before the memory it shows. */
	CHECK_MSG(!strcmp(t.trail, "vxr"), "exporter calls '%s'", t.trail);
	DESTROY_CLEAN(p);
}

TEST(dmabuf_life_vmap_mmap_unsupported)
{
	struct dmamap_platform *p = sim_board("default");
	struct vm_area_struct vma = { 0, TOY_SIZE, 0, DMAMAP_PROT_READ | DMAMAP_PROT_WRITE };
	struct iosys_map m = { .vaddr = &m };
	struct dma_buf *b;
	struct toy t;

	REQUIRE(p);
	b = toy_export(p, &t, &toy_min_ops, "plain");
	REQUIRE(!IS_ERR(b));
	CHECK_EQ(dma_buf_vmap(b, &m), -EOPNOTSUPP);
	CHECK(m.vaddr == NULL);
	CHECK_EQ(dma_buf_mmap(b, &vma, 0), -EOPNOTSUPP);
	CHECK_EQ(vma.vm_start, 0);
	CHECK_EQ(dma_buf_mmap(NULL, &vma, 0), -EINVAL);
	CHECK_EQ(dma_buf_mmap(b, NULL, 0), -EINVAL);
	/* Nothing was mapped, so there is nothing to give back. */
	m.vaddr = page_address(t.pg);
	EXPECT_ONLY(DMAMAP_DBG_INVALID_ARGUMENT, dma_buf_vunmap(b, &m));
	rec_reset();
	dma_buf_put(b);
	CHECK_MSG(!strcmp(t.trail, "r"), "exporter calls '%s'", t.trail);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/* ---- 6. heaps ---------------------------------------------------------------------- */

TEST(dmabuf_life_heap_find)
{
	struct dmamap_platform *p = sim_board("default");
	struct dmamap_platform *p2 = quiet_board();
	struct dmamap_platform *host = host_platform();
	struct dma_heap *sys, *cma;

	REQUIRE(p && p2 && host);
	sys = dmamap_heap_find(p, "system");
	cma = dmamap_heap_find(p, "cma");
	CHECK(sys && cma && sys != cma);
	CHECK_EQ(strcmp(dma_heap_get_name(sys), "system"), 0);
	CHECK_EQ(strcmp(dma_heap_get_name(cma), "cma"), 0);
	CHECK_EQ(strcmp(dma_heap_get_name(NULL), ""), 0);
	/* One heap per board and name: found again, not made again. */
	CHECK(dmamap_heap_find(p, "system") == sys);
	CHECK(dmamap_heap_find(p, "cma") == cma);
	CHECK(dmamap_heap_find(p2, "system") && dmamap_heap_find(p2, "system") != sys);
	CHECK(dmamap_heap_find(p, "nope") == NULL);
	CHECK(dmamap_heap_find(p, "") == NULL);
	CHECK(dmamap_heap_find(p, "System") == NULL);
	CHECK(dmamap_heap_find(p, NULL) == NULL);
	CHECK(dmamap_heap_find(NULL, "system") == NULL);
	/* The host has no banks to carve heaps from. */
	CHECK(dmamap_heap_find(host, "system") == NULL);
	CHECK(dmamap_heap_find(host, "cma") == NULL);
	EXPECT_NO_REPORTS();
	dmamap_platform_destroy(host);
	dmamap_platform_destroy(p2);
	DESTROY_CLEAN(p);
}

TEST(dmabuf_life_heap_alloc_refuses)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_heap *sys, *cma;
	struct dmamap_cma_stats cs;
	struct dma_buf *b;

	REQUIRE(p);
	sys = dmamap_heap_find(p, "system");
	cma = dmamap_heap_find(p, "cma");
	REQUIRE(sys && cma);
	CHECK(dma_heap_buffer_alloc(NULL, PAGE_SIZE, 0, 0) == ERR_PTR(-EINVAL));
	CHECK(dma_heap_buffer_alloc(sys, 0, 0, 0) == ERR_PTR(-EINVAL));
	CHECK(dma_heap_buffer_alloc(sys, PAGE_SIZE, 0, 1) == ERR_PTR(-EINVAL));
	CHECK(dma_heap_buffer_alloc(cma, PAGE_SIZE, 0, 1ULL << 63) == ERR_PTR(-EINVAL));
	/* More than the CMA area holds. */
	REQUIRE(dmamap_cma_stats(p, &cs) == 0);
	CHECK(dma_heap_buffer_alloc(cma, (cs.total_pages + 1) * PAGE_SIZE, 0, 0) ==
	      ERR_PTR(-ENOMEM));
	CHECK(dma_heap_buffer_alloc(sys, (size_t)1 << (sizeof(size_t) * 8 - 2), 0, 0) == ERR_PTR(-ENOMEM));
	REQUIRE(dmamap_cma_stats(p, &cs) == 0);
	CHECK_EQ(cs.used_pages, 0);

	/* Whole pages, whatever was asked. */
	b = dma_heap_buffer_alloc(sys, 100, 0, 0);
	REQUIRE(!IS_ERR(b));
	CHECK(b->size >= 100 && b->size % PAGE_SIZE == 0);
	CHECK(b->plat == p);
	dma_buf_put(b);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/*
 * A length that no board holds is -ENOMEM, whatever its value: one that
 * wraps when rounded up to pages is no zero length the caller gave, and
 * the buffer's export is not the caller's call to be blamed for.
 */
TEST(dmabuf_life_heap_alloc_wrapping_len)
{
	static const size_t huge[] = { SIZE_MAX, SIZE_MAX - PAGE_SIZE + 2,
				       SIZE_MAX - 2 * PAGE_SIZE };
	static const char *const names[] = { "system", "cma" };
	struct dmamap_platform *p = sim_board("default");

	REQUIRE(p);
	for (unsigned int h = 0; h < 2; h++) {
		struct dma_heap *heap = dmamap_heap_find(p, names[h]);

		REQUIRE(heap);
		for (unsigned int i = 0; i < 3; i++) {
			unsigned long before = dmamap_report_count(NULL, 0);
			struct dma_buf *b;

			rec_reset();
			stderr_capture();
			b = dma_heap_buffer_alloc(heap, huge[i], 0, 0);
			stderr_text();
			CHECK_MSG(b == ERR_PTR(-ENOMEM), "%s heap, %#zx bytes: %ld", names[h],
				  huge[i], IS_ERR(b) ? PTR_ERR(b) : 0L);
			CHECK_MSG(dmamap_report_count(NULL, 0) == before,
				  "%s heap, %#zx bytes: %lu report(s) on no platform", names[h],
				  huge[i], dmamap_report_count(NULL, 0) - before);
			EXPECT_NO_REPORTS();
			if (!IS_ERR(b))
				dma_buf_put(b);
		}
	}
	DESTROY_CLEAN(p);
}

/* A heap's memory is zeroed, also where an earlier buffer left bytes. */
static void zeroed_after_reuse(const char *heap_name, size_t len)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_heap *heap;
	struct iosys_map m;
	struct dma_buf *b;

	REQUIRE(p);
	heap = dmamap_heap_find(p, heap_name);
	REQUIRE(heap);
	for (int round = 0; round < 2; round++) {
		b = dma_heap_buffer_alloc(heap, len, 0, 0);
		REQUIRE(!IS_ERR(b));
		REQUIRE(dma_buf_vmap(b, &m) == 0);
		CHECK_EQ(dma_buf_begin_cpu_access(b, DMA_BIDIRECTIONAL), 0);
		CHECK_MSG(all_bytes(m.vaddr, b->size, 0), "%s round %d: not zeroed", heap_name,
			  round);
		/* No zero byte: whatever memory comes next, a zeroing that was skipped shows. */
		pat(m.vaddr, b->size, (unsigned int)round + 1);
		CHECK_EQ(dma_buf_end_cpu_access(b, DMA_BIDIRECTIONAL), 0);
		dma_buf_vunmap(b, &m);
		dma_buf_put(b);
	}
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

TEST(dmabuf_life_heap_system_vmap_zeroed)
{
	/* Past 1 MiB: runs of each order the system heap uses, one view over them. */
	zeroed_after_reuse("system", MiB + 64 * KiB + host_page());
}

TEST(dmabuf_life_heap_cma_vmap_zeroed)
{
	zeroed_after_reuse("cma", 256 * KiB);
}

TEST(dmabuf_life_heap_mmap_matches_vmap)
{
	struct dmamap_platform *p = sim_board("default");
	const size_t len = MiB + 64 * KiB + host_page();
	const unsigned long pages = len / PAGE_SIZE, tail = MiB / PAGE_SIZE;
	struct vm_area_struct vma, part, bad;
	struct dma_heap *sys;
	struct iosys_map m;
	uint8_t *want;
	struct dma_buf *b;

	REQUIRE(p);
	sys = dmamap_heap_find(p, "system");
	REQUIRE(sys);
	b = dma_heap_buffer_alloc(sys, len, 0, 0);
	REQUIRE(!IS_ERR(b));
	REQUIRE(b->size == len);
	REQUIRE(dma_buf_vmap(b, &m) == 0);
	want = patbuf(len, 7);
	REQUIRE(want);
	CHECK_EQ(dma_buf_begin_cpu_access(b, DMA_TO_DEVICE), 0);
	memcpy(m.vaddr, want, len);
	CHECK_EQ(dma_buf_end_cpu_access(b, DMA_TO_DEVICE), 0);

	vma = (struct vm_area_struct){ 0, len, 0, DMAMAP_PROT_READ | DMAMAP_PROT_WRITE };
	REQUIRE(dma_buf_mmap(b, &vma, 0) == 0);
	CHECK(vma.vm_start != 0 && vma.vm_end - vma.vm_start == len);
	CHECK_MSG(ndiff((void *)vma.vm_start, m.vaddr, len) == 0, "%zu bytes differ",
		  ndiff((void *)vma.vm_start, m.vaddr, len));
	/* One memory under both views: a write through one shows in the other. */
	memset((uint8_t *)vma.vm_start + MiB - 8, 0x5a, 16);
	CHECK(all_bytes((uint8_t *)m.vaddr + MiB - 8, 16, 0x5a));

	/* A later part, from its first page on. */
	part = (struct vm_area_struct){ 0, len - MiB, 0, DMAMAP_PROT_READ };
	REQUIRE(dma_buf_mmap(b, &part, tail) == 0);
	CHECK_EQ(part.vm_pgoff, tail);
	CHECK(ndiff((void *)part.vm_start, (uint8_t *)m.vaddr + MiB, len - MiB) == 0);
	CHECK_EQ(dmamap_munmap(&part), 0);
	CHECK_EQ(dmamap_munmap(&vma), 0);

	/* Past the end, or not whole pages. */
	bad = (struct vm_area_struct){ 0, len + PAGE_SIZE, 0, DMAMAP_PROT_READ };
	CHECK_EQ(dma_buf_mmap(b, &bad, 0), -EINVAL);
	bad = (struct vm_area_struct){ 0, len, 0, DMAMAP_PROT_READ };
	CHECK_EQ(dma_buf_mmap(b, &bad, 1), -EINVAL);
	CHECK_EQ(dma_buf_mmap(b, &bad, pages), -EINVAL);
	bad = (struct vm_area_struct){ 0, PAGE_SIZE, 0, DMAMAP_PROT_READ };
	CHECK_EQ(dma_buf_mmap(b, &bad, pages), -EINVAL);
	CHECK_EQ(dma_buf_mmap(b, &bad, ~0UL), -EINVAL);
	bad = (struct vm_area_struct){ 0, PAGE_SIZE / 2, 0, DMAMAP_PROT_READ };
	CHECK_EQ(dma_buf_mmap(b, &bad, 0), -EINVAL);
	bad = (struct vm_area_struct){ 0, len - 1, 0, DMAMAP_PROT_READ };
	CHECK_EQ(dma_buf_mmap(b, &bad, 0), -EINVAL);
	bad = (struct vm_area_struct){ 0, 0, 0, DMAMAP_PROT_READ };
	CHECK_EQ(dma_buf_mmap(b, &bad, 0), -EINVAL);
	CHECK_EQ(bad.vm_start, 0);

	dma_buf_vunmap(b, &m);
	dma_buf_put(b);
	free(want);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/* dmamap_buf_plan() and dmamap_buf_alloc_for() refuse what no set of devices can be. */
TEST(dmabuf_life_alloc_for_bad_input)
{
	struct dmamap_platform *p = sim_board("default");
	struct dmamap_platform *other = quiet_board();
	struct dmamap_platform *host = host_platform();
	struct device *devs[65], *mixed[2], *with_null[2], *hd;
	struct dmamap_buf_plan plan;
	struct dma_buf *b;
	int err;

	REQUIRE(p && other && host);
	devs[0] = lookup(p, NC);
	REQUIRE(devs[0]);
	for (unsigned int i = 1; i < 65; i++)
		devs[i] = devs[0];
	mixed[0] = devs[0];
	mixed[1] = lookup(other, NC);
	with_null[0] = devs[0];
	with_null[1] = NULL;
	hd = host_device(host, "h0", NULL);
	REQUIRE(mixed[1] && hd);

	CHECK_EQ(dmamap_buf_plan(devs, 1, PAGE_SIZE, NULL), -EINVAL);
	CHECK_EQ(dmamap_buf_plan(NULL, 1, PAGE_SIZE, &plan), -EINVAL);
	CHECK(plan.err == -EINVAL && plan.why[0]);
	CHECK_EQ(dmamap_buf_plan(devs, 0, PAGE_SIZE, &plan), -EINVAL);
	CHECK_EQ(dmamap_buf_plan(devs, 65, PAGE_SIZE, &plan), -EINVAL);
	CHECK_EQ(dmamap_buf_plan(devs, 64, PAGE_SIZE, &plan), 0);
	CHECK_EQ(dmamap_buf_plan(devs, 1, 0, &plan), -EINVAL);
	CHECK_EQ(dmamap_buf_plan(with_null, 2, PAGE_SIZE, &plan), -EINVAL);
	CHECK_EQ(dmamap_buf_plan(mixed, 2, PAGE_SIZE, &plan), -EINVAL);
	CHECK(plan.why[0]);
	CHECK_EQ(dmamap_buf_plan(&hd, 1, PAGE_SIZE, &plan), -EINVAL);

	/* The same through the allocator; @plan and @err may be left out. */
	err = 1;
	CHECK(dmamap_buf_alloc_for(NULL, 1, PAGE_SIZE, NULL, &err) == NULL);
	CHECK_EQ(err, -EINVAL);
	err = 1;
	CHECK(dmamap_buf_alloc_for(mixed, 2, PAGE_SIZE, &plan, &err) == NULL);
	CHECK(err == -EINVAL && plan.err == -EINVAL && plan.why[0]);
	err = 1;
	CHECK(dmamap_buf_alloc_for(devs, 1, 0, NULL, &err) == NULL);
	CHECK_EQ(err, -EINVAL);
	err = 1;
	CHECK(dmamap_buf_alloc_for(&hd, 1, PAGE_SIZE, NULL, &err) == NULL);
	CHECK_EQ(err, -EINVAL);
	CHECK(dmamap_buf_alloc_for(devs, 65, PAGE_SIZE, NULL, NULL) == NULL);
	/* More than the device's window holds. */
	err = 1;
	CHECK(dmamap_buf_alloc_for(devs, 1, 512 * MiB, &plan, &err) == NULL);
	CHECK(err < 0 && err == plan.err && plan.why[0]);

	/* A good set, for the contrast: the buffer is a heap buffer like any other. */
	err = 1;
	b = dmamap_buf_alloc_for(devs, 1, 10000, &plan, &err);
	REQUIRE(b);
	CHECK_EQ(err, 0);
	CHECK(b->size >= 10000 && b->size == plan.size);
	dma_buf_put(b);
	EXPECT_NO_REPORTS();
	dmamap_platform_destroy(host);
	dmamap_platform_destroy(other);
	DESTROY_CLEAN(p);
}

/* ---- 7. every allocation failure of a buffer's life ------------------------------------ */

#define WALK_MAX 2000

/* LeakSanitizer's, in a sanitized build: the runner's children never reach its exit check. */
extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

/*
 * A buffer's whole life as an importer lives it: allocated (from @heap,
 * or for @dev by dmamap_buf_alloc_for() when @heap is NULL), passed by
 * handle, attached, mapped, viewed, written by the CPU and read by the
 * device, then all given back. 0, or the first error.
 */
static int buffer_life(struct dma_heap *heap, struct device *dev, size_t len,
		       unsigned long *wrong)
{
	struct dmamap_buf_plan plan;
	struct dma_buf_attachment *a;
	struct dma_buf *buf, *imp;
	struct sg_table *sgt;
	struct iosys_map m;
	uint8_t seen[256], want[256];
	size_t n;
	int fd, ret;

	if (heap) {
		buf = dma_heap_buffer_alloc(heap, len, 0, 0);
		if (IS_ERR(buf))
			return (int)PTR_ERR(buf);
	} else {
		ret = 1;
		buf = dmamap_buf_alloc_for(&dev, 1, len, &plan, &ret);
		if (!buf) {
			*wrong += ret == 1 || plan.err != ret || !plan.why[0];
			return ret;
		}
	}
	fd = dma_buf_fd(buf, 0);
	if (fd < 0) {
		dma_buf_put(buf);
		return fd;
	}
	imp = dma_buf_get(fd);
	if (IS_ERR(imp)) {
		dmamap_dma_buf_close(fd);
		return (int)PTR_ERR(imp);
	}
	a = dma_buf_attach(imp, dev);
	if (IS_ERR(a)) {
		ret = (int)PTR_ERR(a);
		goto put;
	}
	sgt = dma_buf_map_attachment(a, DMA_BIDIRECTIONAL);
	if (IS_ERR(sgt)) {
		ret = (int)PTR_ERR(sgt);
		goto detach;
	}
	ret = dma_buf_vmap(imp, &m);
	if (ret)
		goto unmap;
	ret = dma_buf_begin_cpu_access(imp, DMA_BIDIRECTIONAL);
	if (!ret) {
		*wrong += !all_bytes(m.vaddr, len, 0);
		pat(want, sizeof(want), 3);
		memcpy(m.vaddr, want, sizeof(want));
		ret = dma_buf_end_cpu_access(imp, DMA_BIDIRECTIONAL);
	}
	n = sg_dma_len(sgt->sgl) < sizeof(seen) ? sg_dma_len(sgt->sgl) : sizeof(seen);
	if (!ret)
		ret = dmamap_device_read(dev, sg_dma_address(sgt->sgl), seen, n);
	if (!ret)
		*wrong += ndiff(seen, want, n);
	dma_buf_vunmap(imp, &m);
unmap:
	dma_buf_unmap_attachment(a, sgt, DMA_BIDIRECTIONAL);
detach:
	dma_buf_detach(imp, a);
put:
	dma_buf_put(imp);
	dmamap_dma_buf_close(fd);
	return ret;
}

/* Where the pages of a new buffer of @heap lie, as its table for @dev says; -1 if none. */
static int where_new_buffer_lies(struct dma_heap *heap, struct device *dev, size_t len,
				 phys_addr_t *out, int max)
{
	struct dma_buf_attachment *a;
	struct scatterlist *sg;
	struct sg_table *sgt;
	struct dma_buf *b;
	int n = -1, i;

	b = dma_heap_buffer_alloc(heap, len, 0, 0);
	if (IS_ERR(b))
		return -1;
	a = dma_buf_attach(b, dev);
	if (!IS_ERR(a)) {
		sgt = dma_buf_map_attachment(a, DMA_TO_DEVICE);
		if (!IS_ERR(sgt)) {
			n = 0;
			for_each_sgtable_sg(sgt, sg, i)
				if (n < max)
					out[n++] = page_to_phys(sg_page(sg)) + sg->offset;
			dma_buf_unmap_attachment(a, sgt, DMA_TO_DEVICE);
		}
		dma_buf_detach(b, a);
	}
	dma_buf_put(b);
	return n;
}

#define WHERE_MAX 64

/*
 * For k = 1, 2, ... the k-th allocation of the process (the buffer's own
 * bookkeeping, the handle table, the heap's pages, the mapping, the
 * view) fails, on a fresh board each time, until a run passes them all.
 * Every failure must be the caller's error (-ENOMEM), and leave nothing:
 * no buffer or mapping (the board's destruction reports none), no CPU
 * view (the library's ledger of mapped bytes), no pages (CMA's count;
 * for the system heap, a new buffer lies where it lies on a fresh board),
 * no IO page table entry.
 */
static void walk(const char *heap_name, const char *dev_name, size_t len)
{
	phys_addr_t fresh[WHERE_MAX], now[WHERE_MAX];
	int nfresh = -1;
	long k;

	if (!strcmp(heap_name, "system")) {
		struct dmamap_platform *p = quiet_board();
		struct device *dev = p ? dmamap_device_lookup(p, dev_name) : NULL;
		struct dma_heap *heap = p ? dmamap_heap_find(p, heap_name) : NULL;

		REQUIRE(dev && heap);
		nfresh = where_new_buffer_lies(heap, dev, len, fresh, WHERE_MAX);
		dmamap_platform_destroy(p);
		REQUIRE(nfresh > 0);
	}
	for (k = 1; k <= WALK_MAX; k += tap_sample()) {
		struct dmamap_platform *p;
		struct device *dev;
		struct dma_heap *heap;
		struct dmamap__ledger base, after;
		unsigned long fired0, wrong = 0;
		bool fired;
		int ret;

		/* The board maps views of its memory at first use: count from before it. */
		dmamap__ledger_read(&base);
		p = sim_board("default");
		dev = p ? dmamap_device_lookup(p, dev_name) : NULL;
		heap = p ? dmamap_heap_find(p, heap_name) : NULL;
		REQUIRE(dev && (heap || !strcmp(heap_name, "alloc_for")));
		fired0 = dmamap_fault_injected(NULL);
		dmamap_fault_inject(NULL, DMAMAP_FAULT_ALLOC, k);
		ret = buffer_life(heap, dev, len, &wrong);
		fired = dmamap_fault_injected(NULL) != fired0;
		dmamap_fault_inject(NULL, 0, 0);

		CHECK_MSG(!fired || !ret || ret == -ENOMEM, "%s, point %ld: error %d", heap_name, k,
			  ret);
		CHECK_MSG(fired || !ret, "%s, point %ld: fails with no point failing: %d",
			  heap_name, k, ret);
		CHECK_MSG(!wrong, "%s, point %ld: %lu bytes wrong", heap_name, k, wrong);
		/*
		 * A failure is the caller's to handle, not a misuse: at most the
		 * checker's own memory ran out, or an allocation said it failed.
		 */
		for (unsigned int i = 0; i < rec.n && i < REC_MAX; i++)
			CHECK_MSG(rec.r[i].kind == DMAMAP_DBG_CHECKER_DISABLED ||
					  rec.r[i].kind == DMAMAP_DBG_ALLOC_FAILED,
				  "%s, point %ld: reported %s: %s", heap_name, k,
				  kname(rec.r[i].kind), rec.r[i].text);
		/* The checker may have been the one to fail: it forgets everything then. */
		if (dmamap_debug_enabled(p))
			CHECK_MSG(dmamap_debug_live(NULL, p) == 0, "%s, point %ld: %lu live",
				  heap_name, k, dmamap_debug_live(NULL, p));
		if (strcmp(heap_name, "system")) {
			struct dmamap_cma_stats cs;

			CHECK(dmamap_cma_stats(p, &cs) == 0);
			CHECK_MSG(cs.used_pages == 0, "%s, point %ld: %llu CMA pages left",
				  heap_name, k, (unsigned long long)cs.used_pages);
		}
		if (!strcmp(dev_name, IOMMU_DEV)) {
			CHECK_MSG(istats(dev).pages_mapped == 0,
				  "%s, point %ld: %llu IO pages mapped", heap_name, k,
				  (unsigned long long)istats(dev).pages_mapped);
		} else if (nfresh > 0) {
			int n = where_new_buffer_lies(heap, dev, len, now, WHERE_MAX);

			CHECK_MSG(n == nfresh && !memcmp(now, fresh, (size_t)n * sizeof(now[0])),
				  "%s, point %ld: a new buffer lies elsewhere than on a fresh board",
				  heap_name, k);
		}
		DESTROY_CLEAN(p);
		dmamap__ledger_read(&after);
		CHECK_MSG(after.mapped_bytes == base.mapped_bytes && after.memfds == base.memfds,
			  "%s, point %ld: %lld bytes mapped and %ld memfds left", heap_name, k,
			  after.mapped_bytes - base.mapped_bytes, after.memfds - base.memfds);
		if (__lsan_do_recoverable_leak_check)
			CHECK_MSG(!__lsan_do_recoverable_leak_check(), "%s, point %ld: leaked",
				  heap_name, k);
		if (tap_failures)
			return;
		if (!fired) {
			printf("# %s%s on %s: %ld failure points walked, every %u\n", heap_name,
			       strcmp(heap_name, "alloc_for") ? " heap" : "", dev_name, k - 1,
			       tap_sample());
			CHECK(k > 3);
			return;
		}
	}
	CHECK_MSG(false, "%s: more than %d failure points", heap_name, WALK_MAX);
}

TEST_TIMEOUT(dmabuf_life_fault_walk_cma, 300)
{
	walk("cma", NC, 64 * KiB);
}

TEST_TIMEOUT(dmabuf_life_fault_walk_system, 300)
{
	/* Coherent and direct: its mappings take no pages, so only the buffer's can go missing. */
	walk("system", COH, MiB + 64 * KiB + host_page());
}

TEST_TIMEOUT(dmabuf_life_fault_walk_system_iommu, 300)
{
	/* Two runs (64 KiB and a page): one IOVA range over both, one CPU view over both. */
	walk("system", IOMMU_DEV, 64 * KiB + host_page());
}

TEST_TIMEOUT(dmabuf_life_fault_walk_alloc_for, 300)
{
	/* dma-nc has no IOMMU: contiguous memory, from CMA or the zones below its limit. */
	walk("alloc_for", NC, 64 * KiB);
}

/* ---- 8. a board destroyed under its buffers -------------------------------------------- */

TEST(dmabuf_life_board_destroyed_with_references)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_buf *toy, *heapbuf, *extra;
	struct dma_buf_attachment *a;
	struct dma_heap *cma;
	struct iosys_map m;
	struct device *dev;
	struct toy t;
	int fd;

	REQUIRE(p);
	dev = lookup(p, NC);
	cma = dmamap_heap_find(p, "cma");
	REQUIRE(dev && cma);
	toy = toy_export(p, &t, &toy_ops, "orphan-toy");
	REQUIRE(!IS_ERR(toy));
	a = dma_buf_attach(toy, dev);
	REQUIRE(!IS_ERR(a));
	REQUIRE(!IS_ERR(dma_buf_map_attachment(a, DMA_TO_DEVICE)));

	/* A heap buffer with all a holder can have: handle, reference, importer, view. */
	heapbuf = dma_heap_buffer_alloc(cma, 64 * KiB, 0, 0);
	REQUIRE(!IS_ERR(heapbuf));
	dma_buf_set_name(heapbuf, "orphan-heap");
	fd = dma_buf_fd(heapbuf, 0);
	REQUIRE(fd >= 0);
	extra = dma_buf_get(fd);
	REQUIRE(extra == heapbuf);
	a = dma_buf_attach(heapbuf, dev);
	REQUIRE(!IS_ERR(a));
	REQUIRE(!IS_ERR(dma_buf_map_attachment(a, DMA_BIDIRECTIONAL)));
	REQUIRE(dma_buf_vmap(heapbuf, &m) == 0);

	cur_p = NULL;
	rec_reset();
	dmamap_platform_destroy(p);
	EXPECT_KINDS(DMAMAP_DBG_LEAK, DMAMAP_DBG_LEAK);
	CHECK_MSG((text_has(0, "orphan-toy") && text_has(1, "orphan-heap")) ||
			  (text_has(1, "orphan-toy") && text_has(0, "orphan-heap")),
		  "the leak reports do not name the buffers");
	/* The exporter gave its memory back with the board, after its importer's mapping. */
	CHECK_MSG(!strcmp(t.trail, "amudr"), "exporter calls '%s'", t.trail);

	/* What the holders do afterwards must be harmless. */
	rec_reset();
	dma_buf_put(toy);
	CHECK_EQ(calls(&t, 'r'), 1);
	CHECK(dma_buf_get(fd) == heapbuf);
	dma_buf_put(heapbuf);
	dma_buf_put(extra);
	CHECK_EQ(dmamap_dma_buf_close(fd), 0);
	CHECK(dma_buf_get(fd) == ERR_PTR(-EBADF));
	CHECK_EQ(rec.n, 0);
}

TEST(dmabuf_life_board_destroyed_then_put_plain)
{
	struct dmamap_platform *p = sim_board("default");
	struct dma_heap *sys;
	struct dma_buf *b;

	REQUIRE(p);
	sys = dmamap_heap_find(p, "system");
	REQUIRE(sys);
	b = dma_heap_buffer_alloc(sys, 3 * host_page(), 0, 0);
	REQUIRE(!IS_ERR(b));
	cur_p = NULL;
	rec_reset();
	dmamap_platform_destroy(p);
	EXPECT_KINDS(DMAMAP_DBG_LEAK);
	CHECK(text_has(0, "system"));
	rec_reset();
	dma_buf_put(b);
	CHECK_EQ(rec.n, 0);
}

/*
 * What is left of a buffer whose board went is its references: the
 * exporter released it, and must hear of it no more. A vmap or a CPU
 * bracket then must fail without reaching the exporter's ops.
 */
TEST(dmabuf_life_board_destroyed_then_no_exporter_calls)
{
	struct dmamap_platform *p = sim_board("default");
	struct iosys_map m;
	struct dma_buf *b;
	struct toy t;
	int ret;

	REQUIRE(p);
	b = toy_export(p, &t, &toy_ops, "orphan-calls");
	REQUIRE(!IS_ERR(b));
	cur_p = NULL;
	rec_reset();
	dmamap_platform_destroy(p);
	EXPECT_KINDS(DMAMAP_DBG_LEAK);
	REQUIRE(!strcmp(t.trail, "r"));

	ret = dma_buf_vmap(b, &m);
	CHECK_MSG(ret != 0, "dma_buf_vmap() of a buffer whose board is gone succeeded");
	ret = dma_buf_begin_cpu_access(b, DMA_BIDIRECTIONAL);
	CHECK_MSG(ret != 0, "dma_buf_begin_cpu_access() of a buffer whose board is gone succeeded");
	CHECK_MSG(!strcmp(t.trail, "r"), "exporter called after its release: '%s'", t.trail);
	dma_buf_put(b);
	CHECK_EQ(calls(&t, 'r'), 1);
}
