/* SPDX-License-Identifier: MIT */
/*
 * Registering platform drivers: the refusals (-EINVAL for no driver, no
 * probe or no name, -EEXIST for a name taken, -ENOSPC past 64 drivers),
 * each said on stderr, and a name free again after unregistering.
 */
#include <unistd.h>
#include "driver_helpers.h"

static int reg_probe(struct platform_device *pdev)
{
	(void)pdev;
	return 0;
}

static struct platform_driver rec_drv = { .probe = reg_probe, .driver = { .name = "rec" } };
static struct platform_driver no_probe = { .driver = { .name = "no-probe" } };
static struct platform_driver no_name = { .probe = reg_probe };
static struct platform_driver same_name = { .probe = reg_probe, .driver = { .name = "rec" } };
static struct platform_driver many[64];
static char many_names[64][16];

/* stderr into a temporary file until stderr_text(): what registration says there. */
static FILE *err_file;
static int saved_stderr = -1;

static void stderr_capture(void)
{
	fflush(stderr);
	err_file = tmpfile();
	saved_stderr = dup(2);
	if (err_file && saved_stderr >= 0)
		dup2(fileno(err_file), 2);
}

static const char *stderr_text(void)
{
	static char text[2048];
	size_t n = 0;

	fflush(stderr);
	if (saved_stderr >= 0) {
		dup2(saved_stderr, 2);
		close(saved_stderr);
	}
	if (err_file) {
		rewind(err_file);
		n = fread(text, 1, sizeof(text) - 1, err_file);
		fclose(err_file);
	}
	text[n] = '\0';
	return text;
}

TEST(driver_register_errors)
{
	const char *said;

	stderr_capture();
	CHECK_EQ(platform_driver_register(NULL), -EINVAL);
	CHECK_EQ(platform_driver_register(&no_probe), -EINVAL);
	CHECK_EQ(platform_driver_register(&no_name), -EINVAL);
	CHECK_EQ(platform_driver_register(&rec_drv), 0);
	CHECK_EQ(platform_driver_register(&rec_drv), -EEXIST);
	CHECK_EQ(platform_driver_register(&same_name), -EEXIST);
	for (int i = 0; i < 64; i++) {
		snprintf(many_names[i], sizeof(many_names[i]), "many-%d", i);
		many[i] = (struct platform_driver){ .probe = reg_probe, .driver.name = many_names[i] };
	}
	for (int i = 0; i < 63; i++)
		CHECK_EQ(platform_driver_register(&many[i]), 0);
	CHECK_EQ(platform_driver_register(&many[63]), -ENOSPC);
	platform_driver_unregister(&rec_drv);
	CHECK_EQ(platform_driver_register(&many[63]), 0);
	said = stderr_text();
	CHECK_MSG(strstr(said, "cannot register driver no-probe: error -22") &&
			  strstr(said, "cannot register driver rec: error -17") &&
			  strstr(said, "cannot register driver many-63: error -28"),
		  "stderr: %s", said);
}
