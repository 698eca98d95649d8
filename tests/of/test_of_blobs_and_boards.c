/* SPDX-License-Identifier: MIT */
/*
 * Device tree blobs and the built-in boards: errors name the node and the
 * property, corrupt blobs never crash, format versions before 16 are
 * refused, and the boards/ trees embedded at build time describe the
 * devices they should.
 *
 * Each tree is compiled with dtc at test time; without libfdt (NO_FDT
 * builds) or without dtc the tests skip.
 */
#include <unistd.h>
#include "../helpers.h"

TEST(of_errors_name_node_and_property)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;

	p = from_dts(HEAD "bus { " SIMPLE_BUS
		     "  dma-ranges = <0x0 0x80000000>;"
		     "  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; };", &err);
	SKIP_WITHOUT_FDT(err);
	CHECK(p == NULL);
	CHECK_EQ(err.code, -EINVAL);
	CHECK_MSG(strstr(err.msg, "/bus") && strstr(err.msg, "dma-ranges"), "msg: %s", err.msg);

	p = from_dts(HEAD "dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>;"
		     " iommus = <0x77 1>; }; };", &err);
	CHECK(p == NULL);
	CHECK_MSG(strstr(err.msg, "/dma@1") && strstr(err.msg, "iommus"), "msg: %s", err.msg);

	p = from_dts("/dts-v1/; / { #address-cells = <1>; #size-cells = <1>; };", &err);
	CHECK(p == NULL);
	CHECK_MSG(strstr(err.msg, "memory") != NULL, "msg: %s", err.msg);

	p = from_dts(HEAD "memory@81000000 { device_type = \"memory\"; reg = <0x81000000 0x1000000>; }; };",
		     &err);
	CHECK(p == NULL);
	CHECK_MSG(strstr(err.msg, "overlap") != NULL, "msg: %s", err.msg);

	CHECK(dmamap_platform_from_file("/nonexistent/board.dtb", &err) == NULL);
	CHECK_EQ(err.code, -ENOENT);
	CHECK(dmamap_platform_from_fdt(NULL, 0, &err) == NULL);
	CHECK_EQ(err.code, -EINVAL);
}

/* Flip, truncate and scribble over a valid blob: errors, never a crash. */
TEST(of_fuzz_corrupt_blobs_never_crash)
{
	struct dmamap_error err = { 0 };
	uint8_t blob[8192], bad[8192];
	uint64_t s = 12345;
	size_t n = board_blob(blob, sizeof(blob));
	int made = 0;

	REQUIRE(n);
	{
		struct dmamap_platform *p = dmamap_platform_from_fdt(blob, n, &err);

		SKIP_WITHOUT_FDT(err);
		REQUIRE(p);
		dmamap_platform_destroy(p);
	}
	for (int i = 0; i < 3000; i += (int)tap_sample()) {
		size_t len = n;
		struct dmamap_platform *p;

		memcpy(bad, blob, n);
		for (int k = 0; k < 1 + i % 8; k++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			bad[s % n] ^= (uint8_t)(1u << (s >> 60 & 7));
		}
		if (i % 5 == 0)
			len = s % n;
		p = dmamap_platform_from_fdt(bad, len, &err);
		if (p) {
			made++;
			dmamap_platform_destroy(p);
		} else {
			CHECK(err.code < 0);
		}
	}
	printf("# %d of 3000 corrupted blobs, every %u, still described a board\n", made,
	       tap_sample());
}

/* The structure block's first property token: its offset in @blob, or 0. */
static size_t first_prop(const uint8_t *blob, size_t n)
{
	size_t off = (size_t)blob[8] << 24 | (size_t)blob[9] << 16 | (size_t)blob[10] << 8 | blob[11];

	for (; off + 8 <= n; off += 4)
		if (blob[off] == 0 && blob[off + 1] == 0 && blob[off + 2] == 0 && blob[off + 3] == 3)
			return off;
	return 0;
}

/*
 * A property whose length wraps the offset arithmetic (0xfffffff4, and its
 * neighbours) is refused at once: libfdt 1.6's full check alone looped
 * forever on it, so the test's timeout is the failure.
 */
TEST(of_wrapping_property_length_refused_at_once)
{
	static const uint32_t lens[] = { 0xfffffff4u, 0xfffffffcu, 0xffffffffu, 0x80000000u,
					 0x7ffffffcu };
	struct dmamap_error err = { 0 };
	uint8_t blob[8192], bad[8192];
	size_t n = board_blob(blob, sizeof(blob)), at;

	REQUIRE(n);
	at = first_prop(blob, n);
	REQUIRE(at);
	alarm(20); /* a hang fails in seconds, not at the runner's timeout */
	for (unsigned int i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		struct dmamap_platform *p;

		memcpy(bad, blob, n);
		bad[at + 4] = (uint8_t)(lens[i] >> 24);
		bad[at + 5] = (uint8_t)(lens[i] >> 16);
		bad[at + 6] = (uint8_t)(lens[i] >> 8);
		bad[at + 7] = (uint8_t)lens[i];
		p = dmamap_platform_from_fdt(bad, n, &err);
		SKIP_WITHOUT_FDT(err);
		CHECK_MSG(p == NULL, "length 0x%x accepted", lens[i]);
		CHECK_EQ(err.code, -EINVAL);
		dmamap_platform_destroy(p);
	}
}

/*
 * The same through files: as the board, and as an overlay. Whether a file
 * is an overlay is asked of libfdt only after the blob passed the checks.
 */
TEST(of_wrapping_property_length_in_a_file_refused_at_once)
{
	struct dmamap_error err = { 0 };
	uint8_t blob[8192];
	size_t n = board_blob(blob, sizeof(blob)), at;
	char bad[] = "/tmp/dmamap-wrap-XXXXXX", good[] = "/tmp/dmamap-good-XXXXXX";
	const char *ov[] = { bad };
	struct dmamap_of_options opts = { NULL, 0, NULL, 0, ov, 1 };
	int fd;

	REQUIRE(n);
	at = first_prop(blob, n);
	REQUIRE(at);
	fd = mkstemp(good);
	REQUIRE(fd >= 0 && write(fd, blob, n) == (ssize_t)n);
	close(fd);
	blob[at + 4] = 0xff;
	blob[at + 5] = 0xff;
	blob[at + 6] = 0xff;
	blob[at + 7] = 0xf4;
	fd = mkstemp(bad);
	REQUIRE(fd >= 0 && write(fd, blob, n) == (ssize_t)n);
	close(fd);
	alarm(20);
	CHECK(dmamap_platform_from_file(bad, &err) == NULL);
	if (err.code != -ENOSYS) {
		CHECK_EQ(err.code, -EINVAL);
		CHECK(dmamap_platform_from_file_opts(good, &opts, &err) == NULL);
		CHECK_EQ(err.code, -EINVAL);
		CHECK_MSG(strstr(err.msg, "corrupt") != NULL, "%s", err.msg);
	}
	alarm(0);
	unlink(bad);
	unlink(good);
}

/* Old format versions are refused by name (libfdt's full check crashed on some). */
TEST(of_old_format_versions_refused)
{
	struct dmamap_error err = { 0 };
	uint8_t blob[8192], old[8192];
	size_t n = board_blob(blob, sizeof(blob));

	REQUIRE(n);
	for (uint8_t v = 2; v <= 17; v++) {
		struct dmamap_platform *p;

		memcpy(old, blob, n);
		old[0x17] = v; /* version, big-endian */
		old[0x1b] = v < 16 ? v : 16; /* last compatible version */
		p = dmamap_platform_from_fdt(old, n, &err);
		SKIP_WITHOUT_FDT(err);
		if (v < 16) {
			CHECK_MSG(p == NULL, "version %u accepted", v);
			CHECK_EQ(err.code, -EINVAL);
			CHECK_MSG(strstr(err.msg, "version") != NULL, "version %u: %s", v, err.msg);
		} else {
			CHECK_MSG(p != NULL, "version %u: %s", v, err.msg);
		}
		dmamap_platform_destroy(p);
	}
}

/* The boards/ .dts files are compiled at build time and embedded: no files needed. */
TEST(of_builtin_boards_from_embedded_dts)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	bool listed = false;
	struct device *dev;

	if (board_too_big_for_host("rpi4-like"))
		SKIP("rpi4-like's 1 GiB is more RAM than this host simulates");
	p = dmamap_platform_builtin("rpi4-like", &err);
	SKIP_WITHOUT_FDT(err);
	if (!p && err.code == -ENOENT)
		SKIP("built without the embedded boards");
	REQUIRE(p);
	for (const char *const *n = dmamap_platform_builtin_names(); *n; n++)
		listed |= !strcmp(*n, "rpi4-like");
	CHECK(listed);
	/* RAM at 0 is seen at 0xc0000000 through the soc bus's 30-bit window. */
	dev = dmamap_device_lookup(p, "dma@7e007000");
	REQUIRE(dev);
	CHECK_EQ(dmamap_phys_to_dma(dev, 0x1000), 0xc0001000ULL);
	CHECK(!dev_is_dma_coherent(dev));
	dev = dmamap_device_lookup(p, "dma@7e800000");
	REQUIRE(dev);
	CHECK(dev_is_dma_coherent(dev));
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(30));
	dmamap_platform_destroy(p);
}

TEST(of_builtin_server_and_x86_boards)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_builtin("arm64-server", &err);
	struct dmamap_cma_stats cs;
	struct dmamap_iommu_stats is;

	SKIP_WITHOUT_FDT(err);
	if (!p && err.code == -ENOENT)
		SKIP("built without the embedded boards");
	REQUIRE(p);
	/* Coherent from the root's dma-coherent; the SMMU master gets the iommu ops. */
	CHECK(dev_is_dma_coherent(dmamap_device_lookup(p, "dma@50000000")));
	CHECK_EQ(dmamap_iommu_stats(dmamap_device_lookup(p, "pcie-dma@40000000"), &is), 0);
	CHECK_EQ(dmamap_iommu_stats(dmamap_device_lookup(p, "dma@50000000"), &is), -ENODEV);
	/* The dynamic CMA region was placed in RAM, 16 MiB. */
	REQUIRE(dmamap_cma_stats(p, &cs) == 0);
	CHECK_EQ(cs.total_pages, (16 << 20) >> PAGE_SHIFT);
	CHECK(dmamap_phys_to_virt(p, cs.start) != NULL);
	dmamap_platform_destroy(p);

	p = dmamap_platform_builtin("x86-like", &err);
	REQUIRE(p);
	{
		struct device *dev = dmamap_device_lookup(p, "dma@fe000000");
		struct page *hi = dmamap_alloc_pages(p, 0, 0);
		dma_addr_t h;

		REQUIRE(dev && hi);
		/* A page above 4 GiB bounces for the 32-bit master. */
		if (page_to_phys(hi) >= 0x100000000ULL) {
			h = dma_map_page(dev, hi, 0, 64, DMA_TO_DEVICE);
			REQUIRE(!dma_mapping_error(dev, h));
			CHECK(h < 0x100000000ULL);
			CHECK(dmamap_swiotlb_is_bounce(dev, h));
			dma_unmap_page(dev, h, 64, DMA_TO_DEVICE);
		}
		dmamap_free_pages(p, hi, 0);
	}
	dmamap_platform_destroy(p);
}

/* Options that name nothing, or more than a board takes, are refused before any file is read. */
TEST(of_file_options_that_name_nothing_are_refused)
{
	struct dmamap_error err = { 0 };
	uint8_t blob[8192];
	size_t n = board_blob(blob, sizeof(blob));
	char good[] = "/tmp/dmamap-good-XXXXXX";
	const char *none[] = { NULL }, *many[17];
	struct dmamap_of_options opts = { 0 };
	int fd;

	REQUIRE(n);
	fd = mkstemp(good);
	REQUIRE(fd >= 0 && write(fd, blob, n) == (ssize_t)n);
	close(fd);
	CHECK(dmamap_platform_from_file(NULL, &err) == NULL);
	CHECK(err.code == -EINVAL && !strcmp(err.msg, "no file name"));
	for (unsigned int i = 0; i < 17; i++)
		many[i] = good;
	opts.overlays = many;
	opts.nr_overlays = 17;
	CHECK(dmamap_platform_from_file_opts(good, &opts, &err) == NULL);
	CHECK_MSG(err.code == -EINVAL && strstr(err.msg, ": more than 16 overlays or include directories"),
		  "%s", err.msg);
	opts.overlays = NULL;
	opts.nr_overlays = 1;
	CHECK(dmamap_platform_from_file_opts(good, &opts, &err) == NULL && err.code == -EINVAL);
	opts.nr_overlays = 0;
	opts.nr_include_dirs = 1;
	CHECK(dmamap_platform_from_file_opts(good, &opts, &err) == NULL && err.code == -EINVAL);
	opts.nr_include_dirs = 0;
	opts.overlays = none;
	opts.nr_overlays = 1;
	memset(&err, 0, sizeof(err));
	CHECK(dmamap_platform_from_file_opts(good, &opts, &err) == NULL);
	if (err.code != -ENOSYS)
		CHECK_MSG(err.code == -EINVAL && !strcmp(err.msg, "overlay 0: no file name"), "%s", err.msg);
	unlink(good);
}
