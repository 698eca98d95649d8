/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <dmamap/sim.h>
#include "exercise.h"
#include "patience.h"

static uint64_t next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* The bytes of unit @id: anyone can regenerate them to check what arrived. */
static void pattern(uint8_t *b, size_t n, uint64_t id)
{
	uint64_t s = id * 0x9e3779b97f4a7c15ULL | 1;

	for (size_t i = 0; i < n; i++) {
		if (!(i & 7))
			next(&s);
		b[i] = (uint8_t)(s >> (8 * (i & 7)));
	}
}

static unsigned long long count_wrong(const uint8_t *want, const uint8_t *got, size_t n)
{
	unsigned long long w = 0;

	for (size_t i = 0; i < n; i++)
		w += want[i] != got[i];
	return w;
}

/* One unit checked: @bytes of payload, @wrong of them wrong. */
static void tally(struct exercise_result *r, size_t bytes, unsigned long long wrong)
{
	r->bytes += bytes;
	r->wrong_bytes += wrong;
	if (wrong)
		r->corrupted++;
	else
		r->ok++;
}

/* Wait until @done(@ctx) or @budget_us of poll time has passed. */
static bool wait_for(bool (*done)(void *ctx), void *ctx, uint64_t budget_us)
{
	uint64_t t = 0;

	while (!done(ctx)) {
		if (dmamap_poll_elapsed(&t, 10) > budget_us)
			return false;
		udelay(10);
	}
	return true;
}

/* ---- NIC -------------------------------------------------------------------- */

#define NIC_FRAGS 3

struct tx_frame {
	uint8_t *frag[NIC_FRAGS];
	unsigned int nfrags;
};

struct nic_run {
	struct dmamap_platform *p;
	struct nicdrv n;
	struct exercise_result *r;
	uint64_t seed;
	unsigned int sent, unknown;
	uint32_t *len;   /* of each frame, by number */
	uint8_t *state;  /* of each frame: 0 not back, 1 intact, 2 corrupted */
	uint8_t *want;    /* the frame being sent */
	uint8_t *rx_want; /* the frame being checked: the handler's own, it may run on another thread */
};

static void frame_layout(uint64_t seed, unsigned int id, uint32_t *len, unsigned int *nfrags)
{
	uint64_t s = (seed + id) * 0x2545f4914f6cdd1dULL | 1;

	*len = 60 + (uint32_t)(next(&s) % 1441);
	*nfrags = 1 + (unsigned int)(next(&s) % NIC_FRAGS);
}

/* Each frame carries its number at bytes 12-15 (where an EtherType would be): a lost one shifts nothing. */
#define ID_AT 12

static void put_id(uint8_t *frame, unsigned int id)
{
	for (int i = 0; i < 4; i++)
		frame[ID_AT + i] = (uint8_t)(id >> (8 * i));
}

static unsigned int get_id(const uint8_t *frame)
{
	return (unsigned int)frame[ID_AT] | (unsigned int)frame[ID_AT + 1] << 8 |
	       (unsigned int)frame[ID_AT + 2] << 16 | (unsigned int)frame[ID_AT + 3] << 24;
}

static void nic_rx(void *ctx, uint8_t *frame, size_t len, bool error)
{
	struct nic_run *run = ctx;
	unsigned int id = len >= ID_AT + 4 ? get_id(frame) : ~0u;
	unsigned long long wrong;

	if (error || id >= __atomic_load_n(&run->sent, __ATOMIC_ACQUIRE) || run->state[id] ||
	    len != run->len[id]) {
		run->unknown++; /* a frame no sent one matches: its own is counted lost */
		return;
	}
	pattern(run->rx_want, len, run->seed + id);
	put_id(run->rx_want, id);
	wrong = count_wrong(run->rx_want, frame, len);
	run->state[id] = wrong ? 2 : 1;
	tally(run->r, len, wrong);
	/* An XDP reflector swaps the MAC addresses in place before the buffer is recycled. */
	for (int i = 0; i < 6 && len >= 12; i++) {
		uint8_t t = frame[i];

		frame[i] = frame[6 + i];
		frame[6 + i] = t;
	}
}

static void nic_tx_done(void *ctx, void *cookie, bool error)
{
	struct nic_run *run = ctx;
	struct tx_frame *f = cookie;

	(void)error;
	for (unsigned int k = 0; k < f->nfrags; k++)
		dmamap_kfree(run->p, f->frag[k]);
	free(f);
}

static bool nic_settled(void *ctx)
{
	struct nic_run *run = ctx;
	unsigned long flags;
	bool more, all;

	/* What the handler updates (maybe on the device thread) is read under the driver's lock. */
	spin_lock_irqsave(&run->n.lock, flags);
	more = run->n.napi_more;
	all = run->r->ok + run->r->corrupted + run->unknown >= run->sent &&
	      run->n.tx_clean == run->n.tx_next;
	spin_unlock_irqrestore(&run->n.lock, flags);
	if (more)
		nicdrv_poll(&run->n, 64);
	return all && !more;
}

static struct tx_frame *tx_frame_make(struct nic_run *run, unsigned int id,
				      struct nicdrv_frag *frags)
{
	struct tx_frame *f = calloc(1, sizeof(*f));
	uint32_t len, off = 0;

	if (!f)
		return NULL;
	frame_layout(run->seed, id, &len, &f->nfrags);
	run->len[id] = len;
	pattern(run->want, len, run->seed + id);
	put_id(run->want, id);
	for (unsigned int k = 0; k < f->nfrags; k++) {
		uint32_t part = k == f->nfrags - 1 ? len - off : len / f->nfrags;

		f->frag[k] = dmamap_kmalloc(run->p, part, DMAMAP_GFP_DMA_ALIGN);
		if (!f->frag[k]) {
			while (k--)
				dmamap_kfree(run->p, f->frag[k]);
			free(f);
			return NULL;
		}
		memcpy(f->frag[k], run->want + off, part);
		frags[k] = (struct nicdrv_frag){ f->frag[k], part };
		off += part;
	}
	return f;
}

int exercise_nic(struct device *dev, unsigned int frames, enum nicdrv_bug bug, uint64_t seed,
		 struct exercise_result *r)
{
	struct nic_run *run = calloc(1, sizeof(*run));
	int ret;

	memset(r, 0, sizeof(*r));
	if (!run)
		return -ENOMEM;
	run->p = dmamap_device_platform(dev);
	run->r = r;
	run->seed = seed;
	run->len = calloc(frames + 1, sizeof(*run->len));
	run->state = calloc(frames + 1, 1);
	run->want = malloc(NIC_MAX_FRAME);
	run->rx_want = malloc(NIC_MAX_FRAME);
	ret = run->len && run->state && run->want && run->rx_want ? 0 : -ENOMEM;
	/* A small ring and a small NAPI budget: full rings and repolls happen, as under load. */
	if (!ret)
		ret = nicdrv_probe(&run->n, dev, 16, true, bug, nic_rx, nic_tx_done, run);
	if (ret) {
		r->probe_error = ret;
		goto out;
	}
	run->n.napi_budget = 8;
	for (unsigned int id = 0; id < frames; id++) {
		struct nicdrv_frag frags[NIC_FRAGS];
		struct tx_frame *f = tx_frame_make(run, id, frags);
		uint64_t waited = 0;

		r->units++;
		if (!f) {
			r->lost++;
			continue;
		}
		/* Counted as sent first: in threaded mode it may come back before xmit returns. */
		__atomic_store_n(&run->sent, id + 1, __ATOMIC_RELEASE);
		/* A full ring waits for completions, as long as the drivers wait for a device. */
		while ((ret = nicdrv_xmit(&run->n, frags, f->nfrags, f)) == -EBUSY &&
		       dmamap_poll_elapsed(&waited, 5) < 1000ULL * drv_patience_ms(run->p)) {
			nic_settled(run); /* polls if NAPI asked for more */
			udelay(5);
		}
		if (ret) {
			for (unsigned int k = 0; k < f->nfrags; k++)
				dmamap_kfree(run->p, f->frag[k]);
			free(f);
			__atomic_store_n(&run->sent, id, __ATOMIC_RELEASE);
			r->lost++;
			continue;
		}
	}
	wait_for(nic_settled, run, 1000ULL * drv_patience_ms(run->p));
	nicdrv_remove(&run->n);
	r->irqs = run->n.stats.irqs;
	ret = 0;
out:
	/* Frames that came back as no sent one count as corrupted, within what was sent. */
	r->corrupted += run->unknown < r->units - r->ok - r->corrupted ? run->unknown :
									 r->units - r->ok - r->corrupted;
	r->lost = r->units - r->ok - r->corrupted;
	free(run->state);
	free(run->len);
	free(run->want);
	free(run->rx_want);
	free(run);
	return ret;
}

/* ---- block device ----------------------------------------------------------- */

#define BLK_SEGS 4

struct blk_io {
	struct scatterlist sg[BLK_SEGS];
	uint8_t *buf[BLK_SEGS];
	unsigned int nsegs;
	size_t bytes;
};

static void blk_io_free(struct dmamap_platform *p, struct blk_io *io)
{
	for (unsigned int k = 0; k < io->nsegs; k++)
		dmamap_kfree(p, io->buf[k]);
	io->nsegs = 0;
}

/* Buffers for request @id: its pattern (a write) or zeroes (a read). */
static int blk_io_make(struct dmamap_platform *p, uint64_t seed, unsigned int id, bool fill,
		       struct blk_io *io, uint8_t *want)
{
	uint64_t s = (seed + id) * 0x2545f4914f6cdd1dULL | 1;
	size_t off = 0;

	io->nsegs = 1 + (unsigned int)(next(&s) % BLK_SEGS);
	io->bytes = 0;
	sg_init_table(io->sg, io->nsegs);
	for (unsigned int k = 0; k < io->nsegs; k++) {
		size_t len = BLK_SECTOR_SIZE * (1 + next(&s) % 8);

		io->buf[k] = dmamap_kmalloc(p, len, DMAMAP_GFP_DMA_ALIGN | (fill ? 0 : __GFP_ZERO));
		if (!io->buf[k]) {
			io->nsegs = k;
			blk_io_free(p, io);
			return -ENOMEM;
		}
		sg_set_buf(&io->sg[k], io->buf[k], (unsigned int)len);
		io->bytes += len;
	}
	pattern(want, io->bytes, seed + id);
	for (unsigned int k = 0; k < io->nsegs && fill; k++) {
		memcpy(io->buf[k], want + off, io->sg[k].length);
		off += io->sg[k].length;
	}
	return 0;
}

static unsigned long long blk_io_wrong(const struct blk_io *io, const uint8_t *want)
{
	unsigned long long wrong = 0;
	size_t off = 0;

	for (unsigned int k = 0; k < io->nsegs; k++) {
		wrong += count_wrong(want + off, io->buf[k], io->sg[k].length);
		off += io->sg[k].length;
	}
	return wrong;
}

#define BLK_BATCH 4

static void blk_done(void *ctx, int status)
{
	__atomic_store_n((int *)ctx, status, __ATOMIC_RELEASE);
}

static uint64_t blk_sector(unsigned int id)
{
	return (uint64_t)id * 64 % (BLK_CAPACITY_SECTORS - 64);
}

/*
 * Requests @id0.. made into @io[0..n) (written from their pattern, or read
 * into zeroes) and in flight together: all but the last queued behind
 * each other, the last waited for. The device completes in order, so when
 * it is done they all are (or were failed by a reset).
 */
static void blk_batch(struct blkdrv *b, int op, uint64_t seed, unsigned int id0,
		      struct blk_io *io, unsigned int n, int *st, uint8_t *scratch)
{
	struct dmamap_platform *p = dmamap_device_platform(b->dev);

	unsigned int last = 0;

	for (unsigned int k = 0; k < n; k++)
		if (blk_io_make(p, seed, id0 + k, op == BLK_OP_WRITE, &io[k], scratch))
			io[k].nsegs = 0;
		else
			last = k;
	for (unsigned int k = 0; k < n; k++) {
		if (!io[k].nsegs) {
			st[k] = -ENOMEM;
			continue;
		}
		st[k] = 1;
		/* The last request made is the one waited for: a later one that could not be made waits for nothing. */
		if (k < last && !blkdrv_submit(b, op, blk_sector(id0 + k), io[k].sg,
					       (int)io[k].nsegs, blk_done, &st[k]))
			continue;
		st[k] = blkdrv_rw(b, op, blk_sector(id0 + k), io[k].sg, (int)io[k].nsegs);
	}
	for (unsigned int k = 0; k < n; k++)
		if (__atomic_load_n(&st[k], __ATOMIC_ACQUIRE) == 1)
			st[k] = -ETIMEDOUT;
}

int exercise_blk(struct device *dev, unsigned int requests, enum blkdrv_bug bug, uint64_t seed,
		 struct exercise_result *r)
{
	struct dmamap_platform *p = dmamap_device_platform(dev);
	size_t max = BLK_SEGS * 8 * BLK_SECTOR_SIZE;
	uint8_t *want = malloc(max), *disk = malloc(max);
	struct blkdrv b;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = want && disk ? blkdrv_probe(&b, dev, 16, bug) : -ENOMEM;
	if (ret) {
		r->probe_error = ret;
		goto out;
	}
	for (unsigned int id0 = 0; id0 < requests; id0 += BLK_BATCH) {
		unsigned int n = requests - id0 < BLK_BATCH ? requests - id0 : BLK_BATCH;
		struct blk_io io[BLK_BATCH] = { 0 };
		unsigned long long wrong[BLK_BATCH] = { 0 };
		int wst[BLK_BATCH], rst[BLK_BATCH];

		/* Writes, then what the device stored, byte for byte. */
		blk_batch(&b, BLK_OP_WRITE, seed, id0, io, n, wst, want);
		for (unsigned int k = 0; k < n; k++) {
			size_t bytes = io[k].bytes;

			blk_io_free(p, &io[k]);
			pattern(want, bytes, seed + id0 + k);
			wrong[k] = dmamap_blk_disk(dev, blk_sector(id0 + k) * BLK_SECTOR_SIZE, disk,
						   bytes, false) ? bytes : count_wrong(want, disk, bytes);
		}
		/* Reads into fresh buffers. */
		blk_batch(&b, BLK_OP_READ, seed, id0, io, n, rst, want);
		for (unsigned int k = 0; k < n; k++) {
			size_t bytes = io[k].bytes;

			r->units++;
			if (io[k].nsegs) {
				pattern(want, bytes, seed + id0 + k);
				wrong[k] += blk_io_wrong(&io[k], want);
			}
			blk_io_free(p, &io[k]);
			r->bytes += 2 * bytes;
			r->wrong_bytes += wrong[k];
			if (wst[k] || rst[k])
				r->lost++;
			else if (wrong[k])
				r->corrupted++;
			else
				r->ok++;
		}
	}
	blkdrv_remove(&b);
	r->irqs = b.stats.irqs;
out:
	free(want);
	free(disk);
	return ret;
}

/* ---- memcpy engine ---------------------------------------------------------- */

static const size_t copy_sizes[] = { 64, 1000, 4096, 65536 - 192, 65536 };

static void memcpy_single(struct mcdma *m, struct dmamap_platform *p, size_t size,
			  enum mcdma_bug bug, uint64_t id, struct exercise_result *r)
{
	size_t len = bug == MCDMA_BUG_SHARED_CACHELINE ? size - 8 : size;
	gfp_t align = bug == MCDMA_BUG_SHARED_CACHELINE ? 0 : DMAMAP_GFP_DMA_ALIGN;
	uint8_t *src = dmamap_kmalloc(p, size, DMAMAP_GFP_DMA_ALIGN);
	uint8_t *dst = dmamap_kmalloc(p, size, align | __GFP_ZERO);
	uint8_t *want = malloc(len), *seen = malloc(len);

	r->units++;
	if (!src || !dst || !want || !seen) {
		r->lost++;
		goto out;
	}
	pattern(want, len, id);
	if (mcdma_copy_buf(m, dst, src, len, want, seen, bug)) {
		r->lost++;
		goto out;
	}
	/* That bug's stamp is what the driver meant the result to hold. */
	if (bug == MCDMA_BUG_CPU_WRITE_WHILE_MAPPED)
		memset(want, MCDMA_STAMP, len < MCDMA_STAMP_LEN ? len : MCDMA_STAMP_LEN);
	tally(r, len, count_wrong(want, seen, len));
out:
	free(want);
	free(seen);
	dmamap_kfree(p, src);
	dmamap_kfree(p, dst);
}

static void memcpy_sg(struct mcdma *m, struct dmamap_platform *p, uint64_t id,
		      struct exercise_result *r)
{
	enum { N = 4, SEG = 3000 };
	struct scatterlist ssg[N], dsg[N];
	uint8_t *src[N] = { 0 }, *dst[N] = { 0 }, want[N][SEG];
	unsigned long long wrong = 0;

	r->units++;
	sg_init_table(ssg, N);
	sg_init_table(dsg, N);
	for (int i = 0; i < N; i++) {
		src[i] = dmamap_kmalloc(p, SEG, DMAMAP_GFP_DMA_ALIGN);
		dst[i] = dmamap_kmalloc(p, SEG, DMAMAP_GFP_DMA_ALIGN | __GFP_ZERO);
		if (!src[i] || !dst[i]) {
			r->lost++;
			goto out;
		}
		pattern(want[i], SEG, id * N + (uint64_t)i);
		memcpy(src[i], want[i], SEG);
		sg_set_buf(&ssg[i], src[i], SEG);
		sg_set_buf(&dsg[i], dst[i], SEG);
	}
	if (mcdma_copy_sg(m, dsg, ssg, N)) {
		r->lost++;
		goto out;
	}
	for (int i = 0; i < N; i++)
		wrong += count_wrong(want[i], dst[i], SEG);
	tally(r, N * SEG, wrong);
out:
	for (int i = 0; i < N; i++) {
		dmamap_kfree(p, src[i]);
		dmamap_kfree(p, dst[i]);
	}
}

int exercise_memcpy(struct device *dev, unsigned int transfers, enum mcdma_bug bug,
		    uint64_t seed, struct exercise_result *r)
{
	struct dmamap_platform *p = dmamap_device_platform(dev);
	struct mcdma m;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = mcdma_probe(&m, dev, 64);
	if (ret) {
		r->probe_error = ret;
		return ret;
	}
	m.bug = bug;
	for (unsigned int t = 0; t < transfers; t++) {
		unsigned int kinds = sizeof(copy_sizes) / sizeof(copy_sizes[0]) + (bug ? 0 : 1);
		unsigned int k = t % kinds;

		if (k < sizeof(copy_sizes) / sizeof(copy_sizes[0]))
			memcpy_single(&m, p, copy_sizes[k], bug, seed + t, r);
		else
			memcpy_sg(&m, p, seed + t, r);
	}
	mcdma_remove(&m);
	return 0;
}
