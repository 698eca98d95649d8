/* SPDX-License-Identifier: MIT */
/*
 * Weakly-ordered memory (docs/ordering.md): what a device reads of the
 * CPU's stores to coherent memory, and what the CPU's loads see of a
 * device's writes, with and without the barriers that order them; the
 * checker's three reports; TSO boards, hand-driven accesses, draining,
 * seeds and threads.
 */
#include <string.h>
#include <dmamap/io.h>
#include <dmamap/model.h>
#include "../../drivers/memcpy_dma.h"
#include "../helpers.h"

struct probe {
	struct dmamap_platform *p;
	struct device *dev;
	void __iomem *regs;
	uint8_t *buf; /* 64 bytes of coherent memory */
	dma_addr_t dma;
};

static bool probe_open(struct probe *t, struct dmamap_platform *p, bool coherent,
		       enum dmamap_memory_model model)
{
	memset(t, 0, sizeof(*t));
	t->p = p;
	if (!p || dmamap_sim_set_memory_model(p, model))
		return false;
	t->dev = add_memprobe(p, coherent ? "probe-coh" : "probe-nc", coherent);
	if (!t->dev || !(t->regs = dmamap_device_ioremap(t->dev)))
		return false;
	t->buf = dma_alloc_coherent(t->dev, 64, &t->dma, GFP_KERNEL);
	if (!t->buf)
		return false;
	/* Where and how much: ordered writes, so nothing is buffered yet. */
	writel((uint32_t)t->dma, t->regs + MP_ADDR);
	writel(16, t->regs + MP_LEN);
	return true;
}

static void probe_close(struct probe *t)
{
	if (t->buf)
		dma_free_coherent(t->dev, 64, t->buf, t->dma);
	dmamap_platform_destroy(t->p);
}

/* The device's buffer, as the registers give it. */
static void device_saw(struct probe *t, uint8_t out[16])
{
	for (unsigned int i = 0; i < 16; i += 4) {
		uint32_t v = readl_relaxed(t->regs + MP_DATA + i);

		memcpy(out + i, &v, 4);
	}
}

/* The report's JSON form names its kind. */
static bool json_names(const struct dmamap_report *r, const char *kind)
{
	char json[1024], want[96];

	snprintf(want, sizeof(want), "\"kind\":\"%s\"", kind);
	return dmamap_report_json(r, json, sizeof(json)) > 0 && strstr(json, want);
}

static void store64(void *at, uint64_t v)
{
	*(volatile uint64_t *)at = v;
}

static uint64_t load64(const void *at)
{
	uint64_t v;

	/* Byte by byte: the device's copies in the tests need not be aligned. */
	memcpy(&v, (const void *)at, sizeof(v));
	return v;
}

TEST(order_relaxed_register_write_overtakes_buffered_stores)
{
	for (int coherent = 0; coherent < 2; coherent++) {
		struct probe t;
		uint8_t saw[16], want[16];

		REQUIRE(probe_open(&t, checked(quiet_board()), coherent, DMAMAP_MEMORY_WEAK));
		rec_reset();
		store64(t.buf, 0x1111111111111111ull);
		store64(t.buf + 8, 0x2222222222222222ull);
		/* writel_relaxed(): the device reads before the stores reach it. */
		writel_relaxed(1, t.regs + MP_READ);
		device_saw(&t, saw);
		CHECK(all_bytes(saw, 16, 0));
		EXPECT_KINDS(DMAMAP_DBG_UNORDERED_DOORBELL);
		{
			char json[1024];

			/* Structured (device, address, size), text (register, site) and JSON forms. */
			CHECK(!strcmp(rec.r[0].device, dev_name(t.dev)));
			CHECK_EQ(rec.r[0].addr, t.dma);
			CHECK_EQ(rec.r[0].size, 8);
			/* The site is "function+0xoff" where the symbol is exported, an address otherwise. */
			CHECK_MSG(strstr(rec.r[0].text, "writel_relaxed() of register 0x8 of probe") &&
					  strstr(rec.r[0].text, ", at "),
				  "%s", rec.r[0].text);
			CHECK(strstr(last_line(), "[unordered-doorbell]") != NULL);
			CHECK(dmamap_report_json(&rec.r[0], json, sizeof(json)) > 0);
			CHECK(json_names(&rec.r[0], "unordered-doorbell"));
		}
		/* wmb() first: they are there. */
		wmb();
		writel_relaxed(1, t.regs + MP_READ);
		device_saw(&t, saw);
		memcpy(want, t.buf, 16);
		CHECK_EQ(ndiff(saw, want, 16), 0);
		/* writel() is wmb() then the write. */
		store64(t.buf, 0x3333333333333333ull);
		writel(1, t.regs + MP_READ);
		device_saw(&t, saw);
		CHECK_EQ(load64(saw), 0x3333333333333333ull);
		rec_reset();
		EXPECT_NO_REPORTS();
		probe_close(&t);
	}
}

TEST(order_tso_board_sees_every_store_at_once)
{
	struct probe t;
	uint8_t saw[16];

	REQUIRE(probe_open(&t, checked(quiet_board()), false, DMAMAP_MEMORY_TSO));
	rec_reset();
	store64(t.buf, 0x1111111111111111ull);
	writel_relaxed(1, t.regs + MP_READ);
	device_saw(&t, saw);
	CHECK_EQ(load64(saw), 0x1111111111111111ull);
	EXPECT_NO_REPORTS();
	probe_close(&t);
}

/* A descriptor: address in bytes 0-7, ownership word in 8-11 (bit 31: the device's). */
static void fill_desc(uint8_t *d, uint64_t addr, bool barrier)
{
	store64(d, addr);
	if (barrier)
		dma_wmb();
	*(volatile uint32_t *)(d + 8) = 0x80000000u | 0x40;
}

TEST(order_ownership_word_overtakes_stores_no_barrier_ordered)
{
	for (int barrier = 0; barrier < 2; barrier++) {
		struct probe t;
		uint8_t saw[16];

		REQUIRE(probe_open(&t, checked(quiet_board()), false, DMAMAP_MEMORY_WEAK));
		writel(8, t.regs + MP_POLL_DESC); /* polls from the next yield point on */
		rec_reset();
		fill_desc(t.buf, 0xabcdef0012345678ull, barrier);
		cpu_relax(); /* the device polls here */
		CHECK_EQ(readl(t.regs + MP_OWNED), 1);
		device_saw(&t, saw);
		CHECK_EQ((uint32_t)(load64(saw + 8) & 0xffffffffu), 0x80000040u);
		if (barrier) {
			/* dma_wmb(): the address was there before OWN could be. */
			CHECK_EQ(load64(saw), 0xabcdef0012345678ull);
			EXPECT_NO_REPORTS();
		} else {
			/* OWN went first: the device took the old (zero) address. */
			CHECK_EQ(load64(saw), 0);
			EXPECT_KINDS(DMAMAP_DBG_UNORDERED_DESCRIPTOR);
			CHECK_EQ(rec.r[0].addr, t.dma);
			CHECK_EQ(rec.r[0].size, 16);
			CHECK(!strcmp(rec.r[0].device, "probe-nc"));
			CHECK_MSG(strstr(rec.r[0].text, "offset 0 was still buffered") != NULL, "%s",
				  rec.r[0].text);
			CHECK(strstr(last_line(), "[unordered-descriptor]") != NULL);
			CHECK(json_names(&rec.r[0], "unordered-descriptor"));
		}
		probe_close(&t);
	}
}

TEST(order_device_completion_reaches_cpu_before_the_body)
{
	struct probe t;

	REQUIRE(probe_open(&t, checked(quiet_board()), true, DMAMAP_MEMORY_WEAK));
	/* The device writes 0x5a5a.. as body and 0x1 as ownership word at offset 8. */
	for (unsigned int i = 0; i < 16; i += 4)
		writel(i == 8 ? 1 : 0x5a5a5a5a, t.regs + MP_DATA + i);
	rec_reset();
	writel(8, t.regs + MP_WRITE_DESC);
	/* Nothing yet: the CPU's loads have not caught up. */
	CHECK(all_bytes(t.buf, 16, 0));
	cpu_relax();
	/* A yield point later the completion word is seen, the body is not. */
	CHECK_EQ(*(volatile uint32_t *)(t.buf + 8), 1);
	CHECK_EQ(load64(t.buf), 0);
	dma_rmb();
	CHECK_EQ(load64(t.buf), 0x5a5a5a5a5a5a5a5aull);
	EXPECT_NO_REPORTS();
	probe_close(&t);
}

TEST(order_cpu_reusing_a_completed_descriptor_without_rmb_is_reported)
{
	for (int rmb_first = 0; rmb_first < 2; rmb_first++) {
		struct probe t;

		REQUIRE(probe_open(&t, checked(quiet_board()), false, DMAMAP_MEMORY_WEAK));
		for (unsigned int i = 0; i < 16; i += 4)
			writel(i == 8 ? 1 : 0x77777777, t.regs + MP_DATA + i);
		writel(8, t.regs + MP_WRITE_DESC);
		cpu_relax();
		rec_reset();
		REQUIRE(*(volatile uint32_t *)(t.buf + 8) == 1);
		if (rmb_first)
			dma_rmb();
		/* Give the descriptor back: OWN again, after a barrier. */
		dma_wmb();
		*(volatile uint32_t *)(t.buf + 8) = 0x80000000u;
		dma_wmb();
		if (rmb_first) {
			EXPECT_NO_REPORTS();
		} else {
			EXPECT_KINDS(DMAMAP_DBG_UNORDERED_COMPLETION);
			CHECK_EQ(rec.r[0].addr, t.dma);
			CHECK_EQ(rec.r[0].size, 8); /* the body before the word */
			CHECK(strstr(last_line(), "[unordered-completion]") != NULL);
			CHECK(json_names(&rec.r[0], "unordered-completion"));
		}
		probe_close(&t);
	}
}

TEST(order_full_barriers_order_loads_too)
{
	for (int dma = 0; dma < 2; dma++) {
		struct probe t;

		REQUIRE(probe_open(&t, quiet_board(), false, DMAMAP_MEMORY_WEAK));
		for (unsigned int i = 0; i < 16; i += 4)
			writel(i == 8 ? 1 : 0x31313131, t.regs + MP_DATA + i);
		writel(8, t.regs + MP_WRITE_DESC);
		cpu_relax();
		REQUIRE(*(volatile uint32_t *)(t.buf + 8) == 1);
		CHECK_EQ(load64(t.buf), 0);
		if (dma)
			dma_mb();
		else
			mb();
		CHECK_EQ(load64(t.buf), 0x3131313131313131ull);
		/* And the store half: a store before it reaches a relaxed read after. */
		store64(t.buf, 0x2929292929292929ull);
		if (dma)
			dma_mb();
		else
			mb();
		writel_relaxed(1, t.regs + MP_READ);
		CHECK_EQ(readl(t.regs + MP_DATA), 0x29292929u);
		probe_close(&t);
	}
}

TEST(order_readl_lets_later_loads_see_device_writes)
{
	struct probe t;

	REQUIRE(probe_open(&t, checked(quiet_board()), false, DMAMAP_MEMORY_WEAK));
	for (unsigned int i = 0; i < 16; i += 4)
		writel(0x01020304, t.regs + MP_DATA + i);
	writel(1, t.regs + MP_WRITE);
	CHECK(all_bytes(t.buf, 16, 0));
	(void)readl_relaxed(t.regs + MP_OWNED);
	CHECK(all_bytes(t.buf, 16, 0));
	(void)readl(t.regs + MP_OWNED);
	CHECK_EQ(*(volatile uint32_t *)t.buf, 0x01020304);
	probe_close(&t);
}

TEST(order_hand_driven_device_accesses_are_in_order)
{
	struct probe t;
	uint8_t got[8];

	REQUIRE(probe_open(&t, checked(quiet_board()), false, DMAMAP_MEMORY_WEAK));
	store64(t.buf, 0x0102030405060708ull);
	/* A test playing the device is not a bus master racing the CPU. */
	REQUIRE(dmamap_device_read(t.dev, t.dma, got, 8) == 0);
	CHECK_EQ(load64(got), 0x0102030405060708ull);
	store64(got, 0x1112131415161718ull);
	REQUIRE(dmamap_device_write(t.dev, t.dma + 8, got, 8) == 0);
	CHECK_EQ(load64(t.buf + 8), 0x1112131415161718ull);
	/* And the model sees what the hand wrote. */
	writel_relaxed(1, t.regs + MP_READ);
	CHECK_EQ(readl(t.regs + MP_DATA + 8), 0x15161718u);
	probe_close(&t);
}

TEST(order_a_store_buffer_nobody_drains_drains_anyway)
{
	struct probe t;
	struct dmamap_sim_order_stats st;
	unsigned int n = 0;

	REQUIRE(probe_open(&t, quiet_board(), false, DMAMAP_MEMORY_WEAK));
	writel(1, t.regs + MP_POLL_FIRST);
	t.buf[0] = 9; /* no barrier, ever */
	while (n < 1000 && (readl_relaxed(t.regs + MP_DATA) & 0xff) != 9) {
		cpu_relax();
		n++;
	}
	CHECK_EQ(readl_relaxed(t.regs + MP_DATA) & 0xff, 9);
	/* Not at once: the device polled a while on the old byte. */
	CHECK(n > 8);
	CHECK(dmamap_sim_order_stats(t.p, &st) == 0);
	CHECK(st.drains > 0 && st.stale_reads > 0 && st.regions == 1);
	probe_close(&t);
}

TEST(order_going_tso_lets_everything_through)
{
	struct probe t;

	REQUIRE(probe_open(&t, quiet_board(), false, DMAMAP_MEMORY_WEAK));
	writel(0x99999999, t.regs + MP_DATA);
	writel(0x99999999, t.regs + MP_DATA + 4);
	writel(8, t.regs + MP_LEN);
	store64(t.buf + 8, 0x4141414141414141ull); /* published by the writel() below */
	writel(1, t.regs + MP_READ);
	store64(t.buf, 0x4242424242424242ull); /* still buffered when the device writes */
	writel_relaxed(1, t.regs + MP_WRITE); /* held from the CPU's loads */
	CHECK(dmamap_sim_set_memory_model(t.p, DMAMAP_MEMORY_TSO) == 0);
	/* The CPU's store was still in its buffer: it lands after the device's write. */
	CHECK_EQ(load64(t.buf), 0x4242424242424242ull);
	store64(t.buf, 0x4343434343434343ull);
	writel_relaxed(1, t.regs + MP_READ);
	CHECK_EQ(readl(t.regs + MP_DATA), 0x43434343u);
	CHECK(dmamap_sim_set_memory_model(t.p, 7) == -EINVAL);
	CHECK(dmamap_sim_set_memory_model(NULL, DMAMAP_MEMORY_TSO) == -EINVAL);
	probe_close(&t);
}

TEST(order_host_has_no_memory_model_to_set)
{
	struct dmamap_platform *p = host_platform();
	struct dmamap_sim_order_stats st;

	REQUIRE(p);
	CHECK(dmamap_sim_set_memory_model(p, DMAMAP_MEMORY_WEAK) == -EINVAL);
	CHECK(dmamap_sim_order_stats(p, &st) == 0 && st.regions == 0);
	CHECK(dmamap_sim_order_stats(p, NULL) == -EINVAL);
	dmamap_platform_destroy(p);
}

TEST(order_bad_descriptor_arguments_are_refused)
{
	struct probe t;
	uint8_t d[16];

	REQUIRE(probe_open(&t, quiet_board(), false, DMAMAP_MEMORY_WEAK));
	CHECK(dmamap_device_read_desc(t.dev, t.dma, d, 16, 14, 1, 1) == -EINVAL);
	CHECK(dmamap_device_read_desc(t.dev, t.dma, d, 16, 2, 1, 1) == -EINVAL);
	CHECK(dmamap_device_read_desc(NULL, t.dma, d, 16, 8, 1, 1) == -EINVAL);
	CHECK(dmamap_device_read_desc(t.dev, t.dma, NULL, 16, 8, 1, 1) == -EINVAL);
	CHECK(dmamap_device_write_desc(t.dev, t.dma, d, 16, 12, 8) == -EINVAL);
	CHECK(dmamap_device_write_desc(t.dev, t.dma, d, 16, 8, 0) == -EINVAL);
	CHECK(dmamap_device_write_desc(t.dev, t.dma, d, 16, (size_t)-4, 8) == -EINVAL);
	CHECK(dmamap_device_write_desc(NULL, t.dma, d, 16, 8, 4) == -EINVAL);
	/* By hand, both are plain accesses with the word's verdict. */
	memset(d, 0, sizeof(d));
	d[11] = 0x80;
	CHECK(dmamap_device_write_desc(t.dev, t.dma, d, 16, 8, 4) == 0);
	CHECK(dmamap_device_read_desc(t.dev, t.dma, d, 16, 8, 1u << 31, 1u << 31) == 1);
	CHECK(dmamap_device_read_desc(t.dev, t.dma, d, 16, 8, 1u << 31, 0) == 0);
	/* A fault is the read's error. */
	CHECK(dmamap_device_read_desc(t.dev, 0xfffffff0u, d, 16, 8, 1, 1) < 0);
	probe_close(&t);
}

/* Whether a store without a barrier reaches a model device on @p through a relaxed register write. */
static bool store_seen_at_once(struct dmamap_platform *p)
{
	static unsigned int seq;
	char name[32];
	struct device *dev;

	snprintf(name, sizeof(name), "probe%u", seq++);
	dev = add_memprobe(p, name, false);
	void __iomem *regs;
	dma_addr_t dma;
	uint8_t *buf;
	bool seen;

	regs = dev ? dmamap_device_ioremap(dev) : NULL;
	buf = dev ? dma_alloc_coherent(dev, 64, &dma, GFP_KERNEL) : NULL;

	if (!buf || !regs)
		return false;
	writel((uint32_t)dma, regs + MP_ADDR);
	writel(4, regs + MP_LEN);
	*(volatile uint32_t *)buf = 0x600dcafe;
	writel_relaxed(1, regs + MP_READ);
	seen = readl(regs + MP_DATA) == 0x600dcafe;
	dma_free_coherent(dev, 64, buf, dma);
	return seen;
}

/* HEAD with a property of the root (properties come before nodes). */
#define ROOT_WITH(prop) "/dts-v1/; / { #address-cells = <1>; #size-cells = <1>; " prop \
	" memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; }; };"

TEST(order_device_trees_choose_the_memory_model)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;

	p = from_dts(HEAD "};", &err);
	SKIP_WITHOUT_FDT(err);
	CHECK_MSG(p, "%s", err.msg);
	REQUIRE(p);
	CHECK(!store_seen_at_once(quiet(p))); /* weak unless told otherwise */
	dmamap_platform_destroy(p);
	p = from_dts(ROOT_WITH("dmamap,memory-model = \"tso\";"), &err);
	REQUIRE(p);
	CHECK(store_seen_at_once(quiet(p)));
	dmamap_platform_destroy(p);
	p = from_dts(ROOT_WITH("dmamap,memory-model = \"weak\";"), &err);
	REQUIRE(p);
	CHECK(!store_seen_at_once(quiet(p)));
	dmamap_platform_destroy(p);
	p = from_dts(ROOT_WITH("dmamap,memory-model = \"sc\";"), &err);
	CHECK(p == NULL);
	CHECK_EQ(err.code, -EINVAL);
	CHECK_MSG(strstr(err.msg, "dmamap,memory-model") != NULL, "msg: %s", err.msg);
	/* The x86-like board is TSO, the ARM ones weak. */
	p = builtin_board("x86-like");
	if (p) {
		CHECK(store_seen_at_once(p));
		dmamap_platform_destroy(p);
	}
	p = builtin_board("armv5");
	REQUIRE(p);
	CHECK(!store_seen_at_once(p));
	dmamap_platform_destroy(p);
}

TEST(order_threaded_devices_see_the_hosts_order)
{
	struct probe t;

	REQUIRE(probe_open(&t, quiet_board(), false, DMAMAP_MEMORY_WEAK));
	dma_free_coherent(t.dev, 64, t.buf, t.dma);
	t.buf = NULL;
	REQUIRE(dmamap_sim_set_threaded(t.p, true) == 0);
	CHECK(store_seen_at_once(t.p));
	REQUIRE(dmamap_sim_set_threaded(t.p, false) == 0);
	/* Back to the weak model, for what is allocated from now on. */
	CHECK(!store_seen_at_once(t.p));
	probe_close(&t);
}

/* The memcpy engine's bursts between two coherent buffers go through the model, and land. */
TEST(order_engine_copies_between_coherent_buffers)
{
	struct dmamap_platform *p = checked(quiet_board());
	struct device *dev;
	struct mcdma m;
	dma_addr_t s, d;
	uint8_t *src, *dst;

	REQUIRE(p && (dev = lookup(p, "dma-nc")));
	REQUIRE(mcdma_probe(&m, dev, 4) == 0);
	src = dma_alloc_coherent(dev, 8192, &s, GFP_KERNEL);
	dst = dma_alloc_coherent(dev, 8192, &d, GFP_KERNEL);
	REQUIRE(src && dst);
	rec_reset();
	pattern(src, 8192, 7); /* no barrier of its own: the driver's writel() drains it */
	CHECK_EQ(mcdma_copy_dma(&m, d, s, 8192), 0);
	/* Polled to completion with readl(): the engine's writes are visible. */
	CHECK_EQ(ndiff(dst, src, 8192), 0);
	EXPECT_NO_REPORTS();
	{
		struct dmamap_sim_order_stats st;

		/* The ring and both buffers were followed, and barriers drained them. */
		CHECK(dmamap_sim_order_stats(p, &st) == 0 && st.regions == 3 && st.barriers > 0);
	}
	dma_free_coherent(dev, 8192, src, s);
	dma_free_coherent(dev, 8192, dst, d);
	mcdma_remove(&m);
	dmamap_platform_destroy(p);
}

TEST(order_a_relaxed_write_races_only_its_own_devices_memory)
{
	struct probe a;
	struct device *b;
	void __iomem *bregs;

	REQUIRE(probe_open(&a, checked(quiet_board()), false, DMAMAP_MEMORY_WEAK));
	REQUIRE((b = add_memprobe(a.p, "other", false)) && (bregs = dmamap_device_ioremap(b)));
	rec_reset();
	store64(a.buf, 0x5555555555555555ull);
	writel_relaxed(0, bregs + MP_LEN); /* another device's register */
	writel_relaxed(1, a.regs + MP_READ); /* a's own read: stale, and a's own doorbell */
	CHECK_EQ(readl_relaxed(a.regs + MP_DATA), 0);
	EXPECT_KINDS(DMAMAP_DBG_UNORDERED_DOORBELL);
	CHECK_MSG(strstr(rec.r[0].text, "register 0x8 of probe-nc"), "%s", rec.r[0].text);
	/* b's register write raced nothing of a's: a poll of a's memory is not its doorbell. */
	rec_reset();
	store64(a.buf + 8, 0x6666666666666666ull);
	writel_relaxed(0, bregs + MP_LEN);
	writel(16, a.regs + MP_LEN); /* drains */
	writel_relaxed(1, a.regs + MP_READ);
	CHECK_EQ(readl(a.regs + MP_DATA + 8), 0x66666666u);
	EXPECT_NO_REPORTS();
	probe_close(&a);
}

TEST(order_descriptors_need_no_alignment)
{
	struct probe t;
	uint8_t saw[16];

	/* 12-byte descriptors: the second at offset 12, its word at 20..23, in the unit 16..23. */
	REQUIRE(probe_open(&t, checked(quiet_board()), false, DMAMAP_MEMORY_WEAK));
	writel((uint32_t)t.dma + 12, t.regs + MP_ADDR);
	writel(12, t.regs + MP_LEN);
	writel(8, t.regs + MP_POLL_DESC);
	rec_reset();
	/* The first descriptor's last word (8..11) and the second's body, no barrier between. */
	*(volatile uint32_t *)(t.buf + 8) = 0xaaaaaaaau;
	*(volatile uint32_t *)(t.buf + 12) = 0x12121212u;
	*(volatile uint32_t *)(t.buf + 16) = 0x12121212u;
	dma_wmb();
	*(volatile uint32_t *)(t.buf + 20) = 0x80000007u;
	*(volatile uint32_t *)(t.buf + 24) = 0xbbbbbbbbu; /* the next descriptor's: not this one's */
	cpu_relax();
	CHECK_EQ(readl(t.regs + MP_OWNED), 1);
	device_saw(&t, saw);
	CHECK_EQ(load64(saw), 0x1212121212121212ull);
	CHECK_EQ((uint32_t)(load64(saw + 8) & 0xffffffffu), 0x80000007u);
	EXPECT_NO_REPORTS();
	probe_close(&t);
}

TEST(order_threaded_devices_pause_the_model_and_it_resumes)
{
	struct probe t;
	struct dmamap_sim_order_stats st;

	REQUIRE(probe_open(&t, quiet_board(), false, DMAMAP_MEMORY_WEAK));
	store64(t.buf, 0x7777777777777777ull); /* buffered */
	REQUIRE(dmamap_sim_set_threaded(t.p, true) == 0);
	/* Paused: everything went through, and nothing is held. */
	writel_relaxed(8, t.regs + MP_LEN);
	writel_relaxed(1, t.regs + MP_READ);
	CHECK_EQ(readl(t.regs + MP_DATA), 0x77777777u);
	REQUIRE(dmamap_sim_set_threaded(t.p, false) == 0);
	/* Resumed, for the memory it followed before: a store is buffered again. */
	CHECK(dmamap_sim_order_stats(t.p, &st) == 0 && st.regions == 1);
	store64(t.buf, 0x8888888888888888ull);
	writel_relaxed(1, t.regs + MP_READ);
	CHECK_EQ(readl(t.regs + MP_DATA), 0x77777777u);
	probe_close(&t);
}

/* A hook that calls the library back: reports are said once the model's locks are dropped. */
static unsigned int calls_back;

static void hook_calls_back(void *ctx, const struct dmamap_report *r)
{
	struct dmamap_sim_order_stats st;

	(void)r;
	dmamap_sim_order_stats(ctx, &st);
	dma_wmb();
	calls_back++;
}

TEST(order_a_report_hook_may_call_back_into_the_library)
{
	struct probe t;

	REQUIRE(probe_open(&t, quiet_board(), false, DMAMAP_MEMORY_WEAK));
	dmamap_debug_enable(t.p, true);
	dmamap_set_report_hook(t.p, hook_calls_back, t.p);
	calls_back = 0;
	writel(8, t.regs + MP_POLL_DESC);
	fill_desc(t.buf, 0x4444444444444444ull, false);
	cpu_relax(); /* unordered-descriptor, from a device step */
	store64(t.buf + 32, 1);
	writel_relaxed(1, t.regs + MP_READ); /* unordered-doorbell, inside a register write */
	CHECK(calls_back >= 2);
	dmamap_set_report_hook(t.p, NULL, NULL);
	probe_close(&t);
}

TEST(order_behind_an_iommu_every_page_is_followed_and_reports_give_the_iova)
{
	struct dmamap_platform *p = checked(quiet_board());
	struct dmamap_sim_order_stats st;
	struct device *dev;
	void __iomem *regs;
	dma_addr_t dma;
	uint8_t *buf;

	REQUIRE(p && (dev = add_memprobe_on(p, "probe-smmu", false, "smmu0")));
	REQUIRE((regs = dmamap_device_ioremap(dev)));
	buf = dma_alloc_coherent(dev, 4 * PAGE_SIZE, &dma, GFP_KERNEL);
	REQUIRE(buf);
	CHECK(dmamap_sim_order_stats(p, &st) == 0 && st.regions == 4);
	writel((uint32_t)(dma + 2 * PAGE_SIZE), regs + MP_ADDR);
	writel(8, regs + MP_LEN);
	rec_reset();
	store64(buf + 2 * PAGE_SIZE, 0x0909090909090909ull);
	writel_relaxed(1, regs + MP_READ);
	CHECK_EQ(readl(regs + MP_DATA), 0);
	EXPECT_KINDS(DMAMAP_DBG_UNORDERED_DOORBELL);
	CHECK_EQ(rec.r[0].addr, dma + 2 * PAGE_SIZE);
	writel(1, regs + MP_READ);
	CHECK_EQ(readl(regs + MP_DATA), 0x09090909u);
	dma_free_coherent(dev, 4 * PAGE_SIZE, buf, dma);
	CHECK(dmamap_sim_order_stats(p, &st) == 0 && st.regions == 0);
	dmamap_platform_destroy(p);
}

TEST(order_a_device_destroyed_with_its_memory_leaves_nothing_behind)
{
	struct probe t;
	struct dmamap_sim_order_stats st;

	REQUIRE(probe_open(&t, quiet_board(), false, DMAMAP_MEMORY_WEAK));
	for (unsigned int i = 0; i < 16; i += 4)
		writel(i == 8 ? 1 : 0x13131313, t.regs + MP_DATA + i);
	writel(8, t.regs + MP_WRITE_DESC); /* a write in flight */
	store64(t.buf + 40, 3);               /* a store buffered */
	dmamap_device_destroy(t.dev);          /* the driver leaked its coherent memory */
	CHECK(dmamap_sim_order_stats(t.p, &st) == 0 && st.regions == 0);
	/* Barriers afterwards find nothing of it. */
	wmb();
	rmb();
	t.buf = NULL;
	probe_close(&t);
}
