/* SPDX-License-Identifier: MIT */
/*
 * The simulated non-coherent cache through the driver API: with
 * correct use, map_single, map_page and map_sg deliver the right bytes both
 * ways on a coherent and a non-coherent device, in every direction; sg syncs
 * hand every entry over.
 *
 * Every check compares bytes the device read (dmamap_device_read), bytes
 * the CPU reads through its pointer, or the memory view probed with
 * dmamap_sim_mem_read(), against patterns the test wrote: a missing clean or
 * invalidate in the library shows up as stale bytes, never as a counter.
 */
#include "../helpers.h"

enum how { BY_SINGLE, BY_PAGE, BY_SG };

static const char *how_name(enum how how)
{
	return how == BY_SINGLE ? "map_single" : how == BY_PAGE ? "map_page" : "map_sg";
}

/*
 * The CPU sees the buffer as up to three pieces; the device as up to three
 * segments (an sg list may be merged). Both are compared as one stream.
 */
struct xfer {
	enum how how;
	int npieces;
	uint8_t *cpu[3];
	size_t len[3];
	int nsegs;
	dma_addr_t dma[3];
	size_t dlen[3];
	struct scatterlist sgl[3];
	uint8_t *k0, *k2;
	struct page *pg;
	size_t total;
};

static bool xfer_setup(struct dmamap_platform *p, struct xfer *x, enum how how)
{
	memset(x, 0, sizeof(*x));
	x->how = how;
	switch (how) {
	case BY_SINGLE:
		x->k0 = dbuf(p, 1000);
		x->cpu[0] = x->k0;
		x->len[0] = 1000;
		x->npieces = 1;
		break;
	case BY_PAGE:
		/* Not line-aligned at either end, and across a page boundary. */
		x->pg = dmamap_alloc_pages(p, 1, GFP_DMA);
		if (x->pg)
			x->cpu[0] = (uint8_t *)page_address(x->pg) + 192;
		x->len[0] = 5000;
		x->npieces = 1;
		break;
	case BY_SG:
		x->k0 = dbuf(p, 100);
		x->pg = dmamap_alloc_pages(p, 1, GFP_DMA);
		x->k2 = dbuf(p, 256);
		x->cpu[0] = x->k0;
		x->len[0] = 100;
		if (x->pg)
			x->cpu[1] = (uint8_t *)page_address(x->pg) + 64;
		x->len[1] = 6000;
		x->cpu[2] = x->k2;
		x->len[2] = 256;
		x->npieces = 3;
		sg_init_table(x->sgl, 3);
		if (x->k0 && x->pg && x->k2) {
			sg_set_buf(&x->sgl[0], x->k0, 100);
			sg_set_page(&x->sgl[1], x->pg, 6000, 64);
			sg_set_buf(&x->sgl[2], x->k2, 256);
		}
		break;
	}
	for (int i = 0; i < x->npieces; i++) {
		if (!x->cpu[i])
			return false;
		x->total += x->len[i];
	}
	return true;
}

static void xfer_free(struct dmamap_platform *p, struct xfer *x)
{
	dmamap_kfree(p, x->k0);
	dmamap_kfree(p, x->k2);
	if (x->pg)
		dmamap_free_pages(p, x->pg, 1);
}

static int xfer_map(struct device *dev, struct xfer *x,
		    enum dma_data_direction dir)
{
	struct scatterlist *sg;
	int i, n;

	switch (x->how) {
	case BY_SINGLE:
		x->dma[0] = dma_map_single(dev, x->cpu[0], x->len[0], dir);
		break;
	case BY_PAGE:
		x->dma[0] = dma_map_page(dev, x->pg, 192, x->len[0], dir);
		break;
	case BY_SG:
		n = dma_map_sg(dev, x->sgl, 3, dir);
		if (n <= 0 || n > 3)
			return -1;
		x->nsegs = n;
		for_each_sg(x->sgl, sg, n, i) {
			x->dma[i] = sg_dma_address(sg);
			x->dlen[i] = sg_dma_len(sg);
		}
		return 0;
	}
	if (dma_mapping_error(dev, x->dma[0]))
		return -1;
	x->nsegs = 1;
	x->dlen[0] = x->len[0];
	return 0;
}

static void xfer_unmap(struct device *dev, struct xfer *x,
		       enum dma_data_direction dir)
{
	switch (x->how) {
	case BY_SINGLE:
		dma_unmap_single(dev, x->dma[0], x->len[0], dir);
		break;
	case BY_PAGE:
		dma_unmap_page(dev, x->dma[0], x->len[0], dir);
		break;
	case BY_SG:
		dma_unmap_sg(dev, x->sgl, 3, dir); /* nents as mapped, not the result */
		break;
	}
}

static void cpu_put(struct xfer *x, const uint8_t *src)
{
	for (int i = 0; i < x->npieces; src += x->len[i], i++)
		memcpy(x->cpu[i], src, x->len[i]);
}

static void cpu_get(struct xfer *x, uint8_t *dst)
{
	for (int i = 0; i < x->npieces; dst += x->len[i], i++)
		memcpy(dst, x->cpu[i], x->len[i]);
}

static bool mem_get(struct dmamap_platform *p, struct xfer *x, uint8_t *dst)
{
	for (int i = 0; i < x->npieces; dst += x->len[i], i++)
		if (dmamap_sim_mem_read(p, virt_to_phys(x->cpu[i]), dst, x->len[i]))
			return false;
	return true;
}

static int dev_get(struct device *dev, struct xfer *x, uint8_t *dst)
{
	for (int i = 0; i < x->nsegs; dst += x->dlen[i], i++)
		if (dmamap_device_read(dev, x->dma[i], dst, x->dlen[i]))
			return -1;
	return 0;
}

static int dev_put(struct device *dev, struct xfer *x, const uint8_t *src)
{
	for (int i = 0; i < x->nsegs; src += x->dlen[i], i++)
		if (dmamap_device_write(dev, x->dma[i], src, x->dlen[i]))
			return -1;
	return 0;
}

/*
 * The CPU writes A, maps; the device reads (TO/BIDIR: must be A) and writes
 * B (FROM/BIDIR); after unmap the CPU must see B (or still A for TO). On a
 * non-coherent device A reaches the device only through the clean at map,
 * and B reaches the CPU only through the invalidate at unmap.
 */
static void roundtrip(struct dmamap_platform *p, const char *dname,
		      enum dma_data_direction dir, enum how how,
		      unsigned int seed)
{
	struct device *dev = dmamap_device_lookup(p, dname);
	uint8_t *a, *b, *got;
	const uint8_t *want;
	struct xfer x;

	REQUIRE(dev);
	REQUIRE(xfer_setup(p, &x, how));
	a = malloc(x.total);
	b = malloc(x.total);
	got = malloc(x.total);
	REQUIRE(a && b && got);
	pattern(a, x.total, seed);
	pattern(b, x.total, seed + 128);
	cpu_put(&x, a);
	REQUIRE(xfer_map(dev, &x, dir) == 0);
	if (dir != DMA_FROM_DEVICE) {
		CHECK_EQ(dev_get(dev, &x, got), 0);
		CHECK_MSG(!memcmp(got, a, x.total),
			  "%s %s %s: device read %zu stale bytes of %zu", dname,
			  how_name(how), dir_name(dir), ndiff(got, a, x.total),
			  x.total);
	}
	if (dir != DMA_TO_DEVICE)
		CHECK_EQ(dev_put(dev, &x, b), 0);
	xfer_unmap(dev, &x, dir);
	want = dir == DMA_TO_DEVICE ? a : b;
	cpu_get(&x, got);
	CHECK_MSG(!memcmp(got, want, x.total),
		  "%s %s %s: CPU sees %zu wrong bytes of %zu after unmap", dname,
		  how_name(how), dir_name(dir), ndiff(got, want, x.total), x.total);
	/*
	 * What a non-coherent device would read next. (A coherent device's
	 * TO_DEVICE bytes may stay in the CPU cache: it snoops them there.)
	 */
	if (!dev_is_dma_coherent(dev)) {
		CHECK(mem_get(p, &x, got));
		CHECK_MSG(!memcmp(got, want, x.total),
			  "%s %s %s: memory holds %zu wrong bytes of %zu after unmap",
			  dname, how_name(how), dir_name(dir),
			  ndiff(got, want, x.total), x.total);
	}
	free(a);
	free(b);
	free(got);
	xfer_free(p, &x);
}

static void roundtrip_all(enum how how)
{
	struct dmamap_platform *p = builtin_board("default");
	unsigned int seed = 1;

	REQUIRE(p);
	for (unsigned int d = 0; d < 2; d++)
		for (unsigned int i = 0; i < 3; i++, seed += 3)
			roundtrip(p, both_devs[d], dirs[i], how, seed);
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

TEST(cache_roundtrip_map_single)
{
	roundtrip_all(BY_SINGLE);
}

TEST(cache_roundtrip_map_page)
{
	roundtrip_all(BY_PAGE);
}

TEST(cache_roundtrip_map_sg)
{
	roundtrip_all(BY_SG);
}

TEST(cache_sync_sg)
{
	struct dmamap_platform *p = builtin_board("default");

	REQUIRE(p);
	for (unsigned int d = 0; d < 2; d++) {
		struct device *dev = dmamap_device_lookup(p, both_devs[d]);
		bool nc = !dev_is_dma_coherent(dev);
		uint8_t *a, *b, *c, *got;
		struct xfer x;

		REQUIRE(xfer_setup(p, &x, BY_SG));
		a = malloc(x.total);
		b = malloc(x.total);
		c = malloc(x.total);
		got = malloc(x.total);
		REQUIRE(a && b && c && got);
		pattern(a, x.total, 7);
		pattern(b, x.total, 8);
		pattern(c, x.total, 9);

		/* FROM_DEVICE: the device fills all three entries. */
		cpu_put(&x, a);
		REQUIRE(xfer_map(dev, &x, DMA_FROM_DEVICE) == 0);
		CHECK_EQ(dev_put(dev, &x, b), 0);
		cpu_get(&x, got);
		CHECK_MSG(!memcmp(got, nc ? a : b, x.total),
			  "%s: sg read without sync_sg_for_cpu: %zu bytes unexpected",
			  both_devs[d], ndiff(got, nc ? a : b, x.total));
		dma_sync_sg_for_cpu(dev, x.sgl, 3, DMA_FROM_DEVICE);
		cpu_get(&x, got);
		CHECK_MSG(!memcmp(got, b, x.total), "%s: after sync_sg_for_cpu %zu bytes stale",
			  both_devs[d], ndiff(got, b, x.total));
		dma_sync_sg_for_device(dev, x.sgl, 3, DMA_FROM_DEVICE);
		CHECK_EQ(dev_put(dev, &x, c), 0);
		dma_sync_sg_for_cpu(dev, x.sgl, 3, DMA_FROM_DEVICE);
		cpu_get(&x, got);
		CHECK_MSG(!memcmp(got, c, x.total), "%s: second sg round %zu bytes stale",
			  both_devs[d], ndiff(got, c, x.total));
		xfer_unmap(dev, &x, DMA_FROM_DEVICE);

		/* TO_DEVICE: the CPU refills all three entries while mapped. */
		cpu_put(&x, a);
		REQUIRE(xfer_map(dev, &x, DMA_TO_DEVICE) == 0);
		dma_sync_sg_for_cpu(dev, x.sgl, 3, DMA_TO_DEVICE);
		cpu_put(&x, b);
		CHECK_EQ(dev_get(dev, &x, got), 0);
		CHECK_MSG(!memcmp(got, nc ? a : b, x.total),
			  "%s: sg device read without sync_sg_for_device: %zu bytes unexpected",
			  both_devs[d], ndiff(got, nc ? a : b, x.total));
		dma_sync_sg_for_device(dev, x.sgl, 3, DMA_TO_DEVICE);
		CHECK_EQ(dev_get(dev, &x, got), 0);
		CHECK_MSG(!memcmp(got, b, x.total),
			  "%s: after sync_sg_for_device the device read %zu stale bytes",
			  both_devs[d], ndiff(got, b, x.total));
		xfer_unmap(dev, &x, DMA_TO_DEVICE);

		free(a);
		free(b);
		free(c);
		free(got);
		xfer_free(p, &x);
	}
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}
