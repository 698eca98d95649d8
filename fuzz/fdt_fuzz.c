/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the device tree reader: any blob must give a board
 * or an error, never a crash or a leak. `make fuzz` runs it for a bounded
 * time, seeded with the built-in boards.
 */
#include <stdint.h>
#include <stddef.h>
#include <dmamap/dmamap.h>

static void quiet(void *ctx, int level, const char *line)
{
	(void)ctx;
	(void)level;
	(void)line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmamap_error err;
	struct dmamap_platform *p;

	dmamap_set_log_hook(NULL, quiet, NULL);
	p = dmamap_platform_from_fdt(data, size, &err);
	dmamap_platform_destroy(p);
	return 0;
}
