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
