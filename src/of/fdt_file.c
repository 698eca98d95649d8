/* SPDX-License-Identifier: MIT */
/*
 * A board from files: a .dtb read whole, or a .dts compiled as the
 * kernel's build compiles it, then the overlays applied in order with
 * libfdt, as a bootloader applies them, before the tree is read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libfdt.h>
#include <dmamap/of.h>
#include "../lib/lib.h"
#include "../lib/log.h"
#include "of.h"
#include "../lib/mem.h"

#define MAX_BLOB (64u << 20) /* no device tree is near this */
#define MAX_OVERLAYS 16

static bool is_dts(const char *path)
{
	size_t len = strlen(path);

	return (len > 4 && !strcmp(path + len - 4, ".dts")) ||
	       (len > 5 && !strcmp(path + len - 5, ".dtso"));
}

/* The whole of @path ("-": standard input) in a malloc'd buffer (its size in *@len), or NULL with @err set. */
static void *read_file(const char *path, const char *shown, size_t *len, struct dmamap_error *err)
{
	bool in = !strcmp(path, "-");
	FILE *f = in ? stdin : fopen(path, "rb");
	size_t cap = 0, n = 0, got = 1;
	char *buf = NULL;

	if (!f) {
		dmamap__set_error(err, -ENOENT, "%s: cannot open: %s", shown, strerror(errno));
		return NULL;
	}
	while (got) {
		if (n == cap) {
			char *more = n <= MAX_BLOB ? dmamap__realloc(buf, cap = cap ? 2 * cap : 1 << 16) : NULL;

			if (!more) {
				dmamap__set_error(err, n > MAX_BLOB ? -EINVAL : -ENOMEM,
						  n > MAX_BLOB ? "%s: larger than 64 MiB: not a device tree" :
								 "%s: out of memory", shown);
				free(buf);
				if (!in)
					fclose(f);
				return NULL;
			}
			buf = more;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	}
	if (ferror(f)) {
		/* A directory opens but does not read: say so, not "no blob". */
		dmamap__set_error(err, -EIO, "%s: cannot read: %s", shown, strerror(errno));
		free(buf);
		if (!in)
			fclose(f);
		return NULL;
	}
	if (!in)
		fclose(f);
	if (n > MAX_BLOB) {
		dmamap__set_error(err, -EINVAL, "%s: larger than 64 MiB: not a device tree", shown);
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* @path's blob: compiled first when it is a .dts; "-" is standard input, a .dtb or .dts text. */
static void *load(const char *path, const struct dmamap_of_options *opts, size_t *len,
		  struct dmamap_error *err)
{
	char dtb[4096], dts[4096];
	const char *src = path;
	void *blob;
	int fd;

	if (!strcmp(path, "-")) {
		blob = read_file("-", "standard input", len, err);
		if (blob && !*len) {
			dmamap__set_error(err, -EINVAL, "standard input: empty: no device tree");
			free(blob);
			return NULL;
		}
		/* A blob begins with its magic; anything else is source, as dtc takes it. */
		if (!blob || (*len >= 4 && fdt_magic(blob) == FDT_MAGIC))
			return blob;
		fd = dmamap__of_mktemp(dts, sizeof(dts), "stdin", ".dts");
		if (fd < 0 || write(fd, blob, *len) != (ssize_t)*len) {
			dmamap__set_error(err, -EIO, "standard input: cannot make a temporary file: %s",
					  strerror(errno));
			if (fd >= 0) {
				close(fd);
				unlink(dts);
			}
			free(blob);
			return NULL;
		}
		close(fd);
		free(blob);
		src = dts;
	} else if (!is_dts(path)) {
		return read_file(path, path, len, err);
	}
	fd = dmamap__of_mktemp(dtb, sizeof(dtb), "dtb", "");
	blob = NULL;
	if (fd < 0) {
		dmamap__set_error(err, -EIO, "%s: cannot make a temporary file: %s", path,
				  strerror(errno));
	} else {
		close(fd);
		/* Standard input's relative includes are found from here, as dtc finds them. */
		if (!dmamap__dts_compile(src, src == dts ? "." : NULL, dtb,
					 opts ? opts->include_dirs : NULL,
					 opts ? opts->nr_include_dirs : 0, err))
			blob = read_file(dtb, path, len, err);
		else if (src == dts && err) {
			char why[sizeof(err->msg)];

			/* The tools name the temporary copy: say what it is. */
			snprintf(why, sizeof(why), "%s", err->msg);
			dmamap__set_error(err, err->code, "standard input, as %s", why);
		}
		unlink(dtb);
	}
	if (src == dts)
		unlink(dts);
	return blob;
}

/* A tree of fragments meant for another tree: what dtc makes of /plugin/ (a checked blob). */
static bool is_overlay(const void *blob)
{
	int node;

	if (fdt_path_offset(blob, "/__fixups__") >= 0 ||
	    fdt_path_offset(blob, "/__local_fixups__") >= 0)
		return true;
	fdt_for_each_subnode(node, blob, 0)
		if (fdt_subnode_offset(blob, node, "__overlay__") >= 0)
			return true;
	return false;
}

/* @base (a blob of @len bytes, freed here) with every overlay applied: a new blob, or NULL. */
static void *apply_overlays(void *base, size_t *len, const struct dmamap_of_options *opts,
			    struct dmamap_error *err)
{
	void *ov[MAX_OVERLAYS] = { 0 };
	size_t ovlen[MAX_OVERLAYS], total = *len + 4096;
	void *tree = NULL;
	int ret;

	for (unsigned int i = 0; i < opts->nr_overlays; i++) {
		const char *path = opts->overlays[i];

		ov[i] = path ? load(path, opts, &ovlen[i], err) : NULL;
		if (!path)
			dmamap__set_error(err, -EINVAL, "overlay %u: no file name", i);
		if (!ov[i] || dmamap__fdt_blob_ok(ov[i], ovlen[i], err))
			goto out;
		if (!is_overlay(ov[i])) {
			dmamap__set_error(err, -EINVAL, "%s: not an overlay (no fragments)", path);
			goto out;
		}
		total += ovlen[i];
	}
	tree = total <= 2 * (size_t)MAX_BLOB ? dmamap__malloc(total) : NULL;
	if (!tree || fdt_open_into(base, tree, (int)total)) {
		dmamap__set_error(err, tree ? -EINVAL : -ENOMEM, tree ?
				  "device tree: corrupt or truncated blob" : "out of memory");
		free(tree);
		tree = NULL;
		goto out;
	}
	for (unsigned int i = 0; i < opts->nr_overlays; i++) {
		/* Checked whole above; what it refers to that the base lacks fails here, named. */
		ret = fdt_overlay_apply(tree, ov[i]);
		if (ret) {
			dmamap__set_error(err, -ENOEXEC, "%s: cannot apply: %s", opts->overlays[i],
					  fdt_strerror(ret));
			free(tree);
			tree = NULL;
			goto out;
		}
	}
	fdt_pack(tree);
	*len = fdt_totalsize(tree);
out:
	for (unsigned int i = 0; i < MAX_OVERLAYS; i++)
		free(ov[i]);
	free(base);
	return tree;
}

struct dmamap_platform *dmamap_platform_from_file(const char *path,
						  struct dmamap_error *err)
{
	return dmamap_platform_from_file_opts(path, NULL, err);
}

struct dmamap_platform *dmamap_platform_from_file_opts(const char *path,
						       const struct dmamap_of_options *opts,
						       struct dmamap_error *err)
{
	struct dmamap_platform *p = NULL;
	size_t len = 0;
	void *blob;

	if (!path) {
		dmamap__set_error(err, -EINVAL, "no file name");
		return NULL;
	}
	if (opts && (opts->nr_overlays > MAX_OVERLAYS || opts->nr_include_dirs > 16 ||
		     (opts->nr_overlays && !opts->overlays) ||
		     (opts->nr_include_dirs && !opts->include_dirs))) {
		dmamap__set_error(err, -EINVAL, "%s: more than 16 overlays or include directories, or none given",
				  path);
		return NULL;
	}
	blob = load(path, opts, &len, err);
	if (!blob)
		return NULL;
	if (dmamap__fdt_blob_ok(blob, len, err)) {
		/* Say which file. */
		if (err) {
			char why[sizeof(err->msg)];

			snprintf(why, sizeof(why), "%s", err->msg);
			dmamap__set_error(err, err->code, "%s: %s", path, why);
		}
		free(blob);
		return NULL;
	}
	if (is_overlay(blob)) {
		dmamap__set_error(err, -EINVAL,
				  "%s: an overlay, not a board: apply it to a base tree (--overlay)", path);
		free(blob);
		return NULL;
	}
	if (opts && opts->nr_overlays && !(blob = apply_overlays(blob, &len, opts, err)))
		return NULL;
	p = dmamap_platform_from_fdt_opts(blob, len, opts, err);
	free(blob);
	return p;
}
