/* SPDX-License-Identifier: MIT */
/*
 * dmamap_platform_vfio() against the fake kernel (fake_kernel.h): the
 * platform and its one device, the function's address in both spellings,
 * every error the header lists (each leaving nothing open, mapped or in
 * the ledger, and naming its cause), the IOVA space taken from the
 * IOMMU's capability chain, and platform destruction returning every
 * mapping and file. Two walks: every failure point of the library, then
 * every refusal of the kernel.
 *
 * Some tests started as vfio_bug_* and keep a note of the bug they caught.
 */
#include <sys/mman.h>
#include "../helpers.h"
#include "../../src/lib/mem.h"
#include "fake_kernel.h"

#define DEFAULT_ARENA (16ULL << 20)

static bool ledger_same(const struct dmamap__ledger *a)
{
	struct dmamap__ledger b;

	dmamap__ledger_read(&b);
	return a->mapped_bytes == b.mapped_bytes && a->memfds == b.memfds;
}

/* Destroy @p; every file closed, every mapping gone, no misuse, nothing in the ledger since @l0. */
static void destroy_clean(struct dmamap_platform *p, const struct dmamap__ledger *l0)
{
	char why[256];

	dmamap_platform_destroy(p);
	CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "after destroy: %s", why);
	CHECK_MSG(ledger_same(l0), "the ledger holds what the platform had");
}

TEST(vfio_open_makes_platform_and_its_device)
{
	struct dmamap_device_info info;
	struct dmamap__ledger l0;
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p, *host;
	struct device *dev;
	uint64_t iova, va, size;

	dmamap__ledger_read(&l0);
	p = fake_platform(NULL, 0, false, &dev);
	REQUIRE(p && dev);
	CHECK(dmamap_platform_is_vfio(p));
	CHECK(!dmamap_platform_is_vfio(NULL));
	CHECK(!strcmp(dmamap_platform_name(p), "vfio"));
	CHECK_EQ(dmamap_device_count(p), 1);
	CHECK(dmamap_device_at(p, 0) == dev);
	REQUIRE(dmamap_device_info(dev, &info) == 0);
	CHECK_MSG(!strcmp(info.name, FAKE_BDF), "name '%s'", info.name);
	CHECK_MSG(!strcmp(info.ops, "vfio"), "ops '%s'", info.ops);
	CHECK_MSG(!strcmp(info.bus, "pci"), "bus '%s'", info.bus);
	CHECK(info.coherent);
	CHECK(dev_is_dma_coherent(dev));
	CHECK_EQ(info.dma_mask, DMA_BIT_MASK(64));
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(64));

	/* Container, group, function: open; the type1v2 IOMMU set once; the arena mapped. */
	CHECK_EQ(fake_vfio_open_fds(), 3);
	CHECK_EQ(fake_counts.ioctl[FAKE_GROUP_SET_CONTAINER], 1);
	CHECK_EQ(fake_counts.ioctl[FAKE_SET_IOMMU], 1);
	CHECK_EQ(fake_counts.ioctl_failed[FAKE_SET_IOMMU], 0);
	CHECK_EQ(fake_counts.ioctl[FAKE_GET_DEVICE_FD], 1);
	CHECK_EQ(fake_counts.ioctl[FAKE_MAP_DMA], 1);
	CHECK_EQ(fake_vfio_nr_mappings(), 1);
	REQUIRE(fake_vfio_mapping_nth(0, &iova, &va, &size));
	CHECK_EQ(size, DEFAULT_ARENA);
	st = vstats(dev);
	CHECK_EQ(st.registered_bytes, DEFAULT_ARENA);
	CHECK_EQ(st.fast_maps + st.slow_maps + st.slow_unmaps + st.map_failures, 0);
	/* The arena lies in the space, the space in the IOMMU's first range, not at IOVA 0. */
	CHECK(st.iova_start >= (1ULL << 20));
	CHECK(st.iova_end <= FAKE_IOVA0_END + 1);
	CHECK(iova >= st.iova_start && iova + size <= st.iova_end);
	CHECK_EQ(fake_counts.misuse, 0);

	/* Another platform is not VFIO. */
	host = host_platform();
	REQUIRE(host);
	CHECK(!dmamap_platform_is_vfio(host));
	dmamap_platform_destroy(host);
	destroy_clean(p, &l0);
	fake_vfio_remove();
}

/* arena_size is rounded up to the host page: that much is registered and allocatable. */
TEST(vfio_open_arena_rounded_to_the_host_page)
{
	const size_t pg = host_page();
	struct dmamap__ledger l0;
	struct dmamap_platform *p;
	struct device *dev;
	uint64_t size;
	dma_addr_t h;
	void *cpu;

	dmamap__ledger_read(&l0);
	p = fake_platform(NULL, 2 * pg + 1, false, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(vstats(dev).registered_bytes, 3 * pg);
	REQUIRE(fake_vfio_mapping_nth(0, NULL, NULL, &size));
	CHECK_EQ(size, 3 * pg);
	cpu = dma_alloc_coherent(dev, 2 * pg, &h, GFP_KERNEL);
	CHECK(cpu != NULL);
	if (cpu)
		dma_free_coherent(dev, 2 * pg, cpu, h);
	destroy_clean(p, &l0);
	fake_vfio_remove();
}

/* "01:00.0" is domain 0's; the device is named canonically, hex in lower case. */
TEST(vfio_open_short_address_is_canonical)
{
	struct fake_vfio_cfg cfg = { .bdf = "0000:0a:1f.7" };
	struct dmamap_error err = { 0 };
	struct dmamap_device_info info;
	struct dmamap__ledger l0;
	struct dmamap_platform *p;

	dmamap__ledger_read(&l0);
	fake_vfio_install(&cfg);
	p = dmamap_platform_vfio("0A:1F.7", NULL, &err);
	REQUIRE_MSG(p, "%d %s", err.code, err.msg);
	quiet(p);
	{
		static const char want[] = "/sys/bus/pci/devices/0000:0a:1f.7/";

		CHECK_MSG(!strncmp(fake_vfio_last_readlink(), want, sizeof(want) - 1),
			  "sysfs asked about '%s'", fake_vfio_last_readlink());
	}
	REQUIRE(dmamap_device_lookup(p, "0000:0a:1f.7"));
	REQUIRE(dmamap_device_info(dmamap_device_lookup(p, "0000:0a:1f.7"), &info) == 0);
	CHECK(!strcmp(info.name, "0000:0a:1f.7"));
	CHECK(!strcmp(info.ops, "vfio"));
	destroy_clean(p, &l0);

	/* The long form, as given, works as well. */
	fake_vfio_install(NULL);
	p = dmamap_platform_vfio("0000:01:00.0", NULL, &err);
	REQUIRE_MSG(p, "%d %s", err.code, err.msg);
	quiet(p);
	CHECK(dmamap_device_lookup(p, FAKE_BDF) != NULL);
	destroy_clean(p, &l0);
	fake_vfio_remove();
}

struct open_case {
	const char *what;
	struct fake_vfio_cfg cfg;
	const char *bdf;
	int code;
	const char *says; /* in err.msg */
	long map_fail;    /* the arena's MAP_DMA fails (RLIMIT_MEMLOCK) */
	size_t arena;     /* arena_size asked (0: the default) */
};

static void open_refused(const struct open_case *c)
{
	struct dmamap_error err = { 0 };
	struct dmamap__ledger l0;
	struct dmamap_platform *p;
	char why[256];

	dmamap__ledger_read(&l0);
	fake_vfio_install(&c->cfg);
	if (c->map_fail)
		fake_vfio_map_fail_in(c->map_fail);
	{
		struct dmamap_vfio_options opt = { .arena_size = c->arena };

		p = dmamap_platform_vfio(c->bdf, c->arena ? &opt : NULL, &err);
	}
	CHECK_MSG(!p, "%s: a platform was made", c->what);
	if (p) {
		dmamap_platform_destroy(p);
		return;
	}
	CHECK_MSG(err.code == c->code, "%s: code %d, want %d (%s)", c->what, err.code, c->code,
		  err.msg);
	CHECK_MSG(strstr(err.msg, c->says), "%s: message '%s' does not say '%s'", c->what, err.msg,
		  c->says);
	CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "%s: %s", c->what, why);
	CHECK_MSG(ledger_same(&l0), "%s: the ledger changed", c->what);
	fake_vfio_remove();
}

/* Each error of the header's list, from the machine state that causes it. */
TEST(vfio_open_every_listed_error)
{
	const struct open_case cases[] = {
		{ "NULL address", {0}, NULL, -EINVAL, "PCI address" },
		{ "empty address", {0}, "", -EINVAL, "PCI address" },
		{ "no function number", {0}, "0000:01:00", -EINVAL, "not a PCI address" },
		{ "device 0x20", {0}, "0000:01:20.0", -EINVAL, "not a PCI address" },
		{ "function 8", {0}, "0000:01:00.8", -EINVAL, "not a PCI address" },
		{ "trailing bytes", {0}, "0000:01:00.0x", -EINVAL, "not a PCI address" },
		{ "words", {0}, "nvme0", -EINVAL, "not a PCI address" },
		{ "too long", {0}, "00000000:01:00.0", -EINVAL, "PCI address" },
		{ "no such function", { .no_function = true }, FAKE_BDF, -ENOENT,
		  "no PCI function" },
		{ "no IOMMU group", { .no_group = true }, FAKE_BDF, -ENOENT, "no IOMMU group" },
		{ "bound to nvme", { .driver = "nvme" }, FAKE_BDF, -ENODEV, "bound to nvme" },
		{ "bound to nothing", { .driver = "" }, FAKE_BDF, -ENODEV, "no driver" },
		{ "no /dev/vfio/vfio", { .container_errno = ENOENT }, FAKE_BDF, -ENODEV,
		  "/dev/vfio/vfio" },
		{ "container not ours", { .container_errno = EACCES }, FAKE_BDF, -EACCES,
		  "/dev/vfio/vfio" },
		{ "group not ours", { .group_errno = EACCES }, FAKE_BDF, -EACCES, "/dev/vfio/12" },
		{ "group held elsewhere", { .group_errno = EBUSY }, FAKE_BDF, -EBUSY,
		  "another process" },
		{ "group not viable", { .not_viable = true }, FAKE_BDF, -EBUSY, "not viable" },
		{ "no type1v2", { .no_type1v2 = true }, FAKE_BDF, -EOPNOTSUPP, "type1v2" },
		{ "another API", { .bad_api_version = true }, FAKE_BDF, -EOPNOTSUPP, "API version" },
		{ "arena not pinned", {0}, FAKE_BDF, -ENOMEM, "ulimit -l", 1 },
		/* No IOVA range of 16 MiB below 4 GiB: past the migration and DMA-left caps, one of 8 MiB. */
		{ "8 MiB of IOVA", { .nr_ranges = 2, .ranges = { { 0, 0x7fffff },
							    { 0x100000000ULL, 0x1ffffffffULL } } },
		  FAKE_BDF, -ENOSPC, "16 MiB" },
		{ "an arena over 1 GiB", {0}, FAKE_BDF, -EINVAL, "1 GiB", 0, (1ULL << 30) + 4096 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		open_refused(&cases[i]);
}

/*
 * "-EINVAL: a NULL or malformed @bdf", and sysfs never asked. (Was a bug:
 * parse_bdf()'s sscanf("%x") took a sign or spaces, so "-1:00.0" became
 * bus 0xffffffff, truncated to "0000:ffffffff:0", and -ENOENT.)
 */
TEST(vfio_open_signed_or_spaced_address_is_malformed)
{
	const char *bad[] = { "-1:00.0", "0000:-1:00.0", "+1:00.0", " 01:00.0", "0000: 1:00.0" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct open_case c = { bad[i], {0}, bad[i], -EINVAL, "not a PCI address" };

		open_refused(&c);
		CHECK_MSG(!fake_counts.readlinks, "'%s': sysfs was asked about '%s'", bad[i],
			  fake_vfio_last_readlink());
	}
}

/* A group opens once: the second platform on it is refused, the first keeps working. */
TEST(vfio_open_group_held_by_another_platform)
{
	struct dmamap_error err = { 0 };
	struct dmamap__ledger l0;
	struct dmamap_platform *p, *q;
	struct device *dev;
	uint8_t *buf = malloc(256), seen[256];
	dma_addr_t h;

	REQUIRE(buf);
	dmamap__ledger_read(&l0);
	p = fake_platform(NULL, 1 << 20, false, &dev);
	REQUIRE(p && dev);
	q = dmamap_platform_vfio(FAKE_BDF, NULL, &err);
	CHECK(!q);
	CHECK_EQ(err.code, -EBUSY);
	CHECK_MSG(strstr(err.msg, "/dev/vfio/12"), "%s", err.msg);
	CHECK_EQ(fake_vfio_open_fds(), 3);
	dmamap_platform_destroy(q);
	pat(buf, 256, 3);
	h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(fake_dma(h, seen, 256, false), 0);
	CHECK_MEM(seen, buf, 256);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	destroy_clean(p, &l0);
	free(buf);
	fake_vfio_remove();
}

/*
 * Destruction: every registered range leaves the IOMMU by UNMAP_DMA
 * before the container closes (none left for the close to drop), the BAR
 * is unmapped, every file closed.
 */
TEST(vfio_open_destroy_unmaps_and_closes_everything)
{
	const size_t len = 64 * KiB;
	struct dmamap__ledger l0;
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *mem;
	void *cpu;
	dma_addr_t h;
	unsigned long unmaps;

	mem = mmap(NULL, 2 * len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(mem != MAP_FAILED);
	dmamap__ledger_read(&l0);
	p = fake_platform(NULL, 2 << 20, false, &dev);
	REQUIRE(p && dev);
	REQUIRE(dmamap_vfio_register(p, mem, len) == 0);
	REQUIRE(dmamap_vfio_register(p, mem + len, len) == 0);
	CHECK(dmamap_vfio_bar(dev, 0, NULL) != NULL);
	cpu = dma_alloc_coherent(dev, 8192, &h, GFP_KERNEL);
	REQUIRE(cpu);
	dma_free_coherent(dev, 8192, cpu, h);
	CHECK_EQ(fake_vfio_nr_mappings(), 3);
	CHECK_EQ(fake_vfio_live_bar_maps(), 1);
	unmaps = fake_counts.ioctl[FAKE_UNMAP_DMA];
	destroy_clean(p, &l0);
	CHECK_EQ(fake_counts.ioctl[FAKE_UNMAP_DMA] - unmaps, 3);
	CHECK_EQ(fake_counts.ioctl_failed[FAKE_UNMAP_DMA], 0);
	CHECK_EQ(fake_counts.unmapped_bytes, (2 << 20) + 2 * len);
	CHECK_EQ(fake_counts.dropped_at_close, 0);
	CHECK_EQ(fake_counts.bar_munmaps, 1);
	CHECK_EQ(fake_counts.closes, 3);
	munmap(mem, 2 * len);
	fake_vfio_remove();
}

/* The space is where the IOMMU translates: its IOVA-range capability, found along the chain. */
TEST(vfio_open_iova_space_follows_the_iommu)
{
	/* The largest between 1 MiB and 4 GiB, not the first (an SMMU's MSI window makes that small). */
	struct fake_vfio_cfg cfg = { .nr_ranges = 3, .ranges = {
		{ 0, 0x1fffff },		/* 2 MiB: too small */
		{ 0x40000000, 0x7fffffff },	/* 1 GiB */
		{ 0x80100000, 0xffffffffffffULL }, /* the space: almost 2 GiB below 4 GiB */
	} };
	struct dmamap__ledger l0;
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;
	uint64_t iova, size;

	dmamap__ledger_read(&l0);
	p = fake_platform(&cfg, 0, false, &dev);
	REQUIRE(p && dev);
	st = vstats(dev);
	CHECK_EQ(st.iova_start, 0x80100000);
	CHECK_EQ(st.iova_end, 1ULL << 32);
	REQUIRE(fake_vfio_mapping_nth(0, &iova, NULL, &size));
	CHECK(iova >= 0x80100000 && iova + size <= 1ULL << 32);
	destroy_clean(p, &l0);

	/* Intel's ranges: the space ends below the interrupt window. */
	p = fake_platform(NULL, 0, false, &dev);
	REQUIRE(p && dev);
	st = vstats(dev);
	CHECK_EQ(st.iova_start, 1ULL << 20);
	CHECK_EQ(st.iova_end, FAKE_IOVA0_END + 1);
	CHECK_EQ(dma_get_required_mask(dev), DMA_BIT_MASK(32));
	destroy_clean(p, &l0);

	/* No chain at all (kernels before 5.4): all below 4 GiB but x86's interrupt window. */
	cfg = (struct fake_vfio_cfg){ .no_caps = true };
	p = fake_platform(&cfg, 0, false, &dev);
	REQUIRE(p && dev);
	st = vstats(dev);
	CHECK_EQ(st.iova_start, 1ULL << 20);
#if defined(__x86_64__) || defined(__i386__)
	CHECK_EQ(st.iova_end, 0xfee00000);
#else
	CHECK_EQ(st.iova_end, 1ULL << 32);
#endif
	CHECK_EQ(fake_counts.ioctl[FAKE_IOMMU_GET_INFO], 1);
	destroy_clean(p, &l0);
	fake_vfio_remove();
}

/*
 * The largest arena, 1 GiB, is registered and allocated from. (Was a bug:
 * the IOVA buddy stopped at 256 MiB blocks, so an arena over 256 MiB
 * failed the platform with -ENOSPC.)
 */
TEST(vfio_open_arena_of_1gib)
{
	struct dmamap__ledger l0;
	struct dmamap_platform *p;
	struct device *dev;
	void *cpu;
	dma_addr_t h;

	if (sizeof(void *) < 8)
		SKIP("a 1 GiB arena needs a 64-bit address space");
	dmamap__ledger_read(&l0);
	p = fake_platform(NULL, 1ULL << 30, false, &dev);
	REQUIRE_MSG(p && dev, "a 1 GiB arena (the limit) was refused");
	CHECK_EQ(vstats(dev).registered_bytes, 1ULL << 30);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	CHECK(cpu != NULL);
	if (cpu)
		dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	destroy_clean(p, &l0);
	fake_vfio_remove();
}

/*
 * Every failure point of the library in dmamap_platform_vfio() in turn:
 * each failure is -ENOMEM, said, with every file closed, nothing mapped
 * and the ledger as before; with none failing, the platform works.
 */
TEST_TIMEOUT(vfio_open_failure_point_walk, 60)
{
	struct dmamap__ledger l0;
	long k, failed = 0;
	char why[256];

	dmamap__ledger_read(&l0);
	for (k = 1; k < 500; k += tap_sample()) {
		struct dmamap_vfio_options opt = { .arena_size = 1 << 20 };
		bool fired;
		struct dmamap_platform *p = fake_walk_point(NULL, &opt, k, &fired);

		if (!p) {
			failed++;
		} else {
			struct device *dev = dmamap_device_lookup(p, FAKE_BDF);
			uint8_t buf[64] = { 1, 2, 3 }, seen[64];
			dma_addr_t h;

			/* Made despite a failure: it must work all the same. */
			REQUIRE_MSG(dev, "point %ld: a platform without its device", k);
			h = dma_map_single(dev, buf, sizeof(buf), DMA_TO_DEVICE);
			CHECK_MSG(!dma_mapping_error(dev, h), "point %ld: map failed", k);
			if (!dma_mapping_error(dev, h)) {
				CHECK_EQ(fake_dma(h, seen, sizeof(seen), false), 0);
				CHECK_MEM(seen, buf, sizeof(buf));
				dma_unmap_single(dev, h, sizeof(buf), DMA_TO_DEVICE);
			}
			dmamap_platform_destroy(p);
		}
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "point %ld: %s", k, why);
		CHECK_MSG(ledger_same(&l0), "point %ld: the ledger changed", k);
		fake_vfio_remove();
		if (tap_failures)
			return;
		if (!fired)
			break;
	}
	CHECK_MSG(k < 500, "more than 500 failure points");
	/* A sampled run (an emulator) walks one point in DMAMAP_TEST_SAMPLE. */
	CHECK_MSG(failed >= (tap_sample() > 1 ? 1 : 5), "only %ld failure points failed the call",
		  failed);
	printf("# %ld failure points, %ld failed the call\n", k - 1, failed);
}

/*
 * Every call into the kernel refused in turn (EIO): each refusal that
 * fails the call leaves nothing open or mapped and is said; a refusal the
 * platform can live without (a BAR's region, say) leaves one that works.
 */
TEST_TIMEOUT(vfio_open_kernel_refusal_walk, 60)
{
	struct dmamap__ledger l0;
	long k, failed = 0;
	char why[256];

	dmamap__ledger_read(&l0);
	for (k = 1; k < 200; k++) {
		struct dmamap_error err = { 0 };
		struct dmamap_vfio_options opt = { .arena_size = 1 << 20 };
		struct dmamap_platform *p;
		bool fired;

		fake_vfio_install(NULL);
		fake_vfio_fail_call_in(k, EIO);
		p = dmamap_platform_vfio(FAKE_BDF, &opt, &err);
		fired = fake_counts.injected != 0;
		fake_vfio_fail_call_in(0, 0);
		if (!p) {
			failed++;
			CHECK_MSG(fired, "call %ld: failed with nothing refused: %d %s", k, err.code,
				  err.msg);
			CHECK_MSG(err.code < 0, "call %ld: code %d", k, err.code);
			CHECK_MSG(!strncmp(err.msg, "vfio: ", 6), "call %ld: message '%s'", k, err.msg);
		} else {
			struct device *dev = dmamap_device_lookup(p, FAKE_BDF);

			quiet(p);
			CHECK_MSG(dev != NULL, "call %ld: no device", k);
			dmamap_platform_destroy(p);
		}
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "call %ld: %s", k, why);
		CHECK_MSG(ledger_same(&l0), "call %ld: the ledger changed", k);
		fake_vfio_remove();
		if (tap_failures)
			return;
		if (!fired)
			break;
	}
	CHECK_MSG(k < 200, "more than 200 calls");
	CHECK_MSG(failed >= 10, "only %ld refusals failed the call", failed);
	printf("# %ld kernel calls, %ld refusals failed the call\n", k - 1, failed);
}

/* A refused ioctl gives the kernel's errno, not a generic one, and names the request. */
TEST(vfio_open_kernel_errno_passed_on)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	char why[256];
	long k;

	/* Find the call that is SET_IOMMU: fail it with EPERM. */
	for (k = 1; k < 200; k++) {
		fake_vfio_install(NULL);
		fake_vfio_fail_call_in(k, EPERM);
		p = dmamap_platform_vfio(FAKE_BDF, NULL, &err);
		if (fake_counts.ioctl_failed[FAKE_SET_IOMMU])
			break;
		dmamap_platform_destroy(p);
		fake_vfio_remove();
	}
	REQUIRE_MSG(k < 200, "SET_IOMMU was never reached");
	CHECK(!p);
	CHECK_EQ(err.code, -EPERM);
	CHECK_MSG(strstr(err.msg, "VFIO_SET_IOMMU"), "%s", err.msg);
	CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "%s", why);
	fake_vfio_remove();
}
