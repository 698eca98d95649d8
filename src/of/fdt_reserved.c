/* SPDX-License-Identifier: MIT */
/*
 * /memreserve/ and /reserved-memory as Linux's of_reserved_mem.c reads
 * them: every static region (reg) is reserved first; then the dynamic ones
 * (size) are placed by a model of memblock — in RAM only, never over an
 * earlier reservation, each alloc-range in turn (else anywhere), top-down
 * unless the range starts next to a dynamic region placed before and does
 * not end next to one (Linux 6.12) — and last each region's compatible decides what it becomes
 * (rmem_dma_setup, rmem_cma_setup, rmem_swiotlb_setup). A region its setup
 * refuses is given back to the page allocator with a warning, as the
 * kernel boots on without it. What is malformed (lengths that are not
 * whole entries, sums that wrap) refuses the board instead.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "../lib/lib.h"
#include "fdt_parse.h"

/* cma_init_reserved_mem()'s alignment: a pageblock (arm64, 4 KiB pages, huge pages). */
#define CMA_MIN_ALIGNMENT (2ULL << 20)
/* memblock's alignment when a region asks for none (arm64's SMP_CACHE_BYTES). */
#define MEMBLOCK_MIN_ALIGN 64ULL

/* memblock as far as placement needs it: RAM, and what is taken from it. */
struct memblock {
	unsigned int n;
	struct dmamap_ram_bank taken[2 * DMAMAP_MAX_RESERVED];
	bool nomap[2 * DMAMAP_MAX_RESERVED]; /* marked no-map rather than reserved */
	bool overflowed;
};

static bool range_ok(u64 start, u64 size)
{
	return size && start + (size - 1) >= start;
}

static bool overlap(u64 a, u64 asize, u64 b, u64 bsize)
{
	return a <= b + (bsize - 1) && b <= a + (asize - 1);
}

static void take(struct memblock *mb, phys_addr_t start, u64 size, bool nomap)
{
	if (mb->n == ARRAY_SIZE(mb->taken)) {
		mb->overflowed = true;
		return;
	}
	mb->nomap[mb->n] = nomap;
	mb->taken[mb->n++] = (struct dmamap_ram_bank){ start, size };
}

/* Whether allocation must keep out of [@start, +@size): reserved or no-map. */
static bool is_taken(const struct memblock *mb, phys_addr_t start, u64 size)
{
	for (unsigned int i = 0; i < mb->n; i++)
		if (overlap(start, size, mb->taken[i].start, mb->taken[i].size))
			return true;
	return false;
}

/* memblock_is_region_reserved(): reserved, not merely no-map. */
static bool is_reserved(const struct memblock *mb, phys_addr_t start, u64 size)
{
	for (unsigned int i = 0; i < mb->n; i++)
		if (!mb->nomap[i] && overlap(start, size, mb->taken[i].start, mb->taken[i].size))
			return true;
	return false;
}

static bool is_ram(struct fdt_parse *ps, phys_addr_t start, u64 size)
{
	for (unsigned int i = 0; i < ps->board.nr_banks; i++)
		if (overlap(start, size, ps->board.banks[i].start, ps->board.banks[i].size))
			return true;
	return false;
}

/* Whether [@at, +@size) fits inside [@s, @last] and nothing took any of it. */
static bool fits(const struct memblock *mb, phys_addr_t at, u64 size, phys_addr_t s, phys_addr_t last)
{
	return at >= s && at <= last && last - at >= size - 1 && !is_taken(mb, at, size);
}

/*
 * The highest (or lowest) @align-aligned place for @size bytes of RAM
 * inside [@lo, @hi] (last byte) that nothing took, as
 * memblock_find_in_range_node() finds it: the first free range from the
 * top (or the bottom) that holds it. A free range ends at a bank's end or
 * where a reservation begins (starts at a bank's start or after one), so
 * those are the only places the answer can sit against.
 */
static bool memblock_find(struct fdt_parse *ps, const struct memblock *mb, u64 size, u64 align,
			  phys_addr_t lo, phys_addr_t hi, bool bottom_up, phys_addr_t *out)
{
	bool found = false;

	lo = MAX(lo, (phys_addr_t)PAGE_SIZE); /* memblock never hands out page 0 */
	for (unsigned int b = 0; b < ps->board.nr_banks; b++) {
		const struct dmamap_ram_bank *bank = &ps->board.banks[b];
		phys_addr_t s = MAX(bank->start, lo), last = MIN(bank->start + (bank->size - 1), hi);

		if (s > last || last - s < size - 1)
			continue;
		for (unsigned int i = 0; i <= mb->n; i++) {
			const struct dmamap_ram_bank *t = i < mb->n ? &mb->taken[i] : NULL;
			phys_addr_t edge, at;

			if (bottom_up) {
				edge = t ? t->start + t->size : s; /* just after a reservation */
				if (t && (edge < s || edge > last))
					continue;
				at = (edge + (align - 1)) & ~(align - 1);
				if (at < edge)
					continue;
			} else {
				edge = t ? t->start - 1 : last; /* just below a reservation */
				if (t && (t->start == 0 || edge < s || edge > last))
					continue;
				if (edge - s < size - 1)
					continue;
				at = (edge - (size - 1)) & ~(align - 1);
			}
			if (!fits(mb, at, size, s, last))
				continue;
			if (!found || (bottom_up ? at < *out : at > *out))
				*out = at;
			found = true;
		}
	}
	return found;
}

/*
 * __reserved_mem_alloc_in_range(): the direction that keeps reservations
 * together; *@why says which and next to what.
 */
static bool alloc_in_range(struct fdt_parse *ps, const struct memblock *mb, u64 size, u64 align,
			   phys_addr_t start, phys_addr_t end, phys_addr_t *out, char *why,
			   size_t why_len)
{
	bool bottom_up = false, top_down = false;
	int next_to = -1;

	for (unsigned int i = 0; i < ps->nr_regions; i++) {
		const struct fdt_region *r = &ps->regions[i];

		/*
		 * Only the dynamic regions placed before: since Linux 6.12 the
		 * static ones enter reserved_mem[] after every dynamic one is placed.
		 */
		if (r->node < 0 || !r->size || !r->dynamic)
			continue;
		if (start >= r->start && start - r->start <= r->size) {
			bottom_up = true;
			next_to = r->node;
		}
		if (end >= r->start && end - r->start <= r->size) {
			top_down = true;
			next_to = r->node;
		}
	}
	if (bottom_up != top_down)
		snprintf(why, why_len, "%s against %s", bottom_up ? "bottom-up" : "top-down",
			 fdt_get_name(ps->fdt, next_to, NULL));
	else
		snprintf(why, why_len, "top-down");
	return memblock_find(ps, mb, size, align, start, end - 1,
			     bottom_up != top_down && bottom_up, out);
}

static struct fdt_region *add_region(struct fdt_parse *ps, int node, phys_addr_t start, u64 size,
				     bool dynamic, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static struct fdt_region *add_region(struct fdt_parse *ps, int node, phys_addr_t start, u64 size,
				     bool dynamic, const char *fmt, ...)
{
	struct fdt_region *r;
	va_list ap;

	if (ps->nr_regions == DMAMAP_MAX_RESERVED) {
		dmamap__fdt_warn(ps, node, "more than %d reserved regions: not used",
				 DMAMAP_MAX_RESERVED);
		return NULL;
	}
	r = &ps->regions[ps->nr_regions++];
	*r = (struct fdt_region){ node, REGION_OTHER, start, size, dynamic, "" };
	va_start(ap, fmt);
	vsnprintf(r->how, sizeof(r->how), fmt, ap);
	va_end(ap);
	return r;
}

/* __reserved_mem_reserve_reg(): every pair of reg; the first one is the region. */
static int reserve_static(struct fdt_parse *ps, struct memblock *mb, int node, int na, int ns)
{
	int len, stride = (na + ns) * 4;
	const fdt32_t *reg = fdt_getprop(ps->fdt, node, "reg", &len);
	bool nomap = fdt_getprop(ps->fdt, node, "no-map", NULL) != NULL, first = true;

	if (len % stride)
		return dmamap__fdt_fail(ps, node, "reg", "%d bytes are not whole <%d %d> entries",
					len, na, ns);
	for (int off = 0; off + stride <= len; off += stride) {
		phys_addr_t base = dmamap__fdt_number(reg + off / 4, na);
		u64 size = dmamap__fdt_number(reg + off / 4 + na, ns);

		if (!size)
			continue;
		if (!range_ok(base, size))
			return dmamap__fdt_fail(ps, node, "reg", "wraps the address space");
		/* memblock_mark_nomap() refuses memory someone already reserved. */
		if (nomap && is_ram(ps, base, size) && is_reserved(mb, base, size)) {
			dmamap__fdt_warn(ps, node,
					 "0x%llx+0x%llx is already reserved: cannot be no-map, not reserved",
					 (unsigned long long)base, (unsigned long long)size);
			continue;
		}
		take(mb, base, size, nomap);
		if (first)
			add_region(ps, node, base, size, false, "reg%s", nomap ? ", no-map" : "");
		first = false;
	}
	return 0;
}

/* A property of exactly @cells cells, as of_reserved_mem.c insists. */
static int exact_prop(struct fdt_parse *ps, int node, const char *name, int cells, u64 *out)
{
	int len;
	const fdt32_t *v = fdt_getprop(ps->fdt, node, name, &len);

	if (!v)
		return 1;
	if (len != cells * 4)
		return dmamap__fdt_fail(ps, node, name, "%d bytes, not the root's %d cells", len,
					cells);
	*out = dmamap__fdt_number(v, cells);
	return 0;
}

/* __reserved_mem_alloc_size(): size, alignment and alloc-ranges. */
static int reserve_dynamic(struct fdt_parse *ps, struct memblock *mb, int node, int na, int ns)
{
	int len, ret, stride = (na + ns) * 4;
	const fdt32_t *ar;
	bool nomap = fdt_getprop(ps->fdt, node, "no-map", NULL) != NULL, placed = false;
	u64 size = 0, align = 0;
	phys_addr_t at = 0;
	struct fdt_region *r;
	char how[160] = "";

	if ((ret = exact_prop(ps, node, "size", ns, &size)) < 0)
		return ret;
	if (!size)
		return dmamap__fdt_fail(ps, node, "size", "zero");
	if ((ret = exact_prop(ps, node, "alignment", na, &align)) < 0)
		return ret;
	if (align & (align - 1))
		return dmamap__fdt_fail(ps, node, "alignment", "0x%llx is not a power of two",
					(unsigned long long)align);
	if (!align)
		align = MEMBLOCK_MIN_ALIGN;
	if (dmamap__fdt_compatible(ps, node, "shared-dma-pool") &&
	    fdt_getprop(ps->fdt, node, "reusable", NULL) && !nomap)
		align = MAX(align, CMA_MIN_ALIGNMENT);
	ar = fdt_getprop(ps->fdt, node, "alloc-ranges", &len);
	if (ar) {
		if (len % stride)
			return dmamap__fdt_fail(ps, node, "alloc-ranges",
						"%d bytes are not whole <%d %d> entries", len, na, ns);
		for (int off = 0, k = 1; off + stride <= len && !placed; off += stride, k++) {
			phys_addr_t start = dmamap__fdt_number(ar + off / 4, na);
			u64 span = dmamap__fdt_number(ar + off / 4 + na, ns);
			char dir[80];

			if (!range_ok(start, span) || start + (span - 1) == ~0ULL)
				return dmamap__fdt_fail(ps, node, "alloc-ranges",
							"empty, or wraps the address space");
			placed = alloc_in_range(ps, mb, size, align, start, start + span, &at, dir,
						sizeof(dir));
			if (placed)
				snprintf(how, sizeof(how), "size, alloc-ranges entry %d of %d, %s, aligned to 0x%llx",
					 k, len / stride, dir, (unsigned long long)align);
		}
	} else {
		placed = memblock_find(ps, mb, size, align, 0, ~0ULL, false, &at);
		snprintf(how, sizeof(how), "size, anywhere in RAM, top-down, aligned to 0x%llx",
			 (unsigned long long)align);
	}
	if (!placed) {
		dmamap__fdt_warn(ps, node, "no room for 0x%llx bytes%s: not reserved",
				 (unsigned long long)size, ar ? " in alloc-ranges" : "");
		r = add_region(ps, node, 0, 0, true, "no room for 0x%llx bytes%s",
			       (unsigned long long)size, ar ? " in its alloc-ranges" : " in RAM");
		if (r)
			r->kind = REGION_NOT_PLACED;
		return 0;
	}
	take(mb, at, size, nomap);
	add_region(ps, node, at, size, true, "%s", how);
	return 0;
}

/* A region its setup refuses: said as the kernel says it, and kept in its notes. */
static enum fdt_region_kind released(struct fdt_parse *ps, struct fdt_region *r, const char *why)
{
	size_t n = strlen(r->how);

	dmamap__fdt_warn(ps, r->node, "%s: released", why);
	snprintf(r->how + n, sizeof(r->how) - n, "; %s", why);
	return REGION_RELEASED;
}

/* A pool no device can use: it stays reserved. */
static enum fdt_region_kind unusable(struct fdt_parse *ps, struct fdt_region *r)
{
	size_t n = strlen(r->how);

	dmamap__fdt_warn(ps, r->node, "not page aligned, as dmamap's pools must be: reserved, but no device uses it");
	snprintf(r->how + n, sizeof(r->how) - n, "; not page aligned (a dmamap limit): no device uses it");
	return REGION_OTHER;
}

/* What the region's compatible makes of it (rmem_cma_setup, rmem_dma_setup, rmem_swiotlb_setup). */
static enum fdt_region_kind region_kind(struct fdt_parse *ps, struct fdt_region *r)
{
	int n = r->node;
	bool nomap = fdt_getprop(ps->fdt, n, "no-map", NULL) != NULL;
	bool reusable = fdt_getprop(ps->fdt, n, "reusable", NULL) != NULL;
	bool paged = !((r->start | r->size) & (PAGE_SIZE - 1));

	if (dmamap__fdt_compatible(ps, n, "shared-dma-pool") && reusable) {
		if (nomap)
			return released(ps, r, "a reusable (CMA) pool cannot be no-map");
		if ((r->start | r->size) & (CMA_MIN_ALIGNMENT - 1))
			return released(ps, r, "a CMA area must be aligned to 2 MiB");
		return fdt_getprop(ps->fdt, n, "linux,cma-default", NULL) ? REGION_CMA :
									     REGION_CMA_DEVICE;
	}
	if (dmamap__fdt_compatible(ps, n, "shared-dma-pool")) {
		/* 32-bit ARM cannot remap lowmem uncached: its pools must be no-map. */
		if (!nomap && ps->board.arch == DMAMAP_CACHE_ARMV5)
			return released(ps, r, "a 32-bit ARM device pool without no-map is not supported");
		return paged ? REGION_POOL : unusable(ps, r);
	}
	if (dmamap__fdt_compatible(ps, n, "restricted-dma-pool")) {
		if (reusable || nomap || fdt_getprop(ps->fdt, n, "linux,cma-default", NULL) ||
		    fdt_getprop(ps->fdt, n, "linux,dma-default", NULL))
			return released(ps, r, "a restricted pool cannot be reusable, no-map or a default");
		return paged ? REGION_RESTRICTED : unusable(ps, r);
	}
	return REGION_OTHER;
}

/* Whether reservation @t is a region's own span that went elsewhere (CMA) or back (released). */
static bool given_away(struct fdt_parse *ps, const struct dmamap_ram_bank *t)
{
	for (unsigned int i = 0; i < ps->nr_regions; i++) {
		const struct fdt_region *r = &ps->regions[i];

		if (r->start == t->start && r->size == t->size &&
		    (r->kind == REGION_CMA || r->kind == REGION_CMA_DEVICE ||
		     r->kind == REGION_RELEASED))
			return true;
	}
	return false;
}

/* Everything still reserved becomes a hole the page allocator keeps out of, in whole pages. */
static void withhold(struct fdt_parse *ps, const struct memblock *mb)
{
	bool warned = mb->overflowed;

	for (unsigned int i = 0; i < mb->n; i++) {
		const struct dmamap_ram_bank *t = &mb->taken[i];
		phys_addr_t s = t->start & ~(phys_addr_t)(PAGE_SIZE - 1);
		phys_addr_t last = t->start + (t->size - 1);

		if (given_away(ps, t) || !is_ram(ps, t->start, t->size))
			continue;
		if (ps->board.nr_reserved == DMAMAP_MAX_RESERVED) {
			warned = true;
			continue;
		}
		ps->board.reserved[ps->board.nr_reserved++] = (struct dmamap_ram_bank){
			s, (last | (PAGE_SIZE - 1)) - s + 1,
		};
	}
	if (warned)
		dmamap__fdt_warn(ps, 0, "more than %d reservations: the rest are not withheld",
				 DMAMAP_MAX_RESERVED);
}

static void setup_regions(struct fdt_parse *ps)
{
	for (unsigned int i = 0; i < ps->nr_regions; i++) {
		struct fdt_region *r = &ps->regions[i];

		if (r->node < 0 || r->kind == REGION_NOT_PLACED)
			continue;
		r->kind = region_kind(ps, r);
		if (r->kind == REGION_CMA) {
			ps->board.cma_start = r->start;
			ps->board.cma_size = r->size;
		} else if (r->kind == REGION_CMA_DEVICE) {
			if (ps->board.nr_cma_areas == DMAMAP_MAX_CMA) {
				r->kind = released(ps, r, "more CMA areas than the board keeps");
				continue;
			}
			ps->board.cma_areas[ps->board.nr_cma_areas++] =
				(struct dmamap_ram_bank){ r->start, r->size };
		}
	}
}

static const char *use_of(struct fdt_parse *ps, const struct fdt_region *r)
{
	switch (r->kind) {
	case REGION_POOL:
		return "device pool";
	case REGION_CMA:
		return "default CMA";
	case REGION_CMA_DEVICE:
		return "CMA of its devices";
	case REGION_RESTRICTED:
		return "restricted pool";
	case REGION_RELEASED:
		return "released";
	case REGION_NOT_PLACED:
		return "not placed";
	default:
		return r->node >= 0 && fdt_getprop(ps->fdt, r->node, "no-map", NULL) ? "no-map" :
										       "reserved";
	}
}

/* The board's list of regions, for whoever reads the board. */
static void notes(struct fdt_parse *ps)
{
	for (unsigned int i = 0; i < ps->nr_regions; i++) {
		const struct fdt_region *r = &ps->regions[i];
		char *name = ps->region_names[i];

		if (r->node < 0 || fdt_get_path(ps->fdt, r->node, name, DMAMAP_PATH_MAX))
			snprintf(name, DMAMAP_PATH_MAX, "/memreserve/");
		ps->region_notes[i] = (struct dmamap_region){ name, r->start, r->size, use_of(ps, r),
							      r->how };
	}
	ps->board.nr_regions = ps->nr_regions;
	ps->board.regions = ps->region_notes;
}

/* fdt_scan_reserved_mem()'s check: the node's own cells equal the root's, and it has ranges. */
static bool usable_root(struct fdt_parse *ps, int rm, int na, int ns)
{
	int la, ls;
	const fdt32_t *a = fdt_getprop(ps->fdt, rm, "#address-cells", &la);
	const fdt32_t *s = fdt_getprop(ps->fdt, rm, "#size-cells", &ls);

	return a && la == 4 && s && ls == 4 && (int)fdt32_to_cpu(*a) == na &&
	       (int)fdt32_to_cpu(*s) == ns && fdt_getprop(ps->fdt, rm, "ranges", NULL);
}

int dmamap__fdt_reserved_memory(struct fdt_parse *ps)
{
	static struct memblock zero;
	struct memblock mb = zero;
	int rm = fdt_path_offset(ps->fdt, "/reserved-memory"), node, ret;
	int na = dmamap__fdt_cells(ps, 0, "#address-cells", 1);
	int ns = dmamap__fdt_cells(ps, 0, "#size-cells", 1);

	for (int i = 0; i < fdt_num_mem_rsv(ps->fdt); i++) {
		uint64_t addr, size;

		if (!fdt_get_mem_rsv(ps->fdt, i, &addr, &size) && size && range_ok(addr, size)) {
			take(&mb, addr, size, false);
			add_region(ps, -1, addr, size, false, "/memreserve/ entry %d", i);
		}
	}
	if (rm >= 0 && (na < 1 || na > 2 || ns < 1 || ns > 2 || !usable_root(ps, rm, na, ns))) {
		dmamap__fdt_warn(ps, rm,
				 "ignored: its #address-cells/#size-cells differ from the root's, or it has no ranges");
		rm = -1;
	}
	if (rm >= 0) {
		fdt_for_each_subnode(node, ps->fdt, rm) {
			if (dmamap__fdt_enabled(ps, node) && fdt_getprop(ps->fdt, node, "reg", NULL) &&
			    (ret = reserve_static(ps, &mb, node, na, ns)))
				return ret;
		}
		/* After every static region, so that none is placed over one. */
		fdt_for_each_subnode(node, ps->fdt, rm) {
			if (!dmamap__fdt_enabled(ps, node) || fdt_getprop(ps->fdt, node, "reg", NULL) ||
			    !fdt_getprop(ps->fdt, node, "size", NULL))
				continue;
			if ((ret = reserve_dynamic(ps, &mb, node, na, ns)))
				return ret;
		}
	}
	setup_regions(ps);
	withhold(ps, &mb);
	notes(ps);
	return 0;
}

/* The region at @node, or NULL when it was not reserved. */
static const struct fdt_region *region_of(struct fdt_parse *ps, int node)
{
	for (unsigned int i = 0; i < ps->nr_regions; i++)
		if (ps->regions[i].node == node)
			return &ps->regions[i];
	return NULL;
}

/* The @i-th memory-region of @node, or -1 (a bad phandle refuses the board). */
static int memory_region_at(struct fdt_parse *ps, int node, int i, int *target)
{
	int len;
	const fdt32_t *v = fdt_getprop(ps->fdt, node, "memory-region", &len);

	*target = -1;
	if (!v || (i + 1) * 4 > len)
		return 0;
	*target = fdt_node_offset_by_phandle(ps->fdt, fdt32_to_cpu(v[i]));
	if (*target < 0)
		return dmamap__fdt_fail(ps, node, "memory-region", "unknown phandle 0x%x",
					fdt32_to_cpu(v[i]));
	return 0;
}

int dmamap__fdt_memory_regions(struct fdt_parse *ps, int node, int dma_node,
			       struct dmamap_device_desc *d)
{
	const struct fdt_region *r;
	int target, len, ret, count;

	/* Index 0 is what a driver's of_reserved_mem_device_init() attaches. */
	if ((ret = memory_region_at(ps, node, 0, &target)))
		return ret;
	if (target >= 0 && (r = region_of(ps, target))) {
		if (r->kind == REGION_POOL) {
			d->coherent_pool_start = r->start;
			d->coherent_pool_size = r->size;
		} else if (r->kind == REGION_CMA_DEVICE) {
			d->cma_start = r->start;
			d->cma_size = r->size;
		}
		dmamap__fdt_say(ps, "of_reserved_mem_device_init(): memory-region[0] is %s, %s%s",
				fdt_get_name(ps->fdt, target, NULL), use_of(ps, r),
				r->kind == REGION_POOL ? ": its coherent allocations come from it first" :
				r->kind == REGION_CMA_DEVICE ? ": its contiguous allocations come from it (rmem_cma_device_init)" :
							       ": nothing for the device");
	}
	/*
	 * of_dma_set_restricted_buffer(): any entry may be the restricted pool,
	 * of the device's node or else of the node its DMA configuration came
	 * from; behind an IOMMU there is none, the IOMMU isolates the device.
	 */
	if (d->iommu) {
		if (fdt_getprop(ps->fdt, node, "memory-region", NULL))
			dmamap__fdt_say(ps, "of_dma_set_restricted_buffer() is not called behind an IOMMU: the IOMMU isolates the device");
		return 0;
	}
	if (!fdt_getprop(ps->fdt, node, "memory-region", &len) || len < 4)
		node = dma_node;
	if (!fdt_getprop(ps->fdt, node, "memory-region", &len))
		return 0;
	count = len / 4;
	for (int i = 0; i < count; i++) {
		if ((ret = memory_region_at(ps, node, i, &target)))
			return ret;
		if (!dmamap__fdt_compatible(ps, target, "restricted-dma-pool") ||
		    !dmamap__fdt_enabled(ps, target))
			continue;
		r = region_of(ps, target);
		if (r && r->kind == REGION_RESTRICTED) {
			d->restricted_pool_start = r->start;
			d->restricted_pool_size = r->size;
			dmamap__fdt_say(ps, "of_dma_set_restricted_buffer(): memory-region[%d] of %s is the restricted pool %s: every mapping bounces through it",
					i, node == dma_node ? "its node" : "the node that configured it",
					fdt_get_name(ps->fdt, target, NULL));
		} else {
			dmamap__fdt_say(ps, "of_dma_set_restricted_buffer(): memory-region[%d] names %s, which was not set up: no restricted pool",
					i, fdt_get_name(ps->fdt, target, NULL));
		}
		break; /* only the first restricted pool counts */
	}
	return 0;
}
