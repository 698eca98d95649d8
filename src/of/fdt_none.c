/* SPDX-License-Identifier: MIT */
/* Built without libfdt (NO_FDT=1, e.g. a 32-bit build without libfdt:i386). */
#include <dmamap/of.h>
#include "../lib/log.h"
#include "of.h"

struct dmamap_platform *dmamap_platform_from_fdt(const void *blob, size_t size,
						 struct dmamap_error *err)
{
	(void)blob;
	(void)size;
	dmamap__set_error(err, -ENOSYS, "dmamap was built without libfdt");
	return NULL;
}

struct dmamap_platform *dmamap_platform_from_file(const char *path,
						  struct dmamap_error *err)
{
	(void)path;
	dmamap__set_error(err, -ENOSYS, "dmamap was built without libfdt");
	return NULL;
}

struct dmamap_platform *dmamap_platform_from_fdt_opts(const void *blob, size_t size,
						      const struct dmamap_of_options *opts,
						      struct dmamap_error *err)
{
	(void)opts;
	return dmamap_platform_from_fdt(blob, size, err);
}

struct dmamap_platform *dmamap_platform_from_file_opts(const char *path,
						       const struct dmamap_of_options *opts,
						       struct dmamap_error *err)
{
	(void)opts;
	return dmamap_platform_from_file(path, err);
}

struct dmamap_platform *dmamap__dt_builtin(const char *name, struct dmamap_error *err)
{
	(void)name;
	(void)err;
	return NULL;
}

const char *dmamap__dt_builtin_name(unsigned int i)
{
	(void)i;
	return NULL;
}
