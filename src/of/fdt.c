/* SPDX-License-Identifier: MIT */
/*
 * Device tree to board: libfdt reads the blob (checked whole before any
 * property is looked at); the rules are the kernel's of_dma_configure():
 * which dma-ranges apply (walk up from the parent bus; empty means keep
 * walking; after the first node every one must have the property), how an
 * entry's parent address becomes a CPU address (up through the ancestors'
 * dma-ranges, missing or empty ones being 1:1), the masks and bus limit
 * the map implies, coherency from the nearest dma-coherent or
 * dma-noncoherent, and the device's own iommus.
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

#define MAX_DEVICES 256

enum region_kind { REGION_POOL, REGION_RESTRICTED, REGION_OTHER };

struct region {
	int node;
	enum region_kind kind;
};

struct parse {
	const void *fdt;
	/* What each board.reserved[] entry is (same index): who names it, what kind. */
	struct region regions[DMAMAP_MAX_RESERVED];
	struct dmamap_error *err;
	struct dmamap_board board;
	struct dmamap_device_desc devs[MAX_DEVICES];
	char names[MAX_DEVICES][DMAMAP_NAME_MAX];
	char paths[MAX_DEVICES][DMAMAP_PATH_MAX];
	char iommus[MAX_DEVICES][DMAMAP_NAME_MAX];
	bool warned_devices;
	char board_name[DMAMAP_NAME_MAX];
};

static int fail(struct parse *ps, int node, const char *prop, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct parse *ps, int node, const char *prop, const char *fmt, ...)
{
	char path[160] = "?", what[160];
	va_list ap;

	if (node >= 0 && fdt_get_path(ps->fdt, node, path, sizeof(path)))
		snprintf(path, sizeof(path), "(node at offset %d)", node);
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	dmamap__set_error(ps->err, -EINVAL, "%s%s%s: %s", path, prop ? ":" : "",
			  prop ? prop : "", what);
	return -EINVAL;
}

/* #address-cells / #size-cells of @node itself, inherited upward (root default). */
static int cells_of(struct parse *ps, int node, const char *name, int root_default)
{
	for (; node >= 0; node = fdt_parent_offset(ps->fdt, node)) {
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

static int addr_cells(struct parse *ps, int node)
{
	return cells_of(ps, node, "#address-cells", 1);
}

static int size_cells(struct parse *ps, int node)
{
	return cells_of(ps, node, "#size-cells", 1);
}

/* A number of @n cells (a PCI-style 3-cell address drops its flags cell). */
static u64 number(const fdt32_t *p, int n)
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

/* An optional 1- or 2-cell integer property; @def when absent. */
static int u64_prop(struct parse *ps, int node, const char *name, u64 def, u64 *out)
{
	int len;
	const fdt32_t *v = fdt_getprop(ps->fdt, node, name, &len);

	*out = def;
	if (!v)
		return 0;
	if (len != 4 && len != 8)
		return fail(ps, node, name, "expected 1 or 2 cells, found %d bytes", len);
	*out = number(v, len / 4);
	return 0;
}

/* How a node's dma-ranges entries are laid out: <child parent size>. */
struct ranges_cells {
	int na, pna, ns, stride; /* stride in bytes */
};

/* False when a cell count is bad (negative from a corrupt tree). */
static bool ranges_cells_of(struct parse *ps, int node, struct ranges_cells *c)
{
	c->na = addr_cells(ps, node);
	c->pna = addr_cells(ps, fdt_parent_offset(ps->fdt, node));
	c->ns = size_cells(ps, node);
	c->stride = (c->na + c->pna + c->ns) * 4;
	return c->na >= 0 && c->pna >= 0 && c->ns >= 0;
}

/* The entry at byte offset @off. */
static void ranges_entry(const fdt32_t *r, int off, const struct ranges_cells *c,
			 u64 *child, u64 *parent, u64 *size)
{
	const fdt32_t *e = r + off / 4;

	*child = number(e, c->na);
	*parent = number(e + c->na, c->pna);
	*size = number(e + c->na + c->pna, c->ns);
}

/*
 * Translate @addr, an address on @bus's parent bus, to a CPU address
 * through every ancestor's dma-ranges. Returns false when a non-empty
 * dma-ranges does not cover it.
 */
static bool translate_up(struct parse *ps, int bus, u64 *addr)
{
	for (int n = fdt_parent_offset(ps->fdt, bus); n >= 0 && fdt_parent_offset(ps->fdt, n) >= 0;
	     n = fdt_parent_offset(ps->fdt, n)) {
		int len;
		const fdt32_t *r = fdt_getprop(ps->fdt, n, "dma-ranges", &len);
		struct ranges_cells c;
		bool hit = false;

		if (!r || !len)
			continue; /* missing or empty: 1:1 on the way up */
		if (!ranges_cells_of(ps, n, &c))
			return false;
		for (int off = 0; c.stride && off + c.stride <= len; off += c.stride) {
			u64 child, parent, size;

			ranges_entry(r, off, &c, &child, &parent, &size);
			if (*addr >= child && *addr - child < size) {
				*addr = parent + (*addr - child);
				hit = true;
				break;
			}
		}
		if (!hit)
			return false;
	}
	return true;
}

/* The dma-ranges that configure a device on bus @bus; fills d->ranges. */
static int dma_ranges(struct parse *ps, int dev_node, int bus, struct dmamap_device_desc *d)
{
	const fdt32_t *r = NULL;
	struct ranges_cells c;
	bool later = false;
	int len = 0, node;

	for (node = bus; node >= 0; node = fdt_parent_offset(ps->fdt, node)) {
		r = fdt_getprop(ps->fdt, node, "dma-ranges", &len);
		if (r && len > 0)
			break;
		if (later && !r)
			return 0; /* a bus without dma-ranges above one with: no map */
		later = true;
		r = NULL;
	}
	if (!r)
		return 0; /* reached the root: identity */
	if (!ranges_cells_of(ps, node, &c) || !c.ns)
		return fail(ps, node, "dma-ranges", "bad #address-cells/#size-cells");
	if (len % c.stride)
		return fail(ps, node, "dma-ranges",
			    "length %d is not a multiple of %d cells per entry", len, c.stride / 4);
	for (int off = 0; off < len; off += c.stride) {
		struct dmamap_dma_range *last = d->nr_ranges ? &d->ranges[d->nr_ranges - 1] : NULL;
		u64 dma, cpu, size;

		ranges_entry(r, off, &c, &dma, &cpu, &size);
		if (!size)
			continue;
		if (!translate_up(ps, node, &cpu)) {
			dmamap__log_line(NULL, DMAMAP_LOG_WARN,
				    "dmamap: %s: dma-ranges entry at 0x%llx not reachable from the CPU, dropped",
				    fdt_get_name(ps->fdt, dev_node, NULL),
				    (unsigned long long)dma);
			continue;
		}
		/* Entries contiguous in both spaces are one region. */
		if (last && last->cpu_start + last->size == cpu &&
		    last->dma_start + last->size == dma) {
			last->size += size;
			continue;
		}
		if (d->nr_ranges == DMAMAP_MAX_RANGES)
			return fail(ps, node, "dma-ranges", "more than %d regions",
				    DMAMAP_MAX_RANGES);
		d->ranges[d->nr_ranges].cpu_start = cpu;
		d->ranges[d->nr_ranges].dma_start = dma;
		d->ranges[d->nr_ranges].size = size;
		d->nr_ranges++;
	}
	return 0;
}

static bool coherent_of(struct parse *ps, int node, bool board_default)
{
	for (; node >= 0; node = fdt_parent_offset(ps->fdt, node)) {
		if (fdt_getprop(ps->fdt, node, "dma-coherent", NULL))
			return true;
		if (fdt_getprop(ps->fdt, node, "dma-noncoherent", NULL))
			return false;
	}
	return board_default;
}

static bool enabled(struct parse *ps, int node)
{
	const char *st = fdt_getprop(ps->fdt, node, "status", NULL);

	return !st || !strcmp(st, "okay") || !strcmp(st, "ok");
}

static bool is_pci_host(struct parse *ps, int node)
{
	const char *t = node >= 0 ? fdt_getprop(ps->fdt, node, "device_type", NULL) : NULL;

	return t && !strcmp(t, "pci");
}

/*
 * A PCI device's IOMMU comes from its host controller's iommu-map: its
 * requester id (bus/device/function from reg), masked by iommu-map-mask,
 * falls in an entry <rid-base iommu iommu-base length>.
 */
static int pci_iommu_of(struct parse *ps, int node, int host, char *out,
			uint32_t *stream)
{
	int len, mlen, rlen;
	const fdt32_t *map = fdt_getprop(ps->fdt, host, "iommu-map", &len);
	const fdt32_t *mask = fdt_getprop(ps->fdt, host, "iommu-map-mask", &mlen);
	const fdt32_t *reg = fdt_getprop(ps->fdt, node, "reg", &rlen);
	uint32_t rid;

	if (!map)
		return 0;
	if (!reg || rlen < 4)
		return fail(ps, node, "reg", "a PCI device needs reg to find its requester id");
	rid = (fdt32_to_cpu(reg[0]) >> 8) & 0xffff;
	if (mask && mlen == 4)
		rid &= fdt32_to_cpu(*mask);
	if (len % 16)
		return fail(ps, host, "iommu-map", "length %d is not a multiple of 4 cells", len);
	for (int off = 0; off < len / 4; off += 4) {
		uint32_t base = fdt32_to_cpu(map[off]), ph = fdt32_to_cpu(map[off + 1]);
		uint32_t out_base = fdt32_to_cpu(map[off + 2]), n = fdt32_to_cpu(map[off + 3]);
		int target;

		if (rid < base || rid - base >= n)
			continue;
		target = fdt_node_offset_by_phandle(ps->fdt, ph);
		if (target < 0)
			return fail(ps, host, "iommu-map", "unknown phandle 0x%x", ph);
		if (enabled(ps, target)) {
			snprintf(out, DMAMAP_NAME_MAX, "%s", fdt_get_name(ps->fdt, target, NULL));
			*stream = out_base + (rid - base);
		}
		return 0;
	}
	return 0;
}

static int iommu_of(struct parse *ps, int node, char *out, uint32_t *stream)
{
	int len, target, cells;
	const fdt32_t *v = fdt_getprop(ps->fdt, node, "iommus", &len);

	out[0] = 0;
	*stream = 0;
	if (!v) {
		int host = fdt_parent_offset(ps->fdt, node);

		return is_pci_host(ps, host) ? pci_iommu_of(ps, node, host, out, stream) : 0;
	}
	if (len < 4)
		return fail(ps, node, "iommus", "truncated");
	target = fdt_node_offset_by_phandle(ps->fdt, fdt32_to_cpu(v[0]));
	if (target < 0)
		return fail(ps, node, "iommus", "unknown phandle 0x%x", fdt32_to_cpu(v[0]));
	cells = cells_of(ps, target, "#iommu-cells", 0);
	if (cells < 0 || len < (1 + cells) * 4)
		return fail(ps, node, "iommus", "fewer cells than the IOMMU's #iommu-cells (%d)",
			    cells);
	if (!enabled(ps, target))
		return 0; /* a disabled IOMMU means none, not an error */
	snprintf(out, DMAMAP_NAME_MAX, "%s", fdt_get_name(ps->fdt, target, NULL));
	if (cells >= 1)
		*stream = fdt32_to_cpu(v[1]);
	return 0;
}

/* A device's memory-region: its own coherent pool, or a restricted pool. */
static int memory_region_of(struct parse *ps, int node, struct dmamap_device_desc *d)
{
	int len, target;
	const fdt32_t *v = fdt_getprop(ps->fdt, node, "memory-region", &len);

	if (!v)
		return 0;
	if (len < 4)
		return fail(ps, node, "memory-region", "truncated");
	target = fdt_node_offset_by_phandle(ps->fdt, fdt32_to_cpu(v[0]));
	if (target < 0)
		return fail(ps, node, "memory-region", "unknown phandle 0x%x",
			    fdt32_to_cpu(v[0]));
	for (unsigned int r = 0; r < ps->board.nr_reserved; r++) {
		const struct region *g = &ps->regions[r];
		const struct dmamap_ram_bank *m = &ps->board.reserved[r];

		if (g->node != target)
			continue;
		if (g->kind == REGION_POOL) {
			d->coherent_pool_start = m->start;
			d->coherent_pool_size = m->size;
		} else if (g->kind == REGION_RESTRICTED && !d->iommu) {
			/* Behind an IOMMU the IOMMU isolates it: no restricted pool. */
			d->restricted_pool_start = m->start;
			d->restricted_pool_size = m->size;
		}
	}
	return 0;
}

/* Unique on the board: the node name, or its full @path when the name is taken. */
static void device_name(struct parse *ps, int node, const char *path, char *out)
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

static int device_of(struct parse *ps, int node, bool coherent_default, const char *model)
{
	bool live = model != NULL;

	struct dmamap_device_desc *d;
	unsigned int i = ps->board.nr_devices;
	u64 end = 0, mask, bits;
	int ret;

	if (i == MAX_DEVICES && !live) {
		if (!ps->warned_devices)
			dmamap__log_line(NULL, DMAMAP_LOG_WARN,
				    "dmamap: %s: more than %d devices; the rest are not configured",
				    fdt_get_name(ps->fdt, node, NULL), MAX_DEVICES);
		ps->warned_devices = true;
		return 0;
	}
	if (i == MAX_DEVICES)
		return fail(ps, node, NULL, "more than %d DMA masters", MAX_DEVICES);
	d = &ps->devs[i];
	memset(d, 0, sizeof(*d));
	if (fdt_get_path(ps->fdt, node, ps->paths[i], DMAMAP_PATH_MAX))
		ps->paths[i][0] = '\0';
	else
		d->of_path = ps->paths[i];
	device_name(ps, node, ps->paths[i], ps->names[i]);
	d->name = ps->names[i];
	d->model = model;
	ret = dma_ranges(ps, node, fdt_parent_offset(ps->fdt, node), d);
	if (ret)
		return ret;
	mask = DMA_BIT_MASK(32);
	for (unsigned int r = 0; r < d->nr_ranges; r++)
		end = MAX(end, d->ranges[r].dma_start + d->ranges[r].size - 1);
	if (d->nr_ranges) {
		/* The kernel narrows the default masks to the map and keeps its end as the limit. */
		mask &= DMA_BIT_MASK(64 - __builtin_clzll(end | 1));
		d->bus_dma_limit = end;
	}
	d->dma_mask = d->coherent_dma_mask = mask;
	/*
	 * What a driver would set with dma_set_mask*(): vendor properties, so a
	 * board file can say what its devices' drivers ask for.
	 */
	if ((ret = u64_prop(ps, node, "dmamap,dma-mask-bits", 0, &bits)))
		return ret;
	if (bits)
		d->dma_mask = d->coherent_dma_mask = DMA_BIT_MASK(bits);
	if ((ret = u64_prop(ps, node, "dmamap,coherent-mask-bits", 0, &bits)))
		return ret;
	if (bits)
		d->coherent_dma_mask = DMA_BIT_MASK(bits);
	/* An IXP4xx/SA-1111-style bus that needs dmabounce above an address. */
	if ((ret = u64_prop(ps, node, "dmamap,dmabounce-above", 0, &bits)))
		return ret;
	d->dmabounce_above = bits;
	d->dmabounce_small = 512;
	d->dmabounce_large = 4096;
	d->coherent = coherent_of(ps, node, coherent_default);
	ret = iommu_of(ps, node, ps->iommus[i], &d->iommu_stream);
	if (ret)
		return ret;
	d->iommu = ps->iommus[i][0] ? ps->iommus[i] : NULL;
	ret = memory_region_of(ps, node, d);
	if (ret)
		return ret;
	ps->board.nr_devices++;
	return 0;
}

static int memory_of(struct parse *ps, int node)
{
	int na = addr_cells(ps, 0), ns = size_cells(ps, 0), len;
	const fdt32_t *reg = fdt_getprop(ps->fdt, node, "reg", &len);

	if (!reg)
		return fail(ps, node, "reg", "missing");
	if (na < 1 || na > 2 || ns < 1 || ns > 2 || len % ((na + ns) * 4))
		return fail(ps, node, "reg", "%d bytes do not fit %d+%d cells", len, na, ns);
	for (int off = 0; off < len; off += (na + ns) * 4) {
		struct dmamap_ram_bank *b;

		if (ps->board.nr_banks == DMAMAP_MAX_BANKS)
			return fail(ps, node, "reg", "more than %d RAM banks", DMAMAP_MAX_BANKS);
		b = &ps->board.banks[ps->board.nr_banks++];
		b->start = number(reg + off / 4, na);
		b->size = number(reg + off / 4 + na, ns);
	}
	return 0;
}

static int board_props(struct parse *ps)
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
		return fail(ps, 0, "dmamap,cache-arch", "unknown architecture '%s'", s);
	s = fdt_getprop(ps->fdt, 0, "dmamap,memory-model", NULL);
	if (s && !strcmp(s, "tso"))
		ps->board.memory_model = DMAMAP_MEMORY_TSO;
	else if (s && strcmp(s, "weak"))
		return fail(ps, 0, "dmamap,memory-model", "unknown memory model '%s' (weak or tso)", s);
	/* The d-cache line: the cpus say it; a board property may override. */
	ps->board.cache_line_size = 64;
	cpus = fdt_path_offset(ps->fdt, "/cpus");
	if (cpus >= 0) {
		fdt_for_each_subnode(node, ps->fdt, cpus) {
			if ((ret = u64_prop(ps, node, "d-cache-line-size", 0, &v)))
				return ret;
			if (v) {
				ps->board.cache_line_size = (unsigned int)v;
				break;
			}
		}
	}
	if ((ret = u64_prop(ps, 0, "dmamap,cache-line-size", ps->board.cache_line_size, &v)))
		return ret;
	ps->board.cache_line_size = (unsigned int)v;
	if ((ret = u64_prop(ps, 0, "dmamap,zone-dma-limit", 0, &v)))
		return ret;
	ps->board.zone_dma_limit = v;
	if ((ret = u64_prop(ps, 0, "dmamap,highmem-start", 0, &v)))
		return ret;
	ps->board.highmem_start = v;
	if ((ret = u64_prop(ps, 0, "dmamap,swiotlb-size", 0, &v)))
		return ret;
	ps->board.swiotlb_size = v;
	if ((ret = u64_prop(ps, 0, "dmamap,cma-size", 0, &v)))
		return ret;
	ps->board.cma_size = v;
	return 0;
}

/* Whether [@start, +@size) is a non-empty range that does not wrap: every sum below may trust it. */
static bool range_ok(u64 start, u64 size)
{
	return size && start + (size - 1) >= start;
}

/* Whether two ranges (each range_ok()) share a byte, compared by their last bytes. */
static bool overlap(u64 a, u64 asize, u64 b, u64 bsize)
{
	return a <= b + (bsize - 1) && b <= a + (asize - 1);
}

static bool overlaps_region(struct parse *ps, phys_addr_t s, u64 size)
{
	for (unsigned int r = 0; r < ps->board.nr_reserved; r++)
		if (overlap(s, size, ps->board.reserved[r].start, ps->board.reserved[r].size))
			return true;
	return ps->board.cma_size && overlap(s, size, ps->board.cma_start, ps->board.cma_size);
}

/*
 * A dynamic region (size, alignment, alloc-ranges): the highest aligned
 * place in its range that no static region took, as the kernel places them
 * after all static ones.
 */
static int place_dynamic(struct parse *ps, int node, u64 size, phys_addr_t *out)
{
	int na = addr_cells(ps, 0), ns = size_cells(ps, 0), len, ret;
	const fdt32_t *ar = fdt_getprop(ps->fdt, node, "alloc-ranges", &len);
	phys_addr_t lo, last;
	u64 align, span;

	if ((ret = u64_prop(ps, node, "alignment", PAGE_SIZE, &align)))
		return ret;
	align = MAX(align, (u64)PAGE_SIZE);
	if (align & (align - 1))
		return fail(ps, node, "alignment", "0x%llx is not a power of two",
			    (unsigned long long)align);
	if (ar) {
		if (len < (na + ns) * 4)
			return fail(ps, node, "alloc-ranges", "truncated");
		lo = number(ar, na);
		span = number(ar + na, ns);
		if (!range_ok(lo, span))
			return fail(ps, node, "alloc-ranges", "empty, or wraps the address space");
	} else {
		lo = ps->board.banks[0].start;
		span = ps->board.banks[0].size;
	}
	/* The last byte the region may end at; every candidate start is <= it - (size - 1). */
	last = lo + (span - 1);
	if (size > span)
		return fail(ps, node, "size", "0x%llx bytes do not fit alloc-ranges",
			    (unsigned long long)size);
	for (phys_addr_t at = (last - (size - 1)) & ~(align - 1); at >= lo; at -= align) {
		if (!overlaps_region(ps, at, size)) {
			*out = at;
			return 0;
		}
		if (at < align)
			break;
	}
	return fail(ps, node, "size", "no room for 0x%llx bytes", (unsigned long long)size);
}

static bool compatible_is(struct parse *ps, int node, const char *c)
{
	return !fdt_node_check_compatible(ps->fdt, node, c);
}

/*
 * /reserved-memory: static (reg) regions first, then dynamic (size) ones.
 * shared-dma-pool + reusable is CMA; shared-dma-pool alone, a device's own
 * coherent pool; restricted-dma-pool, a pool its devices always bounce
 * through. Used only when its cells match the root's and it has ranges.
 */
static int reserved_memory(struct parse *ps)
{
	int rm = fdt_path_offset(ps->fdt, "/reserved-memory"), node;

	if (rm < 0)
		return 0;
	if (cells_of(ps, rm, "#address-cells", 1) != addr_cells(ps, 0) ||
	    cells_of(ps, rm, "#size-cells", 1) != size_cells(ps, 0) ||
	    !fdt_getprop(ps->fdt, rm, "ranges", NULL)) {
		dmamap__log_line(NULL, DMAMAP_LOG_WARN,
			    "dmamap: /reserved-memory ignored: its cells differ from the root's or it has no ranges");
		return 0;
	}
	for (int pass = 0; pass < 2; pass++) {
		fdt_for_each_subnode(node, ps->fdt, rm) {
			int na = addr_cells(ps, 0), ns = size_cells(ps, 0), len, ret;
			const fdt32_t *reg = fdt_getprop(ps->fdt, node, "reg", &len);
			bool reusable = fdt_getprop(ps->fdt, node, "reusable", NULL) != NULL;
			bool nomap = fdt_getprop(ps->fdt, node, "no-map", NULL) != NULL;
			phys_addr_t start = 0;
			u64 size = 0;

			if (!enabled(ps, node) || (pass == 0) != (reg != NULL))
				continue;
			if (reg) {
				if (len < (na + ns) * 4)
					return fail(ps, node, "reg", "truncated");
				start = number(reg, na);
				size = number(reg + na, ns);
			} else {
				if ((ret = u64_prop(ps, node, "size", 0, &size)))
					return ret;
				if (!size)
					return fail(ps, node, "size", "missing: neither reg nor size");
				if ((ret = place_dynamic(ps, node, size, &start)))
					return ret;
			}
			if ((start | size) & (PAGE_SIZE - 1))
				return fail(ps, node, reg ? "reg" : "size", "not page aligned");
			if (!range_ok(start, size))
				return fail(ps, node, reg ? "reg" : "size",
					    "empty, or wraps the address space");
			if (compatible_is(ps, node, "shared-dma-pool") && reusable) {
				if (nomap)
					return fail(ps, node, "no-map",
						    "a reusable (CMA) pool cannot be no-map");
				if (!ps->board.cma_size ||
				    fdt_getprop(ps->fdt, node, "linux,cma-default", NULL)) {
					ps->board.cma_start = start;
					ps->board.cma_size = size;
				}
				continue;
			}
			/* 32-bit ARM cannot remap lowmem uncached: its pools must be no-map. */
			if (compatible_is(ps, node, "shared-dma-pool") && !nomap &&
			    ps->board.arch == DMAMAP_CACHE_ARMV5)
				return fail(ps, node, "no-map",
					    "missing: a 32-bit ARM device pool must be no-map");
			if (ps->board.nr_reserved == DMAMAP_MAX_RESERVED)
				return fail(ps, node, NULL, "more than %d reserved regions",
					    DMAMAP_MAX_RESERVED);
			ps->regions[ps->board.nr_reserved] = (struct region){
				node,
				compatible_is(ps, node, "shared-dma-pool") ? REGION_POOL :
				compatible_is(ps, node, "restricted-dma-pool") ? REGION_RESTRICTED :
										  REGION_OTHER,
			};
			ps->board.reserved[ps->board.nr_reserved++] =
				(struct dmamap_ram_bank){ start, size };
		}
	}
	return 0;
}

/* A disabled node disables its whole subtree. */
static bool enabled_with_ancestors(struct parse *ps, int node)
{
	for (; node > 0; node = fdt_parent_offset(ps->fdt, node))
		if (!enabled(ps, node))
			return false;
	return true;
}

static bool is_memory(struct parse *ps, int node)
{
	const char *t = fdt_getprop(ps->fdt, node, "device_type", NULL);

	return t && !strcmp(t, "memory");
}

/* cpus, memory and reserved-memory regions have a reg but are no devices. */
static bool not_a_device(struct parse *ps, int node)
{
	int parent = fdt_parent_offset(ps->fdt, node);
	const char *pname = parent > 0 ? fdt_get_name(ps->fdt, parent, NULL) : "";
	const char *t = fdt_getprop(ps->fdt, node, "device_type", NULL);

	return is_memory(ps, node) || (t && !strcmp(t, "cpu")) ||
	       !strcmp(pname, "cpus") || !strcmp(pname, "reserved-memory");
}

struct dmamap_platform *dmamap_platform_from_fdt(const void *blob, size_t size,
						 struct dmamap_error *err)
{
	return dmamap_platform_from_fdt_opts(blob, size, NULL, err);
}

struct dmamap_platform *dmamap_platform_from_fdt_opts(const void *blob, size_t size,
						      const struct dmamap_of_options *opts,
						      struct dmamap_error *err)
{
	struct parse *ps;
	struct dmamap_platform *p = NULL;
	bool coherent_default, ram_given = opts && opts->ram;
	int node, depth = 0, ret;

	if (ram_given && (!opts->nr_ram || opts->nr_ram > DMAMAP_MAX_BANKS)) {
		dmamap__set_error(err, -EINVAL, "RAM override: %u banks (need 1..%d)",
				  opts->nr_ram, DMAMAP_MAX_BANKS);
		return NULL;
	}
	if (!blob || size < FDT_V1_SIZE) {
		dmamap__set_error(err, -EINVAL, "device tree: no blob, or shorter than a header");
		return NULL;
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
		return NULL;
	}
	if (fdt_version(blob) < 16) {
		dmamap__set_error(err, -EINVAL, "device tree: format version %u (16 or later needed)",
				  (unsigned int)fdt_version(blob));
		return NULL;
	}
	ps = calloc(1, sizeof(*ps));
	if (!ps) {
		dmamap__set_error(err, -ENOMEM, "out of memory");
		return NULL;
	}
	ps->fdt = blob;
	ps->err = err;
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
		if (enabled(ps, node) && fdt_parent_offset(blob, node) == 0 &&
		    is_memory(ps, node))
			ret = memory_of(ps, node);
	if (!ret && ps->board.nr_banks)
		ret = reserved_memory(ps);
	/*
	 * Nodes a device model claims become live devices; every other enabled
	 * node with a reg is configured too (no model), so info reports it.
	 * Live ones first: they keep their short names and are never crowded
	 * out by a real SoC's hundreds of register blocks.
	 */
	for (int live = 1; live >= 0; live--) {
		for (node = fdt_next_node(blob, -1, &depth); !ret && node >= 0;
		     node = fdt_next_node(blob, node, &depth)) {
			const char *model = model_of(blob, node);

			if ((model != NULL) != live || !enabled_with_ancestors(ps, node))
				continue;
			if (model || (fdt_getprop(blob, node, "reg", NULL) && !not_a_device(ps, node)))
				ret = device_of(ps, node, coherent_default, model);
		}
	}
	if (!ret && !ps->board.nr_banks)
		ret = fail(ps, 0, NULL, "no memory node with device_type = \"memory\"");
	if (!ret) {
		ps->board.devices = ps->devs;
		ps->board.fdt = blob;
		ps->board.fdt_size = fdt_totalsize(blob);
		p = dmamap_platform_create(&ps->board, err);
	}
	free(ps);
	return p;
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
	char dtb[] = "/tmp/dmamap-dtb-XXXXXX";
	const char *src = path;
	struct dmamap_platform *p = NULL;
	size_t len = path ? strlen(path) : 0, n;
	FILE *f;
	void *blob;

	if (!path) {
		dmamap__set_error(err, -EINVAL, "no file name");
		return NULL;
	}
	if (len > 4 && !strcmp(path + len - 4, ".dts")) {
		int fd = mkstemp(dtb);

		if (fd < 0) {
			dmamap__set_error(err, -EIO, "%s: cannot make a temporary file", path);
			return NULL;
		}
		close(fd);
		if (dmamap__dts_compile(path, dtb, err)) {
			unlink(dtb);
			return NULL;
		}
		src = dtb;
	}
	f = fopen(src, "rb");
	if (!f) {
		dmamap__set_error(err, -ENOENT, "%s: cannot open", src);
		goto out;
	}
	blob = malloc(1 << 20);
	n = blob ? fread(blob, 1, 1 << 20, f) : 0;
	fclose(f);
	if (!blob)
		dmamap__set_error(err, -ENOMEM, "out of memory");
	else
		p = dmamap_platform_from_fdt_opts(blob, n, opts, err);
	free(blob);
out:
	if (src == dtb)
		unlink(dtb);
	return p;
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
