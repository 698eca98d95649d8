/* SPDX-License-Identifier: MIT */
/*
 * Device tree to board: libfdt reads the blob (checked whole before any
 * property is looked at); RAM from /memory, then /reserved-memory
 * (fdt_reserved.c), then each device node configured as Linux's
 * of_dma_configure_id() would (fdt_dma.c), with the vendor properties a
 * board file uses to say what its drivers ask for.
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdarg.h>
#include <dmamap/model.h>
#include <dmamap/of.h>
#include "../lib/lib.h"
#include "../lib/log.h"
#include "of.h"
#include "fdt_parse.h"
#include "../lib/mem.h"

/* Unique on the board: the node name, or its full @path when the name is taken. */
static void device_name(struct fdt_parse *ps, int node, const char *path, char *out)
{
	snprintf(out, DMAMAP_NAME_MAX, "%s", fdt_get_name(ps->fdt, node, NULL));
	for (unsigned int i = 0; i < ps->board.nr_devices; i++) {
		if (!strcmp(ps->names[i], out)) {
			if (!*path || strlen(path) >= DMAMAP_NAME_MAX)
				snprintf(out, DMAMAP_NAME_MAX, "node@%d", node);
			else
				memcpy(out, path, strlen(path) + 1);
			return;
		}
	}
}

/*
 * The model a node's compatible list names, first listed first: the
 * built-in ones ("dmamap,nic" -> "nic") and those a program registered.
 */
static const char *model_of(const void *blob, int node)
{
	int n = fdt_stringlist_count(blob, node, "compatible");

	for (int i = 0; i < n; i++) {
		const char *c = fdt_stringlist_get(blob, node, "compatible", i, NULL);
		const struct dmamap_device_model *m = dmamap_model_find_compatible(c);

		if (m)
			return m->name;
	}
	return NULL;
}

static int device_of(struct fdt_parse *ps, const struct fdt_populated *pop,
		     bool coherent_default, const char *model)
{
	bool live = model != NULL;
	int node = pop->node;

	struct dmamap_device_desc *d;
	unsigned int i = ps->board.nr_devices;
	u64 bits;
	int ret;

	if (i == FDT_MAX_DEVICES && !live) {
		if (!ps->warned_devices)
			dmamap__log_line(NULL, DMAMAP_LOG_WARN,
				    "dmamap: %s: more than %d devices; the rest are not configured",
				    fdt_get_name(ps->fdt, node, NULL), FDT_MAX_DEVICES);
		ps->warned_devices = true;
		return 0;
	}
	if (i == FDT_MAX_DEVICES)
		return dmamap__fdt_fail(ps, node, NULL, "more than %d DMA masters", FDT_MAX_DEVICES);
	d = &ps->devs[i];
	memset(d, 0, sizeof(*d));
	ps->dev_nodes[i] = node;
	if (fdt_get_path(ps->fdt, node, ps->paths[i], DMAMAP_PATH_MAX))
		ps->paths[i][0] = '\0';
	else
		d->of_path = ps->paths[i];
	device_name(ps, node, ps->paths[i], ps->names[i]);
	d->name = ps->names[i];
	d->model = model;
	d->bus = dmamap__fdt_bus_name(pop->bus);
	d->dma_master = dmamap__fdt_dma_master_by(ps, node, pop->bus, live);
	ret = dmamap__fdt_dma_configure(ps, node, coherent_default, d, ps->iommus[i]);
	if (ret)
		return ret;
	/*
	 * What a driver would set with dma_set_mask*(): vendor properties, so a
	 * board file can say what its devices' drivers ask for.
	 */
	ps->explaining = node == ps->explain_node;
	if ((ret = dmamap__fdt_u64_prop(ps, node, "dmamap,dma-mask-bits", 0, &bits)))
		return ret;
	if (bits) {
		d->dma_mask = d->coherent_dma_mask = DMA_BIT_MASK(bits);
		dmamap__fdt_say(ps, "dmamap,dma-mask-bits = %llu: its driver calls dma_set_mask_and_coherent(DMA_BIT_MASK(%llu))",
				(unsigned long long)bits, (unsigned long long)bits);
	}
	if ((ret = dmamap__fdt_u64_prop(ps, node, "dmamap,coherent-mask-bits", 0, &bits)))
		return ret;
	if (bits) {
		d->coherent_dma_mask = DMA_BIT_MASK(bits);
		dmamap__fdt_say(ps, "dmamap,coherent-mask-bits = %llu: its driver calls dma_set_coherent_mask(DMA_BIT_MASK(%llu))",
				(unsigned long long)bits, (unsigned long long)bits);
	}
	ps->explaining = false;
	/* An IXP4xx/SA-1111-style bus that needs dmabounce above an address. */
	if ((ret = dmamap__fdt_u64_prop(ps, node, "dmamap,dmabounce-above", 0, &bits)))
		return ret;
	d->dmabounce_above = bits;
	d->dmabounce_small = 512;
	d->dmabounce_large = 4096;
	ps->board.nr_devices++;
	return 0;
}

static int memory_of(struct fdt_parse *ps, int node)
{
	int na = dmamap__fdt_cells(ps, 0, "#address-cells", 1), ns = dmamap__fdt_cells(ps, 0, "#size-cells", 1), len;
	const fdt32_t *reg = fdt_getprop(ps->fdt, node, "reg", &len);

	if (!reg)
		return dmamap__fdt_fail(ps, node, "reg", "missing");
	if (na < 1 || na > 2 || ns < 1 || ns > 2 || len % ((na + ns) * 4))
		return dmamap__fdt_fail(ps, node, "reg", "%d bytes do not fit %d+%d cells", len, na, ns);
	for (int off = 0; off < len; off += (na + ns) * 4) {
		struct dmamap_ram_bank b = { dmamap__fdt_number(reg + off / 4, na),
					     dmamap__fdt_number(reg + off / 4 + na, ns) };

		/* A placeholder firmware fills in at boot: early_init_dt_scan_memory() skips it too. */
		if (!b.size)
			continue;
		if (ps->board.nr_banks == DMAMAP_MAX_BANKS)
			return dmamap__fdt_fail(ps, node, "reg", "more than %d RAM banks", DMAMAP_MAX_BANKS);
		ps->board.banks[ps->board.nr_banks++] = b;
	}
	return 0;
}

static int board_props(struct fdt_parse *ps)
{
	const char *s;
	u64 v;
	int cpus, node, ret;

	s = fdt_getprop(ps->fdt, 0, "model", NULL);
	if (!s)
		s = fdt_getprop(ps->fdt, 0, "compatible", NULL);
	snprintf(ps->board_name, sizeof(ps->board_name), "%s", s ? s : "fdt");
	ps->board.name = ps->board_name;
	s = fdt_getprop(ps->fdt, 0, "dmamap,cache-arch", NULL);
	if (s && !strcmp(s, "armv5"))
		ps->board.arch = DMAMAP_CACHE_ARMV5;
	else if (s && strcmp(s, "arm64"))
		return dmamap__fdt_fail(ps, 0, "dmamap,cache-arch", "unknown architecture '%s'", s);
	s = fdt_getprop(ps->fdt, 0, "dmamap,memory-model", NULL);
	if (s && !strcmp(s, "tso"))
		ps->board.memory_model = DMAMAP_MEMORY_TSO;
	else if (s && strcmp(s, "weak"))
		return dmamap__fdt_fail(ps, 0, "dmamap,memory-model", "unknown memory model '%s' (weak or tso)", s);
	/* The d-cache line: the cpus say it; a board property may override. */
	ps->board.cache_line_size = 64;
	cpus = fdt_path_offset(ps->fdt, "/cpus");
	if (cpus >= 0) {
		fdt_for_each_subnode(node, ps->fdt, cpus) {
			if ((ret = dmamap__fdt_u64_prop(ps, node, "d-cache-line-size", 0, &v)))
				return ret;
			if (v) {
				ps->board.cache_line_size = (unsigned int)v;
				break;
			}
		}
	}
	if ((ret = dmamap__fdt_u64_prop(ps, 0, "dmamap,cache-line-size", ps->board.cache_line_size, &v)))
		return ret;
	ps->board.cache_line_size = (unsigned int)v;
	if ((ret = dmamap__fdt_u64_prop(ps, 0, "dmamap,zone-dma-limit", 0, &v)))
		return ret;
	ps->board.zone_dma_limit = v;
	if ((ret = dmamap__fdt_u64_prop(ps, 0, "dmamap,highmem-start", 0, &v)))
		return ret;
	ps->board.highmem_start = v;
	if ((ret = dmamap__fdt_u64_prop(ps, 0, "dmamap,swiotlb-size", 0, &v)))
		return ret;
	ps->board.swiotlb_size = v;
	if ((ret = dmamap__fdt_u64_prop(ps, 0, "dmamap,cma-size", 0, &v)))
		return ret;
	ps->board.cma_size = v;
	return 0;
}

/* A disabled node disables its whole subtree. */
static bool enabled_with_ancestors(struct fdt_parse *ps, int node)
{
	for (; node > 0; node = dmamap__fdt_parent(ps, node))
		if (!dmamap__fdt_enabled(ps, node))
			return false;
	return true;
}

static bool is_memory(struct fdt_parse *ps, int node)
{
	const char *t = fdt_getprop(ps->fdt, node, "device_type", NULL);

	return t && !strcmp(t, "memory");
}

/* Whether a device was made of @node. */
static bool device_configured(struct fdt_parse *ps, int node)
{
	for (unsigned int i = 0; i < ps->board.nr_devices; i++)
		if (ps->dev_nodes[i] == node)
			return true;
	return false;
}

struct dmamap_platform *dmamap_platform_from_fdt(const void *blob, size_t size,
						 struct dmamap_error *err)
{
	return dmamap_platform_from_fdt_opts(blob, size, NULL, err);
}

static int check_blob(const void *blob, size_t size, const struct dmamap_of_options *opts,
		      struct dmamap_error *err)
{
	if (opts && opts->ram && (!opts->nr_ram || opts->nr_ram > DMAMAP_MAX_BANKS)) {
		dmamap__set_error(err, -EINVAL, "RAM override: %u banks (need 1..%d)",
				  opts->nr_ram, DMAMAP_MAX_BANKS);
		return -EINVAL;
	}
	return dmamap__fdt_blob_ok(blob, size, err);
}

int dmamap__fdt_blob_ok(const void *blob, size_t size, struct dmamap_error *err)
{
	if (!blob || size < FDT_V1_SIZE) {
		dmamap__set_error(err, -EINVAL, "device tree: no blob, or shorter than a header");
		return -EINVAL;
	}
	/*
	 * libfdt's full check dereferences NULL on some pre-16 blobs (dtc
	 * writes 17), and loops forever on a property length that wraps:
	 * dmamap__fdt_walk_ok() first.
	 */
	if (fdt_check_header(blob) || fdt_totalsize(blob) > size ||
	    (fdt_version(blob) >= 16 &&
	     (!dmamap__fdt_walk_ok(blob, size) || fdt_check_full(blob, size)))) {
		dmamap__set_error(err, -EINVAL, "device tree: corrupt or truncated blob");
		return -EINVAL;
	}
	if (fdt_version(blob) < 16) {
		dmamap__set_error(err, -EINVAL, "device tree: format version %u (16 or later needed)",
				  (unsigned int)fdt_version(blob));
		return -EINVAL;
	}
	return 0;
}

static int parse(struct fdt_parse *ps, const void *blob, const struct dmamap_of_options *opts)
{
	bool coherent_default, ram_given = opts && opts->ram;
	int node, depth = 0, ret;

	ps->fdt = blob;
	if (!fdt_getprop(blob, 0, "#address-cells", NULL) || !fdt_getprop(blob, 0, "#size-cells", NULL))
		dmamap__log_line(NULL, DMAMAP_LOG_WARN,
			    "dmamap: device tree root lacks #address-cells/#size-cells: assuming 1");
	ret = board_props(ps);
	/* ARM boards: not coherent unless a node says dma-coherent. */
	coherent_default = fdt_getprop(blob, 0, "dma-coherent", NULL) != NULL;
	/* RAM first: reserved regions are placed in it, devices refer to them. */
	if (!ret && ram_given) {
		memcpy(ps->board.banks, opts->ram, opts->nr_ram * sizeof(*opts->ram));
		ps->board.nr_banks = opts->nr_ram;
	}
	for (node = fdt_next_node(blob, -1, &depth); !ret && !ram_given && node >= 0;
	     node = fdt_next_node(blob, node, &depth))
		if (dmamap__fdt_enabled(ps, node) && dmamap__fdt_parent(ps, node) == 0 &&
		    is_memory(ps, node))
			ret = memory_of(ps, node);
	if (!ret && ps->board.nr_banks)
		ret = dmamap__fdt_reserved_memory(ps);
	/* A board that does not say where ZONE_DMA ends gets it as arm64 Linux sizes it. */
	if (!ret && !fdt_getprop(blob, 0, "dmamap,zone-dma-limit", NULL) &&
	    ps->board.arch == DMAMAP_CACHE_ARM64)
		ps->board.zone_dma_limit = dmamap__fdt_zone_dma_limit(ps);
	/*
	 * The nodes Linux makes devices of; those a device model claims become
	 * live devices, the rest are configured too (no model), so info reports
	 * them. Live ones first: they keep their short names and are never
	 * crowded out by a real SoC's hundreds of register blocks.
	 */
	if (!ret)
		dmamap__fdt_populate(ps);
	if (!ret && ps->explain_node >= 0)
		dmamap__fdt_explain_population(ps, ps->explain_node,
					       model_of(blob, ps->explain_node) != NULL);
	for (int live = 1; live >= 0; live--) {
		for (unsigned int i = 0; !ret && i < ps->nr_populated; i++) {
			const struct fdt_populated *pop = &ps->populated[i];
			const char *model = model_of(blob, pop->node);

			if ((model != NULL) == live)
				ret = device_of(ps, pop, coherent_default, model);
		}
	}
	for (node = fdt_next_node(blob, -1, &depth); !ret && node >= 0;
	     node = fdt_next_node(blob, node, &depth))
		if (model_of(blob, node) && !device_configured(ps, node) &&
		    enabled_with_ancestors(ps, node))
			dmamap__fdt_warn(ps, node, "Linux creates no device for this node (no compatible, or its parent is no simple-bus): its model is not used");
	if (!ret && !ps->board.nr_banks)
		ret = dmamap__fdt_fail(ps, 0, NULL,
				       "no RAM: no memory node with device_type = \"memory\" and a size"
				       " (firmware fills it in at boot: give the RAM, --ram START+SIZE)");
	return ret;
}

int dmamap__fdt_parse(struct fdt_parse *ps, const void *blob, const struct dmamap_of_options *opts)
{
	int ret;

	ps->fdt = blob;
	dmamap__fdt_parents_index(ps);
	ret = parse(ps, blob, opts);
	dmamap__fdt_parents_free(ps);
	return ret;
}

struct dmamap_platform *dmamap_platform_from_fdt_opts(const void *blob, size_t size,
						      const struct dmamap_of_options *opts,
						      struct dmamap_error *err)
{
	struct fdt_parse *ps;
	struct dmamap_platform *p = NULL;

	if (check_blob(blob, size, opts, err))
		return NULL;
	ps = dmamap__calloc(1, sizeof(*ps));
	if (!ps) {
		dmamap__set_error(err, -ENOMEM, "out of memory");
		return NULL;
	}
	ps->err = err;
	ps->explain_node = -1;
	if (!dmamap__fdt_parse(ps, blob, opts)) {
		ps->board.devices = ps->devs;
		ps->board.fdt = blob;
		ps->board.fdt_size = fdt_totalsize(blob);
		p = dmamap_platform_create(&ps->board, err);
	}
	free(ps);
	return p;
}

int dmamap_of_explain(const void *blob, size_t size, const struct dmamap_of_options *opts,
		      const char *path, char *out, size_t len, struct dmamap_error *err)
{
	struct fdt_parse *ps;
	int ret, node;

	if (!path || !out || !len) {
		dmamap__set_error(err, -EINVAL, "explain: no node path or no room for the answer");
		return -EINVAL;
	}
	if ((ret = check_blob(blob, size, opts, err)))
		return ret;
	node = fdt_path_offset(blob, path);
	if (node < 0) {
		dmamap__set_error(err, -ENOENT, "%s: no such node in the tree", path);
		return -ENOENT;
	}
	ps = dmamap__calloc(1, sizeof(*ps));
	if (!ps) {
		dmamap__set_error(err, -ENOMEM, "out of memory");
		return -ENOMEM;
	}
	ps->err = err;
	ps->explain_node = node;
	ps->explain = out;
	ps->explain_len = len;
	out[0] = '\0';
	ret = dmamap__fdt_parse(ps, blob, opts);
	free(ps);
	return ret;
}

struct dmamap_platform *dmamap__dt_builtin(const char *name, struct dmamap_error *err)
{
	for (const struct dmamap__dt_board *b = dmamap__dt_boards; b->name; b++)
		if (!strcmp(b->name, name))
			return dmamap_platform_from_fdt(b->dtb, b->size, err);
	return NULL;
}

const char *dmamap__dt_builtin_name(unsigned int i)
{
	for (unsigned int k = 0; dmamap__dt_boards[k].name; k++)
		if (k == i)
			return dmamap__dt_boards[k].name;
	return NULL;
}
