/* SPDX-License-Identifier: MIT */
/* What the runner's tests share: a run whose output is kept as a string. */
#ifndef DMAMAP_TESTS_RUN_HELPERS_H
#define DMAMAP_TESTS_RUN_HELPERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/run.h>
#include "../helpers.h"

/* Drivers bind by compatible: a build without libfdt has no nodes to match. */
static inline void need_fdt(void)
{
	struct dmamap_error err = { 0 };

	if (!dmamap_platform_from_fdt(NULL, 0, &err) && err.code == -ENOSYS)
		SKIP("built without libfdt: no device tree nodes for drivers to match");
}

/* The memcpy engine's ID register says what it is. */
#define MCE_REG_ID 0x00
#define MCE_ID 0x4d434531u

/*
 * dmamap_run(@o) with its output in a string (malloc'ed, into *@out) and
 * its return value; o->out is set here.
 */
static inline long run_into(struct dmamap_run_options *o, struct dmamap_run_summary *sum,
			    char **out)
{
	FILE *f = tmpfile();
	long ret, n;

	o->out = f;
	ret = dmamap_run(o, sum);
	fflush(f);
	n = ftell(f);
	*out = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
	rewind(f);
	if (*out && n > 0 && fread(*out, 1, (size_t)n, f) != (size_t)n)
		(*out)[0] = '\0';
	fclose(f);
	return ret;
}

/* A probe for the memcpy engine: its registers answer. */
static inline int engine_probe(struct platform_device *pdev)
{
	void __iomem *regs = devm_platform_ioremap_resource(pdev, 0);

	if (IS_ERR(regs))
		return (int)PTR_ERR(regs);
	platform_set_drvdata(pdev, regs);
	return readl(regs + MCE_REG_ID) == MCE_ID ? 0 : -ENODEV;
}

static const struct of_device_id engine_ids[] = {
	{ .compatible = "dmamap,memcpy" },
	{ },
};

#define ENGINE_DRIVER(var, name_)                                                    \
	static struct platform_driver var = {                                        \
		.probe = engine_probe,                                               \
		.driver = { .name = name_, .of_match_table = engine_ids },           \
	}

#endif
