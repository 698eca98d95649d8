/* SPDX-License-Identifier: MIT */
/*
 * dmamap bench: the speed ratios, each measured against its baseline in
 * the same run, plus a dma_map_benchmark-compatible mode (-t -s -d -g -b).
 */
#include <pthread.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>
#include "../tools/cli.h"
#include <dmamap/sim.h>
#include "../drivers/exercise.h"

/* Every target, with what this run measured: the table the run ends with. */
struct target {
	char what[80];
	double got, limit;
	bool at_most; /* the target is an upper bound */
	const char *unit;
};
static struct target targets[32];
static unsigned int nr_targets;

static void target(const char *what, double got, bool at_most, double limit, const char *unit)
{
	struct target *t;

	if (nr_targets == sizeof(targets) / sizeof(targets[0]))
		return;
	t = &targets[nr_targets++];
	snprintf(t->what, sizeof(t->what), "%s", what);
	t->got = got;
	t->at_most = at_most;
	t->limit = limit;
	t->unit = unit;
}

static bool target_met(const struct target *t)
{
	return t->at_most ? t->got <= t->limit : t->got >= t->limit;
}

static void print_targets(void)
{
	unsigned int met = 0;

	printf("\n%-52s %10s %10s  %s\n", "target", "measured", "wanted", "");
	for (unsigned int i = 0; i < nr_targets; i++) {
		const struct target *t = &targets[i];
		char got[24], want[24];

		snprintf(got, sizeof(got), "%.2f%s", t->got, t->unit);
		snprintf(want, sizeof(want), "%s %g%s", t->at_most ? "<=" : ">=", t->limit, t->unit);
		printf("%-52s %10s %10s  %s\n", t->what, got, want, target_met(t) ? "pass" : "MISS");
		met += target_met(t);
	}
	printf("%u of %u targets met in this run (one noisy machine: a miss is re-measured before it is believed)\n",
	       met, nr_targets);
}

#define BEST_OF 5

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The measurements need their buffers; without one there is nothing to measure. */
static void *bench_buffer(size_t size)
{
	void *p = aligned_alloc(4096, size);

	if (!p) {
		fprintf(stderr, "dmamap bench: out of memory for a %zu-byte buffer\n", size);
		exit(1);
	}
	return p;
}

static double min_d(double a, double b)
{
	return a < b ? a : b;
}

/* ---- baseline: a bare indirect call pair ---------------------------------- */

static __attribute__((noinline)) uint64_t fake_map(void *p, size_t n)
{
	__asm__ volatile("" : : "r"(p), "r"(n) : "memory");
	return (uint64_t)(uintptr_t)p;
}

static __attribute__((noinline)) void fake_unmap(uint64_t a, size_t n)
{
	__asm__ volatile("" : : "r"(a), "r"(n) : "memory");
}

static uint64_t (*volatile map_fn)(void *, size_t) = fake_map;
static void (*volatile unmap_fn)(uint64_t, size_t) = fake_unmap;

static double bench_indirect_once(void *buf, long iters)
{
	double t0 = now_ns();

	for (long i = 0; i < iters; i++)
		unmap_fn(map_fn(buf, 4096), 4096);
	return (now_ns() - t0) / iters;
}

static double bench_map_pair_once(struct device *dev, void *buf, long iters)
{
	struct page *pg = virt_to_page(buf);
	double t0 = now_ns();

	for (long i = 0; i < iters; i++) {
		dma_addr_t a = dma_map_page(dev, pg, 0, 4096, DMA_TO_DEVICE);

		if (!dma_mapping_error(dev, a))
			dma_unmap_page(dev, a, 4096, DMA_TO_DEVICE);
	}
	return (now_ns() - t0) / iters;
}

static double bench_map_pair(struct device *dev, void *buf, long iters)
{
	double best = 1e30;

	for (int r = 0; r < BEST_OF; r++)
		best = min_d(best, bench_map_pair_once(dev, buf, iters));
	return best;
}

/*
 * The direct pair against the bare indirect pair, rounds interleaved so a
 * noisy neighbour on this VM hits both sides alike; best of each.
 */
static void bench_direct_vs_indirect(struct device *dev, void *buf, long iters,
				     double *dir, double *ind)
{
	*dir = *ind = 1e30;
	for (int r = 0; r < 3 * BEST_OF; r++) {
		*ind = min_d(*ind, bench_indirect_once(buf, iters / 2));
		*dir = min_d(*dir, bench_map_pair_once(dev, buf, iters / 2));
	}
}

/*
 * Checker on: the same pair, then again with @live other mappings kept
 * live. Off and on are measured in interleaved rounds; with the live
 * mappings in place the checker cannot be turned off (that forgets them),
 * so the off side of that ratio is a twin device on a platform whose
 * checker stays off, again in interleaved rounds.
 */
static void bench_checker(long iters, unsigned long live)
{
	struct dmamap_error err = { 0 };
	struct dmamap_device_desc hd = { .name = "checked", .dma_mask = DMA_BIT_MASK(64) };
	struct dmamap_platform *p = dmamap_platform_host(&err);
	struct dmamap_platform *p_off = dmamap_platform_host(&err);
	struct device *dev = p ? dmamap_device_create(p, &hd, &err) : NULL;
	struct device *dev_off = p_off ? dmamap_device_create(p_off, &hd, &err) : NULL;
	void *buf = bench_buffer(4096);
	uint8_t *big = malloc(live * 64);
	dma_addr_t *h = malloc(live * sizeof(*h));
	double off, on, on_live, off_live;

	if (!dev || !dev_off || !buf || !big || !h) {
		fprintf(stderr, "dmamap bench: checker setup failed\n");
		goto out;
	}
	/* Off and on interleaved, best of each, as above. */
	off = on = 1e30;
	for (int r = 0; r < 3 * BEST_OF; r++) {
		dmamap_debug_enable(p, false);
		off = min_d(off, bench_map_pair_once(dev, buf, iters / 2));
		dmamap_debug_enable(p, true);
		on = min_d(on, bench_map_pair_once(dev, buf, iters / 2));
	}
	for (unsigned long i = 0; i < live; i++) {
		h[i] = dma_map_single(dev, big + i * 64, 64, DMA_TO_DEVICE);
		dma_mapping_error(dev, h[i]);
	}
	off_live = on_live = 1e30;
	for (int r = 0; r < 3 * BEST_OF; r++) {
		off_live = min_d(off_live, bench_map_pair_once(dev_off, buf, iters / 2));
		on_live = min_d(on_live, bench_map_pair_once(dev, buf, iters / 2));
	}
	printf("checker: map+unmap %.2f ns off, %.2f ns on (%.2fx); with %lu live mappings %.2f ns off, %.2f ns on (%.2fx) (target <= 3x); live tracked: %lu\n",
	       off, on, on / off, live, off_live, on_live, on_live / off_live,
	       dmamap_debug_live(NULL, p));
	target("checker on vs off, map+unmap, 256K live mappings", on_live / off_live, true, 3, "x");
	for (unsigned long i = 0; i < live; i++)
		dma_unmap_single(dev, h[i], 64, DMA_TO_DEVICE);
	if (dmamap_report_count(p, 0))
		printf("checker: %lu unexpected reports\n", dmamap_report_count(p, 0));
out:
	free(buf);
	free(big);
	free(h);
	dmamap_platform_destroy(p);
	dmamap_platform_destroy(p_off);
}

/* ---- threads --------------------------------------------------------------- */

struct thr {
	struct device *dev;
	long iters;
	double ns;
	void *buf;
};

/* The machine's own scaling: calls and stores to thread-private memory only. */
static void *thr_private(void *arg)
{
	struct thr *t = arg;
	volatile uint64_t *c = t->buf;

	for (long i = 0; i < t->iters; i++) {
		c[0] = map_fn(t->buf, 4096);
		unmap_fn(c[0], 4096);
		c[1]++;
		c[2] += 4096;
		c[3]++;
	}
	return NULL;
}

static void *thr_main(void *arg)
{
	struct thr *t = arg;
	double t0 = now_ns();
	struct page *pg = virt_to_page(t->buf);

	for (long i = 0; i < t->iters; i++) {
		dma_addr_t a = dma_map_page(t->dev, pg, 0, 4096, DMA_TO_DEVICE);

		dma_unmap_page(t->dev, a, 4096, DMA_TO_DEVICE);
	}
	t->ns = now_ns() - t0;
	return NULL;
}

/* Run @n threads of @iters pairs each; wall time of the slowest. */
static double run_threads(struct device *dev, int n, long iters,
			  void *(*fn)(void *))
{
	pthread_t tid[8];
	struct thr t[8];
	double t0, wall;

	for (int i = 0; i < n; i++)
		t[i] = (struct thr){ dev, iters, 0, bench_buffer(4096) };
	t0 = now_ns();
	for (int i = 0; i < n; i++) {
		int err = pthread_create(&tid[i], NULL, fn, &t[i]);

		if (err) {
			fprintf(stderr, "dmamap bench: cannot start a thread: %s\n", strerror(err));
			exit(1);
		}
	}
	for (int i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	wall = now_ns() - t0;
	for (int i = 0; i < n; i++)
		free(t[i].buf);
	return wall;
}

/* Throughput of @n threads relative to one: best of several runs of each. */
static double bench_scaling(struct device *dev, int n, long iters,
			    void *(*fn)(void *))
{
	double one = 1e30, many = 1e30;

	/* More rounds than elsewhere: a vCPU taken away spoils a two-thread round. */
	for (int r = 0; r < 3 * BEST_OF; r++) {
		one = min_d(one, run_threads(dev, 1, iters, fn));
		many = min_d(many, run_threads(dev, n, iters, fn));
	}
	return n * one / many;
}

/* swiotlb on the host, forced: map (copy in) + unmap of @len, vs memcpy of @len. */
static void bench_bounce(struct device *dev, size_t len)
{
	uint8_t *buf = bench_buffer(len), *dst = bench_buffer(len);
	double tb = 1e30, tm = 1e30;
	int reps = (int)(((size_t)64 << 20) / len);

	memset(buf, 3, len);
	memset(dst, 4, len);
	for (int r = 0; r < BEST_OF; r++) {
		double t0 = now_ns();

		for (int i = 0; i < reps; i++) {
			memcpy(dst, buf, len);
			__asm__ volatile("" : : "r"(dst) : "memory");
		}
		tm = min_d(tm, (now_ns() - t0) / reps);
		t0 = now_ns();
		for (int i = 0; i < reps; i++) {
			dma_addr_t a = dma_map_single(dev, buf, len, DMA_TO_DEVICE);

			if (!dma_mapping_error(dev, a))
				dma_unmap_single(dev, a, len, DMA_TO_DEVICE);
		}
		tb = min_d(tb, (now_ns() - t0) / reps);
	}
	printf("bounce map+copy+unmap %zu KiB: %.2f GB/s vs memcpy %.2f GB/s = %.0f%% (target >= %d%%)\n",
	       len >> 10, len / tb, len / tm, 100 * tm / tb, len >= (64 << 10) ? 80 : 70);
	{
		char what[80];

		snprintf(what, sizeof(what), "swiotlb bounce %zu KiB vs memcpy", len >> 10);
		target(what, 100 * tm / tb, false, len >= (64 << 10) ? 80 : 70, "%");
	}
	free(buf);
	free(dst);
}

static void *thr_bounce(void *arg)
{
	struct thr *t = arg;

	for (long i = 0; i < t->iters; i++) {
		dma_addr_t a = dma_map_single(t->dev, t->buf, 4096, DMA_TO_DEVICE);

		if (!dma_mapping_error(t->dev, a))
			dma_unmap_single(t->dev, a, 4096, DMA_TO_DEVICE);
	}
	return NULL;
}

/*
 * IOMMU on the host: map+unmap of 4 KiB, strict and lazy, and with many
 * live ranges. The direct pair on @direct is measured in the same
 * interleaved rounds, so machine noise hits both sides of the ratio alike.
 */
static void bench_iommu(long iters, struct device *direct)
{
	struct dmamap_error err = { 0 };
	struct dmamap_device_desc hd = { .name = "behind-iommu", .iommu = "iommu0",
					 .dma_mask = DMA_BIT_MASK(64) };
	struct dmamap_platform *p = dmamap_platform_host(&err);
	struct device *dev = p ? dmamap_device_create(p, &hd, &err) : NULL;
	void *buf = bench_buffer(4096);
	uint8_t *big = bench_buffer(64 << 10);
	dma_addr_t *h = malloc(65536 * sizeof(*h));
	double strict = 1e30, lazy = 1e30, direct_ns = 1e30, live1k, live64k;
	void *dbuf = bench_buffer(4096);

	if (!dev || !buf || !dbuf || !big || !h) {
		fprintf(stderr, "dmamap bench: iommu setup failed: %s\n", err.msg);
		goto out;
	}
	for (int r = 0; r < 2 * BEST_OF; r++) {
		direct_ns = min_d(direct_ns, bench_map_pair_once(direct, dbuf, iters));
		dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_STRICT);
		strict = min_d(strict, bench_map_pair_once(dev, buf, iters / 2));
		dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_LAZY);
		lazy = min_d(lazy, bench_map_pair_once(dev, buf, iters / 2));
	}
	dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_STRICT);
	printf("iommu map+unmap 4 KiB: strict %.1f ns (%.1fx direct), lazy %.1f ns (%.1fx direct, target <= 5x); direct in the same rounds %.1f ns\n",
	       strict, strict / direct_ns, lazy, lazy / direct_ns, direct_ns);
	target("iommu map+unmap (lazy) vs direct", lazy / direct_ns, true, 5, "x");
	for (int i = 0; i < 1024; i++)
		h[i] = dma_map_single(dev, big + (i % 16) * 4096, 4096, DMA_TO_DEVICE);
	live1k = bench_map_pair(dev, buf, iters);
	for (int i = 1024; i < 65536; i++)
		h[i] = dma_map_single(dev, big + (i % 16) * 4096, 4096, DMA_TO_DEVICE);
	live64k = bench_map_pair(dev, buf, iters);
	printf("iommu map+unmap with 1K live ranges %.1f ns, with 64K live %.1f ns: growth %.2fx (target <= 2x)\n",
	       live1k, live64k, live64k / live1k);
	target("iommu map+unmap, 64K live ranges vs 1K", live64k / live1k, true, 2, "x");
	for (int i = 0; i < 65536; i++)
		if (!dma_mapping_error(dev, h[i]))
			dma_unmap_single(dev, h[i], 4096, DMA_TO_DEVICE);
	{
		double x = bench_scaling(dev, 2, iters / 4, thr_main);

		printf("2 threads vs 1, iommu map+unmap 4 KiB (strict): %.2fx (target >= 1.8x)\n", x);
		target("2 threads vs 1, iommu map+unmap (strict)", x, false, 1.8, "x");
	}
out:
	free(buf);
	free(dbuf);
	free(big);
	free(h);
	dmamap_platform_destroy(p);
}

/* ---- sim bandwidth ----------------------------------------------------------- */

struct bw {
	double memcpy_gbs, coherent_gbs, noncoherent_gbs;
	double engine_coherent_gbs, engine_noncoherent_gbs;
};

static double time_memcpy(uint8_t *dst, const uint8_t *src, size_t len)
{
	double t0 = now_ns();

	memcpy(dst, src, len);
	__asm__ volatile("" : : "r"(dst) : "memory");
	return now_ns() - t0;
}

/*
 * The device side alone: map, the device's memory-to-memory copy
 * (dmamap_device_transfer(), in the engine's 16 KiB bursts), unmap.
 */
static double time_device_copy(struct device *dev, uint8_t *src, uint8_t *dst, size_t len)
{
	double t0 = now_ns();
	dma_addr_t s = dma_map_single(dev, src, len, DMA_TO_DEVICE);
	dma_addr_t d = dma_map_single(dev, dst, len, DMA_FROM_DEVICE);

	for (size_t off = 0; off < len; off += 16384) {
		size_t n = len - off < 16384 ? len - off : 16384;

		dmamap_device_transfer(dev, d + off, s + off, n);
	}
	dma_unmap_single(dev, d, len, DMA_FROM_DEVICE);
	dma_unmap_single(dev, s, len, DMA_TO_DEVICE);
	return now_ns() - t0;
}

/*
 * The memcpy engine model copying @len bytes between two mappings, as its
 * driver does it: map, descriptor, doorbell, poll until the engine's steps
 * are done, unmap.
 */
static double time_engine_copy(struct mcdma *m, uint8_t *src, uint8_t *dst, size_t len)
{
	double t0 = now_ns();

	if (mcdma_copy_buf(m, dst, src, len, NULL, NULL, MCDMA_BUG_NONE))
		return 1e30;
	return now_ns() - t0;
}

/* Interleaved rounds, best of each, so machine noise hits all three alike. */
static int bench_sim_bw(struct dmamap_platform *p, size_t len, struct bw *out)
{
	struct device *coh = dmamap_device_lookup(p, "dma-coh");
	struct device *nc = dmamap_device_lookup(p, "dma-nc");
	struct mcdma mc, mn;
	uint8_t *src = dmamap_kmalloc(p, len, DMAMAP_GFP_DMA_ALIGN);
	uint8_t *dst = dmamap_kmalloc(p, len, DMAMAP_GFP_DMA_ALIGN);
	/*
	 * Page-aligned, as the board's buffers are: from malloc the baseline
	 * moved by a third with where the heap happened to put them (memcpy
	 * between buffers at the same offset in a page, or not).
	 */
	uint8_t *a = bench_buffer(len), *b = bench_buffer(len);
	double tm = 1e30, tc = 1e30, tn = 1e30;

	double te = 1e30, tf = 1e30;

	if (!coh || !nc || !src || !dst || !a || !b || mcdma_probe(&mc, coh, 16) ||
	    mcdma_probe(&mn, nc, 16))
		return -1;
	memset(src, 7, len);
	memset(a, 7, len);
	memset(b, 1, len);
	/* Best of 100, interleaved: a short copy finds a quiet moment more easily than a long one. */
	for (int r = 0; r < 100; r++) {
		tm = min_d(tm, time_memcpy(b, a, len));
		tc = min_d(tc, time_device_copy(coh, src, dst, len));
		tn = min_d(tn, time_device_copy(nc, src, dst, len));
		te = min_d(te, time_engine_copy(&mc, src, dst, len));
		tf = min_d(tf, time_engine_copy(&mn, src, dst, len));
	}
	mcdma_remove(&mc);
	mcdma_remove(&mn);
	out->memcpy_gbs = len / tm;
	out->coherent_gbs = len / tc;
	out->noncoherent_gbs = len / tn;
	out->engine_coherent_gbs = len / te;
	out->engine_noncoherent_gbs = len / tf;
	dmamap_kfree(p, src);
	dmamap_kfree(p, dst);
	free(a);
	free(b);
	return 0;
}

/* ---- the workbench: seeds per second --------------------------------------------- */

/*
 * One seed of the NIC scenario as a sweep runs it: a fresh board, cache
 * chaos and device schedule seeded, checker on, 256 frames each way
 * through the non-coherent NIC. Returns the seconds it took, or -1.
 */
static double nic_seed(uint64_t seed, enum dmamap_memory_model model, double *board_s)
{
	double t0 = now_ns(), t1;
	int status;
	struct dmamap_platform *p = cli_open_board(&(struct cli_board){ .name = "default" }, &status);
	struct device *dev = p ? dmamap_device_lookup(p, "nic-nc") : NULL;
	struct exercise_result r;
	bool ok;

	if (!dev) {
		dmamap_platform_destroy(p);
		return -1;
	}
	dmamap_set_log_hook(p, cli_drop_line, NULL);
	dmamap_debug_enable(p, true);
	dmamap_sim_set_memory_model(p, model);
	dmamap_sim_set_chaos(p, seed, 0);
	dmamap_sim_set_schedule(p, seed);
	t1 = now_ns();
	ok = !exercise_nic(dev, 256, NICDRV_BUG_NONE, seed, &r) && r.ok == 256 &&
	     !dmamap_report_count(p, 0);
	dmamap_platform_destroy(p);
	*board_s += (t1 - t0) / 1e9;
	return ok ? (now_ns() - t0) / 1e9 : -1;
}

static void bench_workbench(void)
{
	/* [0]: the board as it is (weakly ordered); [1]: the same under TSO, no store buffer to model. */
	double total[2] = { 0 }, board[2] = { 0 };
	unsigned int seeds[2] = { 0 };

	/* Interleaved, seed by seed: the machine's noise falls on both alike. */
	while (total[0] + total[1] < 4.0) {
		for (int m = 0; m < 2; m++) {
			double t = nic_seed(seeds[m] + 1, m ? DMAMAP_MEMORY_TSO : DMAMAP_MEMORY_WEAK,
					    &board[m]);

			if (t < 0) {
				printf("workbench: seed %u failed (%s)\n", seeds[m] + 1, m ? "tso" : "weak");
				return;
			}
			total[m] += t;
			seeds[m]++;
		}
	}
	printf("workbench: NIC scenario (fresh board, 256 frames each way through nic-nc, chaos and schedule seeded, checker on): %.1f seeds/s (%.1f ms a seed, %.1f ms of it making the board)\n",
	       seeds[0] / total[0], 1000 * total[0] / seeds[0], 1000 * board[0] / seeds[0]);
	printf("workbench: the same with the memory-order model off (TSO): %.1f seeds/s; the weak model costs %.1f %% of the seed rate\n",
	       seeds[1] / total[1], 100.0 * (1 - (seeds[0] / total[0]) / (seeds[1] / total[1])));
}

/* ---- sg linearity ------------------------------------------------------------ */

static double bench_sg(struct device *dev, int nents)
{
	struct scatterlist *sg = calloc((size_t)nents, sizeof(*sg));
	uint8_t *buf = bench_buffer((size_t)nents * 4096);
	double best = 1e30;

	sg_init_table(sg, (unsigned int)nents);
	for (int i = 0; i < nents; i++)
		sg_set_buf(&sg[i], buf + (size_t)i * 4096, 4096);
	for (int r = 0; r < BEST_OF; r++) {
		int reps = 1 + 100000 / nents;
		double t0 = now_ns();

		for (int k = 0; k < reps; k++) {
			dma_map_sg(dev, sg, nents, DMA_TO_DEVICE);
			dma_unmap_sg(dev, sg, nents, DMA_TO_DEVICE);
		}
		best = min_d(best, (now_ns() - t0) / reps);
	}
	free(sg);
	free(buf);
	return best;
}

/* ---- dma_map_benchmark compatible mode ------------------------------------- */

struct mb_args {
	int threads, seconds, dir, granule, bits, node;
	long xdelay; /* ns between map and unmap */
};

/* dma_map_benchmark's limits (kernel/dma/map_benchmark.c, its selftest tool). */
#define MB_MAX_THREADS 1024
#define MB_MAX_SECONDS 300
#define MB_MAX_XDELAY (10L * 1000 * 1000)

struct mb_thr {
	struct device *dev;
	const struct mb_args *a;
	double map_sum, map_sq, unmap_sum, unmap_sq;
	long loops;
	void *buf;		/* this thread's slice of the region */
	const char *failed;	/* why this thread stopped early, or NULL */
};

/*
 * The host maps a buffer at its own address and has no bounce buffers: the
 * threads' buffers, which a narrow mask must reach, are placed below the
 * mask's limit, as the kernel's tool would get them from its bounce
 * buffers. Returns MAP_FAILED if there is no free place that low.
 */
static void *mb_region(size_t len, int bits)
{
	uint64_t limit = bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;

	if ((uintptr_t)-1 <= limit)
		return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* Hints from 64 MiB up: below that lie the program and its heap. */
	for (uint64_t at = 64ULL << 20; at < limit && len - 1 <= limit - at; at += 64ULL << 20) {
		void *p = mmap((void *)(uintptr_t)at, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			continue;
		if ((uint64_t)(uintptr_t)p <= limit && len - 1 <= limit - (uint64_t)(uintptr_t)p)
			return p;
		munmap(p, len);
	}
	return MAP_FAILED;
}

static void *mb_main(void *arg)
{
	struct mb_thr *t = arg;
	size_t len = (size_t)t->a->granule * 4096;
	double end = now_ns() + t->a->seconds * 1e9;

	while (now_ns() < end) {
		double t0 = now_ns(), t1, t2, tu;
		dma_addr_t d = dma_map_single(t->dev, t->buf, len,
					      (enum dma_data_direction)t->a->dir);
		if (dma_mapping_error(t->dev, d)) {
			t->failed = "dma_map_single failed";
			break;
		}
		t1 = now_ns();
		/* The "transfer": the tool's delay between map and unmap, in neither latency. */
		while (t->a->xdelay && now_ns() < t1 + (double)t->a->xdelay)
			;
		tu = now_ns();
		dma_unmap_single(t->dev, d, len, (enum dma_data_direction)t->a->dir);
		t2 = now_ns() - (tu - t1);
		/* The kernel tool reports in units of 100 ns. */
		t->map_sum += (t1 - t0) / 100;
		t->map_sq += ((t1 - t0) / 100) * ((t1 - t0) / 100);
		t->unmap_sum += (t2 - t1) / 100;
		t->unmap_sq += ((t2 - t1) / 100) * ((t2 - t1) / 100);
		t->loops++;
	}
	return NULL;
}

static int map_benchmark(struct device *dev, const struct mb_args *a)
{
	static const char *const dirs[] = { "BIDIRECTIONAL", "TO_DEVICE", "FROM_DEVICE" };
	pthread_t tid[MB_MAX_THREADS];
	struct mb_thr t[MB_MAX_THREADS];
	double ms = 0, msq = 0, us = 0, usq = 0, n = 0, mavg, uavg;
	const char *failed = NULL;
	size_t len = (size_t)a->granule * 4096;
	uint8_t *region;
	int started = 0, err = 0;

	if (dma_set_mask(dev, DMA_BIT_MASK(a->bits))) {
		fprintf(stderr, "dmamap bench: mask of %d bits not supported\n", a->bits);
		return 1;
	}
	region = mb_region(len * (size_t)a->threads, a->bits);
	if (region == MAP_FAILED) {
		fprintf(stderr, "dmamap bench: no room for %d buffers of %zu bytes below the %d-bit mask's limit: "
				"fewer threads (-t), a smaller granule (-g) or a wider mask (-b)\n",
			a->threads, len, a->bits);
		return 1;
	}
	memset(t, 0, sizeof(t));
	for (; started < a->threads; started++) {
		t[started].dev = dev;
		t[started].a = a;
		t[started].buf = region + (size_t)started * len;
		err = pthread_create(&tid[started], NULL, mb_main, &t[started]);
		if (err)
			break;
	}
	for (int i = 0; i < started; i++) {
		pthread_join(tid[i], NULL);
		if (t[i].failed)
			failed = t[i].failed;
		ms += t[i].map_sum;
		msq += t[i].map_sq;
		us += t[i].unmap_sum;
		usq += t[i].unmap_sq;
		n += t[i].loops;
	}
	munmap(region, len * (size_t)a->threads);
	if (err) {
		fprintf(stderr, "dmamap bench: cannot start thread %d of %d: %s\n",
			started + 1, a->threads, strerror(err));
		return 1;
	}
	if (failed) {
		fprintf(stderr, "dmamap bench: %s\n", failed);
		return 1;
	}
	if (n == 0)
		n = 1;	/* a run too short for one loop reports zeros */
	mavg = ms / n;
	uavg = us / n;
	printf("dma mapping benchmark: threads:%d seconds:%d node:%d dir:%s granule: %d\n",
	       a->threads, a->seconds, a->node, dirs[a->dir], a->granule);
	printf("average map latency(us):%.1f standard deviation:%.1f\n", mavg / 10,
	       (msq / n - mavg * mavg > 0 ? __builtin_sqrt(msq / n - mavg * mavg) : 0) / 10);
	printf("average unmap latency(us):%.1f standard deviation:%.1f\n", uavg / 10,
	       (usq / n - uavg * uavg > 0 ? __builtin_sqrt(usq / n - uavg * uavg) : 0) / 10);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: dmamap bench [--quick]    the speed ratios, each against its baseline, in one run\n"
		   "       dmamap bench [-t THREADS] [-s SECONDS] [-n NODE] [-b BITS] [-d DIR] [-x DELAY] [-g GRANULE]\n"
		   "                as the kernel's dma_map_benchmark, on the host platform's direct ops:\n"
		   "                -t threads 1-%d (1), -s seconds 1-%d (20), -n NUMA node (-1: none; there\n"
		   "                are no nodes here), -b mask bits 32-64 (32; the host refuses narrower masks:\n"
		   "                its memory may be anywhere), -d direction 0 bidirectional, 1 to device,\n"
		   "                2 from device (0), -x ns between map and unmap 0-%ld (0),\n"
		   "                -g granule in pages 1-1024 (1)\n",
		MB_MAX_THREADS, MB_MAX_SECONDS, MB_MAX_XDELAY);
}

/* A whole-string integer in [@lo, @hi], or a message as dma_map_benchmark words it. */
static int mb_value(const char *opt, const char *s, long lo, long hi, const char *what, long *out)
{
	char *end;
	long v;

	if (!s) {
		fprintf(stderr, "dmamap bench: %s needs a value: the %s, %ld-%ld\n", opt, what, lo, hi);
		return -1;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	/* Digits only (a minus where the range has negatives): strtol would skip blanks and a '+'. */
	if (!(s[0] >= '0' && s[0] <= '9') && !(lo < 0 && s[0] == '-' && s[1] >= '0' && s[1] <= '9'))
		end = (char *)s;
	if (errno || end == s || *end || v < lo || v > hi) {
		if (lo == hi)
			fprintf(stderr, "dmamap bench: %s '%s': invalid %s, must be %ld\n", opt,
				s, what, lo);
		else
			fprintf(stderr, "dmamap bench: %s '%s': invalid %s, must be in %ld-%ld\n", opt,
				s, what, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_bench(int argc, char **argv)
{
	struct mb_args mb = { .threads = 1, .seconds = 20, .dir = 0, .granule = 1, .bits = 32,
			      .node = -1, .xdelay = 0 };
	bool compat = false;
	struct dmamap_error err = { 0 };
	struct dmamap_device_desc hd = { .name = "bench", .dma_mask = DMA_BIT_MASK(64) };
	struct dmamap_platform *host, *sim;
	struct device *dev;
	long iters = 4000000;
	void *buf;
	double ind, dir, s1, s4096;

	for (int i = 1; i < argc; i++) {
		static const struct {
			const char *opt, *what;
			long lo, hi;
		} o[] = {
			{ "-t", "number of threads", 1, MB_MAX_THREADS },
			{ "-s", "duration seconds", 1, MB_MAX_SECONDS },
			{ "-n", "numa node (the host platform has no nodes)", -1, -1 },
			{ "-b", "dma mask bit", 32, 64 },
			{ "-d", "dma direction", 0, 2 },
			{ "-x", "transmit delay", 0, MB_MAX_XDELAY },
			{ "-g", "granule size", 1, 1024 },
		};
		size_t k = 0;
		const char *value;
		long v;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--quick")) {
			iters = 400000;
			continue;
		}
		/* As getopt takes them: "-t 4" or "-t4". */
		while (k < sizeof(o) / sizeof(o[0]) && strncmp(argv[i], o[k].opt, 2))
			k++;
		if (k == sizeof(o) / sizeof(o[0])) {
			fprintf(stderr, "dmamap bench: unknown option %s (dmamap bench --help)\n", argv[i]);
			return 2;
		}
		value = argv[i][2] ? argv[i] + 2 : i + 1 < argc ? argv[++i] : NULL;
		if (mb_value(o[k].opt, value, o[k].lo, o[k].hi, o[k].what, &v))
			return 2;
		switch (k) {
		case 0: mb.threads = (int)v; break;
		case 1: mb.seconds = (int)v; break;
		case 2: mb.node = (int)v; break;
		case 3: mb.bits = (int)v; break;
		case 4: mb.dir = (int)v; break;
		case 5: mb.xdelay = v; break;
		default: mb.granule = (int)v; break;
		}
		compat = true;
	}
	if (compat && iters != 4000000) {
		fprintf(stderr, "dmamap bench: --quick is for the speed ratios, not with dma_map_benchmark's options\n");
		return 2;
	}
	host = dmamap_platform_host(&err);
	if (!host || !(dev = dmamap_device_create(host, &hd, &err))) {
		fprintf(stderr, "dmamap bench: %s\n", err.msg);
		return 1;
	}
	if (compat) {
		int ret = map_benchmark(dev, &mb);

		dmamap_platform_destroy(host);
		return ret;
	}
	buf = bench_buffer(4096);
	/* Untimed first: page faults, lazy binding and the CPU's clock ramp. */
	bench_direct_vs_indirect(dev, buf, iters / 4, &dir, &ind);
	bench_direct_vs_indirect(dev, buf, iters, &dir, &ind);
	printf("direct map+unmap (host, coherent, 4 KiB): %.2f ns/pair; bare indirect call pair: %.2f ns; ratio %.2fx (target <= 3x)\n",
	       dir, ind, dir / ind);
	target("direct map+unmap vs a bare indirect call pair", dir / ind, true, 3, "x");
	bench_checker(iters / 4, 256 * 1024);
	bench_iommu(iters / 8, dev);
	{
		double x = bench_scaling(dev, 2, iters, thr_main);

		printf("2 threads vs 1, direct map+unmap: %.2fx (target >= 1.8x); the machine itself, private-memory loop: %.2fx\n",
		       x, bench_scaling(dev, 2, iters, thr_private));
		target("2 threads vs 1, direct map+unmap", x, false, 1.8, "x");
	}
	if (!dmamap_swiotlb_set_mode(host, DMAMAP_SWIOTLB_FORCE)) {
		double x;

		bench_bounce(dev, 4 << 10);
		bench_bounce(dev, 64 << 10);
		bench_bounce(dev, 256 << 10);
		x = bench_scaling(dev, 2, iters / 10, thr_bounce);

		printf("2 threads vs 1, swiotlb map+copy+unmap 4 KiB: %.2fx (target >= 1.8x)\n", x);
		target("2 threads vs 1, swiotlb map+copy+unmap", x, false, 1.8, "x");
		dmamap_swiotlb_set_mode(host, DMAMAP_SWIOTLB_ON);
	}
	s1 = bench_sg(dev, 1);
	s4096 = bench_sg(dev, 4096);
	printf("sg map+unmap: 1 entry %.0f ns, 4096 entries %.0f ns = %.1f ns/entry; per-entry ratio 4096/1: %.2f (linear: ~1)\n",
	       s1, s4096, s4096 / 4096, (s4096 / 4096) / s1);
	free(buf);
	dmamap_platform_destroy(host);

	/* Without the board the host's rows still stand: the table shows them, the exit says what failed. */
	int status;

	sim = cli_open_board(&(struct cli_board){ .name = "default" }, &status);
	if (!sim) {
		print_targets();
		return 1;
	}
	for (size_t len = 64 << 10; len <= (4 << 20); len <<= 4) {
		struct bw bw;

		if (bench_sim_bw(sim, len, &bw)) {
			dmamap_platform_destroy(sim);
			print_targets();
			return 1;
		}
		printf("sim device copy %zu KiB: memcpy %.2f GB/s; coherent device %.2f GB/s (%.0f%%, target >= 30%%); non-coherent, cache model on %.2f GB/s (%.0f%%, target >= 10%%)\n",
		       len >> 10, bw.memcpy_gbs, bw.coherent_gbs,
		       100 * bw.coherent_gbs / bw.memcpy_gbs, bw.noncoherent_gbs,
		       100 * bw.noncoherent_gbs / bw.memcpy_gbs);
		printf("sim memcpy engine %zu KiB (driver, doorbell, device steps, poll): coherent %.2f GB/s (%.0f%% of memcpy, target >= 30%%); non-coherent %.2f GB/s (%.0f%%, target >= 10%%)\n",
		       len >> 10, bw.engine_coherent_gbs, 100 * bw.engine_coherent_gbs / bw.memcpy_gbs,
		       bw.engine_noncoherent_gbs, 100 * bw.engine_noncoherent_gbs / bw.memcpy_gbs);
		{
			char what[80];

			snprintf(what, sizeof(what), "sim coherent device copy %zu KiB vs memcpy", len >> 10);
			target(what, 100 * bw.coherent_gbs / bw.memcpy_gbs, false, 30, "%");
			snprintf(what, sizeof(what), "sim non-coherent device copy %zu KiB vs memcpy", len >> 10);
			target(what, 100 * bw.noncoherent_gbs / bw.memcpy_gbs, false, 10, "%");
			snprintf(what, sizeof(what), "sim coherent memcpy engine %zu KiB vs memcpy", len >> 10);
			target(what, 100 * bw.engine_coherent_gbs / bw.memcpy_gbs, false, 30, "%");
			snprintf(what, sizeof(what), "sim non-coherent memcpy engine %zu KiB vs memcpy", len >> 10);
			target(what, 100 * bw.engine_noncoherent_gbs / bw.memcpy_gbs, false, 10, "%");
		}
	}
	dmamap_platform_destroy(sim);
	bench_workbench();
	print_targets();
	return 0;
}
