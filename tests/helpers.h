/* SPDX-License-Identifier: MIT */
/*
 * What the tests share: the default board's layout, boards and devices set
 * up the way most tests want them (reports and log lines captured instead
 * of printed), counter snapshots, byte patterns and comparisons of what the
 * CPU and a device see, the checker tests' report recorder and its
 * assertions, and the scene most scenarios start from (a board, a device,
 * a buffer). They are defined in tests/helpers/, a file per job.
 *
 * Everything here uses only the public API, as the tests do (but those of
 * tests/unit/, which test private interfaces and do not need these).
 */
#ifndef DMAMAP_TESTS_HELPERS_H
#define DMAMAP_TESTS_HELPERS_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "tap.h"

/* ---- the default board (src/platform/sim/boards.c) --------------------- */

#define KiB 1024UL
#define MiB (1ULL << 20)
#define BANK0_START 0x80000000ULL
#define BANK0_SIZE (128ULL << 20)
#define BANK1_START 0x880000000ULL
#define BANK1_SIZE (64ULL << 20)
#define ZONE_DMA_END (BANK0_START + (64ULL << 20)) /* first byte above ZONE_DMA */
#define RAM0 BANK0_START	 /* dma-nc's window base */
#define HIGH_BANK BANK1_START	 /* the bank above 4 GiB */
#define MMIO_PHYS 0x10000000ULL /* not RAM; reachable by dma-coh and dma-32 */
#define NO_PHYS ((phys_addr_t)-1)
#define WIN24_END (RAM0 + 16 * MiB) /* first byte dma-24 cannot reach */
#define IXP_ABOVE (RAM0 + 64 * MiB) /* ixp-pci bounces buffers at or above this */

#define COH "dma-coh"	      /* coherent, 40-bit */
#define NC "dma-nc"	      /* non-coherent, a 128 MiB window at bus 0 */
#define D32 "dma-32"	      /* non-coherent, 32-bit: not the bank above 4 GiB */
#define D24 "dma-24"	      /* 24-bit: bounces through swiotlb */
#define IXP "ixp-pci"	      /* behind dmabounce */
#define IOMMU_DEV "dma-iommu" /* behind smmu0 */

/* ---- directions ---------------------------------------------------------- */

extern const enum dma_data_direction dirs[3]; /* TO, FROM, BIDIRECTIONAL */
extern const char *const both_devs[2];	      /* COH, NC */
const char *dir_name(enum dma_data_direction dir);

/* Whether the device may write a mapping of direction @d. */
static inline bool dev_writes(enum dma_data_direction d)
{
	return d != DMA_TO_DEVICE;
}

/* ---- boards and devices, their reports captured ---------------------------- */

/* A log hook that keeps the lines it is given. */
struct log_capture {
	unsigned int lines;
	char last[512];
	char all[4096];
};

/* A report hook that counts the reports and keeps the last one. */
struct report_capture {
	unsigned int n;
	struct dmamap_report last;
};

/* Where quiet() sends a platform's log lines and reports. */
extern struct log_capture logs;
extern struct report_capture reps;

void capture_hook(void *ctx, int level, const char *line);
void capture_report(void *ctx, const struct dmamap_report *r);
/* A log hook for lines nobody reads (safe from any thread). */
void drop_log(void *ctx, int level, const char *line);

/* @p's log lines into logs, its reports into reps (expected ones stay off stderr). */
struct dmamap_platform *quiet(struct dmamap_platform *p);
/* The default board with the checker off (whatever DMAMAP_DEBUG says). */
struct dmamap_platform *default_board(void);
/* default_board(), quiet. */
struct dmamap_platform *quiet_board(void);
/*
 * The host's page (what mmap maps and mprotect protects), at least a
 * simulated PAGE_SIZE: 16 or 64 KiB on some arm64 hosts. Its order in
 * simulated pages.
 */
size_t host_page(void);
unsigned int host_page_order(void);
/* A built-in board by name, quiet; the checker as the environment says. */
struct dmamap_platform *builtin_board(const char *name);
/*
 * dma-coh and dma-nc (both with the memcpy model) on a core whose
 * invalidate simply discards partial edge lines (no write-back first): the
 * CPU's side of a shared line is the one that loses. Quiet.
 */
struct dmamap_platform *discard_board(void);
/* This process's memory, checker off. */
struct dmamap_platform *host_platform(void);
struct device *host_device(struct dmamap_platform *p, const char *name,
			   const char *model);
/* The host, quiet, in swiotlb=force mode, with one device "hb" in *@dev. */
struct dmamap_platform *host_forced(struct device **dev);
/* A device of our own behind @iommu, on a simulated board or the host. */
struct device *iommu_device(struct dmamap_platform *p, const char *name,
			    const char *iommu, unsigned int group,
			    unsigned int max_seg, bool coherent);
struct device *new_device(struct dmamap_platform *p,
			  const struct dmamap_device_desc *d);
/* dmamap_device_lookup(), saying so when there is no such device. */
struct device *lookup(struct dmamap_platform *p, const char *name);

/* ---- counters -------------------------------------------------------------- */

/* Snapshots: all bits set when the call failed, so that no check can pass on them. */
struct dmamap_device_stats stats_of(struct device *dev);
struct dmamap_swiotlb_stats pool_of(struct dmamap_platform *p, struct device *dev);
struct dmamap_dmabounce_stats db_stats(struct device *dev);
struct dmamap_iommu_stats istats(struct device *dev);

static inline uint64_t errk(struct device *dev, enum dmamap_err_kind k)
{
	return stats_of(dev).errors_by_kind[k];
}

/* Live streaming mappings of a device, as the stats see them. */
static inline int64_t live_maps(struct device *dev)
{
	struct dmamap_device_stats s = stats_of(dev);

	return (int64_t)(s.maps - s.unmaps);
}

/*
 * @dev (behind an IOMMU) counted no error and has nothing left mapped in
 * its IO page tables: how a test that unmapped everything leaves it.
 * False, said, otherwise.
 */
bool iommu_left_clean(struct device *dev);
bool in_pool(const struct dmamap_swiotlb_stats *s, phys_addr_t phys, size_t size);
/* How many 64 KiB mappings fill @p's default pool. */
unsigned int chunks_in_pool(struct dmamap_platform *p);
/*
 * Data a driver lost, as the cache model sees it: reported losses, lines
 * both sides wrote, device bytes overwritten. Not counted: CPU bytes an
 * armv5 map of a FROM_DEVICE buffer discards by design (stale bytes left by
 * an earlier user of the memory), which the model records but does not
 * report.
 */
uint64_t sim_losses(struct dmamap_platform *p);
/* Count the cache model's events of @kind on @line (any line if 0); the first into @out. */
unsigned int count_events(struct dmamap_platform *p, enum dmamap_sim_event_kind kind,
			  phys_addr_t line, struct dmamap_sim_event *out);

/* ---- bytes ------------------------------------------------------------------- */

/*
 * Three patterns, each with what tests rely on. All: two seeds that differ
 * (modulo 256 for fill_pattern() and pattern(), modulo 251 for pat()) give
 * buffers that differ in every byte.
 */
void fill_pattern(void *buf, size_t len, unsigned int seed);
void pattern(void *buf, size_t len, unsigned int seed);
/* No zero byte. */
void pat(void *buf, size_t len, unsigned int seed);
/* A malloc()ed buffer holding pat(@seed). */
uint8_t *patbuf(size_t len, unsigned int seed);

/*
 * @out = @n bytes of @base but [@off, @off + @len) from @over: what a copy
 * of just that range of @over onto @base leaves. @out may be @base.
 */
void overlay(void *out, const void *base, const void *over, size_t n, size_t off,
	     size_t len);
bool all_bytes(const void *buf, size_t len, uint8_t v);
size_t ndiff(const void *a, const void *b, size_t len);
/* Bytes the device reads at @h that differ from @want (len + 1 if the read faulted). */
size_t dev_diff(struct device *dev, dma_addr_t h, const void *want, size_t len);
/* Does the device read exactly @want at @dma? */
bool dev_reads(struct device *dev, dma_addr_t dma, const void *want, size_t len);
/* Does the memory view (what a non-coherent device sees) under @cpu hold @want? */
bool mem_is(struct dmamap_platform *p, const void *cpu, const void *want, size_t len);
/* The same at a physical address. */
bool mem_is_at(struct dmamap_platform *p, phys_addr_t phys, const void *want, size_t len);
/* Whether [phys, +len) is inside one RAM bank of the default board. */
bool in_bank(phys_addr_t phys, size_t len);
/* Every byte of @len from @phys on translates to the same distance from @phys. */
bool iova_maps_to(struct device *dev, dma_addr_t iova, phys_addr_t phys, size_t len);

/* ---- buffers -------------------------------------------------------------------- */

/* Line-aligned, in ZONE_DMA: every device of the built-in boards reaches it. */
uint8_t *dbuf(struct dmamap_platform *p, size_t size);
/* Line-aligned kmalloc memory above dma-24's 16 MiB (NULL, said, if below). */
uint8_t *hi24_buf(struct dmamap_platform *p, size_t size);
/* 2^@order pages dma-24 reaches without bouncing: below 16 MiB, outside the pool. */
uint8_t *d24_lo_pages(struct dmamap_platform *p, unsigned int order);
/* Line-aligned buffers below (direct) and at or above (bounced) ixp-pci's limit. */
uint8_t *ixp_lo_buf(struct dmamap_platform *p, size_t n);
uint8_t *ixp_hi_buf(struct dmamap_platform *p, size_t n);
/* Page-aligned heap memory for the host, @len rounded up to pages; free(). */
uint8_t *host_pages(size_t len);

/* ---- scenarios ------------------------------------------------------------------- */

/* A scenario run on a device that must bounce, with the buffers it gets. */
typedef void (*bounce_scenario)(struct dmamap_platform *, struct device *, uint8_t **bufs);
#define SCENARIO_BUFS_MAX 64
/* Run @scenario on dma-24 with @n blocks of 2^@order pages above its window. */
void on_dma24(unsigned int n, unsigned int order, bounce_scenario scenario);
/* Run @scenario on a forced host device with @n buffers of @len bytes. */
void on_host_forced(unsigned int n, size_t len, bounce_scenario scenario);
/* dma_map_single() and dma_mapping_error(), as every correct driver does. */
dma_addr_t map_ok(struct device *dev, void *buf, size_t size,
		  enum dma_data_direction dir);
/*
 * Copy @bytes into @buf, then map it @dir (the error checked): what a
 * driver does with a buffer it hands to a device. DMA_MAPPING_ERROR on failure.
 */
dma_addr_t fill_map(struct device *dev, void *buf, const void *bytes, size_t len,
		    enum dma_data_direction dir);
/*
 * The device's side of a BIDIRECTIONAL mapping @h of @buf, then the unmap:
 * the device reads @cpu_bytes (what the CPU put there) and writes
 * @dev_bytes, which the CPU finds in @buf after the unmap. False, said, if
 * any of that does not hold.
 */
bool bidir_round_trip(struct device *dev, dma_addr_t h, uint8_t *buf,
		      const void *cpu_bytes, const void *dev_bytes, size_t len);
/* @sgl: @n entries of len[i] bytes at cpu[i], each filled with a[i] first. */
void sg_fill(struct scatterlist *sgl, int n, uint8_t *const *cpu, uint8_t *const *a,
	     const size_t *len);
/*
 * The end of a round of @sgl (sg_fill()) mapped @dir, after the device
 * wrote b[i] into each entry if it may: every entry holds b[i] after
 * dma_sync_sg_for_cpu() (then handed back), and after the unmap b[i], or
 * a[i] where the device may not write.
 */
void sg_round_end(struct device *dev, struct scatterlist *sgl, int n, uint8_t *const *cpu,
		  uint8_t *const *a, uint8_t *const *b, const size_t *len,
		  enum dma_data_direction dir);
/* One copy of @len bytes by the example driver (drivers/memcpy_dma.c) on @dname. */
void mcdma_copy_ok(struct dmamap_platform *p, const char *dname, size_t len,
		   unsigned int seed);

/* An IOMMU fault handler that remembers the last fault. */
struct fault_log {
	unsigned int calls;
	dma_addr_t iova;
	bool write;
	char reason[160];
	struct device *dev;
};

void fault_fn(void *ctx, struct device *dev, dma_addr_t iova, bool write,
	      const char *reason);

/* ---- checks ---------------------------------------------------------------------- */

/* @call must hold, and exactly one NULL-device report must be counted. */
#define CHECK_NULL_DEV(call)                                                  \
	do {                                                                  \
		unsigned long n0_ = dmamap_report_count(NULL,                 \
							DMAMAP_DBG_NULL_DEVICE); \
		CHECK(call);                                                  \
		CHECK_EQ(dmamap_report_count(NULL, DMAMAP_DBG_NULL_DEVICE),   \
			 n0_ + 1);                                            \
	} while (0)

/* @call must hold and count exactly one error of kind @k on @dev. */
#define CHECK_ERRK(dev, k, call)                                              \
	do {                                                                  \
		uint64_t e0_ = errk(dev, k);                                  \
		uint64_t t0_ = stats_of(dev).errors;                          \
		CHECK(call);                                                  \
		CHECK_EQ(errk(dev, k), e0_ + 1);                              \
		CHECK_EQ(stats_of(dev).errors, t0_ + 1);                      \
	} while (0)

/* A void call, for use inside CHECK_*(). */
#define VOIDCALL(call) ((call), true)

/* ---- the checker's reports, recorded ------------------------------------------------ */

/*
 * The usual pattern: p = checked(board); make one mistake; EXPECT_KINDS(k)
 * asserts that the reports since the last rec_reset() are exactly [k], and
 * that the platform's counters and the log agree with the hook.
 */
#define REC_MAX 256
#define LOG_MAX 64

struct report_record {
	unsigned int n; /* reports seen (may exceed REC_MAX) */
	struct dmamap_report r[REC_MAX];
};

struct log_record {
	unsigned int n; /* lines seen */
	char line[LOG_MAX][512];
};

extern struct report_record rec;
extern struct log_record logc;
/* Counters of the platform being checked at the last rec_reset(). */
extern struct dmamap_platform *cur_p;
extern unsigned long count_base[DMAMAP_DBG_KIND_COUNT];
extern unsigned int log_base;
/* Whether EXPECT_* also checks one log line per report (no filter, no limit). */
extern bool check_log;

const char *kname(enum dmamap_dbg_kind k);
void rec_hook(void *ctx, const struct dmamap_report *r);
void log_hook(void *ctx, int level, const char *line);
const char *last_line(void);
/* Forget what was recorded; counts and log lines are compared from here on. */
void rec_reset(void);
/* Hooks on, checker on, recorder empty. */
struct dmamap_platform *checked(struct dmamap_platform *p);
/* A built-in board, checked. */
struct dmamap_platform *sim_board(const char *name);
/* The host, checked. */
struct dmamap_platform *host_board(void);
/*
 * For cleanups whose reports the contract leaves open (what the checker does
 * with an entry after a mismatched unmap or a rejected free): stop checking
 * and recording. Turning the checker off forgets every entry.
 */
void stop_checking(struct dmamap_platform *p);
/*
 * The reports since rec_reset() are exactly @want (in this order when
 * @ordered, else as a multiset); the platform's counters grew by exactly
 * those; and (check_log) one log line each, naming the kind.
 */
void expect_kinds(const char *file, int line, bool ordered,
		  const enum dmamap_dbg_kind *want, unsigned int nwant);

#define KINDS_(...)                                                           \
	((const enum dmamap_dbg_kind[]){ __VA_ARGS__ }),                      \
	(unsigned int)(sizeof((const enum dmamap_dbg_kind[]){ __VA_ARGS__ }) / \
		       sizeof(enum dmamap_dbg_kind))
/* Exactly these kinds, in this order, since rec_reset(). */
#define EXPECT_KINDS(...) expect_kinds(__FILE__, __LINE__, true, KINDS_(__VA_ARGS__))
/* Exactly these kinds, in any order, since rec_reset(). */
#define EXPECT_KINDS_ANY_ORDER(...)                                           \
	expect_kinds(__FILE__, __LINE__, false, KINDS_(__VA_ARGS__))
/* No report at all since rec_reset(). */
#define EXPECT_NO_REPORTS() expect_kinds(__FILE__, __LINE__, true, NULL, 0)

/* From a clean record (rec_reset()), @stmt must cause exactly one report, of kind @k. */
#define EXPECT_ONLY(k, stmt)                                                  \
	do {                                                                  \
		rec_reset();                                                  \
		stmt;                                                         \
		EXPECT_KINDS(k);                                              \
	} while (0)

/*
 * Exactly one report since rec_reset(), of kind @k, about the mapping at
 * @h, an entry the checker tracked (it knows where it was mapped).
 */
#define EXPECT_REPORT_AT(k, h)                                                \
	do {                                                                  \
		EXPECT_KINDS(k);                                              \
		CHECK_EQ(rec.r[0].addr, (h));                                 \
		CHECK_TRACKED(0);                                             \
	} while (0)

/* Destroy @p; nothing may be reported (no leak). */
#define DESTROY_CLEAN(p)                                                      \
	do {                                                                  \
		cur_p = NULL;                                                 \
		rec_reset();                                                  \
		dmamap_platform_destroy(p);                                   \
		EXPECT_NO_REPORTS();                                          \
	} while (0)

/* Whether @a is code of this binary (tests and library, linked statically). */
bool in_binary_text(const void *a);

/* Report @i is about a tracked entry: where it was mapped is known. */
#define CHECK_TRACKED(i)                                                      \
	CHECK_MSG((i) < rec.n && rec.r[i].mapped_at &&                        \
			  in_binary_text(rec.r[i].mapped_at),                 \
		  "report %d: mapped_at %p is not code of this binary", (int)(i), \
		  (i) < rec.n ? rec.r[i].mapped_at : NULL)

bool text_has(unsigned int i, const char *s);
/* Does report @i's text name @addr as a hex number (0x..., any padding)? */
bool text_has_addr(unsigned int i, dma_addr_t addr);
/* A strict, minimal JSON check: @s is one object and nothing else. */
bool json_valid_object(const char *s);

/* ---- a board, a device and a buffer ------------------------------------------------- */

/*
 * Where most scenario tests start: a board, one of its devices and a
 * buffer of board memory (kmalloc), with room for the test's mapping of it
 * in h.
 */
struct scene {
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *buf; /* NULL when no buffer was asked for */
	dma_addr_t h;
};

/* Where a scene's buffer comes from: dbuf(), hi24_buf(), ixp_lo_buf(), ixp_hi_buf(). */
typedef uint8_t *scene_buf_fn(struct dmamap_platform *p, size_t size);

/*
 * Take @p (NULL when making it failed), its device @name and @buflen bytes
 * from @buf_fn (none if 0): false, said, when any of them is missing.
 */
bool scene_on(struct scene *s, struct dmamap_platform *p, const char *name,
	      scene_buf_fn *buf_fn, size_t buflen);
/*
 * The default board, checked (sim_board()), its device @name and @buflen
 * bytes of dbuf() (line-aligned: a device-writable mapping of them is not
 * MAP_UNALIGNED).
 */
bool checked_scene(struct scene *s, const char *name, size_t buflen);
/* The default board, quiet, its device @name and @buflen bytes of @buf_fn. */
bool quiet_scene(struct scene *s, const char *name, scene_buf_fn *buf_fn, size_t buflen);
/* Map the buffer's first @len bytes @dir into s->h, the error checked as a driver does. */
bool scene_map(struct scene *s, size_t len, enum dma_data_direction dir);
/* Free the buffer, destroy the board. */
void scene_end(struct scene *s);
/* scene_end(), and nothing may be reported then (no leak), as DESTROY_CLEAN(). */
void scene_end_clean(struct scene *s);

/* ---- device trees ------------------------------------------------------------------ */

/* Skip the test when this build cannot read device trees or dtc is missing. */
void need_dts_support(void);
/* Build a board from DTS text (through dtc); NULL with *err set on failure. */
struct dmamap_platform *from_dts(const char *dts, struct dmamap_error *err);
/*
 * A board from DTS text that must build: from_dts(), skipping the test
 * where this build cannot read trees; NULL, the reason said, if it does not.
 */
struct dmamap_platform *dts_board(const char *dts);
/* DTS text the reader must refuse with -EINVAL and a message holding @what. */
void dts_refused(const char *dts, const char *what);
/* The device @name of dts_board(@dts) (the board in *@p): NULL, said, if either is missing. */
struct device *dts_device(const char *dts, const char *name, struct dmamap_platform **p);
/*
 * rpi4-like's .dts compiled by dtc into @blob (@cap bytes). Its size, 0 on
 * failure.
 */
size_t board_blob(uint8_t *blob, size_t cap);
/*
 * True, said on a "#" line, if this host cannot simulate the built-in
 * board @name: a linear map a 32-bit process's address space cannot hold
 * (or more than DMAMAP_SIM_RAM_MAX).
 */
bool board_too_big_for_host(const char *name);

/* After a call that would have read a tree: skip if the build has no libfdt. */
#define SKIP_WITHOUT_FDT(err)                                                \
	do {                                                                 \
		if ((err).code == -ENOSYS)                                   \
			SKIP("built without libfdt");                        \
	} while (0)

/* The start of a tree: one 64 MiB bank at 0x80000000. */
#define HEAD "/dts-v1/; / { #address-cells = <1>; #size-cells = <1>; " \
	     "memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; }; "
/* The properties of a bus of one-cell addresses that maps them 1:1 (DTS text). */
#define SIMPLE_BUS "compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
/* HEAD and a /reserved-memory node holding @body. */
#define RESV(body) HEAD "reserved-memory { #address-cells = <1>; #size-cells = <1>; ranges; " body " }; "

/* Seconds of the monotonic clock (helpers/clock.c). */
double now_s(void);

/* ---- a model that counts its steps (helpers/ticker.c) ------------------------------- */

#define TICK_TODO 0x0   /* RW: steps of work left */
#define TICK_DONE 0x4   /* RO: steps taken */
#define TICK_TARGET 0x8 /* RW: raise line 0 when DONE reaches it */
#define TICK_RAISE 0xc  /* WO: raise this line now */
#define TICK_FOREVER 0x10 /* WO: 1: never idle */
#define TICK_SLOW_US 0x14 /* WO: each step sleeps this long (a held-up device thread) */

/* Steps of work the tickers find with no register write (for dmamap_model_wake()). */
extern unsigned int ticker_outside_work;
/* A "ticker" device called @name on @p (registering the model on first use). */
struct device *add_ticker(struct dmamap_platform *p, const char *name);

/* ---- a bus master the test drives (helpers/memprobe.c) ------------------------------ */

#define MP_ADDR 0x0        /* RW: device address */
#define MP_LEN 0x4         /* RW: bytes, up to MP_DATA_MAX */
#define MP_READ 0x8        /* WO: read them into MP_DATA now */
#define MP_WRITE 0xc       /* WO: write MP_DATA there now */
#define MP_WRITE_DESC 0x10 /* WO: the same as a descriptor, ownership word (4 bytes) at the offset written */
#define MP_POLL_DESC 0x14  /* WO: fetch the descriptor at each step until owned (bit 31 of the word at the offset written) */
#define MP_POLL_FIRST 0x18 /* WO: read at each step until the first byte is not zero */
#define MP_OWNED 0x1c      /* RO: what the last fetch saw */
#define MP_POLLS 0x20      /* RO: fetches since the poll was armed */
#define MP_DATA 0x100      /* RW: the device's buffer */
#define MP_DATA_MAX 64

/* A "memprobe" device called @name on @p (registering the model on first use). */
struct device *add_memprobe(struct dmamap_platform *p, const char *name, bool coherent);
/* The same behind the IOMMU @iommu (NULL: none). */
struct device *add_memprobe_on(struct dmamap_platform *p, const char *name, bool coherent,
				const char *iommu);

/* ---- stderr (helpers/stderr.c) ---------------------------------------- */

/* What this process writes to stderr goes to a temporary file until stderr_text(). */
void stderr_capture(void);
/* stderr back as it was; what was written meanwhile (the first 4 KiB). */
const char *stderr_text(void);

#endif
