/* SPDX-License-Identifier: MIT */
/*
 * Both bounce backends under random legal operations: a model of what the
 * CPU and the device must each see, byte by byte, through maps, partial
 * syncs both ways, device reads and writes, and unmaps of mixed sizes,
 * offsets and directions, on dma-24 (swiotlb), dma-nc and a host device in
 * swiotlb=force mode, and ixp-pci (dmabounce).
 */
#include "../helpers.h"

/*
 * A model of what each side must see. Per mapping: the bytes the CPU must
 * read through its pointer and the bytes the device must read at the
 * handle, each with a "known" flag (a dmabounce FROM_DEVICE safe buffer
 * holds whatever it held before until the device writes it). Only legal
 * operations are made: the device touches a mapping it owns, the CPU reads
 * one it owns, the CPU writes a buffer only before mapping it.
 *
 * Bounced mappings copy exactly the bytes asked for. Direct mappings on a
 * non-coherent device go through the cache model: an invalidate at
 * sync_for_cpu or unmap refreshes whole cache lines, so the CPU then sees
 * the device's bytes in every line the range touches (the buffer is clean
 * in the cache after the map, so nothing of the CPU's is written back).
 */
#define RSLOTS 4
#define RSLOT_BYTES (20 * KiB) /* per live mapping: buffer (<= 8 KiB + offset) and gap */
#define RMAX 8192

struct rmap {
	bool live, bounced, dev_owns;
	unsigned int region; /* 0: reachable directly, 1: must bounce */
	uint8_t *buf;
	size_t size;
	enum dma_data_direction dir;
	dma_addr_t h;
	uint8_t cpu[RMAX], dev[RMAX];
	bool cpu_k[RMAX], dev_k[RMAX];
};

struct rcfg {
	const char *what;
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *region[2];  /* RSLOTS * RSLOT_BYTES each */
	bool force;          /* everything bounces */
	bool dmabounce;      /* bounced FROM maps do not copy in; safe buffers below 64 MiB */
	unsigned int line;
};

struct rstate {
	const struct rcfg *c;
	uint64_t rng;
	unsigned int seed, op;
	unsigned long bad;
	struct rmap m[RSLOTS];
	uint8_t tmp[RMAX];
};

static uint64_t rnd(struct rstate *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 2685821657736338717ULL;
}

static size_t rsize(struct rstate *s)
{
	static const size_t edges[] = { 1, 2, 63, 64, 65, 511, 512, 513, 2047, 2048, 2049,
					4095, 4096, 4097, 6144, 8191, 8192 };

	switch (rnd(s) % 4) {
	case 0:
		return edges[rnd(s) % (sizeof(edges) / sizeof(edges[0]))];
	case 1:
		return 1 + rnd(s) % 128;
	default:
		return 1 + rnd(s) % RMAX;
	}
}

static void rbad(struct rstate *s, const struct rmap *m, const char *what, size_t nbad)
{
	if (s->bad++ < 3)
		printf("#   %s seed %u op %u: %s: %zu bytes differ (%s %s size %zu at phys 0x%llx, handle 0x%llx)\n",
		       s->c->what, s->seed, s->op, what, nbad, m->bounced ? "bounced" : "direct",
		       dir_name(m->dir), m->size, (unsigned long long)virt_to_phys(m->buf),
		       (unsigned long long)m->h);
}

/* The CPU reads the whole buffer: every byte it must know has to match. */
static void rcheck_cpu(struct rstate *s, struct rmap *m, const char *when)
{
	size_t n = 0;

	for (size_t i = 0; i < m->size; i++)
		n += m->cpu_k[i] && m->buf[i] != m->cpu[i];
	if (n)
		rbad(s, m, when, n);
}

/* The device reads [o, o+l). */
static void rcheck_dev(struct rstate *s, struct rmap *m, size_t o, size_t l)
{
	size_t n = 0;

	if (dmamap_device_read(s->c->dev, m->h + o, s->tmp, l)) {
		rbad(s, m, "device read faulted", l);
		return;
	}
	for (size_t i = 0; i < l; i++)
		n += m->dev_k[o + i] && s->tmp[i] != m->dev[o + i];
	if (n)
		rbad(s, m, "device read", n);
}

/* The CPU's view of [o, o+l) takes the device's bytes (widened to lines when direct). */
static void rto_cpu(struct rstate *s, struct rmap *m, size_t o, size_t l)
{
	size_t lo = o, hi = o + l;

	if (!m->bounced) {
		uintptr_t line = s->c->line, a = (uintptr_t)m->buf;

		lo = ((a + lo) & ~(line - 1)) - a > lo ? 0 : ((a + lo) & ~(line - 1)) - a;
		hi = ((a + hi + line - 1) & ~(line - 1)) - a;
		if (hi > m->size)
			hi = m->size;
	}
	for (size_t i = lo; i < hi; i++) {
		m->cpu[i] = m->dev[i];
		m->cpu_k[i] = m->dev_k[i];
	}
}

/*
 * A partial sync_for_device of a BIDIR bounce buffer on a non-coherent
 * device: the CPU's copy dirties the cache lines of the bounce buffer at
 * the range's edges, and their clean writes back the rest of those lines
 * as the cache held them, which may be older than what the device wrote
 * there (on hardware as in the sim). Those bytes are not predictable from
 * the simple model: the device view of them becomes unknown.
 */
static void redges_unknown(struct rstate *s, struct rmap *m, size_t o, size_t l)
{
	phys_addr_t tlb, line = s->c->line, ls, le;

	if (s->c->dmabounce || dev_is_dma_coherent(s->c->dev))
		return;
	tlb = dmamap_dma_to_phys(s->c->dev, m->h);
	ls = (tlb + o) & ~(line - 1);
	le = (tlb + o + l + line - 1) & ~(line - 1);
	for (size_t i = ls > tlb ? (size_t)(ls - tlb) : 0; i < o; i++)
		m->dev_k[i] = false;
	for (size_t i = o + l; i < m->size && tlb + i < le; i++)
		m->dev_k[i] = false;
}

static void rrange(struct rstate *s, const struct rmap *m, size_t *o, size_t *l)
{
	if (rnd(s) % 4 == 0) {
		*o = 0;
		*l = m->size;
		return;
	}
	*o = rnd(s) % m->size;
	*l = 1 + rnd(s) % (m->size - *o);
}

static void rmap_new(struct rstate *s, unsigned int k)
{
	struct rmap *m = &s->m[k];
	const struct rcfg *c = s->c;
	phys_addr_t phys;
	size_t off;

	m->size = rsize(s);
	m->dir = dirs[rnd(s) % 3];
	m->region = (unsigned int)(rnd(s) % 2);
	off = rnd(s) % (RSLOT_BYTES - RMAX - c->line);
	if (rnd(s) % 4 == 0)
		off &= ~(size_t)(c->line - 1);
	m->buf = c->region[m->region] + (size_t)k * RSLOT_BYTES + off;
	for (size_t i = 0; i < m->size; i++) {
		m->cpu[i] = (uint8_t)rnd(s);
		m->cpu_k[i] = true;
	}
	memcpy(m->buf, m->cpu, m->size);
	m->bounced = c->force || m->region == 1;
	/* The device sees the CPU's bytes (a dmabounce FROM safe buffer: not yet known). */
	memcpy(m->dev, m->cpu, m->size);
	for (size_t i = 0; i < m->size; i++)
		m->dev_k[i] = !(c->dmabounce && m->bounced && m->dir == DMA_FROM_DEVICE);
	m->h = dma_map_single(c->dev, m->buf, m->size, m->dir);
	if (dma_mapping_error(c->dev, m->h)) {
		rbad(s, m, "map failed", m->size);
		return;
	}
	phys = virt_to_phys(m->buf);
	if (c->dmabounce) {
		if (m->bounced ? m->h == phys - RAM0 || m->h + m->size > 64 * MiB :
				 m->h != phys - RAM0)
			rbad(s, m, "handle", 0);
	} else {
		if (dmamap_swiotlb_is_bounce(c->dev, m->h) != m->bounced ||
		    (!m->bounced && m->h != phys - RAM0))
			rbad(s, m, "handle", 0);
	}
	m->live = true;
	m->dev_owns = true;
	if (!c->dmabounce) {
		struct dmamap_swiotlb_stats st = pool_of(c->p, c->dev);

		if (st.high_water < st.used_slots)
			rbad(s, m, "high_water below used_slots", 0);
	}
}

static void rmap_unmap(struct rstate *s, struct rmap *m)
{
	dma_unmap_single(s->c->dev, m->h, m->size, m->dir);
	if (m->dir != DMA_TO_DEVICE)
		rto_cpu(s, m, 0, m->size);
	m->live = false;
	rcheck_cpu(s, m, "CPU after unmap");
}

static void rstep(struct rstate *s)
{
	unsigned int k = (unsigned int)(rnd(s) % RSLOTS);
	struct rmap *m = &s->m[k];
	struct device *dev = s->c->dev;
	unsigned int r = (unsigned int)(rnd(s) % 100);
	size_t o, l;

	if (!m->live) {
		rmap_new(s, k);
		return;
	}
	if (m->dev_owns) {
		if (r < 30) {
			rrange(s, m, &o, &l);
			rcheck_dev(s, m, o, l);
		} else if (r < 55 && m->dir != DMA_TO_DEVICE) {
			rrange(s, m, &o, &l);
			for (size_t i = 0; i < l; i++) {
				s->tmp[i] = (uint8_t)rnd(s);
				m->dev[o + i] = s->tmp[i];
				m->dev_k[o + i] = true;
			}
			if (dmamap_device_write(dev, m->h + o, s->tmp, l))
				rbad(s, m, "device write faulted", l);
		} else if (r < 82) {
			rrange(s, m, &o, &l);
			dma_sync_single_range_for_cpu(dev, m->h, o, l, m->dir);
			if (m->dir != DMA_TO_DEVICE)
				rto_cpu(s, m, o, l);
			m->dev_owns = false;
		} else {
			rmap_unmap(s, m);
		}
	} else {
		if (r < 35) {
			rcheck_cpu(s, m, "CPU read");
		} else if (r < 82) {
			rrange(s, m, &o, &l);
			dma_sync_single_range_for_device(dev, m->h, o, l, m->dir);
			if (m->bounced && m->dir != DMA_FROM_DEVICE) {
				for (size_t i = o; i < o + l; i++) {
					m->dev[i] = m->cpu[i];
					m->dev_k[i] = m->cpu_k[i];
				}
				if (m->dir == DMA_BIDIRECTIONAL)
					redges_unknown(s, m, o, l);
			}
			m->dev_owns = true;
		} else {
			rmap_unmap(s, m);
		}
	}
}

/*
 * Run @seeds sequences of @ops random operations on @dev (then unmap what is
 * left), with buffers in @direct (reached without bouncing unless @force)
 * and @bounced (RSLOTS * RSLOT_BYTES bytes each). @dmabounce: the device is
 * behind dmabounce. Returns the number of mismatches (the first few are
 * printed).
 */
static unsigned long bounce_random_run(const char *what, struct device *dev, uint8_t *direct,
				       uint8_t *bounced, bool force, bool dmabounce,
				       unsigned int seeds, unsigned int ops)
{
	struct rstate *s = calloc(1, sizeof(*s));
	struct rcfg c = { .what = what, .dev = dev, .force = force, .dmabounce = dmabounce,
			  .region = { direct, bounced } };
	unsigned long bad;

	if (!s || !dev || !direct || !bounced)
		return 1;
	c.p = dmamap_device_platform(dev);
	c.line = dmamap_cache_line_size(c.p);
	s->c = &c;
	for (unsigned int seed = 1; seed <= seeds && s->bad < 3; seed++) {
		s->seed = seed;
		s->rng = 0x9e3779b97f4a7c15ULL * seed + 1;
		for (s->op = 0; s->op < ops; s->op++)
			rstep(s);
		for (unsigned int k = 0; k < RSLOTS; k++)
			if (s->m[k].live)
				rmap_unmap(s, &s->m[k]);
	}
	bad = s->bad;
	free(s);
	return bad;
}

TEST(swiotlb_random_ops_dma24)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	struct dmamap_swiotlb_stats s;
	struct page *hi;

	REQUIRE(p && dev);
	hi = dmamap_alloc_pages(p, 5, 0);
	REQUIRE(hi && page_to_phys(hi) >= WIN24_END);
	CHECK_EQ(bounce_random_run("dma-24", dev, d24_lo_pages(p, 5), page_address(hi), false,
				   false, 500, 50), 0);
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, 0);
	CHECK(s.bounced_maps > 1000);
	CHECK_EQ(s.failures, 0);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_random_ops_dma_nc_forced)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, NC);
	struct dmamap_swiotlb_stats s;
	struct page *lo, *hi;

	REQUIRE(p && dev);
	REQUIRE(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_FORCE) == 0);
	lo = dmamap_alloc_pages(p, 5, DMAMAP_GFP_DMA);
	hi = dmamap_alloc_pages(p, 5, 0);
	REQUIRE(lo && hi);
	CHECK_EQ(bounce_random_run("dma-nc forced", dev, page_address(lo), page_address(hi),
				   true, false, 500, 50), 0);
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, 0);
	CHECK(s.bounced_maps > 2000);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_host_forced_random_ops)
{
	struct device *dev;
	struct dmamap_platform *p = host_forced(&dev);
	uint8_t *direct = host_pages(RSLOTS * RSLOT_BYTES), *bounced = host_pages(RSLOTS * RSLOT_BYTES);
	struct dmamap_swiotlb_stats s;
	struct dmamap_device_stats d;

	REQUIRE(p && direct && bounced);
	CHECK_EQ(bounce_random_run("host forced", dev, direct, bounced, true, false, 300, 50), 0);
	s = pool_of(p, NULL);
	d = stats_of(dev);
	CHECK_EQ(s.used_slots, 0);
	CHECK(s.bounced_maps > 1000);
	CHECK_EQ(s.bounced_maps, d.maps);
	CHECK_EQ(d.unmaps, d.maps);
	CHECK_EQ(d.bytes_bounced, d.bytes_mapped);
	CHECK_EQ(s.failures, 0);
	CHECK_EQ(d.errors, 0);
	free(direct);
	free(bounced);
	dmamap_platform_destroy(p);
}

TEST(dmabounce_random_ops_ixp_pci)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);
	struct dmamap_dmabounce_stats s;
	struct page *lo, *hi;

	REQUIRE(p && dev);
	lo = dmamap_alloc_pages(p, 5, DMAMAP_GFP_DMA);
	hi = dmamap_alloc_pages(p, 5, 0);
	REQUIRE(lo && hi);
	REQUIRE(page_to_phys(lo) + (PAGE_SIZE << 5) <= IXP_ABOVE && page_to_phys(hi) >= IXP_ABOVE);
	CHECK_EQ(bounce_random_run("ixp-pci", dev, page_address(lo), page_address(hi), false,
				   true, 500, 50), 0);
	s = db_stats(dev);
	CHECK_EQ(s.live, 0);
	CHECK_EQ(s.failures, 0);
	CHECK(s.bounced > 2000 && s.small_allocs && s.large_allocs && s.coherent_allocs);
	CHECK(s.map_ops > s.bounced);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}
