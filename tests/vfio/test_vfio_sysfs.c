/* SPDX-License-Identifier: MIT */
/*
 * The VFIO platform without an IOMMU and without VFIO's no-IOMMU mode
 * (unsafe_noiommu, a function in no IOMMU group), against the fake
 * kernel's sysfs files: the function is reached through its config,
 * resource, resource0 and reset files, with no VFIO call at all; the
 * registered memory's physical addresses are the device's addresses; no
 * interrupt line exists; a function a kernel driver holds, a resource
 * file not as the kernel writes it, or a config file only root may write
 * is refused, said, and leaves nothing open or locked.
 */
#include <sys/file.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <dmamap/interrupt.h>
#include <dmamap/io.h>
#include "../helpers.h"
#include "../../src/lib/mem.h"
#include "../../src/platform/vfio/vfio.h"
#include "fake_kernel.h"

#define K dmamap__vfio_kernel
#define ARENA (64 * KiB)
#define SYSFS "/sys/bus/pci/devices/" FAKE_BDF "/"

static bool ledger_same(const struct dmamap__ledger *a)
{
	struct dmamap__ledger b;

	dmamap__ledger_read(&b);
	return a->mapped_bytes == b.mapped_bytes && a->memfds == b.memfds;
}

/* A function in no IOMMU group, bound to @driver (NULL: none), with @cfg's other settings. */
static struct fake_vfio_cfg no_group(const struct fake_vfio_cfg *cfg, const char *driver)
{
	struct fake_vfio_cfg c = cfg ? *cfg : (struct fake_vfio_cfg){ 0 };

	c.no_group = true;
	c.driver = driver ? driver : "";
	return c;
}

static struct dmamap_platform *splat(const struct fake_vfio_cfg *cfg, bool check,
				     struct device **dev)
{
	struct fake_vfio_cfg c = no_group(cfg, NULL);
	struct dmamap_vfio_options opt = { .arena_size = ARENA, .unsafe_noiommu = true };

	return fake_platform_opt(&c, &opt, check, dev);
}

/* The platform asked for with @cfg as is: the refusal's code, its message in @msg. */
static int refusal(const struct fake_vfio_cfg *cfg, bool noiommu, char *msg, size_t len)
{
	struct dmamap_vfio_options opt = { .arena_size = ARENA, .unsafe_noiommu = noiommu };
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;

	fake_vfio_install(cfg);
	p = dmamap_platform_vfio(FAKE_BDF, &opt, &err);
	if (p) {
		quiet(p);
		dmamap_platform_destroy(p);
		snprintf(msg, len, "(made)");
		return 0;
	}
	memcpy(msg, err.msg, len - 1);
	msg[len - 1] = '\0';
	return err.code;
}

static void end(struct dmamap_platform *p)
{
	char why[256];

	dmamap_platform_destroy(p);
	CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "after destroy: %s", why);
	CHECK_EQ(fake_counts.munlock_stray, 0);
	fake_vfio_remove();
}

static unsigned long vfio_ioctls(void)
{
	unsigned long n = 0;

	for (unsigned int i = 0; i < FAKE_NR_IOCTLS; i++)
		n += fake_counts.ioctl[i];
	return n;
}

/* The fake's sysfs files, through the table: the tests below are as good as these rules. */
TEST(vfio_sysfs_fake_kernel_rules)
{
	struct fake_vfio_cfg cfg = no_group(NULL, NULL);
	char text[2048];
	uint8_t b[4];
	ssize_t n;
	int fd;

	fake_vfio_install(&cfg);
	/* resource: text, read only; six BAR lines first, BAR0 memory of FAKE_BAR0_SIZE. */
	CHECK(K->open(SYSFS "resource", O_RDWR) < 0);
	CHECK_EQ(errno, EACCES);
	fd = K->open(SYSFS "resource", O_RDONLY);
	REQUIRE(fd >= 0);
	n = K->pread(fd, text, sizeof(text) - 1, 0);
	REQUIRE(n > 0);
	text[n] = '\0';
	CHECK(!strncmp(text, "0x00000000febf0000 0x00000000febf3fff 0x0000000000140204\n", 57));
	K->close(fd);
	/* config: the space from offset 0, nothing past it; the IDs read only. */
	fd = K->open(SYSFS "config", O_RDWR);
	REQUIRE(fd >= 0);
	CHECK_EQ(K->pread(fd, b, 2, 0), 2);
	CHECK_EQ(b[0] | b[1] << 8, FAKE_VENDOR);
	CHECK_EQ(K->pread(fd, b, 1, 256), 1);
	CHECK_EQ(K->pread(fd, b, 1, FAKE_CONFIG_SIZE), 0);
	b[0] = 6;
	CHECK_EQ(K->pwrite(fd, b, 1, 4), 1);
	CHECK_EQ(fake_vfio_config()[4], 6);
	K->close(fd);
	/* reset: write only, "1" puts the space back. */
	CHECK(K->open(SYSFS "reset", O_RDONLY) < 0);
	CHECK_EQ(errno, EACCES);
	fd = K->open(SYSFS "reset", O_WRONLY);
	REQUIRE(fd >= 0);
	CHECK(K->pwrite(fd, "0", 1, 0) < 0);
	CHECK_EQ(K->pwrite(fd, "1", 1, 0), 1);
	CHECK_EQ(fake_counts.sysfs_resets, 1);
	CHECK_EQ(fake_vfio_config()[4], 6); /* saved and restored around the reset */
	K->close(fd);
	/* resource0 maps from 0, no further than the BAR; another file is not there. */
	fd = K->open(SYSFS "resource0", O_RDWR);
	REQUIRE(fd >= 0);
	CHECK(K->mmap(NULL, FAKE_BAR0_SIZE * 2, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED);
	K->close(fd);
	CHECK(K->open(SYSFS "resource5", O_RDWR) < 0);
	CHECK_EQ(errno, ENOENT);
	CHECK_EQ(fake_vfio_open_fds(), 0);
	CHECK_EQ(fake_counts.misuse, 0);
	/* The I/O BAR's file is there, and maps nothing: a misuse. */
	fd = K->open(SYSFS "resource2", O_RDWR);
	REQUIRE(fd >= 0);
	CHECK(K->mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED);
	CHECK_EQ(fake_counts.misuse, 1);
	K->close(fd);
	fake_vfio_remove();
	/* A 256-byte space; a second holder; a locked-down kernel refuses config writes. */
	cfg.config_256 = true;
	cfg.sysfs_held = true;
	cfg.lockdown = "none [integrity] confidentiality";
	fake_vfio_install(&cfg);
	fd = K->open(SYSFS "config", O_RDWR);
	REQUIRE(fd >= 0);
	CHECK_EQ(K->pread(fd, b, 1, 256), 0);
	CHECK_EQ(K->pread(fd, b, 4, 254), 2);
	CHECK(K->pwrite(fd, b, 1, 4) < 0);
	CHECK_EQ(errno, EPERM);
	CHECK(K->flock(fd, LOCK_EX | LOCK_NB) < 0);
	CHECK_EQ(errno, EWOULDBLOCK);
	K->close(fd);
	fd = K->open("/sys/kernel/security/lockdown", O_RDONLY);
	REQUIRE(fd >= 0);
	n = K->pread(fd, text, sizeof(text) - 1, 0);
	REQUIRE(n > 0);
	text[n] = '\0';
	CHECK(strstr(text, "[integrity]") != NULL);
	K->close(fd);
	fake_vfio_remove();
}

/*
 * No group, no driver, unsafe_noiommu: the platform is made from sysfs
 * alone (not one VFIO call, no /dev/vfio file), says so in its stats,
 * and has no interrupt line.
 */
TEST(vfio_sysfs_platform_made_without_vfio)
{
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;

	p = splat(NULL, false, &dev);
	REQUIRE(p && dev);
	CHECK(dmamap_platform_is_vfio(p));
	CHECK_EQ(vfio_ioctls(), 0);
	CHECK_EQ(fake_counts.sysfs_opens, 2); /* config, resource */
	CHECK_EQ(fake_counts.resource_reads, 1);
	/* Asked whether the kernel is locked down; holds the config file against a second holder. */
	CHECK_EQ(fake_counts.lockdown_reads, 1);
	CHECK_EQ(fake_counts.flocks, 1);
	/* config stays open, the resource file does not; pagemap was read and closed. */
	CHECK_EQ(fake_vfio_open_fds(), 1);
	CHECK_EQ(fake_counts.pagemap_opens, 1);
	CHECK_EQ(fake_locked_bytes(), ARENA);
	st = vstats(dev);
	CHECK_EQ(dmamap_vfio_access(dev), DMAMAP_VFIO_SYSFS);
	CHECK_EQ(st.msix_vectors, 0);
	CHECK_EQ(st.iova_start, 0);
	CHECK_EQ(st.iova_end, 0);
	CHECK_EQ(st.registered_bytes, ARENA);
	CHECK(dmamap_device_irq(dev, 0) < 0);
	end(p);
}

/* The access mode each way in reports: an IOMMU, VFIO's no-IOMMU mode, sysfs. */
TEST(vfio_sysfs_stats_tell_the_way_in)
{
	struct fake_vfio_cfg noiommu = { .noiommu = true };
	struct dmamap_vfio_options opt = { .arena_size = ARENA, .unsafe_noiommu = true };
	struct dmamap_platform *p;
	struct device *dev;

	p = fake_platform(NULL, ARENA, false, &dev);
	REQUIRE(p);
	CHECK_EQ(dmamap_vfio_access(dev), DMAMAP_VFIO_IOMMU);
	end(p);
	p = fake_platform_opt(&noiommu, &opt, false, &dev);
	REQUIRE(p);
	CHECK_EQ(dmamap_vfio_access(dev), DMAMAP_VFIO_NOIOMMU);
	CHECK_EQ(fake_counts.sysfs_opens, 0);
	end(p);
	p = splat(NULL, false, &dev);
	REQUIRE(p);
	CHECK_EQ(dmamap_vfio_access(dev), DMAMAP_VFIO_SYSFS);
	end(p);
	CHECK_EQ(dmamap_vfio_access(NULL), -EINVAL);
}

/* Configuration space through the config file; BAR0 through resource0; the I/O BAR never. */
TEST(vfio_sysfs_config_space_and_bar0)
{
	struct dmamap_platform *p;
	struct device *dev;
	void __iomem *bar;
	uint16_t cmd = 0x0006, id = 0;
	uint32_t last = 0;
	unsigned long opens;
	size_t len = 0;

	p = splat(NULL, true, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(dmamap_vfio_config_read(dev, 0, &id, 2), 0);
	CHECK_EQ(id, FAKE_VENDOR);
	CHECK_EQ(dmamap_vfio_config_write(dev, 4, &cmd, 2), 0);
	CHECK_EQ(fake_vfio_config()[4], 6);
	/* PCIe's extended space is there (the file reads past 256 bytes), and ends at 4096. */
	CHECK_EQ(dmamap_vfio_config_read(dev, FAKE_CONFIG_SIZE - 4, &last, 4), 0);
	CHECK_EQ(dmamap_vfio_config_read(dev, FAKE_CONFIG_SIZE - 2, &last, 4), -EINVAL);
	bar = dmamap_vfio_bar(dev, 0, &len);
	REQUIRE(bar);
	CHECK_EQ(len, FAKE_BAR0_SIZE);
	CHECK_EQ(fake_counts.bar_mmaps, 1);
	writel(0xa5a5f00d, (uint8_t __iomem *)bar + 0x14);
	CHECK_EQ(*(volatile uint32_t *)((uint8_t *)fake_vfio_bar0() + 0x14), 0xa5a5f00d);
	/* Mapped once; the file was closed after the mapping. */
	CHECK(dmamap_vfio_bar(dev, 0, NULL) == bar);
	CHECK_EQ(fake_counts.bar_mmaps, 1);
	CHECK_EQ(fake_vfio_open_fds(), 1);
	/* I/O ports, BAR0's upper half, no BAR: not one file opened for them. */
	opens = fake_counts.sysfs_opens;
	CHECK(dmamap_vfio_bar(dev, 2, &len) == NULL);
	CHECK(dmamap_vfio_bar(dev, 1, &len) == NULL);
	CHECK(dmamap_vfio_bar(dev, 6, &len) == NULL);
	CHECK_EQ(fake_counts.sysfs_opens, opens);
	EXPECT_NO_REPORTS();
	end(p);
}

/* Registered memory maps to its physical address, which the device reads and writes. */
TEST(vfio_sysfs_registered_memory_maps_to_physical)
{
	const size_t len = 4 * host_page();
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *mem, want[512], back[512];
	unsigned long calls;
	dma_addr_t h;

	mem = mmap(NULL, FAKE_CHUNK * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(mem != MAP_FAILED);
	p = splat(NULL, true, &dev);
	REQUIRE(p && dev);
	/* Within one 2 MiB chunk the fake's frames are contiguous. */
	uint8_t *buf = (uint8_t *)(((uintptr_t)mem + (uintptr_t)FAKE_CHUNK - 1) & ~((uintptr_t)FAKE_CHUNK - 1));
	REQUIRE(dmamap_vfio_register(p, buf, len) == 0);
	calls = fake_vfio_calls();
	pat(buf + 64, sizeof(want), 3);
	h = map_ok(dev, buf + 64, sizeof(want), DMA_BIDIRECTIONAL);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(h, fake_phys_of(buf + 64));
	CHECK_EQ(fake_dma_phys(h, back, sizeof(back), false), 0);
	CHECK_MEM(back, buf + 64, sizeof(back));
	pat(want, sizeof(want), 4);
	CHECK_EQ(fake_dma_phys(h, want, sizeof(want), true), 0);
	dma_unmap_single(dev, h, sizeof(want), DMA_BIDIRECTIONAL);
	CHECK_MEM(buf + 64, want, sizeof(want));
	/* Unregistered memory has no address a device may be given. */
	h = dma_map_single(dev, want, sizeof(want), DMA_TO_DEVICE);
	CHECK(dma_mapping_error(dev, h));
	CHECK_EQ(fake_vfio_calls(), calls);
	CHECK_EQ(vfio_ioctls(), 0);
	CHECK_EQ(dmamap_vfio_unregister(p, buf), 0);
	rec_reset();
	end(p);
	munmap(mem, FAKE_CHUNK * 2);
}

/* Reset writes "1" to the reset file; a function without one cannot be reset. */
TEST(vfio_sysfs_reset)
{
	struct fake_vfio_cfg none = { .no_reset_file = true }, refused = { .reset_errno = EIO };
	struct dmamap_platform *p;
	struct device *dev;
	uint16_t cmd = 0x0006;

	p = splat(NULL, false, &dev);
	REQUIRE(p);
	CHECK_EQ(dmamap_vfio_config_write(dev, 4, &cmd, 2), 0);
	CHECK_EQ(dmamap_vfio_reset(dev), 0);
	CHECK_EQ(fake_counts.sysfs_resets, 1);
	CHECK_EQ(fake_counts.ioctl[FAKE_DEVICE_RESET], 0);
	CHECK_EQ(fake_vfio_open_fds(), 1);
	end(p);
	p = splat(&none, false, &dev);
	REQUIRE(p);
	CHECK_EQ(dmamap_vfio_reset(dev), -ENOTTY);
	end(p);
	p = splat(&refused, false, &dev);
	REQUIRE(p);
	CHECK_EQ(dmamap_vfio_reset(dev), -EIO);
	CHECK_EQ(fake_vfio_open_fds(), 1);
	end(p);
}

/* A driver that leaves the function alone may hold it; one that drives it may not. */
TEST(vfio_sysfs_only_a_function_no_driver_drives)
{
	static const char *const fine[] = { "uio_pci_generic", "pci-stub" };
	struct fake_vfio_cfg cfg;
	char msg[256];

	for (unsigned int i = 0; i < 2; i++) {
		cfg = no_group(NULL, fine[i]);
		CHECK_MSG(refusal(&cfg, true, msg, sizeof(msg)) == 0, "%s: %s", fine[i], msg);
		CHECK(fake_vfio_clean(msg, sizeof(msg)));
		fake_vfio_remove();
	}
	cfg = no_group(NULL, "nvme");
	CHECK_EQ(refusal(&cfg, true, msg, sizeof(msg)), -EBUSY);
	CHECK_MSG(strstr(msg, "nvme") && strstr(msg, "unbind"), "%s", msg);
	CHECK_EQ(fake_counts.sysfs_opens, 0);
	CHECK(fake_vfio_clean(msg, sizeof(msg)));
	fake_vfio_remove();
}

/* Each refusal: its code, its words, nothing left open or locked. */
TEST(vfio_sysfs_refusals_leave_nothing)
{
	static const struct {
		const char *what, *resource;
		int config_errno;
		bool noiommu, no_function;
		int code;
		const char *words;
	} cases[] = {
		{ "no unsafe_noiommu", NULL, 0, false, false, -ENOENT, "no IOMMU group" },
		{ "no such function", NULL, 0, true, true, -ENOENT, "no PCI function" },
		{ "not root", NULL, EACCES, true, false, -EACCES, "root only" },
		{ "empty resource file", "", 0, true, false, -EIO, "resource" },
		{ "five lines", "0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n", 0,
		  true, false, -EIO, "resource" },
		{ "end below start",
		  "0x2000 0x1000 0x200\n0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n",
		  0, true, false, -EIO, "resource" },
		{ "seventeen digits",
		  "0x00000000000001000 0x1fff 0x200\n0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n",
		  0, true, false, -EIO, "resource" },
		{ "the whole 64-bit space",
		  "0x0 0xffffffffffffffff 0x200\n0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n",
		  0, true, false, -EIO, "resource" },
		{ "decimal", "4096 8191 512\n", 0, true, false, -EIO, "resource" },
		{ "no digits", "0x 0x 0x\n", 0, true, false, -EIO, "resource" },
		{ "upper-case X", "0X1000 0x1fff 0x200\n", 0, true, false, -EIO, "resource" },
		{ "a letter past f", "0x1000 0x1fffg 0x200\n", 0, true, false, -EIO, "resource" },
		{ "no flags", "0x1000 0x1fff\n", 0, true, false, -EIO, "resource" },
		{ "no end", "0x1000\n", 0, true, false, -EIO, "resource" },
		{ "no line end", "0x1000 0x1fff 0x200 ", 0, true, false, -EIO, "resource" },
		{ "not permitted", NULL, EPERM, true, false, -EPERM, "root only" },
		{ "read-only sysfs", NULL, EROFS, true, false, -EROFS, "config" },
	};
	struct dmamap__ledger l0;
	char msg[256], why[256];

	dmamap__ledger_read(&l0);
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake_vfio_cfg cfg = no_group(NULL, NULL);
		int code;

		cfg.resource_text = cases[i].resource;
		cfg.sysfs_config_errno = cases[i].config_errno;
		cfg.no_function = cases[i].no_function;
		code = refusal(&cfg, cases[i].noiommu, msg, sizeof(msg));
		CHECK_MSG(code == cases[i].code, "%s: %d, not %d (%s)", cases[i].what, code,
			  cases[i].code, msg);
		CHECK_MSG(strstr(msg, cases[i].words), "%s: '%s'", cases[i].what, msg);
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "%s: %s", cases[i].what, why);
		CHECK_MSG(fake_locked_bytes() == 0, "%s: memory left locked", cases[i].what);
		CHECK_MSG(ledger_same(&l0), "%s: the ledger changed", cases[i].what);
		fake_vfio_remove();
	}
}

/* The lines the kernel writes in any form it may: upper-case digits, short numbers, more lines. */
TEST(vfio_sysfs_resource_lines_read_as_written)
{
	struct fake_vfio_cfg cfg = no_group(NULL, NULL);
	struct dmamap_platform *p;
	struct device *dev;
	size_t len = 0;

	cfg.resource_text = "0xFEBF0000 0xFEBF3FFF 0x40200\n"
			    "0x0 0x0 0x0\n"
			    "0xc000 0xc0ff 0x40101\n"
			    "0x0 0x0 0x0\n0x0 0x0 0x0\n0x0 0x0 0x0\n"
			    "0x0 0x0 0x0\n0x0 0x0 0x0\n";
	p = splat(&cfg, false, &dev);
	REQUIRE(p);
	CHECK(dmamap_vfio_bar(dev, 0, &len) != NULL);
	CHECK_EQ(len, FAKE_BAR0_SIZE);
	CHECK(dmamap_vfio_bar(dev, 2, &len) == NULL);
	end(p);
}

/*
 * Every call into the kernel refused in turn while the platform is made
 * through sysfs: each refusal that fails it is said and leaves nothing;
 * none makes a platform that took another way in.
 */
TEST(vfio_sysfs_kernel_refusal_walk)
{
	struct dmamap__ledger l0;
	long k, failed = 0;
	char why[256];

	dmamap__ledger_read(&l0);
	for (k = 1; k < 200; k++) {
		struct dmamap_error err = { 0 };
		struct dmamap_vfio_options opt = { .arena_size = ARENA, .unsafe_noiommu = true };
		struct fake_vfio_cfg cfg = no_group(NULL, NULL);
		struct dmamap_platform *p;
		bool fired;

		fake_vfio_install(&cfg);
		fake_vfio_fail_call_in(k, EIO);
		p = dmamap_platform_vfio(FAKE_BDF, &opt, &err);
		fired = fake_counts.injected != 0;
		fake_vfio_fail_call_in(0, 0);
		if (!p) {
			failed++;
			CHECK_MSG(fired, "call %ld: failed with nothing refused: %d %s", k, err.code,
				  err.msg);
			CHECK_MSG(err.code < 0 && !strncmp(err.msg, "vfio: ", 6), "call %ld: %d '%s'",
				  k, err.code, err.msg);
		} else {
			struct device *dev = dmamap_device_lookup(p, FAKE_BDF);

			quiet(p);
			CHECK_MSG(dev && dmamap_vfio_access(dev) == DMAMAP_VFIO_SYSFS,
				  "call %ld: made, but not through sysfs", k);
			dmamap_platform_destroy(p);
		}
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "call %ld: %s", k, why);
		CHECK_MSG(fake_counts.munlock_stray == 0, "call %ld: a stray munlock", k);
		CHECK_MSG(ledger_same(&l0), "call %ld: the ledger changed", k);
		fake_vfio_remove();
		if (tap_failures || !fired)
			break;
	}
	CHECK_MSG(k < 200, "more than 200 calls");
	/* Every refusal fails the call but the lockdown file's: a kernel without one is not locked. */
	CHECK_MSG(failed == k - 2, "only %ld of %ld refusals failed the call", failed, k - 1);
	printf("# %ld kernel calls, %ld refusals failed the call\n", k - 1, failed);
}

/* Every allocation failed in turn: the platform is made whole or refused with nothing left. */
TEST(vfio_sysfs_failure_point_walk)
{
	struct dmamap__ledger l0;
	long k, failed = 0;
	char why[256];

	dmamap__ledger_read(&l0);
	for (k = 1; k < 500; k += tap_sample()) {
		struct dmamap_vfio_options opt = { .arena_size = ARENA, .unsafe_noiommu = true };
		struct fake_vfio_cfg cfg = no_group(NULL, NULL);
		bool fired;
		struct dmamap_platform *p = fake_walk_point(&cfg, &opt, k, &fired);

		if (!p) {
			failed++;
		} else {
			CHECK_MSG(dmamap_device_lookup(p, FAKE_BDF) != NULL, "point %ld: no device", k);
			dmamap_platform_destroy(p);
		}
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "point %ld: %s", k, why);
		CHECK_MSG(ledger_same(&l0), "point %ld: the ledger changed", k);
		fake_vfio_remove();
		if (tap_failures || !fired)
			break;
	}
	CHECK_MSG(k < 500, "more than 500 failure points");
	CHECK_MSG(failed >= (tap_sample() > 1 ? 1 : 5), "only %ld failure points failed the call",
		  failed);
	printf("# %ld failure points, %ld failed the call\n", k - 1, failed);
}

/* The end of the platform turns bus mastering off: the device no longer reaches memory. */
TEST(vfio_sysfs_destroy_stops_bus_mastering)
{
	struct dmamap_platform *p;
	struct device *dev;
	uint16_t cmd = 0x0006;

	p = splat(NULL, false, &dev);
	REQUIRE(p);
	CHECK_EQ(dmamap_vfio_config_write(dev, 4, &cmd, 2), 0);
	CHECK_EQ(fake_vfio_config()[4], 6);
	/* A reset keeps the command register: the kernel restores the space. */
	CHECK_EQ(dmamap_vfio_reset(dev), 0);
	CHECK_EQ(fake_vfio_config()[4], 6);
	dmamap_platform_destroy(p);
	/* Memory decoding stays; mastering goes. */
	CHECK_EQ(fake_vfio_config()[4], 2);
	CHECK_EQ(fake_vfio_open_fds(), 0);
	fake_vfio_remove();
}

/* Another holder of the function, a locked-down kernel: refused before anything is mapped. */
TEST(vfio_sysfs_second_holder_and_lockdown_refused)
{
	struct fake_vfio_cfg held = no_group(NULL, NULL), locked = no_group(NULL, NULL);
	char msg[256];

	held.sysfs_held = true;
	CHECK_EQ(refusal(&held, true, msg, sizeof(msg)), -EBUSY);
	CHECK_MSG(strstr(msg, "another process"), "%s", msg);
	CHECK(fake_vfio_clean(msg, sizeof(msg)));
	CHECK_EQ(fake_locked_bytes(), 0);
	fake_vfio_remove();
	locked.lockdown = "none [integrity] confidentiality";
	CHECK_EQ(refusal(&locked, true, msg, sizeof(msg)), -EPERM);
	CHECK_MSG(strstr(msg, "locked down"), "%s", msg);
	CHECK_EQ(fake_counts.sysfs_opens, 0);
	CHECK(fake_vfio_clean(msg, sizeof(msg)));
	fake_vfio_remove();
	/* A kernel that could lock down but has not: made. */
	locked.lockdown = "[none] integrity confidentiality";
	CHECK_EQ(refusal(&locked, true, msg, sizeof(msg)), 0);
	CHECK(fake_vfio_clean(msg, sizeof(msg)));
	fake_vfio_remove();
}

/* A function without PCIe's extended space: 256 bytes, reads past them refused. */
TEST(vfio_sysfs_config_space_of_256_bytes)
{
	struct fake_vfio_cfg cfg = { .config_256 = true };
	struct dmamap_platform *p;
	struct device *dev;
	uint32_t v = 0;

	p = splat(&cfg, false, &dev);
	REQUIRE(p);
	CHECK_EQ(dmamap_vfio_config_read(dev, 252, &v, 4), 0);
	CHECK_EQ(dmamap_vfio_config_read(dev, 256, &v, 4), -EINVAL);
	CHECK_EQ(dmamap_vfio_config_read(dev, 254, &v, 4), -EINVAL);
	end(p);
}

/* A BAR the kernel will not map: NULL, the file closed, nothing kept; asked again, tried again. */
TEST(vfio_sysfs_bar_the_kernel_will_not_map)
{
	struct fake_vfio_cfg cfg = { .resource0_mmap_errno = EPERM };
	struct dmamap_platform *p;
	struct device *dev;
	size_t len = 0;

	p = splat(&cfg, false, &dev);
	REQUIRE(p);
	CHECK(dmamap_vfio_bar(dev, 0, &len) == NULL);
	CHECK_EQ(fake_vfio_open_fds(), 1);
	CHECK_EQ(fake_vfio_live_bar_maps(), 0);
	CHECK(dmamap_vfio_bar(dev, 0, &len) == NULL);
	CHECK_EQ(fake_counts.sysfs_opens, 4); /* config, resource, resource0 twice */
	end(p);
}

/*
 * A small BAR that starts inside a page: the kernel maps the page, so the
 * BAR's registers are at its offset in the mapping; unplaced and disabled
 * BARs are no BARs at all.
 */
TEST(vfio_sysfs_small_bar_inside_a_page_and_unplaced_bars)
{
	struct fake_vfio_cfg cfg = { 0 };
	struct dmamap_platform *p;
	struct device *dev;
	void __iomem *bar;
	unsigned long opens;
	size_t len = 0;

	cfg.resource_text = "0x00000000febf0100 0x00000000febf01ff 0x0000000000040200\n"
			    "0x0000000000000000 0x0000000000003fff 0x0000000020040200\n" /* unset */
			    "0x00000000febe0000 0x00000000febe3fff 0x0000000010040200\n" /* disabled */
			    "0x00000000febd0000 0x00000000febd3fff 0x0000000000000000\n" /* no flags */
			    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
			    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
	p = splat(&cfg, false, &dev);
	REQUIRE(p);
	bar = dmamap_vfio_bar(dev, 0, &len);
	REQUIRE(bar);
	CHECK_EQ(len, 256);
	CHECK_EQ((uintptr_t)bar & (host_page() - 1), 0x100);
	writel(0x5eed1e55, bar);
	CHECK_EQ(*(volatile uint32_t *)((uint8_t *)fake_vfio_bar0() + 0x100), 0x5eed1e55);
	opens = fake_counts.sysfs_opens;
	for (unsigned int i = 1; i < 4; i++)
		CHECK_MSG(dmamap_vfio_bar(dev, i, &len) == NULL, "BAR %u", i);
	CHECK_EQ(fake_counts.sysfs_opens, opens);
	/* The whole page goes at the end, not a mapping of 256 bytes from the BAR. */
	end(p);
}

/* sysfs that will not say whether there is a group: that error, not "no IOMMU group". */
TEST(vfio_sysfs_unreadable_links_say_so)
{
	struct fake_vfio_cfg cfg = no_group(NULL, NULL);
	struct dmamap_vfio_options opt = { .arena_size = ARENA, .unsafe_noiommu = true };
	struct dmamap_error err = { 0 };

	fake_vfio_install(&cfg);
	fake_vfio_fail_call_in(1, EIO);
	CHECK(dmamap_platform_vfio(FAKE_BDF, &opt, &err) == NULL);
	CHECK_EQ(err.code, -EIO);
	CHECK_MSG(strstr(err.msg, "sysfs links") && !strstr(err.msg, "IOMMU group"), "%s", err.msg);
	CHECK(strstr(fake_vfio_last_readlink(), "iommu_group") != NULL);
	CHECK(fake_vfio_clean(err.msg, sizeof(err.msg)));
	fake_vfio_remove();
}
