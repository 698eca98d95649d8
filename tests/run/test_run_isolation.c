/* SPDX-License-Identifier: MIT */
/*
 * A test that crashes or hangs fails its own run, named with its seed and
 * stage, and the runner goes on with a new worker: every other run passes.
 */
#include <signal.h>
#include <unistd.h>
#include <dmamap/interrupt.h>
#include <dmamap/model.h>
#include <dmamap/platform_device.h>
#include <dmamap/sim.h>
#include "run_helpers.h"

ENGINE_DRIVER(crash_drv, "run-crash");
ENGINE_DRIVER(hang_drv, "run-hang");

static bool chosen(struct platform_device *pdev)
{
	return dmamap_test_seed() == 2 && !strcmp(dev_name(&pdev->dev), "dma-32");
}

DMAMAP_DRIVER_TEST(crash_drv, aa_expects_wrongly_on_seed_two)
{
	DMAMAP_EXPECT_EQ(chosen(pdev), false);
}

DMAMAP_DRIVER_TEST(crash_drv, crashes_on_seed_two)
{
	if (chosen(pdev))
		raise(SIGSEGV);
}

DMAMAP_DRIVER_TEST(crash_drv, runs_after_the_crash)
{
	(void)pdev;
}

DMAMAP_DRIVER_TEST(hang_drv, hangs_on_seed_two)
{
	while (chosen(pdev))
		cpu_relax();
}

TEST(run_a_crashing_test_fails_alone_with_its_seed)
{
	struct dmamap_run_options o = { .first_seed = 1, .last_seed = 3, .jobs = 2,
					.format = DMAMAP_RUN_JSON };
	struct dmamap_run_summary sum;
	char *out;

	need_fdt();
	CHECK(platform_driver_register(&crash_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 1);
	CHECK(sum.runs == 18 && sum.failed == 1);
	CHECK_MSG(strstr(out, "{\"device\":\"dma-32\",\"kind\":\"non-coherent\",\"seed\":2,\"status\":\"crashed\","
			      "\"stage\":\"test crashes_on_seed_two\",\"message\":\"crash: the worker died in test crashes_on_seed_two: "),
		  "%s", out);
	/* The signal's name; under a sanitizer, which catches it, its abort or its exit. */
	CHECK(strstr(out, "Segmentation fault\"") || strstr(out, "Aborted\"") ||
	      strstr(out, "it exited with status "));
	/* The failures list has that run only. */
	CHECK(!strstr(strstr(out, "\"failures\":") + 12, "},{"));
	free(out);
}

TEST(run_a_hanging_test_is_killed_after_its_timeout)
{
	struct dmamap_run_options o = { .first_seed = 1, .last_seed = 3, .jobs = 2,
					.timeout_s = 1, .format = DMAMAP_RUN_JSON };
	struct dmamap_run_summary sum;
	char *out;

	need_fdt();
	CHECK(platform_driver_register(&hang_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 1);
	CHECK(sum.runs == 18 && sum.failed == 1);
	CHECK_MSG(strstr(out, "\"seed\":2,\"status\":\"timeout\",\"stage\":\"test hangs_on_seed_two\","
			      "\"message\":\"timeout: test hangs_on_seed_two still running after 1 s (killed)\""),
		  "%s", out);
	free(out);
}

TEST(run_with_one_job_survives_a_crash_too)
{
	struct dmamap_run_options o = { .first_seed = 1, .last_seed = 3, .device = "dma-32",
					.jobs = 1 };
	struct dmamap_run_summary sum;
	char *out;

	need_fdt();
	CHECK(platform_driver_register(&crash_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 1);
	CHECK(sum.runs == 3 && sum.failed == 1);
	/* Seed 3 ran all three tests after the worker of seed 2 died. */
	CHECK(sum.tests == 3 + 2 + 3);
	CHECK_MSG(strstr(out, "first failure: dma-32, seed 2, test crashes_on_seed_two (crashed)"), "%s", out);
	/* The test before the crash failed too: what it said is kept with the crash. */
	CHECK_MSG(strstr(out, "test aa_expects_wrongly_on_seed_two: test_run_isolation.c:"), "%s", out);
	free(out);
	/* In JUnit the test before is a failure, the crash an error. */
	{
		char path[] = "/tmp/dmamap-junit-XXXXXX", xml[16384];
		int fd = mkstemp(path);
		FILE *f;
		size_t n;

		CHECK(fd >= 0);
		close(fd);
		o.junit = path;
		o.first_seed = o.last_seed = 2;
		CHECK(run_into(&o, &sum, &out) == 1);
		f = fopen(path, "r");
		n = f ? fread(xml, 1, sizeof(xml) - 1, f) : 0;
		xml[n] = '\0';
		if (f)
			fclose(f);
		unlink(path);
		CHECK_MSG(strstr(xml, "name=\"aa_expects_wrongly_on_seed_two seed 2\"") &&
			  strstr(strstr(xml, "name=\"aa_expects_wrongly_on_seed_two seed 2\""), "<failure") <
			  strstr(xml, "name=\"crashes_on_seed_two seed 2\""), "%s", xml);
		CHECK_MSG(strstr(xml, "failures=\"1\" errors=\"1\"") && strstr(xml, "\" type=\"failed\">") &&
			  strstr(xml, "<error message=\"crash: the worker died in test crashes_on_seed_two"),
			  "%s", xml);
	}
	free(out);
}

ENGINE_DRIVER(irq_drv, "run-irq-assert");

static int handler_calls;

static irqreturn_t asserting_handler(int irq, void *dev_id)
{
	(void)irq;
	/* The first interrupt's assertion fails; the others' hold. */
	DMAMAP_ASSERT(++handler_calls > 1 || !dev_id);
	return IRQ_HANDLED;
}

/*
 * The handler interrupts this test on its own thread; its assertion must
 * fail the test without leaving interrupts off: a second interrupt is
 * delivered, here and in the next test.
 */
DMAMAP_DRIVER_TEST(irq_drv, handler_asserts)
{
	struct dmamap_platform *p = dmamap_device_platform(&pdev->dev);
	int irq = platform_get_irq(pdev, 0);

	DMAMAP_ASSERT(irq > 0);
	DMAMAP_ASSERT_OK(devm_request_irq(&pdev->dev, (unsigned int)irq, asserting_handler, 0,
					  "run-irq-assert", pdev));
	for (int i = 1; i <= 2; i++) {
		DMAMAP_ASSERT_OK(dmamap_model_raise_irq(&pdev->dev, 0));
		dmamap_sim_run_devices(p, 0);
		DMAMAP_ASSERT_EQ(handler_calls, i);
		DMAMAP_ASSERT(!in_interrupt() && !irqs_disabled());
	}
}

DMAMAP_DRIVER_TEST(irq_drv, interrupts_still_arrive)
{
	int before = handler_calls;

	DMAMAP_ASSERT(!irqs_disabled());
	DMAMAP_ASSERT_OK(dmamap_model_raise_irq(&pdev->dev, 0));
	dmamap_sim_run_devices(dmamap_device_platform(&pdev->dev), 0);
	DMAMAP_EXPECT_EQ(handler_calls, before + 1);
}

TEST(run_an_assertion_in_an_interrupt_handler_fails_its_test_and_returns)
{
	struct dmamap_run_options o = { .first_seed = 1, .last_seed = 1, .device = "dma-32",
					.jobs = 1, .timeout_s = 2, .format = DMAMAP_RUN_JSON };
	struct dmamap_run_summary sum;
	char *out;

	need_fdt();
	CHECK(platform_driver_register(&irq_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 1);
	CHECK(sum.runs == 1 && sum.failed == 1);
	CHECK_MSG(strstr(out, "\"status\":\"failed\",\"stage\":\"test handler_asserts\","
			      "\"message\":\"test_run_isolation.c:"),
		  "%s", out);
	CHECK_MSG(strstr(out, ": ++handler_calls > 1 || !dev_id\""), "%s", out);
	/* Only the test whose handler asserted failed: the next one had its interrupt. */
	CHECK(sum.tests == 2);
	CHECK_EQ(sum.tests_failed, 1);
	free(out);
}
