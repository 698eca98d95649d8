/* SPDX-License-Identifier: MIT */
/*
 * Every failure point, walked: for k = 1, 2, ... the process-wide injector
 * fails the k-th allocation, mapping or memfd of a whole scenario, board
 * creation included, until a run passes every point. Each run must end
 * without a crash, with the mapped bytes and memfds of the library's ledger
 * back where they were, with nothing the checker still tracks once the
 * scenario released all it had, with no wrong byte seen by the device or the CPU,
 * and (built with LeakSanitizer) without a leaked heap block. The number of
 * points walked is printed per scenario.
 */
#include <dmamap/dmapool.h>
#include <dmamap/iommu.h>
#include "../helpers.h"
#include "../../drivers/exercise.h"
#include "../../drivers/gallery.h"
#include "../../src/lib/mem.h"

/* LeakSanitizer's, when the tests are built with it: the runner's children never reach its exit check. */
extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

#define SZ 1536
#define MAX_POINTS 100000

static unsigned long wrong_bytes;
/* Mappings and allocations the checker still tracks when a scenario has released everything. */
static unsigned long left_live;

static void fill(uint8_t *b, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(seed + i * 7);
}

static void compare(const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		wrong_bytes += a[i] != b[i];
}

static void drop_report(void *ctx, const struct dmamap_report *r)
{
	(void)ctx;
	(void)r;
}

/* A board made under the injector, checker on, quiet: NULL when a point failed its making. */
static struct dmamap_platform *board(const char *name)
{
	struct dmamap_platform *p = dmamap_platform_builtin(name, NULL);

	if (p) {
		dmamap_set_log_hook(p, drop_log, NULL);
		dmamap_set_report_hook(p, drop_report, NULL);
		dmamap_debug_enable(p, true);
	}
	return p;
}

/* To the device and back through dma_map_single(); 0, or the first error. */
static int singles(struct device *dev, struct dmamap_platform *p)
{
	uint8_t *buf = dmamap_kmalloc(p, SZ, DMAMAP_GFP_DMA_ALIGN);
	uint8_t seen[SZ];
	dma_addr_t h;
	int ret;

	if (!buf)
		return -ENOMEM;
	fill(buf, SZ, 1);
	h = dma_map_single(dev, buf, SZ, DMA_TO_DEVICE);
	ret = dma_mapping_error(dev, h);
	if (!ret) {
		ret = dmamap_device_read(dev, h, seen, SZ);
		dma_unmap_single(dev, h, SZ, DMA_TO_DEVICE);
		if (!ret)
			compare(seen, buf, SZ);
	}
	if (!ret) {
		h = dma_map_single(dev, buf, SZ, DMA_FROM_DEVICE);
		ret = dma_mapping_error(dev, h);
	}
	if (!ret) {
		fill(seen, SZ, 2);
		ret = dmamap_device_write(dev, h, seen, SZ);
		dma_unmap_single(dev, h, SZ, DMA_FROM_DEVICE);
		if (!ret)
			compare(buf, seen, SZ);
	}
	dmamap_kfree(p, buf);
	return ret;
}

/* Four buffers as one list, each segment read by the device. */
static int list(struct device *dev, struct dmamap_platform *p)
{
	struct scatterlist sg[4], *s;
	uint8_t *bufs[4] = { NULL }, seen[SZ];
	int n = 0, ret = 0, i;

	sg_init_table(sg, 4);
	for (i = 0; i < 4 && !ret; i++) {
		bufs[i] = dmamap_kmalloc(p, 300 + 400 * i, DMAMAP_GFP_DMA_ALIGN);
		if (!bufs[i])
			ret = -ENOMEM;
		else {
			fill(bufs[i], 300 + 400 * i, (uint8_t)(10 + i));
			sg_set_buf(&sg[i], bufs[i], 300 + 400 * i);
		}
	}
	if (!ret)
		n = dma_map_sg(dev, sg, 4, DMA_TO_DEVICE);
	if (!ret && !n)
		ret = -ENOMEM;
	for_each_sg(sg, s, n, i) {
		if (!ret)
			ret = dmamap_device_read(dev, sg_dma_address(s), seen, sg_dma_len(s));
	}
	if (n) {
		/* The device read the list as mapped: each entry's bytes, in order. */
		if (!ret) {
			size_t at = 0, k = 0, total = 0;
			uint8_t *all = malloc(4 * SZ);

			for_each_sg(sg, s, n, i) {
				if (all && !dmamap_device_read(dev, sg_dma_address(s), all + total,
							       sg_dma_len(s)))
					total += sg_dma_len(s);
			}
			for (k = 0; all && k < 4; k++) {
				compare(all + at, bufs[k], 300 + 400 * k);
				at += 300 + 400 * k;
			}
			free(all);
		}
		dma_unmap_sg(dev, sg, 4, DMA_TO_DEVICE);
	}
	for (i = 0; i < 4; i++)
		dmamap_kfree(p, bufs[i]);
	return ret;
}

/* Coherent memory both ways, then a dma_pool's blocks. */
static int coherent_and_pool(struct device *dev)
{
	uint8_t seen[256], mine[256];
	struct dma_pool *pool;
	dma_addr_t h, ph[4];
	void *blk[4] = { NULL };
	uint8_t *c;
	int ret;

	c = dma_alloc_coherent(dev, 8192, &h, GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	fill(mine, sizeof(mine), 3);
	memcpy(c + 4000, mine, sizeof(mine));
	ret = dmamap_device_read(dev, h + 4000, seen, sizeof(seen));
	if (!ret)
		compare(seen, mine, sizeof(mine));
	fill(mine, sizeof(mine), 4);
	if (!ret)
		ret = dmamap_device_write(dev, h + 100, mine, sizeof(mine));
	if (!ret)
		compare(c + 100, mine, sizeof(mine));
	dma_free_coherent(dev, 8192, c, h);
	if (ret)
		return ret;
	pool = dma_pool_create("walk", dev, 128, 64, 0);
	if (!pool)
		return -ENOMEM;
	for (int i = 0; i < 4 && !ret; i++) {
		blk[i] = dma_pool_alloc(pool, GFP_KERNEL, &ph[i]);
		if (!blk[i]) {
			ret = -ENOMEM;
			break;
		}
		fill(blk[i], 128, (uint8_t)(20 + i));
		ret = dmamap_device_read(dev, ph[i], seen, 128);
		if (!ret)
			compare(seen, blk[i], 128);
	}
	for (int i = 0; i < 4; i++)
		if (blk[i])
			dma_pool_free(pool, blk[i], ph[i]);
	dma_pool_destroy(pool);
	return ret;
}

/* Pages from dma_alloc_pages(), then a table from dma_alloc_noncontiguous() through its CPU view. */
static int pages_and_noncontig(struct device *dev)
{
	uint8_t seen[256], mine[256];
	struct sg_table *sgt;
	struct page *pg;
	dma_addr_t h;
	uint8_t *view;
	int ret;

	pg = dma_alloc_pages(dev, 2 * PAGE_SIZE, &h, DMA_TO_DEVICE, GFP_KERNEL);
	if (!pg)
		return -ENOMEM;
	fill(mine, sizeof(mine), 5);
	memcpy((uint8_t *)page_address(pg) + PAGE_SIZE, mine, sizeof(mine));
	dma_sync_single_for_device(dev, h, 2 * PAGE_SIZE, DMA_TO_DEVICE);
	ret = dmamap_device_read(dev, h + PAGE_SIZE, seen, sizeof(seen));
	if (!ret)
		compare(seen, mine, sizeof(mine));
	dma_free_pages(dev, 2 * PAGE_SIZE, pg, h, DMA_TO_DEVICE);
	if (ret)
		return ret;
	sgt = dma_alloc_noncontiguous(dev, 4 * PAGE_SIZE, DMA_TO_DEVICE, GFP_KERNEL, 0);
	if (!sgt)
		return -ENOMEM;
	view = dma_vmap_noncontiguous(dev, 4 * PAGE_SIZE, sgt);
	if (!view)
		ret = -ENOMEM;
	if (!ret) {
		fill(mine, sizeof(mine), 6);
		memcpy(view + 3 * PAGE_SIZE - 100, mine, sizeof(mine));
		dma_sync_sgtable_for_device(dev, sgt, DMA_TO_DEVICE);
		ret = dmamap_device_read(dev, sg_dma_address(sgt->sgl) + 3 * PAGE_SIZE - 100, seen,
					 sizeof(seen));
		/* Without an IOMMU the one entry is contiguous; behind one, the range is. */
		if (!ret)
			compare(seen, mine, sizeof(mine));
	}
	dma_free_noncontiguous(dev, 4 * PAGE_SIZE, sgt, DMA_TO_DEVICE);
	return ret;
}

/* Every way of mapping there is, on @dev of @p: 0, or the first error. */
static int every_way(struct device *dev, struct dmamap_platform *p)
{
	int ret = singles(dev, p);

	if (!ret)
		ret = list(dev, p);
	if (!ret)
		ret = coherent_and_pool(dev);
	if (!ret)
		ret = pages_and_noncontig(dev);
	return ret;
}

/* A fresh @board_name, and on device @dev_name every way of mapping there is. */
static int on_device(const char *board_name, const char *dev_name, bool lazy)
{
	struct dmamap_platform *p = board(board_name);
	struct device *dev = p ? dmamap_device_lookup(p, dev_name) : NULL;
	int ret = dev ? 0 : -ENOMEM;

	if (!ret && lazy)
		ret = dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_LAZY);
	if (!ret)
		ret = every_way(dev, p);
	if (lazy && dev)
		dmamap_iommu_flush(dev);
	if (p)
		left_live += dmamap_debug_live(NULL, p);
	dmamap_platform_destroy(p);
	return ret;
}

static const char *walk_board, *walk_dev;
static bool walk_lazy, walk_host_bounce;

/* The host platform and a software device on it, bounced through swiotlb or not, every way of mapping. */
static int scenario_host(void)
{
	struct dmamap_platform *p = dmamap_platform_host(NULL);
	struct dmamap_device_desc d = { .name = "h0" };
	struct device *dev;
	int ret;

	if (!p)
		return -ENOMEM;
	dmamap_set_log_hook(p, drop_log, NULL);
	dmamap_set_report_hook(p, drop_report, NULL);
	dmamap_debug_enable(p, true);
	dev = dmamap_device_create(p, &d, NULL);
	ret = dev ? 0 : -ENOMEM;
	if (!ret && walk_host_bounce)
		ret = dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_FORCE);
	if (!ret)
		ret = every_way(dev, p);
	if (!ret && walk_host_bounce) {
		struct dmamap_swiotlb_stats st;

		/* Forced, the single and the list went through the pool. */
		if (dmamap_swiotlb_stats(p, NULL, &st) || st.bounced_maps < 5)
			ret = -EIO;
	}
	left_live += dmamap_debug_live(NULL, p);
	dmamap_platform_destroy(p);
	return ret;
}

static int scenario_device(void)
{
	return on_device(walk_board, walk_dev, walk_lazy);
}

static int scenario_board(void)
{
	struct dmamap_platform *p = board("default");

	dmamap_platform_destroy(p);
	return p ? 0 : -ENOMEM;
}

/* Every example driver on every device of the default board, one sweep seed. */
static int scenario_sweep(void)
{
	struct dmamap_platform *p = board("default");
	struct sweep_result r;

	if (!p)
		return -ENOMEM;
	sweep_seed(p, 1, &r);
	dmamap_platform_destroy(p);
	return r.bad_units || r.reports ? -EIO : 0;
}

/* One example driver on one device, a small load: every unit arrives whole, or fails, never wrong. */
static const char *driver_dev;
static int (*driver_run)(struct device *dev, struct exercise_result *r);

static int memcpy_small(struct device *dev, struct exercise_result *r)
{
	return exercise_memcpy(dev, 6, 0, 1, r);
}

static int nic_small(struct device *dev, struct exercise_result *r)
{
	return exercise_nic(dev, 8, 0, 1, r);
}

static int blk_small(struct device *dev, struct exercise_result *r)
{
	return exercise_blk(dev, 4, 0, 1, r);
}

static int scenario_driver(void)
{
	struct dmamap_platform *p = board("default");
	struct device *dev = p ? dmamap_device_lookup(p, driver_dev) : NULL;
	struct exercise_result r = { 0 };
	int ret = dev ? driver_run(dev, &r) : -ENOMEM;

	/* A unit that failed may leave its bytes unwritten: only one said done may not be wrong. */
	wrong_bytes += r.corrupted;
	if (p)
		left_live += dmamap_debug_live(NULL, p);
	dmamap_platform_destroy(p);
	if (!ret && (r.lost || r.ok != r.units))
		ret = -EIO;
	return ret;
}

/*
 * Walks @scenario's failure points; returns how many there were (0 after a
 * failed check). The last run, with no point failing, must succeed.
 */
static long walk(const char *what, int (*scenario)(void))
{
	struct dmamap__ledger base, now;

	dmamap__ledger_read(&base);
	wrong_bytes = left_live = 0;
	for (long k = 1; k <= MAX_POINTS; k += tap_sample()) {
		unsigned long before = dmamap_fault_injected(NULL);
		bool fired;
		int ret;

		dmamap_fault_inject(NULL, DMAMAP_FAULT_ALL, k);
		ret = scenario();
		fired = dmamap_fault_injected(NULL) != before;
		dmamap_fault_inject(NULL, 0, 0);
		dmamap__ledger_read(&now);
		CHECK_MSG(now.mapped_bytes == base.mapped_bytes && now.memfds == base.memfds,
			  "%s, point %ld: %lld bytes mapped and %ld memfds left", what, k,
			  now.mapped_bytes - base.mapped_bytes, now.memfds - base.memfds);
		CHECK_MSG(!wrong_bytes, "%s, point %ld: %lu bytes wrong", what, k, wrong_bytes);
		CHECK_MSG(!left_live, "%s, point %ld: %lu mappings or allocations left live", what, k,
			  left_live);
		if (__lsan_do_recoverable_leak_check)
			CHECK_MSG(!__lsan_do_recoverable_leak_check(), "%s, point %ld: leaked", what, k);
		if (tap_failures)
			return 0;
		if (!fired) {
			CHECK_MSG(!ret, "%s: with no point failing it still fails: %d", what, ret);
			printf("# %s: %ld failure points walked, every %u\n", what, k - 1, tap_sample());
			return k - 1;
		}
	}
	CHECK_MSG(false, "%s: more than %d failure points", what, MAX_POINTS);
	return 0;
}

TEST_TIMEOUT(faults_walk_board_creation, 300)
{
	CHECK(walk("default board from its .dts", scenario_board) > 10);
}

/* The three example drivers, each on a device of another backend. */
TEST_TIMEOUT(faults_walk_example_drivers, 600)
{
	static const struct {
		const char *dev, *what;
		int (*run)(struct device *dev, struct exercise_result *r);
	} drivers[] = {
		{ "dma-nc", "memcpy_dma on dma-nc (direct, not coherent): 6 copies", memcpy_small },
		{ "nic-24", "nic_drv on nic-24 (swiotlb): 8 frames each way", nic_small },
		{ "blk-iommu", "blk_drv on blk-iommu (IOMMU): 4 writes read back", blk_small },
	};

	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++) {
		driver_dev = drivers[i].dev;
		driver_run = drivers[i].run;
		CHECK(walk(drivers[i].what, scenario_driver) > 10);
	}
}

/*
 * Every driver on every device, one sweep seed: some two thousand points
 * at a board each, so a soak walks it (DMAMAP_WALK_ALL=1), not every make test.
 */
TEST_TIMEOUT(faults_walk_sweep, 1800)
{
	if (!getenv("DMAMAP_WALK_ALL"))
		SKIP("every driver on every device: set DMAMAP_WALK_ALL=1 (make soak does)");
	CHECK(walk("every example driver on every device", scenario_sweep) > 10);
}

/* Each backend of the default board: direct (coherent, not), swiotlb, dmabounce, IOMMU. */
static const struct {
	const char *dev, *what;
	bool lazy;
} backends[] = {
	{ "dma-coh", "direct, coherent", false },
	{ "dma-nc", "direct, not coherent", false },
	{ "dma-24", "swiotlb (24-bit device)", false },
	{ "ixp-pci", "dmabounce", false },
	{ "dma-iommu", "IOMMU, strict", false },
	{ "dma-iommu", "IOMMU, lazy", true },
};

TEST_TIMEOUT(faults_walk_every_backend, 600)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		char what[96];

		walk_board = "default";
		walk_dev = backends[i].dev;
		walk_lazy = backends[i].lazy;
		snprintf(what, sizeof(what), "%s (%s): single, sg, coherent, dma_pool, pages, noncontiguous", backends[i].what,
			 backends[i].dev);
		CHECK(walk(what, scenario_device) > 10);
	}
}

/* The host platform, as a user-space driver meets it: identity mapping, then everything bounced. */
TEST_TIMEOUT(faults_walk_host_platform, 300)
{
	walk_host_bounce = false;
	CHECK(walk("host platform: single, sg, coherent, dma_pool, pages, noncontiguous", scenario_host) > 10);
	walk_host_bounce = true;
	CHECK(walk("host platform, swiotlb=force: the same", scenario_host) > 10);
}
