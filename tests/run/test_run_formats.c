/* SPDX-License-Identifier: MIT */
/*
 * What the runner writes for CI: TAP with a line per run, JUnit XML a
 * standard parser reads (checked with Python's), the remove stage's leak
 * report, and the probe's failure.
 */
#include <unistd.h>
#include "run_helpers.h"

ENGINE_DRIVER(fmt_drv, "run-formats");

/* Maps in probe, never unmaps: the release reports a leak. */
static int leaky_probe(struct platform_device *pdev)
{
	struct dmamap_platform *p = dmamap_device_platform(&pdev->dev);
	void *buf = dmamap_kmalloc(p, 128, DMAMAP_GFP_DMA_ALIGN);
	dma_addr_t h = dma_map_single(&pdev->dev, buf, 128, DMA_TO_DEVICE);

	return dma_mapping_error(&pdev->dev, h) ? -ENOMEM : 0;
}

static int refusing_probe(struct platform_device *pdev)
{
	(void)pdev;
	return -EIO;
}

static struct platform_driver leaky_drv = {
	.probe = leaky_probe,
	.driver = { .name = "run-leaky", .of_match_table = engine_ids },
};
static struct platform_driver refusing_drv = {
	.probe = refusing_probe,
	.driver = { .name = "run-refusing", .of_match_table = engine_ids },
};

DMAMAP_DRIVER_TEST(fmt_drv, fails_on_dma_nc)
{
	DMAMAP_EXPECT(strcmp(dev_name(&pdev->dev), "dma-nc"));
}

DMAMAP_DRIVER_TEST(fmt_drv, always_passes)
{
	(void)pdev;
}

DMAMAP_DRIVER_TEST(leaky_drv, nothing_to_see)
{
	(void)pdev;
}

TEST(run_tap_has_a_line_per_run)
{
	struct dmamap_run_options o = { .first_seed = 5, .last_seed = 6, .jobs = 1,
					.format = DMAMAP_RUN_TAP };
	struct dmamap_run_summary sum;
	unsigned int ok = 0, not_ok = 0;
	char *out;

	need_fdt();
	CHECK(platform_driver_register(&fmt_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 2);
	CHECK_MSG(!strncmp(out, "TAP version 13\n1..12\n", 21), "%s", out);
	for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n")) {
		ok += !strncmp(l, "ok ", 3);
		not_ok += !strncmp(l, "not ok ", 7);
		if (!strncmp(l, "not ok ", 7))
			CHECK_MSG(strstr(l, " - dma-nc seed ") && strstr(l, ": test fails_on_dma_nc failed"),
				  "%s", l);
	}
	CHECK(ok == 10 && not_ok == 2);
	free(out);
}

TEST(run_junit_reads_as_xml_with_every_case)
{
	char path[] = "/tmp/dmamap-junit-XXXXXX";
	struct dmamap_run_options o = { .first_seed = 1, .last_seed = 2, .jobs = 2, .junit = path };
	struct dmamap_run_summary sum;
	char cmd[1024], *out;
	int fd = mkstemp(path);

	need_fdt();
	if (system("python3 -c 'import xml.etree.ElementTree' 2>/dev/null"))
		SKIP("python3 is not installed");
	CHECK(fd >= 0);
	close(fd);
	CHECK(platform_driver_register(&fmt_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 2);
	/*
	 * Six suites (one per device) of four cases (two tests, two seeds);
	 * dma-nc's fails_on_dma_nc fails on both seeds, with the replay line.
	 */
	snprintf(cmd, sizeof(cmd),
		 "python3 - '%s' <<'PY'\n"
		 "import sys, xml.etree.ElementTree as ET\n"
		 "root = ET.parse(sys.argv[1]).getroot()\n"
		 "assert root.tag == 'testsuites', root.tag\n"
		 "assert (root.get('tests'), root.get('failures'), root.get('errors')) == ('24', '2', '0'), root.attrib\n"
		 "suites = root.findall('testsuite')\n"
		 "assert len(suites) == 6, len(suites)\n"
		 "for s in suites:\n"
		 "    cases = s.findall('testcase')\n"
		 "    assert len(cases) == int(s.get('tests')) == 4, s.attrib\n"
		 "    fails = [c for c in cases if c.find('failure') is not None]\n"
		 "    assert len(fails) == int(s.get('failures')), s.attrib\n"
		 "    if s.get('name') == 'dma-nc (non-coherent)':\n"
		 "        assert [c.get('name') for c in fails] == ['fails_on_dma_nc seed 1', 'fails_on_dma_nc seed 2'], fails\n"
		 "        assert 'replay: dmamap run --board default --device dma-nc --seeds 2 --trace dma-nc-2.json' in fails[1].find('failure').text\n"
		 "    else:\n"
		 "        assert not fails, s.get('name')\n"
		 "PY", path);
	CHECK(system(cmd) == 0);
	unlink(path);
	free(out);
}

TEST(run_fails_the_remove_stage_of_a_leaking_driver)
{
	struct dmamap_run_options o = { .device = "dma-iommu", .format = DMAMAP_RUN_JSON };
	struct dmamap_run_summary sum;
	char *out;

	need_fdt();
	CHECK(platform_driver_register(&leaky_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 1);
	CHECK(sum.tests == 1 && sum.tests_failed == 0);
	CHECK_MSG(strstr(out, "\"stage\":\"remove\",\"message\":\"checker: leak on dma-iommu: device driver has pending DMA allocations while released from device [count=1]"),
		  "%s", out);
	free(out);
}

TEST(run_fails_a_refused_probe_and_runs_no_test)
{
	struct dmamap_run_options o = { .device = "dma-coh" };
	struct dmamap_run_summary sum;
	char *out;

	need_fdt();
	CHECK(platform_driver_register(&refusing_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 1);
	CHECK(sum.tests == 0);
	CHECK_MSG(strstr(out, "first failure: dma-coh, seed 1, probe (failed)\n  probe: probe failed with error -5\n"),
		  "%s", out);
	CHECK(strstr(out, "run-refusing dma-coh: probe with driver run-refusing failed with error -5"));
	free(out);
}
