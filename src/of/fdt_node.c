/* SPDX-License-Identifier: MIT */
/*
 * A device's node and its properties, as <linux/of.h> reads them, on the
 * copy of the tree the board keeps. Errors follow the kernel's:
 * -EINVAL for a missing property, -ENODATA for one without a value (or
 * a string not in a list), -EOVERFLOW for one too short, -EILSEQ for a
 * string that does not end.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libfdt.h>
#include <dmamap/of.h>
#include "../lib/lib.h"
#include "of.h"

int dmamap__of_node_init(struct device_node *np, const void *fdt, const char *path)
{
	int off = fdt && path && *path ? fdt_path_offset(fdt, path) : -FDT_ERR_NOTFOUND;

	if (off < 0)
		return -ENOENT;
	np->fdt = fdt;
	np->offset = off;
	snprintf(np->path, sizeof(np->path), "%s", path);
	return 0;
}

static int cells_of(const void *fdt, int node, const char *name, int dflt)
{
	int len;
	const fdt32_t *v = node >= 0 ? fdt_getprop(fdt, node, name, &len) : NULL;

	return v && len == 4 ? (int)fdt32_to_cpu(*v) : dflt;
}

static u64 cells_value(const fdt32_t *c, int n)
{
	u64 v = 0;

	for (int i = 0; i < n; i++)
		v = v << 32 | fdt32_to_cpu(c[i]);
	return v;
}

int dmamap__of_reg(const struct device_node *np, unsigned int i, u64 *start, u64 *size)
{
	int parent = fdt_parent_offset(np->fdt, np->offset), len;
	int na = cells_of(np->fdt, parent, "#address-cells", 2);
	int ns = cells_of(np->fdt, parent, "#size-cells", 1);
	const fdt32_t *reg = fdt_getprop(np->fdt, np->offset, "reg", &len);

	if (!reg)
		return -ENOENT;
	if (na < 1 || na > 2 || ns < 0 || ns > 2)
		return -EINVAL;
	if ((u64)(i + 1) * (unsigned int)(na + ns) * 4 > (u64)len)
		return -ENOENT;
	reg += (size_t)i * (na + ns);
	*start = cells_value(reg, na);
	*size = cells_value(reg + na, ns);
	return 0;
}

const char *dmamap_of_node_name(const struct device_node *np)
{
	return np ? np->path : "";
}

const void *dmamap_of_find_property(const struct device_node *np, const char *name, int *lenp)
{
	const void *v = np && name ? fdt_getprop(np->fdt, np->offset, name, lenp) : NULL;

	if (!v && lenp)
		*lenp = 0;
	return v;
}

int dmamap_of_property_read_u32_array(const struct device_node *np, const char *name,
				      uint32_t *out, size_t n)
{
	int len;
	const fdt32_t *v = out ? dmamap_of_find_property(np, name, &len) : NULL;

	if (!v)
		return -EINVAL;
	if (!len)
		return -ENODATA;
	if ((size_t)len / 4 < n)
		return -EOVERFLOW;
	for (size_t i = 0; i < n; i++)
		out[i] = fdt32_to_cpu(v[i]);
	return 0;
}

int dmamap_of_property_read_u64(const struct device_node *np, const char *name, uint64_t *out)
{
	uint32_t c[2];
	int ret = out ? dmamap_of_property_read_u32_array(np, name, c, 2) : -EINVAL;

	if (!ret)
		*out = (uint64_t)c[0] << 32 | c[1];
	return ret;
}

int dmamap_of_property_read_string(const struct device_node *np, const char *name,
				   const char **out)
{
	int len;
	const char *v = out ? dmamap_of_find_property(np, name, &len) : NULL;

	if (!v)
		return -EINVAL;
	if (!len)
		return -ENODATA;
	if (!memchr(v, '\0', (size_t)len))
		return -EILSEQ;
	*out = v;
	return 0;
}

int dmamap_of_property_match_string(const struct device_node *np, const char *name,
				    const char *string)
{
	int len, index = 0;
	const char *v = string ? dmamap_of_find_property(np, name, &len) : NULL;

	if (!v)
		return -EINVAL;
	for (const char *s = v, *end = v + len; s < end; index++) {
		const char *nul = memchr(s, '\0', (size_t)(end - s));

		if (!nul)
			return -EILSEQ;
		if (!strcmp(s, string))
			return index;
		s = nul + 1;
	}
	return -ENODATA;
}
