/* SPDX-License-Identifier: MIT */
/*
 * The bounce contract, written once and run on every bounce backend: a
 * table of backends (backends.c) times a list of behaviours (BEHAVIOURS()),
 * each pair its own test, bounce_conformance_<backend>_<behaviour>.
 *
 *   swiotlb_dma24        the default board's dma-24 (24-bit), buffers above
 *                        16 MiB, the default pool at the bottom of RAM
 *   swiotlb_host_forced  a host device in swiotlb=force mode
 *   dmabounce_ixp_pci    the default board's ixp-pci, buffers above 64 MiB,
 *                        dmabounce's pools of safe buffers
 *
 * Every behaviour is judged on the bytes: what the device reads and writes
 * at the DMA address (dmamap_device_read/write) and what the CPU finds in
 * its buffer, from patterns that differ in every byte. Where the backends
 * legitimately differ (what they bounce, how large a mapping can be, their
 * own counters), the difference is a field of the table.
 *
 * The devices are driven the way the kernel's contract allows with the
 * checker off: the device may scribble on a TO_DEVICE mapping, and the
 * contract says that must never reach the CPU.
 */
#include "bounce.h"

/* ---- the behaviours ----------------------------------------------------------- */

/*
 * Sizes in swiotlb slots (2 KiB) and dmabounce's pools (512 bytes, 4 KiB,
 * an allocation of its own): less than a slot (small pool), part of one
 * and exactly one (large pool), part of two and exactly two (large pool,
 * the last one all of it), five (own allocation).
 */
static const size_t sizes[] = { 100, 1000, 2048, 2500, 3000, 4096, 9000 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
#define MAXLEN 9000

struct run {
	const struct bounce_backend *b;
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t pa[MAXLEN], pb[MAXLEN], pc[MAXLEN]; /* three patterns */
	unsigned int round; /* every_direction_and_size(): which round, distinct for each */
};

static bool start(struct run *r, const struct bounce_backend *b)
{
	memset(r, 0, sizeof(*r));
	r->b = b;
	r->p = b->setup(&r->dev);
	if (!r->p || !r->dev)
		return false;
	pat(r->pa, MAXLEN, 1);
	pat(r->pb, MAXLEN, 2);
	pat(r->pc, MAXLEN, 3);
	return true;
}

/* The backend's counters now. */
static struct bounce_counters counted(struct run *r)
{
	return r->b->counters(r->p, r->dev);
}

static void finish(struct run *r)
{
	CHECK_EQ(counted(r).live, 0);
	CHECK_EQ(live_maps(r->dev), 0);
	dmamap_platform_destroy(r->p);
}

static void put(struct run *r, uint8_t *buf)
{
	if (r->b->put_buf)
		r->b->put_buf(buf);
}

/* The address a direct mapping of @buf would have. */
static dma_addr_t direct_handle(struct device *dev, const void *buf)
{
	return dmamap_phys_to_dma(dev, virt_to_phys(buf));
}

/*
 * A buffer of @n bytes the device cannot reach (in *@buf), filled with
 * @bytes and mapped @dir: its handle, or DMA_MAPPING_ERROR.
 */
static dma_addr_t map_far(struct run *r, uint8_t **buf, size_t n, const uint8_t *bytes,
			  enum dma_data_direction dir)
{
	*buf = r->b->far_buf(r->p, n);
	return *buf ? fill_map(r->dev, *buf, bytes, n, dir) : DMA_MAPPING_ERROR;
}

/*
 * map_far() of pa, then the device writes pb there (even TO_DEVICE: with
 * the checker off the contract allows it): none of it may reach the CPU's
 * buffer before the CPU takes it back.
 */
static dma_addr_t map_far_device_writes(struct run *r, uint8_t **buf, size_t n,
					enum dma_data_direction dir)
{
	dma_addr_t h = map_far(r, buf, n, r->pa, dir);

	if (h == DMA_MAPPING_ERROR)
		return h;
	CHECK_EQ(dmamap_device_write(r->dev, h, r->pb, n), 0);
	CHECK_MSG(ndiff(*buf, r->pa, n) == 0, "%s %zu: %zu device bytes reached the CPU early",
		  dir_name(dir), n, ndiff(*buf, r->pa, n));
	return h;
}

/*
 * After map_far_device_writes(), sync for the CPU: it finds the device's
 * bytes for FROM_DEVICE and BIDIRECTIONAL, its own for TO_DEVICE.
 */
static void sync_for_cpu_after_device_write(struct run *r, dma_addr_t h, const uint8_t *buf,
					    size_t n, enum dma_data_direction dir)
{
	const uint8_t *want = dev_writes(dir) ? r->pb : r->pa;

	dma_sync_single_for_cpu(r->dev, h, n, dir);
	CHECK_MSG(ndiff(buf, want, n) == 0, "%s %zu: %zu bytes wrong after sync_for_cpu",
		  dir_name(dir), n, ndiff(buf, want, n));
}

/*
 * Most behaviours are one round on a far buffer of its own, made for every
 * direction and every size on one platform; after them all, nothing is
 * left mapped. @round gets the run (r->round numbers the rounds), the
 * direction and the size.
 */
typedef void round_fn(struct run *r, enum dma_data_direction dir, size_t n);

static void every_direction_and_size(const struct bounce_backend *b, round_fn *round)
{
	struct run run, *r = &run;

	REQUIRE(start(r, b));
	for (unsigned int d = 0; d < 3; d++) {
		for (unsigned int k = 0; k < NSIZES; k++) {
			r->round = d * NSIZES + k;
			round(r, dirs[d], sizes[k]);
		}
	}
	finish(r);
}

/*
 * The device must read the CPU's bytes at the handle whatever the
 * direction. Each mapping has bytes of its own, so that what an earlier
 * mapping left in a bounce buffer cannot pass for a copy.
 */
static void copy_in_round(struct run *r, enum dma_data_direction dir, size_t n)
{
	uint8_t *buf;
	dma_addr_t h;

	pat(r->pc, n, 10 + r->round);
	h = map_far(r, &buf, n, r->pc, dir);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_MSG(dev_diff(r->dev, h, r->pc, n) == 0,
		  "%s %zu: the device reads %zu bytes that are not the CPU's", dir_name(dir), n,
		  dev_diff(r->dev, h, r->pc, n));
	dma_unmap_single(r->dev, h, n, dir);
	put(r, buf);
}

static void copies_in_at_map_in_every_direction(const struct bounce_backend *b)
{
	every_direction_and_size(b, copy_in_round);
}

/*
 * What the device wrote reaches the CPU at unmap for FROM_DEVICE and
 * BIDIRECTIONAL, and not before; a TO_DEVICE buffer keeps the CPU's bytes.
 */
static void copy_out_round(struct run *r, enum dma_data_direction dir, size_t n)
{
	const uint8_t *want = dev_writes(dir) ? r->pb : r->pa;
	uint8_t *buf;
	dma_addr_t h = map_far_device_writes(r, &buf, n, dir);

	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_unmap_single(r->dev, h, n, dir);
	CHECK_MSG(ndiff(buf, want, n) == 0, "%s %zu: %zu bytes wrong after unmap", dir_name(dir),
		  n, ndiff(buf, want, n));
	put(r, buf);
}

static void copies_out_at_unmap_unless_to_device(const struct bounce_backend *b)
{
	every_direction_and_size(b, copy_out_round);
}

/*
 * sync_for_cpu copies the device's bytes out for FROM_DEVICE and
 * BIDIRECTIONAL only; a range, just that range: the second third's first
 * 7/10 (1000 + 700 of 3000).
 */
static void sync_for_cpu_round(struct run *r, enum dma_data_direction dir, size_t n)
{
	size_t off = n / 3, len = 7 * n / 30;
	uint8_t *buf;
	dma_addr_t h = map_far_device_writes(r, &buf, n, dir);

	REQUIRE(h != DMA_MAPPING_ERROR);
	sync_for_cpu_after_device_write(r, h, buf, n, dir);
	dma_sync_single_for_device(r->dev, h, n, dir);
	CHECK_EQ(dmamap_device_write(r->dev, h, r->pc, n), 0);
	dma_sync_single_range_for_cpu(r->dev, h, off, len, dir);
	if (dev_writes(dir)) {
		CHECK_MSG(ndiff(buf + off, r->pc + off, len) == 0 && ndiff(buf, r->pb, off) == 0 &&
				  ndiff(buf + off + len, r->pb + off + len, n - off - len) == 0,
			  "%s %zu: a range sync_for_cpu copied other bytes than its range",
			  dir_name(dir), n);
	} else {
		CHECK_EQ(ndiff(buf, r->pa, n), 0);
	}
	dma_unmap_single(r->dev, h, n, dir);
	put(r, buf);
}

static void sync_for_cpu_copies_out_unless_to_device(const struct bounce_backend *b)
{
	every_direction_and_size(b, sync_for_cpu_round);
}

/*
 * sync_for_device copies the CPU's bytes in for TO_DEVICE and BIDIRECTIONAL
 * only: one round of ownership each way after the device wrote (even a
 * TO_DEVICE buffer, which must not come back), as a driver's ring does.
 */
static void sync_for_device_round(struct run *r, enum dma_data_direction dir, size_t n)
{
	const uint8_t *dev_sees = dir == DMA_FROM_DEVICE ? r->pb : r->pc;
	const uint8_t *cpu_sees = dir == DMA_TO_DEVICE ? r->pc : dev_sees;
	uint8_t *buf;
	dma_addr_t h = map_far_device_writes(r, &buf, n, dir);

	REQUIRE(h != DMA_MAPPING_ERROR);
	sync_for_cpu_after_device_write(r, h, buf, n, dir);
	memcpy(buf, r->pc, n); /* the CPU owns it now */
	dma_sync_single_for_device(r->dev, h, n, dir);
	CHECK_MSG(dev_diff(r->dev, h, dev_sees, n) == 0,
		  "%s %zu: the device reads %zu wrong bytes after sync_for_device", dir_name(dir),
		  n, dev_diff(r->dev, h, dev_sees, n));
	dma_unmap_single(r->dev, h, n, dir);
	CHECK_MSG(ndiff(buf, cpu_sees, n) == 0, "%s %zu: %zu bytes wrong after unmap",
		  dir_name(dir), n, ndiff(buf, cpu_sees, n));
	put(r, buf);
}

static void sync_for_device_copies_in_unless_from_device(const struct bounce_backend *b)
{
	every_direction_and_size(b, sync_for_device_round);
}

/*
 * What the device writes into a TO_DEVICE mapping (the checker off: the
 * contract allows it) never reaches the CPU: not at sync_for_cpu, not at
 * unmap, and the backend copies nothing out; sync_for_device copies the
 * CPU's bytes in again. With the checker on, the same write is reported
 * and still does not reach the CPU.
 */
static void to_device_scribble_never_reaches_the_cpu(const struct bounce_backend *b)
{
	struct run run, *r = &run;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(start(r, b));
	for (unsigned int k = 0; k < NSIZES; k++) {
		size_t n = sizes[k];
		uint64_t out0 = counted(r).copied_out;

		h = map_far_device_writes(r, &buf, n, DMA_TO_DEVICE);
		REQUIRE(h != DMA_MAPPING_ERROR);
		sync_for_cpu_after_device_write(r, h, buf, n, DMA_TO_DEVICE);
		dma_sync_single_for_device(r->dev, h, n, DMA_TO_DEVICE);
		CHECK_MSG(dev_diff(r->dev, h, r->pa, n) == 0,
			  "%zu: sync_for_device did not copy the CPU's bytes in again", n);
		CHECK_EQ(dmamap_device_write(r->dev, h, r->pb, n), 0);
		dma_unmap_single(r->dev, h, n, DMA_TO_DEVICE);
		CHECK_MSG(ndiff(buf, r->pa, n) == 0, "%zu: %zu device bytes at unmap", n,
			  ndiff(buf, r->pa, n));
		CHECK_EQ(counted(r).copied_out, out0);
		put(r, buf);
	}

	dmamap_debug_enable(r->p, true);
	h = map_far(r, &buf, 3000, r->pa, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_device_write(r->dev, h, r->pb, 16), 0);
	CHECK_EQ(dmamap_report_count(r->p, DMAMAP_DBG_DEVICE_WRITE_READONLY), 1);
	dma_unmap_single(r->dev, h, 3000, DMA_TO_DEVICE);
	CHECK_EQ(ndiff(buf, r->pa, 3000), 0);
	dmamap_debug_enable(r->p, false);
	put(r, buf);
	finish(r);
}

/*
 * A device that writes only the first half of a FROM_DEVICE buffer leaves
 * the second half as the CPU had it, not as the bounce buffer's last user
 * left it (that user's bytes would leak into this buffer), whatever
 * direction @earlier that user had mapped.
 */
static void partial_write_round(struct run *r, enum dma_data_direction earlier, size_t n)
{
	size_t half = n / 2;
	uint8_t *other, *buf;
	dma_addr_t h;

	/* An earlier user leaves its bytes (pc) in the bounce buffers. */
	h = map_far(r, &other, n, r->pc, earlier);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_device_write(r->dev, h, r->pc, n), 0);
	dma_unmap_single(r->dev, h, n, earlier);

	h = map_far(r, &buf, n, r->pa, DMA_FROM_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_MSG(r->b->is_bounce(r->dev, h), "%zu: handle 0x%llx is not a bounce buffer", n,
		  (unsigned long long)h);
	CHECK_EQ(dmamap_device_write(r->dev, h, r->pb, half), 0);
	dma_unmap_single(r->dev, h, n, DMA_FROM_DEVICE);
	CHECK_MSG(ndiff(buf, r->pb, half) == 0, "after %s, %zu: the device's half, %zu bytes wrong",
		  dir_name(earlier), n, ndiff(buf, r->pb, half));
	CHECK_MSG(ndiff(buf + half, r->pa + half, n - half) == 0,
		  "after %s, %zu: %zu bytes of the untouched half changed (%zu are the earlier user's)",
		  dir_name(earlier), n, ndiff(buf + half, r->pa + half, n - half),
		  n - half - ndiff(buf + half, r->pc + half, n - half));
	put(r, other);
	put(r, buf);
}

static void partial_device_write_leaves_the_rest_as_it_was(const struct bounce_backend *b)
{
	every_direction_and_size(b, partial_write_round);
}

/*
 * A mapping of memory the device cannot reach really bounces: the handle
 * is a bounce buffer, not the buffer's own address; the backend counts it;
 * the device's stats count its bytes as bounced; what the device writes
 * there is not in the CPU's buffer until the unmap copies it.
 */
static void far_buffer_really_bounces(const struct bounce_backend *b)
{
	struct run run, *r = &run;

	REQUIRE(start(r, b));
	for (unsigned int k = 0; k < NSIZES; k++) {
		size_t n = sizes[k];
		uint64_t bounced0 = counted(r).bounced, live0 = counted(r).live;
		struct dmamap_device_stats s0 = stats_of(r->dev), s1;
		uint8_t *buf;
		dma_addr_t h = map_far(r, &buf, n, r->pa, DMA_BIDIRECTIONAL);

		REQUIRE(h != DMA_MAPPING_ERROR);
		CHECK_MSG(h != direct_handle(r->dev, buf), "%zu: handle 0x%llx is the buffer's own",
			  n, (unsigned long long)h);
		CHECK_MSG(b->is_bounce(r->dev, h), "%zu: handle 0x%llx is not a bounce buffer", n,
			  (unsigned long long)h);
		CHECK_EQ(counted(r).bounced, bounced0 + 1);
		CHECK(counted(r).live > live0);
		s1 = stats_of(r->dev);
		CHECK_EQ(s1.bytes_bounced, s0.bytes_bounced + n);
		CHECK_EQ(s1.bytes_mapped, s0.bytes_mapped + n);
		CHECK_EQ(dmamap_device_write(r->dev, h, r->pb, n), 0);
		CHECK_EQ(ndiff(buf, r->pa, n), 0);
		dma_unmap_single(r->dev, h, n, DMA_BIDIRECTIONAL);
		CHECK_EQ(ndiff(buf, r->pb, n), 0);
		CHECK_EQ(counted(r).live, live0);
		put(r, buf);
	}
	finish(r);
}

/*
 * Memory the device reaches is mapped where it is, unless every mapping
 * bounces (swiotlb=force): the one place the backends differ by design.
 */
static void near_buffer_bounces_only_when_forced(const struct bounce_backend *b)
{
	struct run run, *r = &run;
	size_t n = 3000;
	uint8_t *buf;
	uint64_t bounced0;
	dma_addr_t h;

	REQUIRE(start(r, b));
	buf = b->near_buf(r->p, n);
	REQUIRE(buf);
	memcpy(buf, r->pa, n);
	bounced0 = counted(r).bounced;
	h = dma_map_single(r->dev, buf, n, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(r->dev, h));
	CHECK_EQ(h != direct_handle(r->dev, buf), b->bounces_near);
	CHECK_EQ(counted(r).bounced, bounced0 + b->bounces_near);
	CHECK_EQ(dev_diff(r->dev, h, r->pa, n), 0);
	CHECK_EQ(dmamap_device_write(r->dev, h, r->pb, n), 0);
	dma_unmap_single(r->dev, h, n, DMA_BIDIRECTIONAL);
	CHECK_EQ(ndiff(buf, r->pb, n), 0);
	CHECK_EQ(stats_of(r->dev).bytes_bounced, b->bounces_near ? n : 0);
	put(r, buf);
	finish(r);
}

/* What a refused mapping could change, as it was before it. */
struct before_refusal {
	struct dmamap_device_stats dev;
	struct bounce_counters counted;
	unsigned long alloc_failed; /* reports */
};

/*
 * Start a run and map, TO_DEVICE, more than any bounce buffer can hold
 * (the buffer in *@buf, the handle in *@h), after noting in *@was what the
 * mapping could change. False if the run or the buffer could not be had.
 */
static bool map_too_big(struct run *r, const struct bounce_backend *b, uint8_t **buf,
			struct before_refusal *was, dma_addr_t *h)
{
	if (!start(r, b) || !(*buf = b->too_big_buf(r->p)))
		return false;
	was->dev = stats_of(r->dev);
	was->counted = counted(r);
	was->alloc_failed = dmamap_report_count(r->p, DMAMAP_DBG_ALLOC_FAILED);
	*h = dma_map_single(r->dev, *buf, b->too_big, DMA_TO_DEVICE);
	return true;
}

/*
 * A mapping no bounce buffer can hold fails with DMA_MAPPING_ERROR: the
 * backend refuses it and it is reported; nothing is mapped, nothing stays
 * held.
 */
static void mapping_that_does_not_fit_fails(const struct bounce_backend *b)
{
	struct run run, *r = &run;
	struct before_refusal was;
	struct dmamap_device_stats now;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(map_too_big(r, b, &buf, &was, &h));
	CHECK(h == DMA_MAPPING_ERROR);
	CHECK_EQ(dma_mapping_error(r->dev, h), -ENOMEM);
	CHECK_EQ(counted(r).refused, was.counted.refused + 1);
	CHECK_EQ(dmamap_report_count(r->p, DMAMAP_DBG_ALLOC_FAILED), was.alloc_failed + 1);
	now = stats_of(r->dev);
	CHECK_EQ(now.maps, was.dev.maps);
	CHECK_EQ(now.bytes_bounced, was.dev.bytes_bounced);
	put(r, buf);
	finish(r);
}

/*
 * A refused mapping is an allocation that failed: the device's stats count
 * it as an error of no memory, as they count every other refused call.
 */
static void refused_mapping_counts_as_a_device_error(const struct bounce_backend *b)
{
	struct run run, *r = &run;
	struct before_refusal was;
	struct dmamap_device_stats now;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(map_too_big(r, b, &buf, &was, &h) && h == DMA_MAPPING_ERROR);
	now = stats_of(r->dev);
	CHECK_EQ(now.errors, was.dev.errors + 1);
	CHECK_EQ(now.errors_by_kind[DMAMAP_ERRK_NOMEM],
		 was.dev.errors_by_kind[DMAMAP_ERRK_NOMEM] + 1);
	put(r, buf);
	finish(r);
}

/*
 * Unmapping gives the bounce buffer back: more rounds of map and unmap than
 * the backend has room for, if it kept them, all succeed, and after each
 * unmap nothing is held.
 */
static void unmap_frees_the_bounce_buffer(const struct bounce_backend *b)
{
	static const size_t lens[] = { 64 * KiB, 100, 3000 };
	struct run run, *r = &run;
	unsigned int rounds, failed = 0, held = 0;
	uint8_t *buf;

	REQUIRE(start(r, b));
	buf = b->far_buf(r->p, 64 * KiB);
	REQUIRE(buf);
	rounds = (unsigned int)(b->room(r->p, r->dev) / (64 * KiB)) + 16;
	pat(buf, 64 * KiB, 4);
	for (unsigned int i = 0; i < rounds; i++) {
		/* Mostly large ones, so that keeping them would run out within the rounds. */
		size_t n = lens[i % 4 == 3 ? 1 + (i / 4) % 2 : 0];
		dma_addr_t h = dma_map_single(r->dev, buf, n, dirs[i % 3]);

		if (dma_mapping_error(r->dev, h)) {
			failed++;
			break;
		}
		dma_unmap_single(r->dev, h, n, dirs[i % 3]);
		held += counted(r).live != 0;
	}
	CHECK_MSG(!failed, "a mapping failed after %u rounds of map and unmap", rounds);
	CHECK_MSG(!held, "%u unmaps left a bounce buffer held", held);
	CHECK_EQ(counted(r).refused, 0);
	put(r, buf);
	finish(r);
}

/* An sg list bounces entry by entry: each entry copied in at map, out at unmap. */
static void sg_list_bounces_each_entry(const struct bounce_backend *b)
{
	enum { N = 3 };
	static const size_t len[N] = { 100, 3000, 9000 }; /* one of each kind of bounce buffer */
	struct run run, *r = &run;
	struct scatterlist sgl[N], *sg;
	uint8_t *buf[N];
	int i;

	REQUIRE(start(r, b));
	for (i = 0; i < N; i++) {
		buf[i] = b->far_buf(r->p, len[i]);
		REQUIRE(buf[i]);
	}
	for (unsigned int d = 0; d < 3; d++) {
		uint64_t bounced0 = counted(r).bounced;
		uint64_t bytes0 = stats_of(r->dev).bytes_bounced;
		int n;

		sg_init_table(sgl, N);
		for (i = 0; i < N; i++) {
			pat(buf[i], len[i], 10 * d + (unsigned int)i);
			sg_set_buf(&sgl[i], buf[i], (unsigned int)len[i]);
		}
		n = dma_map_sg(r->dev, sgl, N, dirs[d]);
		REQUIRE(n == N);
		CHECK_EQ(counted(r).bounced, bounced0 + N);
		CHECK_EQ(stats_of(r->dev).bytes_bounced, bytes0 + len[0] + len[1] + len[2]);
		for_each_sg(sgl, sg, N, i) {
			dma_addr_t h = sg_dma_address(sg);

			pat(r->pc, len[i], 10 * d + (unsigned int)i);
			CHECK_EQ(sg_dma_len(sg), len[i]);
			CHECK_MSG(h != direct_handle(r->dev, buf[i]) && b->is_bounce(r->dev, h),
				  "%s entry %d: 0x%llx is not a bounce buffer", dir_name(dirs[d]), i,
				  (unsigned long long)h);
			CHECK_MSG(dev_diff(r->dev, h, r->pc, len[i]) == 0,
				  "%s entry %d: the device reads wrong bytes", dir_name(dirs[d]), i);
			pat(r->pc, len[i], 100 + 10 * d + (unsigned int)i);
			CHECK_EQ(dmamap_device_write(r->dev, h, r->pc, len[i]), 0);
		}
		dma_unmap_sg(r->dev, sgl, N, dirs[d]);
		for (i = 0; i < N; i++) {
			pat(r->pc, len[i], (dev_writes(dirs[d]) ? 100 : 0) + 10 * d + (unsigned int)i);
			CHECK_MSG(ndiff(buf[i], r->pc, len[i]) == 0,
				  "%s entry %d: %zu bytes wrong after unmap", dir_name(dirs[d]), i,
				  ndiff(buf[i], r->pc, len[i]));
		}
	}
	for (i = 0; i < N; i++)
		put(r, buf[i]);
	finish(r);
}

/* ---- the table: every backend, every behaviour ---------------------------------- */

#define CONFORMS(backend, behaviour)                                          \
	TEST(bounce_conformance_##backend##_##behaviour)                      \
	{                                                                     \
		behaviour(&backend);                                          \
	}

#define BEHAVIOURS(backend)                                                   \
	CONFORMS(backend, copies_in_at_map_in_every_direction)                \
	CONFORMS(backend, copies_out_at_unmap_unless_to_device)               \
	CONFORMS(backend, sync_for_cpu_copies_out_unless_to_device)           \
	CONFORMS(backend, sync_for_device_copies_in_unless_from_device)       \
	CONFORMS(backend, to_device_scribble_never_reaches_the_cpu)           \
	CONFORMS(backend, partial_device_write_leaves_the_rest_as_it_was)     \
	CONFORMS(backend, far_buffer_really_bounces)                          \
	CONFORMS(backend, near_buffer_bounces_only_when_forced)               \
	CONFORMS(backend, mapping_that_does_not_fit_fails)                    \
	CONFORMS(backend, refused_mapping_counts_as_a_device_error)           \
	CONFORMS(backend, unmap_frees_the_bounce_buffer)                      \
	CONFORMS(backend, sg_list_bounces_each_entry)

BEHAVIOURS(swiotlb_dma24)
BEHAVIOURS(swiotlb_host_forced)
BEHAVIOURS(dmabounce_ixp_pci)
