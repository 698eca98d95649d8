/* SPDX-License-Identifier: MIT */
/*
 * A model of the user's own, registered with its compatible, gives the
 * nodes of a board that name it their hardware; the user's driver binds
 * them and the runner runs its tests on them, as `dmamap run DRIVER.so
 * MODEL.so --board FILE.dts` does.
 */
#include <unistd.h>
#include "run_helpers.h"

#define ECHO_ID 0x4543484fu /* "ECHO" */

struct echo {
	uint32_t latch;
};

static int echo_probe(struct device *dev, void **priv)
{
	(void)dev;
	*priv = calloc(1, sizeof(struct echo));
	return *priv ? 0 : -ENOMEM;
}

static void echo_remove(struct device *dev, void *priv)
{
	(void)dev;
	free(priv);
}

static int echo_read(struct device *dev, void *priv, uint32_t reg, uint32_t *val)
{
	(void)dev;
	if (reg == 0)
		*val = ECHO_ID;
	else if (reg == 4)
		*val = ~((struct echo *)priv)->latch;
	else
		return -EINVAL;
	return 0;
}

static int echo_write(struct device *dev, void *priv, uint32_t reg, uint32_t val)
{
	(void)dev;
	if (reg != 4)
		return -EINVAL;
	((struct echo *)priv)->latch = val;
	return 0;
}

static const struct dmamap_device_model echo_model = {
	.name = "test-echo",
	.compatible = "test,echo",
	.probe = echo_probe,
	.remove = echo_remove,
	.mmio_read = echo_read,
	.mmio_write = echo_write,
};
/* As a model built as a shared object registers itself, before any board is read. */
DMAMAP_MODEL_REGISTER(echo_model)

static int echo_drv_probe(struct platform_device *pdev)
{
	void __iomem *regs = devm_platform_ioremap_resource(pdev, 0);
	struct resource *r = platform_get_resource(pdev, IORESOURCE_MEM, 0);

	if (IS_ERR(regs))
		return (int)PTR_ERR(regs);
	if (!r || r->start != 0x40001000 || resource_size(r) != 0x100)
		return -ENXIO;
	platform_set_drvdata(pdev, regs);
	return readl(regs) == ECHO_ID ? 0 : -ENODEV;
}

static const struct of_device_id echo_ids[] = { { .compatible = "test,echo" }, { } };
static struct platform_driver echo_drv = {
	.probe = echo_drv_probe,
	.driver = { .name = "test-echo-drv", .of_match_table = echo_ids },
};

DMAMAP_DRIVER_TEST(echo_drv, the_register_answers_inverted)
{
	void __iomem *regs = platform_get_drvdata(pdev);

	writel((uint32_t)dmamap_test_seed(), regs + 4);
	DMAMAP_ASSERT_EQ(readl(regs + 4), ~(uint32_t)dmamap_test_seed());
}

static const char board[] =
	"/dts-v1/;\n/ {\n\t#address-cells = <1>;\n\t#size-cells = <1>;\n"
	"\tmemory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; };\n"
	"\techo@40001000 { compatible = \"test,echo\"; reg = <0x40001000 0x100>; };\n"
	"\techo@40002000 { compatible = \"test,echo\"; reg = <0x40001000 0x100>; status = \"disabled\"; };\n"
	"\tdma@40003000 { compatible = \"dmamap,memcpy\"; };\n};\n";

TEST(run_a_users_model_and_driver_on_a_board_of_theirs)
{
	char path[] = "/tmp/dmamap-board-XXXXXX.dts";
	struct dmamap_run_options o = { .board = path, .first_seed = 1, .last_seed = 4, .jobs = 2,
					.format = DMAMAP_RUN_JSON };
	struct dmamap_run_summary sum;
	struct dmamap_platform *p;
	int fd = mkstemps(path, 4);
	char *out;
	FILE *f;

	need_dts_support();
	CHECK(fd >= 0);
	f = fdopen(fd, "w");
	fputs(board, f);
	fclose(f);
	CHECK(dmamap_model_find_compatible("test,echo") == &echo_model);
	/* Its name and its compatible are taken now. */
	CHECK(dmamap_model_register(&echo_model) == -EEXIST);
	/* The node's compatible gave it the model; the disabled one is no device. */
	p = dmamap_platform_from_file(path, NULL);
	CHECK(p && dmamap_device_count(p) == 2);
	CHECK(p && !strcmp(dmamap_device_model_name(dmamap_device_lookup(p, "echo@40001000")), "test-echo"));
	dmamap_platform_destroy(p);
	CHECK(platform_driver_register(&echo_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 0);
	/* Only the echo node binds: the memcpy engine has no driver here. */
	CHECK(sum.devices == 1 && sum.runs == 4 && sum.tests == 4 && sum.failed == 0);
	CHECK_MSG(strstr(out, "\"devices\":\"echo@40001000\""), "%s", out);
	unlink(path);
	free(out);
}
