/* SPDX-License-Identifier: MIT */
/* What the tests share (helpers.h). */
#include <stdarg.h>
#include <unistd.h>
#include "../drivers/memcpy_dma.h"
#include "helpers.h"

/* ---- directions ---------------------------------------------------------- */

const enum dma_data_direction dirs[3] = { DMA_TO_DEVICE, DMA_FROM_DEVICE,
					  DMA_BIDIRECTIONAL };
const char *const both_devs[2] = { COH, NC };

const char *dir_name(enum dma_data_direction dir)
{
	switch (dir) {
	case DMA_TO_DEVICE: return "TO_DEVICE";
	case DMA_FROM_DEVICE: return "FROM_DEVICE";
	case DMA_BIDIRECTIONAL: return "BIDIRECTIONAL";
	default: return "?";
	}
}

/* ---- boards and devices, their reports captured ---------------------------- */

struct log_capture logs;
struct report_capture reps;

void capture_hook(void *ctx, int level, const char *line)
{
	struct log_capture *c = ctx;
	size_t used = strlen(c->all);

	(void)level;
	c->lines++;
	snprintf(c->last, sizeof(c->last), "%s", line);
	if (used + strlen(line) + 2 < sizeof(c->all))
		snprintf(c->all + used, sizeof(c->all) - used, "%s\n", line);
}

void capture_report(void *ctx, const struct dmamap_report *r)
{
	struct report_capture *c = ctx;

	c->n++;
	c->last = *r;
}

void drop_log(void *ctx, int level, const char *line)
{
	(void)ctx;
	(void)level;
	(void)line;
}

struct dmamap_platform *quiet(struct dmamap_platform *p)
{
	if (p) {
		dmamap_set_log_hook(p, capture_hook, &logs);
		dmamap_set_report_hook(p, capture_report, &reps);
	}
	return p;
}

struct dmamap_platform *default_board(void)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_builtin("default", &err);

	if (!p)
		printf("#   default board: %d %s\n", err.code, err.msg);
	else
		dmamap_debug_enable(p, false);
	return p;
}

struct dmamap_platform *quiet_board(void)
{
	return quiet(default_board());
}

struct dmamap_platform *builtin_board(const char *name)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_builtin(name, &err);

	if (!p)
		printf("#   board %s: %s\n", name, err.msg);
	return quiet(p);
}

static const struct dmamap_device_desc discard_devices[] = {
	{
		.name = COH,
		.model = "memcpy",
		.dma_mask = DMA_BIT_MASK(40),
		.coherent = true,
	},
	{
		.name = NC,
		.model = "memcpy",
		.dma_mask = DMA_BIT_MASK(32),
		.nr_ranges = 1,
		.ranges = { { .cpu_start = RAM0, .dma_start = 0, .size = 128 * MiB } },
	},
};

struct dmamap_platform *discard_board(void)
{
	struct dmamap_board b = {
		.name = "discard",
		.cache_line_size = 64,
		.arch = DMAMAP_CACHE_ARM64,
		.edge_policy = DMAMAP_EDGE_DISCARD,
		.nr_banks = 1,
		.banks = { { RAM0, 128 * MiB } },
		.zone_dma_limit = RAM0 + 64 * MiB - 1,
		.nr_devices = 2,
		.devices = discard_devices,
	};
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_create(&b, &err);

	if (!p)
		printf("#   discard board: %s\n", err.msg);
	return quiet(p);
}

struct dmamap_platform *host_platform(void)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_host(&err);

	if (!p)
		printf("#   host platform: %d %s\n", err.code, err.msg);
	else
		dmamap_debug_enable(p, false);
	return p;
}

struct device *host_device(struct dmamap_platform *p, const char *name,
			   const char *model)
{
	struct dmamap_device_desc d = { .name = name, .model = model };

	return new_device(p, &d);
}

struct dmamap_platform *host_forced(struct device **dev)
{
	struct dmamap_platform *p = quiet(host_platform());

	if (!p)
		return NULL;
	*dev = host_device(p, "hb", NULL);
	if (!*dev || dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_FORCE)) {
		dmamap_platform_destroy(p);
		return NULL;
	}
	return p;
}

struct device *iommu_device(struct dmamap_platform *p, const char *name,
			    const char *iommu, unsigned int group,
			    unsigned int max_seg, bool coherent)
{
	struct dmamap_device_desc d = {
		.name = name,
		.model = NULL,
		.coherent = coherent,
		.max_segment_size = max_seg,
		.iommu = iommu,
		.iommu_group = group,
	};

	return new_device(p, &d);
}

struct device *new_device(struct dmamap_platform *p,
			  const struct dmamap_device_desc *d)
{
	struct dmamap_error err = { 0 };
	struct device *dev = dmamap_device_create(p, d, &err);

	if (!dev)
		printf("#   device %s: %d %s\n", d->name, err.code, err.msg);
	return dev;
}

struct device *lookup(struct dmamap_platform *p, const char *name)
{
	struct device *dev = dmamap_device_lookup(p, name);

	if (!dev)
		printf("#   no device %s\n", name);
	return dev;
}

/* ---- counters -------------------------------------------------------------- */

struct dmamap_device_stats stats_of(struct device *dev)
{
	struct dmamap_device_stats s;

	memset(&s, 0, sizeof(s));
	if (dmamap_device_stats(dev, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

struct dmamap_swiotlb_stats pool_of(struct dmamap_platform *p, struct device *dev)
{
	struct dmamap_swiotlb_stats s;

	memset(&s, 0, sizeof(s));
	if (dmamap_swiotlb_stats(p, dev, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

struct dmamap_dmabounce_stats db_stats(struct device *dev)
{
	struct dmamap_dmabounce_stats s;

	memset(&s, 0, sizeof(s));
	if (dmamap_dmabounce_stats(dev, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

struct dmamap_iommu_stats istats(struct device *dev)
{
	struct dmamap_iommu_stats s;

	memset(&s, 0, sizeof(s));
	if (dmamap_iommu_stats(dev, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

bool iommu_left_clean(struct device *dev)
{
	uint64_t pages = istats(dev).pages_mapped, errors = stats_of(dev).errors;

	if (pages || errors)
		printf("#   %s: %llu IO pages still mapped, %llu errors\n", dev_name(dev),
		       (unsigned long long)pages, (unsigned long long)errors);
	return !pages && !errors;
}

bool in_pool(const struct dmamap_swiotlb_stats *s, phys_addr_t phys, size_t size)
{
	return phys >= s->start &&
	       phys + size <= s->start + s->total_slots * s->slot_size;
}

unsigned int chunks_in_pool(struct dmamap_platform *p)
{
	struct dmamap_swiotlb_stats s = pool_of(p, NULL);

	return (unsigned int)(s.total_slots * s.slot_size / (64 * KiB));
}

uint64_t sim_losses(struct dmamap_platform *p)
{
	struct dmamap_sim_cache_stats s;

	if (dmamap_sim_cache_stats(p, &s))
		return ~0ULL;
	return s.device_bytes_lost + s.conflicts +
	       dmamap_report_count(p, DMAMAP_DBG_CPU_DATA_LOST) +
	       dmamap_report_count(p, DMAMAP_DBG_DEVICE_DATA_LOST);
}

unsigned int count_events(struct dmamap_platform *p, enum dmamap_sim_event_kind kind,
			  phys_addr_t line, struct dmamap_sim_event *out)
{
	static struct dmamap_sim_event ev[256];
	unsigned int n = dmamap_sim_events(p, ev, 256), found = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (ev[i].kind != kind || (line && ev[i].line != line))
			continue;
		if (!found && out)
			*out = ev[i];
		found++;
	}
	return found;
}

/* ---- bytes ------------------------------------------------------------------- */

void fill_pattern(void *buf, size_t len, unsigned int seed)
{
	uint8_t *b = buf;

	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(seed * 131u + i * 7u + (i >> 8) + 1u);
}

void pattern(void *buf, size_t len, unsigned int seed)
{
	uint8_t *b = buf;

	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(seed * 37u + i * 13u + (i >> 8) + 1u);
}

void pat(void *buf, size_t len, unsigned int seed)
{
	uint8_t *b = buf;

	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(1 + (seed * 17u + i * 7u + (i >> 9)) % 251u);
}

uint8_t *patbuf(size_t len, unsigned int seed)
{
	uint8_t *b = malloc(len ? len : 1);

	if (b)
		pat(b, len, seed);
	return b;
}

void overlay(void *out, const void *base, const void *over, size_t n, size_t off,
	     size_t len)
{
	if (out != base)
		memcpy(out, base, n);
	memcpy((uint8_t *)out + off, (const uint8_t *)over + off, len);
}

bool all_bytes(const void *buf, size_t len, uint8_t v)
{
	const uint8_t *b = buf;

	for (size_t i = 0; i < len; i++)
		if (b[i] != v)
			return false;
	return true;
}

size_t ndiff(const void *a, const void *b, size_t len)
{
	const uint8_t *x = a, *y = b;
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += x[i] != y[i];
	return n;
}

size_t dev_diff(struct device *dev, dma_addr_t h, const void *want, size_t len)
{
	uint8_t *got = malloc(len);
	size_t n;

	if (!got)
		return len + 1;
	n = dmamap_device_read(dev, h, got, len) ? len + 1 : ndiff(got, want, len);
	free(got);
	return n;
}

bool dev_reads(struct device *dev, dma_addr_t dma, const void *want, size_t len)
{
	return dev_diff(dev, dma, want, len) == 0;
}

bool mem_is_at(struct dmamap_platform *p, phys_addr_t phys, const void *want, size_t len)
{
	uint8_t *m = malloc(len);
	bool ok = m && !dmamap_sim_mem_read(p, phys, m, len) && !memcmp(m, want, len);

	free(m);
	return ok;
}

bool mem_is(struct dmamap_platform *p, const void *cpu, const void *want, size_t len)
{
	return mem_is_at(p, virt_to_phys(cpu), want, len);
}

bool in_bank(phys_addr_t phys, size_t len)
{
	return (phys >= BANK0_START && phys + len <= BANK0_START + BANK0_SIZE) ||
	       (phys >= BANK1_START && phys + len <= BANK1_START + BANK1_SIZE);
}

bool iova_maps_to(struct device *dev, dma_addr_t iova, phys_addr_t phys, size_t len)
{
	for (size_t off = 0; off < len; off += PAGE_SIZE)
		if (dmamap_iommu_iova_to_phys(dev, iova + off) != phys + off)
			return false;
	return dmamap_iommu_iova_to_phys(dev, iova + len - 1) == phys + len - 1;
}

/* ---- buffers -------------------------------------------------------------------- */

uint8_t *dbuf(struct dmamap_platform *p, size_t size)
{
	return dmamap_kmalloc(p, size, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);
}

uint8_t *hi24_buf(struct dmamap_platform *p, size_t size)
{
	uint8_t *b = dmamap_kmalloc(p, size, DMAMAP_GFP_DMA_ALIGN);

	if (b && virt_to_phys(b) < WIN24_END) {
		printf("#   kmalloc gave 0x%llx, below 16 MiB\n",
		       (unsigned long long)virt_to_phys(b));
		return NULL;
	}
	return b;
}

/*
 * ZONE_DMA pages start right after the swiotlb pool; if they do not, take
 * memory just above the pool's end (nothing else uses it in these tests).
 */
uint8_t *d24_lo_pages(struct dmamap_platform *p, unsigned int order)
{
	struct dmamap_swiotlb_stats s = pool_of(p, NULL);
	phys_addr_t pool_end = s.start + s.total_slots * s.slot_size;
	struct page *pg = dmamap_alloc_pages(p, order, DMAMAP_GFP_DMA);
	phys_addr_t phys = pg ? page_to_phys(pg) : 0;

	if (pg && phys >= pool_end && phys + (PAGE_SIZE << order) <= WIN24_END)
		return page_address(pg);
	return dmamap_phys_to_virt(p, pool_end + 4 * MiB);
}

uint8_t *ixp_lo_buf(struct dmamap_platform *p, size_t n)
{
	uint8_t *b = dmamap_kmalloc(p, n, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);

	return b && virt_to_phys(b) + n <= IXP_ABOVE ? b : NULL;
}

uint8_t *ixp_hi_buf(struct dmamap_platform *p, size_t n)
{
	uint8_t *b = dmamap_kmalloc(p, n, DMAMAP_GFP_DMA_ALIGN);

	return b && virt_to_phys(b) >= IXP_ABOVE ? b : NULL;
}

uint8_t *host_pages(size_t len)
{
	return aligned_alloc(PAGE_SIZE, (len + PAGE_SIZE - 1) & ~(size_t)(PAGE_SIZE - 1));
}

/* ---- scenarios ------------------------------------------------------------------- */

void on_dma24(unsigned int n, unsigned int order, bounce_scenario scenario)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = p ? dmamap_device_lookup(p, D24) : NULL;
	uint8_t *bufs[SCENARIO_BUFS_MAX];

	REQUIRE(dev && n <= SCENARIO_BUFS_MAX);
	for (unsigned int i = 0; i < n; i++) {
		struct page *pg = dmamap_alloc_pages(p, order, 0);

		REQUIRE(pg && page_to_phys(pg) >= WIN24_END);
		bufs[i] = page_address(pg);
	}
	scenario(p, dev, bufs);
	dmamap_platform_destroy(p);
}

void on_host_forced(unsigned int n, size_t len, bounce_scenario scenario)
{
	struct device *dev;
	struct dmamap_platform *p = host_forced(&dev);
	uint8_t *bufs[SCENARIO_BUFS_MAX];

	REQUIRE(p && n <= SCENARIO_BUFS_MAX);
	for (unsigned int i = 0; i < n; i++) {
		bufs[i] = host_pages(len);
		REQUIRE(bufs[i]);
	}
	scenario(p, dev, bufs);
	for (unsigned int i = 0; i < n; i++)
		free(bufs[i]);
	dmamap_platform_destroy(p);
}

dma_addr_t map_ok(struct device *dev, void *buf, size_t size,
		  enum dma_data_direction dir)
{
	dma_addr_t h = dma_map_single(dev, buf, size, dir);

	return dma_mapping_error(dev, h) ? DMA_MAPPING_ERROR : h;
}

dma_addr_t fill_map(struct device *dev, void *buf, const void *bytes, size_t len,
		    enum dma_data_direction dir)
{
	memcpy(buf, bytes, len);
	return map_ok(dev, buf, len, dir);
}

bool bidir_round_trip(struct device *dev, dma_addr_t h, uint8_t *buf,
		      const void *cpu_bytes, const void *dev_bytes, size_t len)
{
	size_t read_wrong = dev_diff(dev, h, cpu_bytes, len), cpu_wrong;
	int wr = dmamap_device_write(dev, h, dev_bytes, len);

	dma_unmap_single(dev, h, len, DMA_BIDIRECTIONAL);
	cpu_wrong = ndiff(buf, dev_bytes, len);
	if (read_wrong || wr || cpu_wrong)
		printf("#   %s, %zu bytes at 0x%llx: device read %zu wrong, write %d, CPU %zu wrong after unmap\n",
		       dev_name(dev), len, (unsigned long long)h, read_wrong, wr, cpu_wrong);
	return !read_wrong && !wr && !cpu_wrong;
}

void sg_fill(struct scatterlist *sgl, int n, uint8_t *const *cpu, uint8_t *const *a,
	     const size_t *len)
{
	sg_init_table(sgl, (unsigned int)n);
	for (int i = 0; i < n; i++) {
		memcpy(cpu[i], a[i], len[i]);
		sg_set_buf(&sgl[i], cpu[i], (unsigned int)len[i]);
	}
}

void sg_round_end(struct device *dev, struct scatterlist *sgl, int n, uint8_t *const *cpu,
		  uint8_t *const *a, uint8_t *const *b, const size_t *len,
		  enum dma_data_direction dir)
{
	if (dev_writes(dir)) {
		/* Every entry comes back at sync_for_cpu, bounced or not. */
		dma_sync_sg_for_cpu(dev, sgl, n, dir);
		for (int i = 0; i < n; i++)
			CHECK_MSG(ndiff(cpu[i], b[i], len[i]) == 0,
				  "%s entry %d: %zu bytes wrong after sync_sg_for_cpu",
				  dir_name(dir), i, ndiff(cpu[i], b[i], len[i]));
		dma_sync_sg_for_device(dev, sgl, n, dir);
	}
	dma_unmap_sg(dev, sgl, n, dir);
	for (int i = 0; i < n; i++)
		CHECK_MSG(ndiff(cpu[i], dev_writes(dir) ? b[i] : a[i], len[i]) == 0,
			  "%s entry %d: %zu bytes wrong after unmap", dir_name(dir), i,
			  ndiff(cpu[i], dev_writes(dir) ? b[i] : a[i], len[i]));
}

void mcdma_copy_ok(struct dmamap_platform *p, const char *dname, size_t len,
		   unsigned int seed)
{
	struct device *dev = dmamap_device_lookup(p, dname);
	uint8_t *src = dbuf(p, len), *dst = dbuf(p, len);
	uint8_t *fill = malloc(len), *seen = malloc(len);
	struct mcdma m;

	REQUIRE(dev && src && dst && fill && seen);
	REQUIRE(mcdma_probe(&m, dev, 16) == 0);
	pattern(fill, len, seed);
	CHECK_EQ(mcdma_copy_buf(&m, dst, src, len, fill, seen, MCDMA_BUG_NONE), 0);
	CHECK_MSG(!memcmp(seen, fill, len), "%s len %zu: %zu bytes wrong", dname,
		  len, ndiff(seen, fill, len));
	CHECK(!memcmp(dst, fill, len));
	CHECK(mem_is(p, dst, fill, len));
	mcdma_remove(&m);
	free(fill);
	free(seen);
	dmamap_kfree(p, src);
	dmamap_kfree(p, dst);
}

void fault_fn(void *ctx, struct device *dev, dma_addr_t iova, bool write,
	      const char *reason)
{
	struct fault_log *f = ctx;

	f->calls++;
	f->iova = iova;
	f->write = write;
	f->dev = dev;
	snprintf(f->reason, sizeof(f->reason), "%s", reason ? reason : "");
}

/* ---- the checker's reports, recorded ------------------------------------------------ */

struct report_record rec;
struct log_record logc;
struct dmamap_platform *cur_p;
unsigned long count_base[DMAMAP_DBG_KIND_COUNT];
unsigned int log_base;
bool check_log = true;

const char *kname(enum dmamap_dbg_kind k)
{
	const char *n = dmamap_dbg_kind_name(k);

	return n ? n : "(null)";
}

void rec_hook(void *ctx, const struct dmamap_report *r)
{
	(void)ctx;
	if (rec.n < REC_MAX)
		rec.r[rec.n] = *r;
	rec.n++;
}

void log_hook(void *ctx, int level, const char *line)
{
	(void)ctx;
	(void)level;
	if (logc.n < LOG_MAX)
		snprintf(logc.line[logc.n], sizeof(logc.line[0]), "%s", line);
	logc.n++;
}

const char *last_line(void)
{
	if (!logc.n)
		return "";
	return logc.line[(logc.n - 1) < LOG_MAX ? logc.n - 1 : LOG_MAX - 1];
}

void rec_reset(void)
{
	rec.n = 0;
	log_base = logc.n;
	for (unsigned int k = 0; k < DMAMAP_DBG_KIND_COUNT; k++)
		count_base[k] = cur_p ? dmamap_report_count(cur_p, (enum dmamap_dbg_kind)k) : 0;
}

struct dmamap_platform *checked(struct dmamap_platform *p)
{
	if (!p)
		return NULL;
	dmamap_set_log_hook(p, log_hook, NULL);
	dmamap_set_report_hook(p, rec_hook, NULL);
	dmamap_debug_enable(p, true);
	cur_p = p;
	rec_reset();
	return p;
}

struct dmamap_platform *sim_board(const char *name)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_builtin(name, &err);

	if (!p)
		printf("#   board %s: %d %s\n", name, err.code, err.msg);
	return checked(p);
}

struct dmamap_platform *host_board(void)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_host(&err);

	if (!p)
		printf("#   host platform: %d %s\n", err.code, err.msg);
	return checked(p);
}

void stop_checking(struct dmamap_platform *p)
{
	dmamap_debug_enable(p, false);
	dmamap_set_report_hook(p, NULL, NULL);
}

static void dump_reports(void)
{
	for (unsigned int i = 0; i < rec.n && i < REC_MAX; i++)
		printf("#     report %u: %s dev='%s' addr=0x%llx size=%llu dir=%d at=%p: %s\n",
		       i, kname(rec.r[i].kind), rec.r[i].device,
		       (unsigned long long)rec.r[i].addr,
		       (unsigned long long)rec.r[i].size, rec.r[i].direction,
		       rec.r[i].mapped_at, rec.r[i].text);
}

void expect_kinds(const char *file, int line, bool ordered,
		  const enum dmamap_dbg_kind *want, unsigned int nwant)
{
	bool ok = rec.n == nwant;
	bool used[REC_MAX] = { false };

	for (unsigned int i = 0; ok && i < nwant; i++) {
		if (ordered) {
			ok = rec.r[i].kind == want[i];
			continue;
		}
		ok = false;
		for (unsigned int j = 0; j < rec.n; j++) {
			if (!used[j] && rec.r[j].kind == want[i]) {
				used[j] = ok = true;
				break;
			}
		}
	}
	if (!ok) {
		char got[1024] = "", exp[1024] = "";

		for (unsigned int i = 0; i < rec.n && i < REC_MAX; i++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
				 i ? ", " : "", kname(rec.r[i].kind));
		for (unsigned int i = 0; i < nwant; i++)
			snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), "%s%s",
				 i ? ", " : "", kname(want[i]));
		tap_fail(file, line, "reports [%s], expected %s[%s]", got,
			 ordered ? "" : "in any order ", exp);
		dump_reports();
		return;
	}
	if (cur_p) {
		for (unsigned int k = 1; k < DMAMAP_DBG_KIND_COUNT; k++) {
			unsigned long n = 0, c;

			for (unsigned int i = 0; i < nwant; i++)
				n += want[i] == k;
			c = dmamap_report_count(cur_p, (enum dmamap_dbg_kind)k) - count_base[k];
			if (c != n)
				tap_fail(file, line, "dmamap_report_count(%s) grew by %lu, the hook saw %lu",
					 kname((enum dmamap_dbg_kind)k), c, n);
		}
	}
	if (check_log) {
		if (logc.n - log_base != nwant)
			tap_fail(file, line, "%u log lines for %u reports", logc.n - log_base,
				 nwant);
		for (unsigned int i = log_base; i < logc.n && i < LOG_MAX; i++) {
			char tag[96];

			snprintf(tag, sizeof(tag), "[%s]",
				 kname(rec.r[i - log_base < REC_MAX ? i - log_base : 0].kind));
			if (strncmp(logc.line[i], "DMA-API: ", 9) || !strstr(logc.line[i], tag))
				tap_fail(file, line, "log line '%s' is not 'DMA-API: ... %s'",
					 logc.line[i], tag);
		}
	}
}

/* The text of the code of this binary (test and library, linked statically). */
extern char __executable_start[];
extern char etext[];

bool in_binary_text(const void *a)
{
	return (const char *)a >= __executable_start && (const char *)a < etext;
}

bool text_has(unsigned int i, const char *s)
{
	return i < rec.n && strstr(rec.r[i].text, s) != NULL;
}

bool text_has_addr(unsigned int i, dma_addr_t addr)
{
	const char *s;

	if (i >= rec.n)
		return false;
	for (s = strstr(rec.r[i].text, "0x"); s; s = strstr(s + 2, "0x"))
		if (strtoull(s + 2, NULL, 16) == addr)
			return true;
	return false;
}

/* ---- a board, a device and a buffer ------------------------------------------------- */

bool scene_on(struct scene *s, struct dmamap_platform *p, const char *name,
	      scene_buf_fn *buf_fn, size_t buflen)
{
	memset(s, 0, sizeof(*s));
	s->h = DMA_MAPPING_ERROR;
	s->p = p;
	if (!p)
		return false;
	s->dev = lookup(p, name);
	if (buflen) {
		s->buf = buf_fn(p, buflen);
		if (!s->buf)
			printf("#   no buffer of %zu bytes where the test wants it\n", buflen);
	}
	return s->dev && (s->buf || !buflen);
}

bool checked_scene(struct scene *s, const char *name, size_t buflen)
{
	return scene_on(s, sim_board("default"), name, dbuf, buflen);
}

bool quiet_scene(struct scene *s, const char *name, scene_buf_fn *buf_fn, size_t buflen)
{
	return scene_on(s, quiet_board(), name, buf_fn, buflen);
}

bool scene_map(struct scene *s, size_t len, enum dma_data_direction dir)
{
	s->h = map_ok(s->dev, s->buf, len, dir);
	if (s->h == DMA_MAPPING_ERROR)
		printf("#   %s: mapping %zu bytes %s failed\n", dev_name(s->dev), len,
		       dir_name(dir));
	return s->h != DMA_MAPPING_ERROR;
}

void scene_end(struct scene *s)
{
	if (s->buf)
		dmamap_kfree(s->p, s->buf);
	dmamap_platform_destroy(s->p);
}

void scene_end_clean(struct scene *s)
{
	if (s->buf)
		dmamap_kfree(s->p, s->buf);
	DESTROY_CLEAN(s->p);
}

/* ---- a strict, minimal JSON validator ------------------------------------- */

static const char *js_value(const char *s, int depth);

static const char *js_ws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return s;
}

static const char *js_string(const char *s)
{
	if (*s++ != '"')
		return NULL;
	while (*s != '"') {
		if (!*s || (unsigned char)*s < 0x20)
			return NULL;
		if (*s == '\\') {
			s++;
			if (*s == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
						return NULL;
				s += 4;
			} else if (!*s || !strchr("\"\\/bfnrt", *s)) {
				return NULL;
			}
		}
		s++;
	}
	return s + 1;
}

static const char *js_digits(const char *s)
{
	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

static const char *js_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (!(s = js_digits(s)))
		return NULL;
	if (*s == '.' && !(s = js_digits(s + 1)))
		return NULL;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(s = js_digits(s)))
			return NULL;
	}
	return s;
}

static const char *js_value(const char *s, int depth)
{
	char close;

	s = js_ws(s);
	if (depth > 16)
		return NULL;
	if (*s == '"')
		return js_string(s);
	if (!strncmp(s, "true", 4))
		return s + 4;
	if (!strncmp(s, "false", 5))
		return s + 5;
	if (!strncmp(s, "null", 4))
		return s + 4;
	if (*s != '{' && *s != '[')
		return js_number(s);
	close = *s == '{' ? '}' : ']';
	s = js_ws(s + 1);
	if (*s == close)
		return s + 1;
	for (;;) {
		if (close == '}') {
			if (!(s = js_string(js_ws(s))))
				return NULL;
			s = js_ws(s);
			if (*s++ != ':')
				return NULL;
		}
		if (!(s = js_value(s, depth + 1)))
			return NULL;
		s = js_ws(s);
		if (*s == close)
			return s + 1;
		if (*s++ != ',')
			return NULL;
	}
}

bool json_valid_object(const char *s)
{
	s = js_ws(s);
	if (*s != '{')
		return false;
	s = js_value(s, 0);
	return s && !*js_ws(s);
}

/* ---- device trees ------------------------------------------------------------------ */

/*
 * NO_FDT builds (the 32-bit CI build when there is no 32-bit libfdt) have
 * stubs that refuse every tree with -ENOSYS; .dts files need dtc at test
 * time. Either way those tests cannot run: they skip, saying why.
 */
void need_dts_support(void)
{
	struct dmamap_error err = { 0 };

	if (!dmamap_platform_from_fdt(NULL, 0, &err) && err.code == -ENOSYS)
		SKIP("built without libfdt");
	if (system("dtc --version >/dev/null 2>&1") != 0)
		SKIP("dtc (device-tree-compiler) is not installed");
}

struct dmamap_platform *from_dts(const char *dts, struct dmamap_error *err)
{
	char path[] = "/tmp/dmamap-test-XXXXXX.dts";
	int fd;
	struct dmamap_platform *p;
	FILE *f;

	need_dts_support();
	fd = mkstemps(path, 4);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	fputs(dts, f);
	fclose(f);
	p = dmamap_platform_from_file(path, err);
	unlink(path);
	return p;
}

struct dmamap_platform *dts_board(const char *dts)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(dts, &err);

	SKIP_WITHOUT_FDT(err);
	if (!p)
		printf("#   the tree was refused: %d %s\n", err.code, err.msg);
	return p;
}

struct device *dts_device(const char *dts, const char *name, struct dmamap_platform **p)
{
	*p = dts_board(dts);
	return *p ? lookup(*p, name) : NULL;
}

size_t board_blob(uint8_t *blob, size_t cap)
{
	char path[] = "/tmp/dmamap-blob-XXXXXX", cmd[256];
	int fd;
	size_t n = 0;
	FILE *f;

	need_dts_support();
	fd = mkstemp(path);
	if (fd < 0)
		return 0;
	close(fd);
	snprintf(cmd, sizeof(cmd), "dtc -q -I dts -O dtb -o %s boards/rpi4-like.dts 2>/dev/null",
		 path);
	if (system(cmd) == 0 && (f = fopen(path, "rb"))) {
		n = fread(blob, 1, cap, f);
		fclose(f);
	}
	unlink(path);
	if (!n)
		printf("#   dtc did not compile boards/rpi4-like.dts\n");
	return n;
}
