/* SPDX-License-Identifier: MIT */
/* The small readers every part of the tree reader shares: cells, numbers, status, errors. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "../lib/lib.h"
#include "../lib/log.h"
#include "fdt_parse.h"

static void node_path(struct fdt_parse *ps, int node, char *path, size_t size)
{
	snprintf(path, size, "?");
	if (node >= 0 && fdt_get_path(ps->fdt, node, path, (int)size))
		snprintf(path, size, "(node at offset %d)", node);
}

int dmamap__fdt_fail(struct fdt_parse *ps, int node, const char *prop, const char *fmt, ...)
{
	char path[160], what[160];
	va_list ap;

	node_path(ps, node, path, sizeof(path));
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	dmamap__set_error(ps->err, -EINVAL, "%s%s%s: %s", path, prop ? ":" : "",
			  prop ? prop : "", what);
	return -EINVAL;
}

void dmamap__fdt_warn(struct fdt_parse *ps, int node, const char *fmt, ...)
{
	char path[160], what[256];
	va_list ap;

	node_path(ps, node, path, sizeof(path));
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	dmamap__log_line(NULL, DMAMAP_LOG_WARN, "dmamap: %s: %s", path, what);
}

int dmamap__fdt_cells(struct fdt_parse *ps, int node, const char *name, int root_default)
{
	for (; node >= 0; node = dmamap__fdt_parent(ps, node)) {
		int len;
		const fdt32_t *v = fdt_getprop(ps->fdt, node, name, &len);

		if (v && len == 4) {
			uint32_t c = fdt32_to_cpu(*v);

			return c <= 3 ? (int)c : -1;
		}
		if (v)
			return -1;
	}
	return root_default;
}

u64 dmamap__fdt_number(const fdt32_t *p, int n)
{
	u64 v = 0;

	if (n == 3) {
		p++;
		n = 2;
	}
	for (int i = 0; i < n; i++)
		v = (v << 32) | fdt32_to_cpu(p[i]);
	return v;
}

int dmamap__fdt_u64_prop(struct fdt_parse *ps, int node, const char *name, u64 def, u64 *out)
{
	int len;
	const fdt32_t *v = fdt_getprop(ps->fdt, node, name, &len);

	*out = def;
	if (!v)
		return 0;
	if (len != 4 && len != 8)
		return dmamap__fdt_fail(ps, node, name, "expected 1 or 2 cells, found %d bytes", len);
	*out = dmamap__fdt_number(v, len / 4);
	return 0;
}

bool dmamap__fdt_enabled(struct fdt_parse *ps, int node)
{
	const char *st = fdt_getprop(ps->fdt, node, "status", NULL);

	return !st || !strcmp(st, "okay") || !strcmp(st, "ok");
}

bool dmamap__fdt_compatible(struct fdt_parse *ps, int node, const char *c)
{
	return !fdt_node_check_compatible(ps->fdt, node, c);
}

void dmamap__fdt_say(struct fdt_parse *ps, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (!ps->explaining || !ps->explain)
		return;
	used = strlen(ps->explain);
	if (used + 2 >= ps->explain_len)
		return;
	va_start(ap, fmt);
	vsnprintf(ps->explain + used, ps->explain_len - used - 1, fmt, ap);
	va_end(ap);
	used = strlen(ps->explain);
	ps->explain[used] = '\n';
	ps->explain[used + 1] = '\0';
}
