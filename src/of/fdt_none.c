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

int dmamap_of_explain(const void *blob, size_t size, const struct dmamap_of_options *opts,
		      const char *path, char *out, size_t len, struct dmamap_error *err)
{
	(void)blob;
	(void)size;
	(void)opts;
	(void)path;
	if (out && len)
		out[0] = '\0';
	dmamap__set_error(err, -ENOSYS, "dmamap was built without libfdt");
	return -ENOSYS;
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

int dmamap__of_node_init(struct device_node *np, const void *fdt, const char *path)
{
	(void)np;
	(void)fdt;
	(void)path;
	return -ENOSYS;
}

int dmamap__of_reg(const struct device_node *np, unsigned int i, u64 *start, u64 *size)
{
	(void)np;
	(void)i;
	(void)start;
	(void)size;
	return -ENOENT;
}

/* No node is ever made without libfdt: every read finds nothing. */
const char *dmamap_of_node_name(const struct device_node *np)
{
	return np ? np->path : "";
}

const void *dmamap_of_find_property(const struct device_node *np, const char *name, int *lenp)
{
	(void)np;
	(void)name;
	if (lenp)
		*lenp = 0;
	return NULL;
}

int dmamap_of_property_read_u32_array(const struct device_node *np, const char *name,
				      uint32_t *out, size_t n)
{
	(void)np;
	(void)name;
	(void)out;
	(void)n;
	return -EINVAL;
}

int dmamap_of_property_read_u64(const struct device_node *np, const char *name, uint64_t *out)
{
	(void)np;
	(void)name;
	(void)out;
	return -EINVAL;
}

int dmamap_of_property_read_string(const struct device_node *np, const char *name,
				   const char **out)
{
	(void)np;
	(void)name;
	(void)out;
	return -EINVAL;
}

int dmamap_of_property_match_string(const struct device_node *np, const char *name,
				    const char *string)
{
	(void)np;
	(void)name;
	(void)string;
	return -EINVAL;
}
