/* SPDX-License-Identifier: MIT */
/*
 * The VFIO platform through iommufd, against the fake kernel with
 * cfg.iommufd: the function's own file taken where the kernel has one (no
 * group, no container), bound and attached before it is asked anything,
 * the IOVA space read after the attach narrowed it; mappings reaching the
 * device and leaving it; the group's way taken where iommufd is missing or
 * not this user's; every refusal said, and nothing left open; both walks
 * (the library's failure points, the kernel's refusals).
 */
#include <sys/mman.h>
#include "../helpers.h"
#include "fake_kernel.h"

#define ARENA (1ULL << 20)

static const struct fake_vfio_cfg with_iommufd = { .iommufd = true };

TEST(vfio_iommufd_is_the_way_where_the_kernel_has_it)
{
	struct dmamap_vfio_options opt = { .arena_size = ARENA };
	struct dmamap_vfio_stats st;
	uint64_t iova, va, size;
	struct dmamap_platform *p;
	struct device *dev;

	p = fake_platform_opt(&with_iommufd, &opt, false, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(dmamap_vfio_access(dev), DMAMAP_VFIO_IOMMUFD);
	CHECK(fake_iommufd_attached());
	/* The iommufd and the function's own file; no container, no group. */
	CHECK_EQ(fake_vfio_open_fds(), 2);
	CHECK_EQ(fake_counts.ioctl[FAKE_GET_API_VERSION], 0);
	CHECK_EQ(fake_counts.ioctl[FAKE_GROUP_SET_CONTAINER], 0);
	CHECK_EQ(fake_counts.ioctl[FAKE_GET_DEVICE_FD], 0);
	CHECK_EQ(fake_counts.ioctl[FAKE_BIND_IOMMUFD], 1);
	CHECK_EQ(fake_counts.ioctl[FAKE_ATTACH_PT], 1);
	/* The ranges were read once the function had narrowed them, not of the empty space. */
	CHECK(fake_counts.ioctl[FAKE_IOAS_IOVA_RANGES] >= 1);
	CHECK_EQ(fake_counts.ranges_before_attach, 0);
	/* The arena, mapped in the address space, inside the IOMMU's first range. */
	CHECK_EQ(fake_counts.ioctl[FAKE_IOAS_MAP], 1);
	CHECK_EQ(fake_counts.ioctl[FAKE_MAP_DMA], 0);
	REQUIRE(fake_vfio_mapping_nth(0, &iova, &va, &size));
	CHECK_EQ(size, ARENA);
	st = vstats(dev);
	CHECK_EQ(st.registered_bytes, ARENA);
	CHECK(st.iova_start >= (1ULL << 20));
	CHECK(st.iova_end <= FAKE_IOVA0_END + 1);
	CHECK(iova >= st.iova_start && iova + size <= st.iova_end);
	CHECK_EQ(fake_counts.misuse, 0);
	/* The function's file closes before the iommufd (the fake calls the other order misuse). */
	fake_platform_end(p);
}

/* The space is what the IOMMU translates after the attach: a narrow range is kept to. */
TEST(vfio_iommufd_iova_space_is_the_attached_ranges)
{
	struct fake_vfio_cfg cfg = with_iommufd;
	struct dmamap_vfio_options opt = { .arena_size = ARENA };
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;

	cfg.nr_ranges = 2;
	cfg.ranges[0] = (struct fake_vfio_range){ 0x10000000ULL, 0x1fffffffULL };
	cfg.ranges[1] = (struct fake_vfio_range){ 0x100000000ULL, 0x1ffffffffULL };
	p = fake_platform_opt(&cfg, &opt, false, &dev);
	REQUIRE(p && dev);
	st = vstats(dev);
	CHECK_MSG(st.iova_start >= 0x10000000ULL && st.iova_end <= 0x20000000ULL,
		  "space [%#llx, %#llx)", (unsigned long long)st.iova_start,
		  (unsigned long long)st.iova_end);
	fake_platform_end(p);
}

/* Registered and unregistered memory both reach the device, with the right permissions, and leave it. */
TEST(vfio_iommufd_maps_reach_the_device_and_leave_it)
{
	struct dmamap_vfio_options opt = { .arena_size = ARENA };
	const size_t len = 64 * KiB;
	uint8_t want[3000], back[3000];
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *mem, *loose;
	dma_addr_t h, hl;

	p = fake_platform_opt(&with_iommufd, &opt, false, &dev);
	REQUIRE(p && dev);
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	loose = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(mem != MAP_FAILED && loose != MAP_FAILED);
	REQUIRE(dmamap_vfio_register(p, mem, len) == 0);
	CHECK_EQ(fake_counts.ioctl[FAKE_IOAS_MAP], 2);

	/* Registered: a lookup, the bytes the CPU wrote; a device write to a TO_DEVICE map refused. */
	fill_pattern(want, sizeof(want), 7);
	memcpy(mem + 1000, want, sizeof(want));
	h = dma_map_single(dev, mem + 1000, sizeof(want), DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK(fake_device_reads(h, want, sizeof(want)));
	dma_unmap_single(dev, h, sizeof(want), DMA_TO_DEVICE);

	/* Unregistered: pinned and mapped in the address space now, read-only for TO_DEVICE. */
	fill_pattern(want, sizeof(want), 8);
	memcpy(loose + 100, want, sizeof(want));
	hl = dma_map_single(dev, loose + 100, sizeof(want), DMA_TO_DEVICE);
	REQUIRE(hl != DMA_MAPPING_ERROR);
	CHECK_EQ(fake_counts.ioctl[FAKE_IOAS_MAP], 3);
	CHECK(fake_device_reads(hl, want, sizeof(want)));
	CHECK_EQ(fake_dma(hl, back, 16, true), -EFAULT);
	dma_unmap_single(dev, hl, sizeof(want), DMA_TO_DEVICE);
	CHECK_EQ(fake_counts.ioctl[FAKE_IOAS_UNMAP], 1);
	CHECK_EQ(fake_counts.ioctl_failed[FAKE_IOAS_UNMAP], 0);
	CHECK_EQ(fake_dma(hl, back, 16, false), -EFAULT);

	/* FROM_DEVICE, unregistered: the device's bytes are what the CPU reads after unmap. */
	fill_pattern(want, sizeof(want), 9);
	hl = dma_map_single(dev, loose, sizeof(want), DMA_FROM_DEVICE);
	REQUIRE(hl != DMA_MAPPING_ERROR);
	CHECK_EQ(fake_dma(hl, want, sizeof(want), true), 0);
	dma_unmap_single(dev, hl, sizeof(want), DMA_FROM_DEVICE);
	CHECK(!memcmp(loose, want, sizeof(want)));
	st = vstats(dev);
	CHECK_EQ(st.fast_maps, 1);
	CHECK_EQ(st.slow_maps, 2);
	CHECK_EQ(st.slow_unmaps, 2);
	CHECK_EQ(st.slow_bytes_live, 0);

	/* Unregistering takes the range out of the address space: the device loses it. */
	CHECK_EQ(dmamap_vfio_unregister(p, mem), 0);
	CHECK_EQ(fake_counts.ioctl[FAKE_IOAS_UNMAP], 3);
	CHECK_EQ(fake_dma(h, back, 16, false), -EFAULT);
	CHECK_EQ(fake_counts.misuse, 0);
	fake_platform_end(p);
	munmap(mem, len);
	munmap(loose, len);
}

/*
 * A kernel without iommufd, or one whose /dev/iommu or function file this
 * user may not open: the group and a type1 container, as before, with
 * nothing of the other way left open.
 */
TEST(vfio_iommufd_missing_or_not_ours_takes_the_group_way)
{
	static const struct {
		const char *what;
		bool iommufd;
		int iommufd_errno, cdev_errno;
	} cases[] = {
		{ "no iommufd in the kernel", false, 0, 0 },
		{ "/dev/iommu root's", true, EACCES, 0 },
		{ "/dev/iommu not there", true, ENOENT, 0 },
		{ "/dev/iommu with no driver behind it (ENODEV)", true, ENODEV, 0 },
		{ "/dev/iommu with no driver behind it (ENXIO)", true, ENXIO, 0 },
		{ "the function's file root's", true, 0, EACCES },
		{ "the function's file refused (EPERM)", true, 0, EPERM },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake_vfio_cfg cfg = { .iommufd = cases[i].iommufd,
					     .iommufd_errno = cases[i].iommufd_errno,
					     .cdev_errno = cases[i].cdev_errno };
		struct dmamap_vfio_options opt = { .arena_size = ARENA };
		struct dmamap_platform *p;
		struct device *dev;

		p = fake_platform_opt(&cfg, &opt, false, &dev);
		REQUIRE_MSG(p && dev, "%s: no platform", cases[i].what);
		CHECK_MSG(dmamap_vfio_access(dev) == DMAMAP_VFIO_IOMMU, "%s: access %d",
			  cases[i].what, dmamap_vfio_access(dev));
		CHECK_MSG(fake_vfio_open_fds() == 3, "%s: %u files open", cases[i].what,
			  fake_vfio_open_fds());
		CHECK_MSG(fake_counts.ioctl[FAKE_SET_IOMMU] == 1, "%s: SET_IOMMU %lu", cases[i].what,
			  fake_counts.ioctl[FAKE_SET_IOMMU]);
		CHECK_MSG(fake_counts.ioctl[FAKE_BIND_IOMMUFD] == 0, "%s: bound", cases[i].what);
		CHECK_MSG(fake_counts.dir_lists == 1, "%s: %lu listings", cases[i].what,
			  fake_counts.dir_lists);
		fake_platform_end(p);
	}
}

/* Without an IOMMU the group's no-IOMMU way is kept: iommufd is not even looked for. */
TEST(vfio_iommufd_not_looked_for_without_an_iommu)
{
	struct fake_vfio_cfg cfg = { .iommufd = true, .noiommu = true };
	struct dmamap_vfio_options opt = { .arena_size = 2 << 20, .unsafe_noiommu = true };
	struct dmamap_platform *p;
	struct device *dev;

	p = fake_platform_opt(&cfg, &opt, false, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(dmamap_vfio_access(dev), DMAMAP_VFIO_NOIOMMU);
	CHECK_EQ(fake_counts.dir_lists, 0);
	fake_platform_end(p);
}

/* A name in vfio-dev that is not "vfio" and a number is not made into a path: the group's way. */
TEST(vfio_iommufd_odd_cdev_names_are_not_trusted)
{
	static const char *const names[] = { "vfio", "vfio3x", "vfio-3", "vfio123456789012" };

	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct fake_vfio_cfg cfg = { .iommufd = true, .cdev_entry = names[i] };
		struct dmamap_vfio_options opt = { .arena_size = ARENA };
		struct dmamap_platform *p;
		struct device *dev;

		p = fake_platform_opt(&cfg, &opt, false, &dev);
		REQUIRE_MSG(p && dev, "\"%s\": no platform", names[i]);
		CHECK_MSG(dmamap_vfio_access(dev) == DMAMAP_VFIO_IOMMU, "\"%s\": access %d", names[i],
			  dmamap_vfio_access(dev));
		CHECK_MSG(fake_counts.ioctl[FAKE_BIND_IOMMUFD] == 0, "\"%s\": bound", names[i]);
		fake_platform_end(p);
	}
}

/*
 * A bind the kernel refuses with EPERM (a group that is not viable, an
 * IOMMU that does not remap interrupts with iommufd's own switch off) or
 * EBUSY (the group held elsewhere): the group's way, which says which, or
 * (with vfio_iommu_type1's allow_unsafe_interrupts) works.
 */
TEST(vfio_iommufd_bind_refusals_take_the_group_way)
{
	struct fake_vfio_cfg unsafe_irqs = { .iommufd = true, .bind_errno = EPERM };
	struct fake_vfio_cfg held = { .iommufd = true, .bind_errno = EBUSY };
	struct fake_vfio_cfg not_viable = { .iommufd = true, .not_viable = true };
	struct dmamap_vfio_options opt = { .arena_size = ARENA };
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	struct device *dev;
	char why[256];

	p = fake_platform_opt(&unsafe_irqs, &opt, false, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(dmamap_vfio_access(dev), DMAMAP_VFIO_IOMMU);
	CHECK_EQ(fake_counts.ioctl[FAKE_BIND_IOMMUFD], 1);
	CHECK_EQ(fake_vfio_open_fds(), 3); /* container, group, function: the iommufd closed */
	fake_platform_end(p);

	p = fake_platform_opt(&held, &opt, false, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(dmamap_vfio_access(dev), DMAMAP_VFIO_IOMMU);
	fake_platform_end(p);

	fake_vfio_install(&not_viable);
	CHECK(!dmamap_platform_vfio(FAKE_BDF, &opt, &err));
	CHECK_EQ(fake_counts.ioctl[FAKE_BIND_IOMMUFD], 1);
	CHECK_EQ(err.code, -EBUSY);
	CHECK_MSG(strstr(err.msg, "not viable"), "'%s'", err.msg);
	CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "%s", why);
	fake_vfio_remove();
}

/* Each other refusal of the iommufd way fails the call with the kernel's errno, named, nothing left open. */
TEST(vfio_iommufd_refusals_are_said)
{
	static const struct {
		const char *what;
		struct fake_vfio_cfg cfg;
		int code;
		const char *says;
	} cases[] = {
		{ "bind refused: the function's file open elsewhere", { .iommufd = true, .bind_errno = EINVAL },
		  -EINVAL, "another process" },
		{ "out of descriptors at /dev/iommu", { .iommufd = true, .iommufd_errno = EMFILE },
		  -EMFILE, "/dev/iommu" },
		{ "out of descriptors at the function's file", { .iommufd = true, .cdev_errno = EMFILE },
		  -EMFILE, "/dev/vfio/devices/vfio3" },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dmamap_error err = { 0 };
		char why[256];

		fake_vfio_install(&cases[i].cfg);
		CHECK_MSG(!dmamap_platform_vfio(FAKE_BDF, NULL, &err), "%s: made", cases[i].what);
		CHECK_MSG(err.code == cases[i].code, "%s: code %d", cases[i].what, err.code);
		CHECK_MSG(strstr(err.msg, cases[i].says), "%s: '%s'", cases[i].what, err.msg);
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "%s: %s", cases[i].what, why);
		fake_vfio_remove();
	}
}

/* More ranges than the library keeps: the kernel fills what room there is (EMSGSIZE), which serves. */
TEST(vfio_iommufd_more_ranges_than_room)
{
	struct fake_vfio_cfg cfg = with_iommufd;
	struct dmamap_vfio_options opt = { .arena_size = ARENA };
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;

	cfg.nr_ranges = 10;
	cfg.ranges[0] = (struct fake_vfio_range){ 0x5000, 0x4fff - 0x1000 }; /* ends before it starts */
	for (unsigned int i = 1; i < 10; i++)
		cfg.ranges[i] = (struct fake_vfio_range){ (uint64_t)i << 28, ((uint64_t)i << 28) + (64ULL << 20) - 1 };
	cfg.ranges[7] = (struct fake_vfio_range){ 1ULL << 48, ~0ULL };
	p = fake_platform_opt(&cfg, &opt, false, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(fake_counts.ioctl_failed[FAKE_IOAS_IOVA_RANGES], 1);
	st = vstats(dev);
	CHECK_MSG(st.iova_start >= (1ULL << 28) && st.iova_end <= (1ULL << 28) + (64ULL << 20),
		  "space [%#llx, %#llx)", (unsigned long long)st.iova_start,
		  (unsigned long long)st.iova_end);
	fake_platform_end(p);
}

/*
 * An IOMMU that takes any IOVA (out_iova_alignment 1, which the kernel
 * may say): the library still maps whole host pages, and the device reads
 * the buffer's bytes.
 */
TEST(vfio_iommufd_any_alignment_still_maps_host_pages)
{
	struct fake_vfio_cfg cfg = with_iommufd;
	struct dmamap_vfio_options opt = { .arena_size = ARENA };
	uint64_t iova, va, size;
	struct dmamap_vfio_stats st;
	uint8_t want[3000], *loose;
	struct dmamap_platform *p;
	struct device *dev;
	dma_addr_t h;

	cfg.iova_alignment = 1;
	p = fake_platform_opt(&cfg, &opt, false, &dev);
	REQUIRE(p && dev);
	st = vstats(dev);
	CHECK_EQ(st.iova_start % 4096, 0);
	loose = mmap(NULL, 64 * KiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(loose != MAP_FAILED);
	fill_pattern(want, sizeof(want), 3);
	memcpy(loose + 5000, want, sizeof(want));
	h = dma_map_single(dev, loose + 5000, sizeof(want), DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK(fake_device_reads(h, want, sizeof(want)));
	REQUIRE(fake_vfio_mapping_at(h, &iova, &va, &size));
	CHECK_EQ(iova % 4096, 0);
	CHECK_EQ(size % 4096, 0);
	CHECK_EQ(va, (uint64_t)(uintptr_t)loose + 4096);
	dma_unmap_single(dev, h, sizeof(want), DMA_TO_DEVICE);
	fake_platform_end(p);
	munmap(loose, 64 * KiB);
}

/* The kernel says it unmapped less than asked: not taken for done. */
TEST(vfio_iommufd_short_unmap_is_not_success)
{
	struct fake_vfio_cfg cfg = with_iommufd;
	struct dmamap_vfio_options opt = { .arena_size = ARENA };
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *mem;

	cfg.short_unmap = true;
	p = fake_platform_opt(&cfg, &opt, false, &dev);
	REQUIRE(p && dev);
	mem = mmap(NULL, 64 * KiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(mem != MAP_FAILED);
	REQUIRE(dmamap_vfio_register(p, mem, 64 * KiB) == 0);
	CHECK_EQ(dmamap_vfio_unregister(p, mem), -ENOENT);
	dmamap_platform_destroy(p);
	fake_vfio_remove();
	munmap(mem, 64 * KiB);
}

/* Every failure point of the library along the iommufd way: -ENOMEM, nothing left. */
TEST_TIMEOUT(vfio_iommufd_failure_point_walk, 60)
{
	struct dmamap_vfio_options opt = { .arena_size = ARENA };
	long k, failed = 0;
	char why[256];

	for (k = 1; k < 500; k += tap_sample()) {
		bool fired;
		struct dmamap_platform *p = fake_walk_point(&with_iommufd, &opt, k, &fired);

		if (p)
			dmamap_platform_destroy(p);
		else
			failed++;
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "point %ld: %s", k, why);
		fake_vfio_remove();
		if (tap_failures || !fired)
			break;
	}
	CHECK_MSG(k < 500, "more than 500 failure points");
	CHECK_MSG(failed >= 1, "no failure point failed the call");
}

/*
 * Every kernel call refused in turn (EIO): a refusal fails the call, said,
 * and leaves nothing; the iommufd steps are among them (not a quiet fall
 * back to the group's way, which an EIO does not call for).
 */
TEST_TIMEOUT(vfio_iommufd_kernel_refusal_walk, 60)
{
	long k, failed = 0, eio_steps = 0;
	char why[256];

	for (k = 1; k < 200; k++) {
		struct dmamap_vfio_options opt = { .arena_size = ARENA };
		struct dmamap_error err = { 0 };
		struct dmamap_platform *p;
		bool fired;

		fake_vfio_install(&with_iommufd);
		fake_vfio_fail_call_in(k, EIO);
		p = dmamap_platform_vfio(FAKE_BDF, &opt, &err);
		fired = fake_counts.injected != 0;
		fake_vfio_fail_call_in(0, 0);
		if (!p) {
			failed++;
			CHECK_MSG(fired, "call %ld: failed with nothing refused: %s", k, err.msg);
			/* The iommufd steps give the kernel's errno; the sysfs links their own reading. */
			CHECK_MSG(err.code < 0, "call %ld: code %d (%s)", k, err.code, err.msg);
			CHECK_MSG(!strncmp(err.msg, "vfio: ", 6), "call %ld: '%s'", k, err.msg);
			eio_steps += err.code == -EIO && (strstr(err.msg, "IOMMU") || strstr(err.msg, "iommu"));
		} else {
			quiet(p);
			/* What it could live without (a BAR's region): still the iommufd way. */
			CHECK_MSG(dmamap_vfio_access(dmamap_device_at(p, 0)) == DMAMAP_VFIO_IOMMUFD,
				  "call %ld: access %d", k, dmamap_vfio_access(dmamap_device_at(p, 0)));
			dmamap_platform_destroy(p);
		}
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "call %ld: %s", k, why);
		fake_vfio_remove();
		if (tap_failures || !fired)
			break;
	}
	CHECK_MSG(k < 200, "more than 200 calls");
	CHECK_MSG(failed >= 8, "only %ld refusals failed the call", failed);
	CHECK_MSG(eio_steps >= 6, "only %ld iommufd steps failed with the kernel's EIO", eio_steps);
	printf("# %ld kernel calls, %ld refusals failed the call\n", k - 1, failed);
}
