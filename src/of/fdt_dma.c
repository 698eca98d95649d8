/* SPDX-License-Identifier: MIT */
/*
 * A device's DMA configuration as Linux's of_dma_configure_id() computes
 * it. A platform device is configured from its own node, whose DMA parent
 * bus starts the dma-ranges walk; a PCI function from its host
 * controller's node (pci_dma_configure()), whose own dma-ranges start the
 * walk and whose iommu-map gives the function its IOMMU. The walk: empty
 * dma-ranges mean keep walking, and after the first node each must have
 * the property; an entry's parent address is translated up through the
 * ancestors' dma-ranges. The masks and bus limit follow from the map;
 * coherency from the nearest dma-coherent or dma-noncoherent; the IOMMU
 * and every id from iommus (or iommu-map), and a restricted pool only
 * where there is no IOMMU.
 */
#include <stdio.h>
#include <string.h>
#include "../lib/lib.h"
#include "fdt_parse.h"

/* of_phandle_args' room: more cells than this is a broken tree. */
#define MAX_PHANDLE_ARGS 16
/*
 * How far a walk up DMA parents may go: a tree is not this deep, and an
 * interconnect naming itself (or a child) would otherwise loop forever.
 */
#define MAX_DMA_HOPS 64

/*
 * __of_get_dma_parent(): the interconnect a node names "dma-mem" is where
 * its DMA goes (Tegra's memory controller); otherwise its parent.
 */
static int dma_parent(struct fdt_parse *ps, int node)
{
	int idx = fdt_stringlist_search(ps->fdt, node, "interconnect-names", "dma-mem");
	int len, cells, target;
	const fdt32_t *ic = fdt_getprop(ps->fdt, node, "interconnects", &len);

	if (idx < 0 || !ic)
		return dmamap__fdt_parent(ps, node);
	/* Walk the phandle-with-args list to entry @idx. */
	for (int off = 0, i = 0; off + 4 <= len; i++) {
		const fdt32_t *c;
		int clen;

		target = fdt_node_offset_by_phandle(ps->fdt, fdt32_to_cpu(ic[off / 4]));
		c = target >= 0 ? fdt_getprop(ps->fdt, target, "#interconnect-cells", &clen) : NULL;
		if (!c || clen != 4 || fdt32_to_cpu(*c) > MAX_PHANDLE_ARGS)
			break;
		cells = (int)fdt32_to_cpu(*c);
		if (i == idx)
			return target;
		off += 4 * (1 + cells);
	}
	return dmamap__fdt_parent(ps, node);
}

/* @node's full path, for the explanation. */
static const char *path_of(struct fdt_parse *ps, int node, char *buf, int len)
{
	if (node == 0)
		return "/";
	if (node < 0 || fdt_get_path(ps->fdt, node, buf, len))
		snprintf(buf, (size_t)len, "(node at offset %d)", node);
	return buf;
}

/* How a node's dma-ranges entries are laid out: <child parent size>. */
struct ranges_cells {
	int na, pna, ns, stride; /* stride in bytes */
};

static bool ranges_cells_of(struct fdt_parse *ps, int node, struct ranges_cells *c)
{
	c->na = dmamap__fdt_cells(ps, node, "#address-cells", 1);
	c->pna = dmamap__fdt_cells(ps, dmamap__fdt_parent(ps, node), "#address-cells", 1);
	c->ns = dmamap__fdt_cells(ps, node, "#size-cells", 1);
	c->stride = (c->na + c->pna + c->ns) * 4;
	return c->na >= 0 && c->pna >= 0 && c->ns >= 0;
}

static void ranges_entry(const fdt32_t *r, int off, const struct ranges_cells *c,
			 u64 *child, u64 *parent, u64 *size)
{
	const fdt32_t *e = r + off / 4;

	*child = dmamap__fdt_number(e, c->na);
	*parent = dmamap__fdt_number(e + c->na, c->pna);
	*size = dmamap__fdt_number(e + c->na + c->pna, c->ns);
}

/*
 * Translate @addr, an address on @bus's DMA parent, to a CPU address
 * through every further ancestor's dma-ranges. False when a non-empty
 * dma-ranges does not cover it.
 */
static bool translate_up(struct fdt_parse *ps, int bus, u64 *addr)
{
	int hops = 0;

	for (int n = dma_parent(ps, bus); n > 0; n = dma_parent(ps, n)) {
		if (++hops > MAX_DMA_HOPS)
			return false; /* DMA parents in a loop reach no CPU */
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

/* of_dma_get_range() from @start: fills d->ranges (none: identity). */
static int dma_ranges(struct fdt_parse *ps, int dev_node, int start, struct dmamap_device_desc *d)
{
	const fdt32_t *r = NULL;
	struct ranges_cells c;
	bool later = false;
	int len = 0, node, hops = 0;
	char path[DMAMAP_PATH_MAX];

	for (node = start; node >= 0; node = dma_parent(ps, node)) {
		if (++hops > MAX_DMA_HOPS)
			return dmamap__fdt_fail(ps, dev_node, "interconnects",
						"its DMA parents (interconnects named dma-mem) form a loop");
		r = fdt_getprop(ps->fdt, node, "dma-ranges", &len);
		if (r && len > 0)
			break;
		if (later && !r) {
			dmamap__fdt_say(ps, "of_dma_get_range(): %s has no dma-ranges, above a node that walked on: no translation (identity, no bus limit)",
					path_of(ps, node, path, sizeof(path)));
			return 0; /* a bus without dma-ranges above one with: no map */
		}
		dmamap__fdt_say(ps, "of_dma_get_range(): %s %s: keep walking up", path_of(ps, node, path, sizeof(path)),
				r ? "has an empty dma-ranges (1:1)" : "has no dma-ranges, allowed on the first node");
		later = true;
		r = NULL;
	}
	if (!r) {
		dmamap__fdt_say(ps, "of_dma_get_range(): reached the root: no translation (identity, no bus limit)");
		return 0; /* reached the root: identity */
	}
	if (!ranges_cells_of(ps, node, &c) || !c.ns)
		return dmamap__fdt_fail(ps, node, "dma-ranges", "bad #address-cells/#size-cells");
	if (len % c.stride)
		return dmamap__fdt_fail(ps, node, "dma-ranges",
					"length %d is not a multiple of %d cells per entry", len,
					c.stride / 4);
	dmamap__fdt_say(ps, "of_dma_get_range(): the map comes from %s: %d entr%s of <bus %d cells, parent %d cells, size %d cells>",
			path_of(ps, node, path, sizeof(path)), len / c.stride,
			len / c.stride == 1 ? "y" : "ies", c.na, c.pna, c.ns);
	for (int off = 0; off < len; off += c.stride) {
		struct dmamap_dma_range *last = d->nr_ranges ? &d->ranges[d->nr_ranges - 1] : NULL;
		u64 dma, cpu, parent, size;

		ranges_entry(r, off, &c, &dma, &parent, &size);
		cpu = parent;
		if (!size) {
			dmamap__fdt_say(ps, "  entry %d: size 0, skipped", off / c.stride + 1);
			continue;
		}
		if (!translate_up(ps, node, &cpu)) {
			dmamap__fdt_warn(ps, dev_node,
					 "dma-ranges entry at 0x%llx not reachable from the CPU, dropped",
					 (unsigned long long)dma);
			dmamap__fdt_say(ps, "  entry %d: bus 0x%llx, parent 0x%llx: no ancestor's dma-ranges reaches it from the CPU, dropped (of_translate_dma_address)",
					off / c.stride + 1, (unsigned long long)dma,
					(unsigned long long)parent);
			continue;
		}
		dmamap__fdt_say(ps, "  entry %d: bus 0x%llx = CPU 0x%llx%s, size 0x%llx", off / c.stride + 1,
				(unsigned long long)dma, (unsigned long long)cpu,
				cpu != parent ? " (translated up through the ancestors' dma-ranges)" : "",
				(unsigned long long)size);
		/* Entries contiguous in both spaces are one region. */
		if (last && last->cpu_start + last->size == cpu &&
		    last->dma_start + last->size == dma) {
			last->size += size;
			dmamap__fdt_say(ps, "  entry %d continues the previous window in both spaces: merged",
					off / c.stride + 1);
			continue;
		}
		if (d->nr_ranges == DMAMAP_MAX_RANGES)
			return dmamap__fdt_fail(ps, node, "dma-ranges", "more than %d regions",
						DMAMAP_MAX_RANGES);
		d->ranges[d->nr_ranges].cpu_start = cpu;
		d->ranges[d->nr_ranges].dma_start = dma;
		d->ranges[d->nr_ranges].size = size;
		d->nr_ranges++;
	}
	return 0;
}

/* of_dma_is_coherent(): the nearest of the node and its DMA parents that says (-1: none did). */
static bool coherent_of(struct fdt_parse *ps, int node, bool board_default, int *decided)
{
	int hops = 0;

	for (*decided = -1; node >= 0 && ++hops <= MAX_DMA_HOPS; node = dma_parent(ps, node)) {
		*decided = node;
		if (fdt_getprop(ps->fdt, node, "dma-coherent", NULL))
			return true;
		if (fdt_getprop(ps->fdt, node, "dma-noncoherent", NULL))
			return false;
	}
	*decided = -1;
	return board_default;
}

static bool is_pci(struct fdt_parse *ps, int node)
{
	const char *t = node >= 0 ? fdt_getprop(ps->fdt, node, "device_type", NULL) : NULL;

	return t && !strcmp(t, "pci");
}

/* The host controller above a PCI function's node (through any bridges), or -1. */
static int pci_host_of(struct fdt_parse *ps, int node)
{
	int host = -1;

	for (int n = dmamap__fdt_parent(ps, node); n > 0 && is_pci(ps, n);
	     n = dmamap__fdt_parent(ps, n))
		host = n;
	return host;
}

/* Record one IOMMU id; all of them must be on the same IOMMU (iommu_fwspec_init()). */
static int add_iommu_id(struct fdt_parse *ps, int node, int target, int *first,
			struct dmamap_device_desc *d, uint32_t id, bool has_id)
{
	if (*first >= 0 && target != *first) {
		dmamap__fdt_warn(ps, node, "iommus name two IOMMUs: configured without one");
		return -1;
	}
	*first = target;
	if (!has_id)
		return 0;
	if (d->nr_iommu_ids == DMAMAP_MAX_IOMMU_IDS) {
		dmamap__fdt_warn(ps, node, "more than %d IOMMU ids: the rest are not recorded",
				 DMAMAP_MAX_IOMMU_IDS);
		return 0;
	}
	d->iommu_ids[d->nr_iommu_ids++] = id;
	return 0;
}

/*
 * of_map_id() on the host's iommu-map: the function's requester id
 * (bus/device/function from its reg), masked by iommu-map-mask, falls in
 * an entry <rid-base iommu iommu-base length>. 1: no IOMMU.
 */
static int pci_iommu_of(struct fdt_parse *ps, int node, int host, int *iommu,
			struct dmamap_device_desc *d)
{
	int len, mlen, rlen;
	const fdt32_t *map = fdt_getprop(ps->fdt, host, "iommu-map", &len);
	const fdt32_t *mask = fdt_getprop(ps->fdt, host, "iommu-map-mask", &mlen);
	const fdt32_t *reg = fdt_getprop(ps->fdt, node, "reg", &rlen);
	uint32_t rid;

	if (!map) {
		dmamap__fdt_say(ps, "the host has no iommu-map: no IOMMU");
		return 1;
	}
	if (!reg || rlen < 4)
		return dmamap__fdt_fail(ps, node, "reg",
					"a PCI device needs reg to find its requester id");
	rid = (fdt32_to_cpu(reg[0]) >> 8) & 0xffff;
	if (mask && mlen == 4)
		rid &= fdt32_to_cpu(*mask);
	if (len % 16)
		return dmamap__fdt_fail(ps, host, "iommu-map",
					"length %d is not a multiple of 4 cells", len);
	for (int off = 0; off < len / 4; off += 4) {
		uint32_t base = fdt32_to_cpu(map[off]), ph = fdt32_to_cpu(map[off + 1]);
		uint32_t out_base = fdt32_to_cpu(map[off + 2]), n = fdt32_to_cpu(map[off + 3]);
		int target;

		if (rid < base || rid - base >= n)
			continue;
		target = fdt_node_offset_by_phandle(ps->fdt, ph);
		if (target < 0)
			return dmamap__fdt_fail(ps, host, "iommu-map", "unknown phandle 0x%x", ph);
		if (!dmamap__fdt_enabled(ps, target)) {
			dmamap__fdt_say(ps, "of_map_id(): requester id 0x%x maps to %s, which is disabled: no IOMMU",
					rid, fdt_get_name(ps->fdt, target, NULL));
			return 1;
		}
		*iommu = target;
		d->iommu_ids[0] = out_base + (rid - base);
		d->nr_iommu_ids = 1;
		dmamap__fdt_say(ps, "of_map_id(): the host's iommu-map takes requester id 0x%x (after iommu-map-mask) to %s, stream 0x%x",
				rid, fdt_get_name(ps->fdt, target, NULL), d->iommu_ids[0]);
		return 0;
	}
	dmamap__fdt_say(ps, "of_map_id(): no iommu-map entry covers requester id 0x%x: no IOMMU", rid);
	return 1;
}

/*
 * of_iommu_configure_device() on iommus: every <phandle args...> entry,
 * each with its IOMMU's own #iommu-cells. An entry naming a disabled IOMMU,
 * one without #iommu-cells or a second IOMMU leaves the device without
 * one, as of_iommu_configure() gives up. 1: no IOMMU.
 */
static int iommus_of(struct fdt_parse *ps, int node, int *iommu, struct dmamap_device_desc *d)
{
	int len, first = -1;
	const fdt32_t *v = fdt_getprop(ps->fdt, node, "iommus", &len);

	if (!v) {
		dmamap__fdt_say(ps, "no iommus: no IOMMU");
		return 1;
	}
	for (int off = 0; off < len / 4;) {
		uint32_t ph = fdt32_to_cpu(v[off]);
		int target = fdt_node_offset_by_phandle(ps->fdt, ph), clen, cells;
		const fdt32_t *c;

		if (target < 0)
			return dmamap__fdt_fail(ps, node, "iommus", "unknown phandle 0x%x", ph);
		c = fdt_getprop(ps->fdt, target, "#iommu-cells", &clen);
		if (!c || clen != 4) {
			/* of_parse_phandle_with_args() fails: the entries before it stand. */
			dmamap__fdt_warn(ps, node, "iommus at cell %d: its IOMMU has no #iommu-cells: %s",
					 off, first >= 0 ? "the entries before it stand" : "configured without one");
			break;
		}
		cells = (int)fdt32_to_cpu(*c);
		if (cells < 0 || cells > MAX_PHANDLE_ARGS || off + 1 + cells > len / 4)
			return dmamap__fdt_fail(ps, node, "iommus",
						"fewer cells than the IOMMU's #iommu-cells (%d)", cells);
		if (!dmamap__fdt_enabled(ps, target)) {
			dmamap__fdt_say(ps, "of_iommu_xlate(): %s is disabled: no IOMMU",
					fdt_get_name(ps->fdt, target, NULL));
			return 1; /* a disabled IOMMU means none, not an error */
		}
		if (add_iommu_id(ps, node, target, &first, d, cells ? fdt32_to_cpu(v[off + 1]) : 0,
				 cells > 0))
			return 1;
		off += 1 + cells;
	}
	if (first < 0)
		return 1;
	*iommu = first;
	dmamap__fdt_say(ps, "of_iommu_configure(): iommus has %u id%s on %s, each through of_iommu_xlate()",
			d->nr_iommu_ids, d->nr_iommu_ids == 1 ? "" : "s",
			fdt_get_name(ps->fdt, first, NULL));
	return 0;
}

int dmamap__fdt_dma_configure(struct fdt_parse *ps, int node, bool coherent_default,
			      struct dmamap_device_desc *d, char *iommu_name)
{
	int host = pci_host_of(ps, node), np = host >= 0 ? host : node, iommu = -1, ret, decided;
	int start = np == node ? dma_parent(ps, node) : np;
	u64 end = 0, mask = DMA_BIT_MASK(32);
	char path[DMAMAP_PATH_MAX];

	ps->explaining = node == ps->explain_node;
	if (host >= 0)
		dmamap__fdt_say(ps, "pci_dma_configure(): configured from its host controller %s; the walk starts at the host itself",
				path_of(ps, host, path, sizeof(path)));
	else
		dmamap__fdt_say(ps, "of_dma_configure_id(): configured from its own node; the walk starts at its DMA parent %s%s",
				path_of(ps, start, path, sizeof(path)),
				start != dmamap__fdt_parent(ps, node) ?
					" (the interconnect it names dma-mem: __of_get_dma_parent)" : "");
	/* A node configured from itself starts at its DMA parent: it is no bus of its own. */
	ret = dma_ranges(ps, node, start, d);
	if (ret)
		goto out;
	for (unsigned int r = 0; r < d->nr_ranges; r++)
		end = MAX(end, d->ranges[r].dma_start + d->ranges[r].size - 1);
	if (d->nr_ranges) {
		/* The kernel narrows the default masks to the map and keeps its end as the limit. */
		mask &= DMA_BIT_MASK(64 - __builtin_clzll(end | 1));
		d->bus_dma_limit = end;
		dmamap__fdt_say(ps, "of_dma_configure_id(): bus_dma_limit 0x%llx, the highest bus address of the map; masks DMA_BIT_MASK(32) & DMA_BIT_MASK(ilog2(end) + 1) = 0x%llx",
				(unsigned long long)end, (unsigned long long)mask);
	}
	d->dma_mask = d->coherent_dma_mask = mask;
	d->coherent = coherent_of(ps, np, coherent_default, &decided);
	if (decided >= 0)
		dmamap__fdt_say(ps, "of_dma_is_coherent(): %s says %s", path_of(ps, decided, path, sizeof(path)),
				d->coherent ? "dma-coherent" : "dma-noncoherent");
	else
		dmamap__fdt_say(ps, "of_dma_is_coherent(): neither it nor a DMA parent says: the board's default, %s",
				d->coherent ? "coherent (dma-coherent at the root)" : "non-coherent");
	d->nr_iommu_ids = 0;
	ret = host >= 0 ? pci_iommu_of(ps, node, host, &iommu, d) : iommus_of(ps, node, &iommu, d);
	if (ret < 0)
		goto out;
	iommu_name[0] = '\0';
	if (ret == 0) {
		snprintf(iommu_name, DMAMAP_NAME_MAX, "%s", fdt_get_name(ps->fdt, iommu, NULL));
		d->iommu = iommu_name;
	} else {
		d->nr_iommu_ids = 0;
		d->iommu = NULL;
	}
	ret = dmamap__fdt_memory_regions(ps, node, np, d);
out:
	ps->explaining = false;
	return ret;
}

/*
 * of_dma_get_max_cpu_address(): the lowest last CPU byte any available
 * node's dma-ranges reach, over the whole tree (~0: none limits).
 */
static phys_addr_t max_cpu_address(struct fdt_parse *ps, int node, int depth)
{
	phys_addr_t max = ~(phys_addr_t)0;
	int len, child;
	const fdt32_t *r = fdt_getprop(ps->fdt, node, "dma-ranges", &len);
	struct ranges_cells c;

	if (r && len > 0 && ranges_cells_of(ps, node, &c) && c.stride) {
		phys_addr_t end = 0;

		for (int off = 0; off + c.stride <= len; off += c.stride) {
			u64 dma, cpu, size;

			ranges_entry(r, off, &c, &dma, &cpu, &size);
			if (size && translate_up(ps, node, &cpu) && cpu + (size - 1) >= cpu)
				end = MAX(end, cpu + (size - 1));
		}
		if (end)
			max = end;
	}
	if (depth > 64)
		return max;
	fdt_for_each_subnode(child, ps->fdt, node)
		if (dmamap__fdt_enabled(ps, child))
			max = MIN(max, max_cpu_address(ps, child, depth + 1));
	return max;
}

phys_addr_t dmamap__fdt_zone_dma_limit(struct fdt_parse *ps)
{
	phys_addr_t limit = max_cpu_address(ps, 0, 0), first = ~(phys_addr_t)0, last = 0;

	for (unsigned int i = 0; i < ps->board.nr_banks; i++) {
		first = MIN(first, ps->board.banks[i].start);
		last = MAX(last, ps->board.banks[i].start + (ps->board.banks[i].size - 1));
	}
	if (!ps->board.nr_banks)
		return 0;
	/* arm64 keeps ZONE_DMA in the low 4 GiB where RAM starts there. */
	if (first < 0xffffffffULL)
		limit = MIN(limit, (phys_addr_t)0xffffffffULL);
	return MIN(limit, last);
}
