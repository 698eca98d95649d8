/* SPDX-License-Identifier: MIT */
/*
 * The runner's verdicts: a good driver passes on every device and seed; an
 * assertion, a checker report or a leak fails exactly the runs it happens
 * in, and the first failure comes with file:line and the replay line.
 */
#include <unistd.h>
#include "run_helpers.h"

ENGINE_DRIVER(good_drv, "run-good");
ENGINE_DRIVER(assert_drv, "run-assert");
ENGINE_DRIVER(report_drv, "run-report");

DMAMAP_DRIVER_TEST(good_drv, id_register_answers)
{
	void __iomem *regs = platform_get_drvdata(pdev);

	DMAMAP_ASSERT_EQ(readl(regs + MCE_REG_ID), MCE_ID);
}

/* Fails on seed 2 of dma-24 only, at this line. */
enum { ASSERT_LINE = __LINE__ + 5 };
DMAMAP_DRIVER_TEST(assert_drv, fails_on_seed_two)
{
	bool bad = dmamap_test_seed() == 2 && !strcmp(dev_name(&pdev->dev), "dma-24");

	DMAMAP_ASSERT_EQ(bad ? 1 : 2, 2);
}

/* Unmaps with the wrong size: the checker reports it, on every run. */
DMAMAP_DRIVER_TEST(report_drv, unmaps_with_the_wrong_size)
{
	struct dmamap_platform *p = dmamap_device_platform(&pdev->dev);
	void *buf = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA_ALIGN);
	dma_addr_t h = dma_map_single(&pdev->dev, buf, 256, DMA_TO_DEVICE);

	DMAMAP_ASSERT(!dma_mapping_error(&pdev->dev, h));
	dma_unmap_single(&pdev->dev, h, 128, DMA_TO_DEVICE);
	dmamap_kfree(p, buf);
}

TEST(run_passes_a_good_driver_on_every_device_and_seed)
{
	struct dmamap_run_options o = { .first_seed = 1, .last_seed = 3, .jobs = 2,
					.format = DMAMAP_RUN_JSON };
	struct dmamap_run_summary sum;
	char *out;

	need_fdt();
	CHECK(platform_driver_register(&good_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 0);
	/* The default board's six memcpy engines, three seeds each, one test per run. */
	CHECK(sum.devices == 6);
	CHECK(sum.runs == 18);
	CHECK(sum.failed == 0);
	CHECK(sum.tests == 18);
	CHECK_MSG(strstr(out, "\"runs\":18,\"failed\":0"), "%s", out);
	CHECK(strstr(out, "{\"kind\":\"coherent\",\"devices\":\"dma-coh\",\"runs\":3,\"passed\":3,\"failed\":0}"));
	CHECK(strstr(out, "{\"kind\":\"IOMMU\",\"devices\":\"dma-iommu\""));
	CHECK(strstr(out, "\"failures\":[]"));
	free(out);
}

TEST(run_names_the_failing_seed_file_line_and_replay)
{
	struct dmamap_run_options o = { .first_seed = 1, .last_seed = 3, .jobs = 2,
					.replay = "./mytests" };
	struct dmamap_run_summary sum;
	char want[128], *out;

	need_fdt();
	CHECK(platform_driver_register(&assert_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 1);
	CHECK(sum.runs == 18 && sum.failed == 1 && sum.tests_failed == 1);
	CHECK_MSG(strstr(out, "first failure: dma-24, seed 2, test fails_on_seed_two (failed)"), "%s", out);
	snprintf(want, sizeof(want), "test_run_verdicts.c:%d: bad ? 1 : 2 == 2: 1 vs 2", ASSERT_LINE);
	CHECK_MSG(strstr(out, want), "no '%s' in:\n%s", want, out);
	CHECK(strstr(out, "replay: ./mytests --board default --device dma-24 --seeds 2 --trace dma-24-2.json\n"));
	/* The table: dma-24 is the bounced kind's, with its one failing seed. */
	CHECK_MSG(strstr(out, "bounced       dma-24 ixp-pci                         6       5       1  2\n"), "%s", out);
	CHECK(strstr(out, "FAIL: 1 of 18 runs failed"));
	free(out);
}

TEST(run_fails_a_test_that_draws_a_report)
{
	struct dmamap_run_options o = { .device = "dma-nc", .format = DMAMAP_RUN_JSON };
	struct dmamap_run_summary sum;
	char *out;

	need_fdt();
	CHECK(platform_driver_register(&report_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 1);
	CHECK(sum.runs == 1 && sum.devices == 1);
	CHECK_MSG(strstr(out, "\"stage\":\"test unmaps_with_the_wrong_size\",\"message\":\"checker: wrong-size on dma-nc: "),
		  "%s", out);
	CHECK(strstr(out, "\"replay\":\"dmamap run --board default --device dma-nc --seeds 1 --trace dma-nc-1.json\""));
	free(out);
}

TEST(run_passes_when_only_the_chosen_test_runs)
{
	struct dmamap_run_options o = { .device = "dma-coh", .test = "id_register_answers" };
	struct dmamap_run_summary sum;
	char *out;

	need_fdt();
	/* Two drivers for the same nodes: the first registered binds. */
	CHECK(platform_driver_register(&good_drv) == 0);
	CHECK(platform_driver_register(&report_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 0);
	CHECK(sum.tests == 1 && sum.failed == 0);
	free(out);
}

TEST(run_says_when_no_device_matches_or_the_board_is_bad)
{
	struct dmamap_run_options o = { 0 };
	struct dmamap_run_summary sum;
	char *out;

	need_fdt();
	CHECK(run_into(&o, &sum, &out) == -ENODEV);
	free(out);
	CHECK(platform_driver_register(&good_drv) == 0);
	o.board = "no-such-board";
	CHECK(run_into(&o, &sum, &out) == -EINVAL);
	free(out);
	o.board = NULL;
	o.device = "nic-coh"; /* on the board, but no driver of ours matches it */
	CHECK(run_into(&o, &sum, &out) == -ENODEV);
	free(out);
}

/* A probe that says "not my device": the run fails, and says the probe declined. */
static int declining_probe(struct platform_device *pdev)
{
	(void)pdev;
	return -ENODEV;
}

static struct platform_driver declining_drv = {
	.probe = declining_probe,
	.driver = { .name = "run-declines", .of_match_table = engine_ids },
};

TEST(run_fails_a_device_whose_probe_declines_it_and_says_so)
{
	struct dmamap_run_options o = { .device = "dma-32" };
	struct dmamap_run_summary sum;
	char *out;

	need_fdt();
	CHECK(platform_driver_register(&declining_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 1);
	CHECK(sum.failed == 1);
	CHECK_MSG(strstr(out, "\n  probe: probe with driver run-declines declined the device (-ENODEV or -ENXIO)"),
		  "%s", out);
	CHECK_MSG(strstr(out, "probe with driver run-declines failed with error -19"), "%s", out);
	free(out);
}

ENGINE_DRIVER(always_drv, "run-always");

/* Fails on every seed, with a message JUnit must escape (a '<', a control byte). */
DMAMAP_DRIVER_TEST(always_drv, fails_on_every_seed)
{
	(void)pdev;
	dmamap_test_fail(__FILE__, __LINE__, 1, "seed %llu: 3 < 2\x01", (unsigned long long)dmamap_test_seed());
}

TEST(run_verbose_lists_every_failure_and_junit_escapes_what_xml_cannot_hold)
{
	char junit[] = "/tmp/dmamap-junit-XXXXXX", cmd[512];
	struct dmamap_run_options o = { .device = "dma-nc", .first_seed = 1, .last_seed = 10, .jobs = 2,
					.verbose = true, .junit = junit };
	struct dmamap_run_summary sum;
	char *out, *at;
	int fd, n = 0;

	need_fdt();
	if (system("python3 -c 'import xml' 2>/dev/null"))
		SKIP("python3 is not installed");
	fd = mkstemp(junit);
	CHECK(fd >= 0);
	close(fd);
	CHECK(platform_driver_register(&always_drv) == 0);
	CHECK_EQ(run_into(&o, &sum, &out), 10);
	/* Ten failures, the first named so, each with its replay line. */
	CHECK_MSG(strstr(out, "first failure: dma-nc, seed 1, test fails_on_every_seed (failed)"), "%s", out);
	CHECK_MSG(strstr(out, "\nfailure: dma-nc, seed 10, test fails_on_every_seed (failed)"), "%s", out);
	for (at = out; (at = strstr(at, "replay: ")); at++)
		n++;
	CHECK_EQ(n, 10);
	/* The table keeps the first eight failing seeds. */
	CHECK_MSG(strstr(out, "  1 2 3 4 5 6 7 8 ...\n"), "%s", out);
	/* JUnit: '<' escaped, the control byte replaced; the result parses. */
	snprintf(cmd, sizeof(cmd),
		 "grep -q 'seed 9: 3 &lt; 2?' %s && ! grep -q \"$(printf '\\001')\" %s && "
		 "python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' %s",
		 junit, junit, junit);
	CHECK(system(cmd) == 0);
	unlink(junit);
	free(out);
}

ENGINE_DRIVER(chatty_drv, "run-chatty");

/*
 * Logs three hundred numbered lines, then draws two reports (a wrong-size
 * unmap, then a double one): the log keeps its newest lines, the first
 * report is the failure.
 */
DMAMAP_DRIVER_TEST(chatty_drv, logs_much_then_draws_two_reports)
{
	struct dmamap_platform *p = dmamap_device_platform(&pdev->dev);
	void *buf = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA_ALIGN);
	dma_addr_t h;

	for (int i = 0; i < 300; i++)
		dmamap_log_line(p, DMAMAP_LOG_INFO, "chatty line %03d, padded to be long enough to fill a log", i);
	h = dma_map_single(&pdev->dev, buf, 256, DMA_TO_DEVICE);
	DMAMAP_ASSERT(!dma_mapping_error(&pdev->dev, h));
	dma_unmap_single(&pdev->dev, h, 128, DMA_TO_DEVICE);
	dma_unmap_single(&pdev->dev, h, 256, DMA_TO_DEVICE);
	dmamap_kfree(p, buf);
}

TEST(run_keeps_a_tests_newest_log_lines_and_its_first_report)
{
	struct dmamap_run_options o = { .device = "dma-nc", .board = "boards/default.dts", .jobs = 1 };
	struct dmamap_run_summary sum;
	char *out;

	need_fdt();
	need_dts_support();
	CHECK(platform_driver_register(&chatty_drv) == 0);
	CHECK_EQ(run_into(&o, &sum, &out), 1);
	CHECK_MSG(strstr(out, "  test logs_much_then_draws_two_reports: checker: wrong-size on dma-nc: "), "%s", out);
	CHECK_MSG(strstr(out, "  log (last lines):\n") && strstr(out, "chatty line 299,"), "%s", out);
	CHECK_MSG(!strstr(out, "chatty line 000,"), "the oldest line is still there:\n%s", out);
	/* A board from a file is replayed from the same file. */
	CHECK_MSG(strstr(out, "replay: dmamap run --board boards/default.dts --device dma-nc --seeds 1 "), "%s", out);
	free(out);
}

ENGINE_DRIVER(memeq_drv, "run-memeq");

/* Equal bytes pass; the first byte that differs is named. */
DMAMAP_DRIVER_TEST(memeq_drv, compares_bytes)
{
	static const uint8_t a[4] = { 1, 2, 3, 4 }, b[4] = { 1, 2, 9, 4 };

	(void)pdev;
	DMAMAP_EXPECT_MEMEQ(a, a, sizeof(a));
	DMAMAP_EXPECT_MEMEQ(a, b, sizeof(a));
}

DMAMAP_DRIVER_TEST(memeq_drv, refuses_a_null_buffer)
{
	static const uint8_t a[4] = { 1, 2, 3, 4 };
	static const uint8_t *none;

	(void)pdev;
	DMAMAP_ASSERT_MEMEQ(a, none, sizeof(a));
}

TEST(run_memeq_names_the_first_differing_byte)
{
	struct dmamap_run_options o = { .device = "dma-nc", .jobs = 1, .verbose = true };
	struct dmamap_run_summary sum;
	static const struct dmamap_test nameless = { NULL, NULL, NULL, __FILE__, __LINE__ };
	const char *said;
	char *out;

	need_fdt();
	CHECK_EQ(dmamap_test_register(NULL), -EINVAL);
	CHECK_EQ(dmamap_test_register(&nameless), -EINVAL);
	CHECK(platform_driver_register(&memeq_drv) == 0);
	CHECK_EQ(run_into(&o, &sum, &out), 1);
	/* Each test's first failure is the one said. */
	CHECK_MSG(strstr(out, "a and b differ at byte 2 of 4: 0x03 vs 0x09"), "%s", out);
	CHECK_MSG(strstr(out, "test refuses_a_null_buffer: test_run_verdicts.c:") &&
		  strstr(out, "memeq(a, none): a NULL buffer"), "%s", out);
	free(out);
	/* Outside a test, a failure is only said. */
	stderr_capture();
	dmamap_test_fail("here.c", 7, 0, "outside %s", "any test");
	said = stderr_text();
	CHECK_MSG(strstr(said, "here.c:7: outside any test"), "%s", said);
}
