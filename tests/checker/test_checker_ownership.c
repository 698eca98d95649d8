/* SPDX-License-Identifier: MIT */
/*
 * Who owns a streaming buffer, as the checker follows it: the device from
 * map or sync_for_device, the CPU from sync_for_cpu. A CPU write while the
 * device owns it, and a device read of bytes the CPU changed without a
 * sync for the device, are reported as two distinct mistakes, once each;
 * on bounced devices (swiotlb, dmabounce, the host's forced bouncing),
 * whose device never sees the original, exactly as on cached ones. Each
 * test also checks the bytes the device and the CPU really got.
 */
#include "../helpers.h"

#define LEN 1024

static bool bounced_scene(struct scene *s, const char *name, scene_buf_fn *fn)
{
	if (!scene_on(s, checked(quiet_board()), name, fn, LEN))
		return false;
	rec_reset();
	return true;
}

/* Map TO_DEVICE, then the CPU writes the buffer without a sync: the device reads stale bytes. */
static void missing_sync_for_device(struct scene *s)
{
	uint8_t old[LEN], neu[LEN], seen[LEN];

	pattern(old, LEN, 1);
	pattern(neu, LEN, 2);
	memcpy(s->buf, old, LEN);
	REQUIRE(scene_map(s, LEN, DMA_TO_DEVICE));
	memcpy(s->buf, neu, LEN); /* no dma_sync_single_for_device() */
	CHECK_EQ(dmamap_device_read(s->dev, s->h, seen, LEN), 0);
	CHECK_MEM(seen, old, LEN); /* the device got what the buffer held at the map */
	EXPECT_KINDS(DMAMAP_DBG_MISSING_SYNC_FOR_DEVICE);
	CHECK_EQ(rec.r[0].addr, s->h);
	/* One mistake, one report: the unmap says nothing more. */
	rec_reset();
	dma_unmap_single(s->dev, s->h, LEN, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
}

TEST(ownership_missing_sync_for_device_cached)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, LEN));
	missing_sync_for_device(&s);
	scene_end(&s);
}

TEST(ownership_missing_sync_for_device_swiotlb)
{
	struct scene s;

	REQUIRE(bounced_scene(&s, D24, hi24_buf));
	missing_sync_for_device(&s);
	scene_end(&s);
}

TEST(ownership_missing_sync_for_device_dmabounce)
{
	struct scene s;

	REQUIRE(bounced_scene(&s, IXP, ixp_hi_buf));
	missing_sync_for_device(&s);
	scene_end(&s);
}

/* Map FROM_DEVICE, the device writes, the CPU writes too: the unmap's copy or invalidate loses one. */
static void cpu_write_while_mapped(struct scene *s, bool bounced)
{
	uint8_t dev_data[LEN], stamp[16];

	pattern(dev_data, LEN, 3);
	memset(stamp, 0x5a, sizeof(stamp));
	REQUIRE(scene_map(s, LEN, DMA_FROM_DEVICE));
	CHECK_EQ(dmamap_device_write(s->dev, s->h, dev_data, LEN), 0);
	memcpy(s->buf + 100, stamp, sizeof(stamp)); /* the CPU, while the device owns it */
	dma_unmap_single(s->dev, s->h, LEN, DMA_FROM_DEVICE);
	if (bounced) {
		/* The copy back overwrote the CPU's bytes with the device's. */
		CHECK_MEM(s->buf, dev_data, LEN);
		EXPECT_KINDS(DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS);
	} else {
		/* The invalidate discarded one side: the cache model says which. */
		EXPECT_KINDS_ANY_ORDER(DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS,
				       DMAMAP_DBG_CPU_DATA_LOST);
	}
	CHECK_MSG(strstr(rec.r[0].text, "unmap") || strstr(rec.r[1].text, "unmap"),
		  "%s", rec.r[0].text);
}

TEST(ownership_cpu_write_while_mapped_swiotlb)
{
	struct scene s;

	REQUIRE(bounced_scene(&s, D24, hi24_buf));
	cpu_write_while_mapped(&s, true);
	scene_end(&s);
}

TEST(ownership_cpu_write_while_mapped_dmabounce)
{
	struct scene s;

	REQUIRE(bounced_scene(&s, IXP, ixp_hi_buf));
	cpu_write_while_mapped(&s, true);
	scene_end(&s);
}

TEST(ownership_cpu_write_while_mapped_host_forced)
{
	struct dmamap_platform *p = checked(host_forced(&(struct device *){ NULL }));
	struct scene s = { 0 };

	REQUIRE(p);
	s.p = p;
	s.dev = lookup(p, "hb");
	s.buf = dmamap_kmalloc(p, LEN, 0);
	REQUIRE(s.dev && s.buf);
	rec_reset();
	cpu_write_while_mapped(&s, true);
	dmamap_kfree(p, s.buf);
	dmamap_platform_destroy(p);
}

/*
 * A TO_DEVICE buffer written while the device owns it, then synced for the
 * device: the device now reads the new bytes, but it may have been reading
 * while the CPU wrote. The write is reported at the sync.
 */
static void write_then_sync_for_device(struct scene *s)
{
	uint8_t neu[LEN], seen[LEN];

	pattern(neu, LEN, 4);
	REQUIRE(scene_map(s, LEN, DMA_TO_DEVICE));
	memcpy(s->buf, neu, LEN);
	dma_sync_single_for_device(s->dev, s->h, LEN, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS);
	CHECK_MSG(strstr(rec.r[0].text, "sync for device"), "%s", rec.r[0].text);
	CHECK_EQ(dmamap_device_read(s->dev, s->h, seen, LEN), 0);
	CHECK_MEM(seen, neu, LEN);
	rec_reset();
	dma_unmap_single(s->dev, s->h, LEN, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
}

TEST(ownership_write_then_sync_for_device_cached)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, LEN));
	write_then_sync_for_device(&s);
	scene_end(&s);
}

TEST(ownership_write_then_sync_for_device_swiotlb)
{
	struct scene s;

	REQUIRE(bounced_scene(&s, D24, hi24_buf));
	write_then_sync_for_device(&s);
	scene_end(&s);
}

/* The right way round: sync_for_cpu, write, sync_for_device. Nothing to say, every byte arrives. */
static void handed_back_and_forth(struct scene *s)
{
	uint8_t a[LEN], b[LEN], seen[LEN];

	pattern(a, LEN, 5);
	pattern(b, LEN, 6);
	memcpy(s->buf, a, LEN);
	REQUIRE(scene_map(s, LEN, DMA_BIDIRECTIONAL));
	CHECK_EQ(dmamap_device_read(s->dev, s->h, seen, LEN), 0);
	CHECK_MEM(seen, a, LEN);
	for (int round = 0; round < 3; round++) {
		dma_sync_single_for_cpu(s->dev, s->h, LEN, DMA_BIDIRECTIONAL);
		memcpy(s->buf, b, LEN);
		dma_sync_single_for_device(s->dev, s->h, LEN, DMA_BIDIRECTIONAL);
		CHECK_EQ(dmamap_device_read(s->dev, s->h, seen, LEN), 0);
		CHECK_MEM(seen, b, LEN);
		b[round] ^= 0xff;
	}
	dma_unmap_single(s->dev, s->h, LEN, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
}

TEST(ownership_handed_back_and_forth_reports_nothing)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, LEN));
	handed_back_and_forth(&s);
	scene_end(&s);
	REQUIRE(bounced_scene(&s, D24, hi24_buf));
	handed_back_and_forth(&s);
	scene_end(&s);
	REQUIRE(bounced_scene(&s, IXP, ixp_hi_buf));
	handed_back_and_forth(&s);
	scene_end(&s);
}

/*
 * Partial syncs are legal (dma_sync_single_range_*, page pools): once a
 * mapping is synced in part, who owns which part is the driver's affair,
 * and a correct driver hears nothing.
 */
static void partial_syncs_are_not_judged(struct scene *s)
{
	uint8_t a[LEN / 2], b[LEN / 2], seen[LEN / 2];

	pattern(a, sizeof(a), 90);
	pattern(b, sizeof(b), 91);
	REQUIRE(scene_map(s, LEN, DMA_BIDIRECTIONAL));
	dma_sync_single_for_cpu(s->dev, s->h, LEN, DMA_BIDIRECTIONAL);
	memcpy(s->buf, a, sizeof(a));
	memcpy(s->buf + LEN / 2, b, sizeof(b));
	/* Each half handed back in turn: the second half is still the CPU's at the first. */
	dma_sync_single_range_for_device(s->dev, s->h, 0, LEN / 2, DMA_BIDIRECTIONAL);
	CHECK_EQ(dmamap_device_read(s->dev, s->h, seen, sizeof(seen)), 0);
	CHECK_MEM(seen, a, sizeof(a));
	dma_sync_single_range_for_device(s->dev, s->h, LEN / 2, LEN / 2, DMA_BIDIRECTIONAL);
	CHECK_EQ(dmamap_device_read(s->dev, s->h + LEN / 2, seen, sizeof(seen)), 0);
	CHECK_MEM(seen, b, sizeof(b));
	/* A ring: the CPU takes the second half back while the device reads the first. */
	dma_sync_single_range_for_cpu(s->dev, s->h, LEN / 2, LEN / 2, DMA_BIDIRECTIONAL);
	memset(s->buf + LEN / 2, 0x3c, LEN / 2);
	CHECK_EQ(dmamap_device_read(s->dev, s->h, seen, sizeof(seen)), 0);
	CHECK_MEM(seen, a, sizeof(a));
	dma_sync_single_range_for_device(s->dev, s->h, LEN / 2, LEN / 2, DMA_BIDIRECTIONAL);
	dma_unmap_single(s->dev, s->h, LEN, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
}

TEST(ownership_partial_syncs_cached)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, LEN));
	partial_syncs_are_not_judged(&s);
	scene_end(&s);
}

TEST(ownership_partial_syncs_swiotlb)
{
	struct scene s;

	REQUIRE(bounced_scene(&s, D24, hi24_buf));
	partial_syncs_are_not_judged(&s);
	scene_end(&s);
}

/*
 * Bounced, the CPU's turn ends wrongly in two ways a cached buffer also
 * shows: the device reads without a sync for it (stale copy), or the unmap
 * copies the device's bytes back over what the CPU wrote.
 */
TEST(ownership_bounced_cpu_turn_ends_wrongly)
{
	uint8_t old[LEN], neu[LEN], seen[LEN], dev_data[LEN];
	struct scene s;

	REQUIRE(bounced_scene(&s, D24, hi24_buf));
	pattern(old, LEN, 92);
	pattern(neu, LEN, 93);
	memcpy(s.buf, old, LEN);
	REQUIRE(scene_map(&s, LEN, DMA_BIDIRECTIONAL));
	dma_sync_single_for_cpu(s.dev, s.h, LEN, DMA_BIDIRECTIONAL);
	memcpy(s.buf, neu, LEN); /* the CPU's turn: fine... */
	CHECK_EQ(dmamap_device_read(s.dev, s.h, seen, LEN), 0); /* ...but no sync for the device */
	CHECK_MEM(seen, old, LEN);
	EXPECT_KINDS(DMAMAP_DBG_MISSING_SYNC_FOR_DEVICE);
	dma_unmap_single(s.dev, s.h, LEN, DMA_BIDIRECTIONAL);
	scene_end(&s);

	REQUIRE(bounced_scene(&s, D24, hi24_buf));
	pattern(dev_data, LEN, 94);
	REQUIRE(scene_map(&s, LEN, DMA_FROM_DEVICE));
	CHECK_EQ(dmamap_device_write(s.dev, s.h, dev_data, LEN), 0);
	dma_sync_single_for_cpu(s.dev, s.h, LEN, DMA_FROM_DEVICE);
	CHECK_MEM(s.buf, dev_data, LEN);
	memcpy(s.buf, neu, LEN); /* the CPU's own bytes, then the unmap */
	rec_reset();
	dma_unmap_single(s.dev, s.h, LEN, DMA_FROM_DEVICE);
	CHECK_MEM(s.buf, dev_data, LEN); /* the copy back overwrote them */
	EXPECT_KINDS(DMAMAP_DBG_CPU_DATA_LOST);
	scene_end(&s);
}
