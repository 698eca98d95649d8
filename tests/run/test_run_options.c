/* SPDX-License-Identifier: MIT */
/*
 * A run that would pass for nothing is refused: a --test that names no
 * test, a suite of which a test could not be registered; and the command
 * line says what is wrong with an argument, exit 2, and what --help is.
 */
#include <unistd.h>
#include "run_helpers.h"

ENGINE_DRIVER(opt_drv, "run-options");

DMAMAP_DRIVER_TEST(opt_drv, the_only_test)
{
	(void)pdev;
}

static void dup_fn(struct platform_device *pdev)
{
	(void)pdev;
}

TEST(run_refuses_a_test_name_that_names_no_test)
{
	struct dmamap_run_options o = { .test = "nosuch", .device = "dma-32" };
	struct dmamap_run_summary sum;
	const char *said;
	char *out;

	need_fdt();
	CHECK(platform_driver_register(&opt_drv) == 0);
	stderr_capture();
	CHECK_EQ(run_into(&o, &sum, &out), -ENOENT);
	said = stderr_text();
	CHECK_MSG(strstr(said, "no test is named 'nosuch'; the tests are:") &&
		  strstr(said, " the_only_test"), "%s", said);
	CHECK(sum.runs == 0);
	free(out);
	/* The name that exists runs. */
	o.test = "the_only_test";
	CHECK_EQ(run_into(&o, &sum, &out), 0);
	CHECK(sum.runs == 1 && sum.tests == 1);
	free(out);
}

TEST(run_refuses_a_suite_whose_test_could_not_be_registered)
{
	static const struct dmamap_test twin = { "the_only_test", dup_fn, NULL, __FILE__, __LINE__ };
	struct dmamap_run_options o = { .device = "dma-32" };
	struct dmamap_run_summary sum;
	const char *said;
	char *out;

	need_fdt();
	CHECK(platform_driver_register(&opt_drv) == 0);
	stderr_capture();
	CHECK_EQ(dmamap_test_register(&twin), -EEXIST);
	CHECK_EQ(run_into(&o, &sum, &out), -EEXIST);
	said = stderr_text();
	CHECK_MSG(strstr(said, "cannot register test the_only_test: error -17") &&
		  strstr(said, "1 test could not be registered (a name used twice, or more than 256 tests): not running a partial suite"),
		  "%s", said);
	CHECK(sum.runs == 0);
	free(out);
}

/* dmamap_run_main(@args...) with stdout and stderr captured into @said. */
static int run_main(char *said, size_t len, int argc, char **argv)
{
	FILE *out = tmpfile();
	int saved = dup(1), ret;
	size_t n = 0;

	fflush(stdout);
	dup2(fileno(out), 1);
	stderr_capture();
	ret = dmamap_run_main(argc, argv);
	fflush(stdout);
	snprintf(said, len, "%s", stderr_text());
	dup2(saved, 1);
	close(saved);
	rewind(out);
	n = strlen(said);
	n += fread(said + n, 1, len - n - 1, out);
	said[n] = '\0';
	fclose(out);
	return ret;
}

#define MAIN(said, ...)                                                              \
	run_main(said, sizeof(said), (int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)), \
		 (char *[]){ __VA_ARGS__, NULL })

TEST(run_command_line_names_the_bad_argument)
{
	static const struct {
		const char *arg, *value, *says;
	} bad[] = {
		{ "--seeds", "0", "--seeds '0': takes A or A-B, seeds from 1" },
		{ "--seeds", "5-2", "--seeds '5-2': takes A or A-B" },
		{ "--seeds", "1x", "--seeds '1x': takes A or A-B" },
		{ "--jobs", "0", "--jobs '0': takes 1 to 256" },
		{ "-j", "257", "-j '257': takes 1 to 256" },
		{ "--timeout", "0", "--timeout '0': takes 1 to 86400 seconds" },
		{ "--timeout", "86401", "--timeout '86401': takes 1 to 86400 seconds" },
		{ "--timeout", "ten", "--timeout 'ten': takes 1 to 86400 seconds" },
		{ "--seeds", "x", "--seeds 'x': takes A or A-B" },
		{ "--seeds", "2-", "--seeds '2-': takes A or A-B" },
		{ "--seeds", "99999999999999999999999", "--seeds '99999999999999999999999': takes A or A-B" },
		{ "--seeds", "1-4294967296", "--seeds '1-4294967296': takes A or A-B" },
		{ "--jobs", "-3", "--jobs '-3': takes 1 to 256" },
		{ "--bogus", NULL, "unknown option '--bogus' (dmamap run --help)" },
		{ "--board", NULL, "--board needs a value (dmamap run --help)" },
		{ "--trace-text", NULL, "--trace-text needs a value" },
	};
	char said[8192];

	need_fdt();
	CHECK(platform_driver_register(&opt_drv) == 0);
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = bad[i].value ? MAIN(said, "dmamap run", (char *)bad[i].arg, (char *)bad[i].value)
				       : MAIN(said, "dmamap run", (char *)bad[i].arg);

		CHECK_MSG(ret == 2 && strstr(said, bad[i].says), "%s %s: %d: %s", bad[i].arg,
			  bad[i].value ? bad[i].value : "", ret, said);
	}
	CHECK_EQ(MAIN(said, "dmamap run", "--test", "nosuch", "--device", "dma-32"), 2);
	CHECK_MSG(strstr(said, "no test is named 'nosuch'"), "%s", said);
	CHECK_EQ(MAIN(said, "dmamap run", "--device", "nosuch"), 2);
	CHECK_MSG(strstr(said, "no device of board default named nosuch matches a registered driver"), "%s", said);
	CHECK_EQ(MAIN(said, "dmamap run", "--help"), 0);
	CHECK_MSG(strstr(said, "--trace") && strstr(said, "--seeds"), "%s", said);
	CHECK_EQ(MAIN(said, "dmamap run", "--device", "dma-32", "--seeds", "1-2", "--ownership"), 0);
	CHECK_MSG(strstr(said, "PASS: 0 of 2 runs failed"), "%s", said);
}

/* Every option with a value that is right: each one reaches the run (formats, files, limits). */
TEST(run_command_line_takes_every_option)
{
	char said[16384], json[] = "/tmp/dmamap-opt-trace-XXXXXX", text[] = "/tmp/dmamap-opt-ftrace-XXXXXX";
	int a, b;

	need_fdt();
	a = mkstemp(json);
	b = mkstemp(text);
	CHECK(a >= 0 && b >= 0);
	close(a);
	close(b);
	CHECK(platform_driver_register(&opt_drv) == 0);
	CHECK_EQ(MAIN(said, "dmamap run", "--board", "default", "--seeds", "3", "-j", "1", "--timeout", "5",
		      "--device", "dma-32", "--test", "the_only_test", "--tap", "--verbose", "--trace", json,
		      "--trace-text", text), 0);
	CHECK_MSG(strstr(said, "TAP version 13\n") && strstr(said, "ok 1 - dma-32 seed 3"), "%s", said);
	CHECK_MSG(!strstr(said, "runs/s"), "the TAP stream has nothing after its plan: %s", said);
	{
		char cmd[512];

		snprintf(cmd, sizeof(cmd), "grep -q '\"dma-32 seed 3\"' %s && grep -q '^# dma-32 seed 3$' %s",
			 json, text);
		CHECK(system(cmd) == 0);
	}
	CHECK_EQ(MAIN(said, "dmamap run", "--device", "dma-32", "--seeds", "1-2", "--json"), 0);
	CHECK_MSG(strstr(said, "\"runs\":2") && strstr(said, "\"failed\":0"), "%s", said);
	/* The text format ends with the rate. */
	CHECK_EQ(MAIN(said, "dmamap run", "--device", "dma-32", "--seeds", "4", "-v"), 0);
	CHECK_MSG(strstr(said, "1 runs in ") && strstr(said, "runs/s with 1 job\n"), "%s", said);
	unlink(json);
	unlink(text);
}
