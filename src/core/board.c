/* SPDX-License-Identifier: MIT */
/*
 * Platforms: a board description becomes a machine (the port), memory
 * management, bounce pools and CMA carved where the kernel puts them, and
 * the board's devices; the host platform is this process. Destruction
 * undoes it in reverse.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <dmamap/swiotlb.h>
#include "../lib/lib.h"
#include "../debug/checker.h"
#include "../hw/hw.h"
#include "../mm/mm.h"
#include "../ops/iommu.h"
#include "../ops/swiotlb.h"
#include "../ops/vfio.h"
#include "../platform/port.h"
#include "core.h"
#include "../lib/mem.h"

#define HOST_SWIOTLB_SIZE (8ULL << 20)

/* A platform with its common parts set up (log, registry, refresh), named @name. */
static struct dmamap_platform *platform_alloc(const char *name)
{
	/* On a line of its own: the fields every map reads share one. */
	struct dmamap_platform *p = dmamap__zalloc_lines(sizeof(*p));

	if (!p)
		return NULL;
	snprintf(p->name, sizeof(p->name), "%s", name ? name : "board");
	dmamap__log_init(&p->log);
	pthread_mutex_init(&p->devices.lock, NULL);
	pthread_mutex_init(&p->observers.lock, NULL);
	p->refresh = dmamap__core_refresh;
	if (dmamap__iommu_init(p)) {
		free(p);
		return NULL;
	}
	return p;
}

static int check_board(const struct dmamap_board *board,
		       struct dmamap_error *err)
{
	const char *name = board->name ? board->name : "?";
	unsigned int ls = board->cache_line_size ? board->cache_line_size : 64;
	u64 total = 0;

	if (ls < 16 || ls > 256 || (ls & (ls - 1))) {
		dmamap__set_error(err, -EINVAL,
				  "board %s: cache line size %u is not a power of two in 16..256",
				  name, ls);
		return -EINVAL;
	}
	if (!board->nr_banks || board->nr_banks > DMAMAP_MAX_BANKS) {
		dmamap__set_error(err, -EINVAL, "board %s: %u RAM banks (need 1..%d)",
				  name, board->nr_banks, DMAMAP_MAX_BANKS);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < board->nr_banks; i++) {
		const struct dmamap_ram_bank *b = &board->banks[i];

		/* DMAMAP_SIM_RAM_MAX, below, keeps a bank within what size_t counts. */
		if (!b->size || (b->start | b->size) & (PAGE_SIZE - 1) ||
		    b->start + b->size < b->start) {
			dmamap__set_error(err, -EINVAL,
					  "board %s: RAM bank %u (0x%llx+0x%llx) is empty, unaligned or wraps",
					  name, i, (unsigned long long)b->start,
					  (unsigned long long)b->size);
			return -EINVAL;
		}
		total += b->size;
		if (b->size > DMAMAP_SIM_RAM_MAX || total > DMAMAP_SIM_RAM_MAX) {
			dmamap__set_error(err, -EINVAL,
					  "board %s: more than %llu MiB of RAM to simulate on a %u-bit host",
					  name, (unsigned long long)(DMAMAP_SIM_RAM_MAX >> 20),
					  (unsigned int)(sizeof(void *) * 8));
			return -EINVAL;
		}
		for (unsigned int j = 0; j < i; j++) {
			const struct dmamap_ram_bank *o = &board->banks[j];

			if (b->start < o->start + o->size &&
			    o->start < b->start + b->size) {
				dmamap__set_error(err, -EINVAL,
						  "board %s: RAM banks %u and %u overlap",
						  name, j, i);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* Whether [@start, +@size) shares a byte with a reserved region or a per-device CMA area. */
static bool clashes(const struct dmamap_board *board, phys_addr_t start, u64 size)
{
	for (unsigned int i = 0; i < board->nr_reserved && i < DMAMAP_MAX_RESERVED; i++)
		if (board->reserved[i].size && start < board->reserved[i].start + board->reserved[i].size &&
		    board->reserved[i].start < start + size)
			return true;
	for (unsigned int i = 0; i < board->nr_cma_areas && i < DMAMAP_MAX_CMA; i++)
		if (start < board->cma_areas[i].start + board->cma_areas[i].size &&
		    board->cma_areas[i].start < start + size)
			return true;
	return false;
}

/*
 * The lowest (or highest) page-aligned place for @size bytes in the lowest
 * bank that no reserved region, per-device CMA area or @avoid (size 0:
 * none) takes: the boot allocations Linux makes after /reserved-memory.
 */
static bool low_spot(struct dmamap_platform *p, const struct dmamap_board *board, u64 size,
		     bool top_down, struct dmamap_ram_bank avoid, phys_addr_t *out)
{
	const struct dmamap_bank *low = dmamap__port_lowest_bank(p);

	if (!size || size > low->size)
		return false;
	for (u64 k = 0; k <= (low->size - size) >> PAGE_SHIFT; k++) {
		phys_addr_t at = top_down ? low->start + low->size - size - (k << PAGE_SHIFT) :
					    low->start + (k << PAGE_SHIFT);

		if (clashes(board, at, size) ||
		    (avoid.size && at < avoid.start + avoid.size && avoid.start < at + size))
			continue;
		*out = at;
		return true;
	}
	return false;
}

/*
 * The default bounce pool sits as low in the lowest bank as reserved
 * regions allow, where every device reaches, as the kernel puts it in low
 * memory. @want: 0 for the default size (64 MiB, at most 1/32 of RAM), ~0
 * for none.
 */
static int swiotlb_setup(struct dmamap_platform *p, const struct dmamap_board *board, u64 want,
			 bool small_kmalloc, struct dmamap_error *err)
{
	const struct dmamap_bank *low = dmamap__port_lowest_bank(p);
	phys_addr_t start = 0;

	if (want != ~0ULL) {
		if (!want)
			want = MIN(64ULL << 20, dmamap__port_ram_total(p) / 32);
		want -= want % DMAMAP_SWIOTLB_MAX_MAPPING;
		if (!want || want >= low->size ||
		    !low_spot(p, board, want, false, (struct dmamap_ram_bank){ 0, 0 }, &start)) {
			dmamap__set_error(err, -EINVAL,
					  "board %s: swiotlb pool of 0x%llx bytes does not fit the lowest RAM bank",
					  p->name, (unsigned long long)want);
			return -EINVAL;
		}
	} else {
		want = 0;
	}
	if (dmamap__swiotlb_init(p, start, want, small_kmalloc)) {
		dmamap__set_error(err, -ENOMEM, "board %s: cannot set up swiotlb", p->name);
		return -ENOMEM;
	}
	return 0;
}

/* The CMA area: where the board says, else as high in the lowest bank as the rest allows. */
static int cma_place(struct dmamap_platform *p, const struct dmamap_board *board,
		     struct dmamap_ram_bank *out, struct dmamap_error *err)
{
	u64 size = board->cma_size;
	phys_addr_t start = board->cma_start;

	if (!size)
		return 0;
	/* From outside input: no sum below may wrap, so nothing above RAM's size goes on. */
	if (size > dmamap__port_ram_total(p)) {
		dmamap__set_error(err, -EINVAL,
				  "board %s: CMA area of 0x%llx bytes is larger than RAM",
				  p->name, (unsigned long long)size);
		return -EINVAL;
	}
	size = PAGE_ALIGN(size);
	if (start) {
		if (!dmamap__port_is_ram(p, start, size) || (start & (PAGE_SIZE - 1))) {
			dmamap__set_error(err, -EINVAL, "board %s: CMA area at 0x%llx is %s", p->name,
					  (unsigned long long)start,
					  start & (PAGE_SIZE - 1) ? "not page aligned" : "not RAM");
			return -EINVAL;
		}
		*out = (struct dmamap_ram_bank){ start, size };
		return 0;
	}
	if (!low_spot(p, board, size, true, dmamap__swiotlb_area(p), &start)) {
		dmamap__set_error(err, -EINVAL,
				  "board %s: CMA area of 0x%llx bytes does not fit the lowest RAM bank",
				  p->name, (unsigned long long)size);
		return -EINVAL;
	}
	*out = (struct dmamap_ram_bank){ start, size };
	return 0;
}

/*
 * The per-device CMA areas: each whole pages of RAM, apart from the
 * default area and from each other (the bounce pool and reserved regions
 * are the board's to keep clear, as a tree's reader does).
 */
static int cma_areas_check(struct dmamap_platform *p, const struct dmamap_board *board,
			   struct dmamap_mm_layout *l, struct dmamap_error *err)
{
	if (board->nr_cma_areas > DMAMAP_MAX_CMA) {
		dmamap__set_error(err, -EINVAL, "board %s: %u CMA areas (at most %d)", p->name,
				  board->nr_cma_areas, DMAMAP_MAX_CMA);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < board->nr_cma_areas; i++) {
		const struct dmamap_ram_bank *a = &board->cma_areas[i];
		bool clash = l->cma.size && a->start < l->cma.start + l->cma.size &&
			     l->cma.start < a->start + a->size;

		for (unsigned int j = 0; j < i; j++)
			clash |= a->start < board->cma_areas[j].start + board->cma_areas[j].size &&
				 board->cma_areas[j].start < a->start + a->size;
		if (!a->size || ((a->start | a->size) & (PAGE_SIZE - 1)) ||
		    a->start + a->size < a->start || !dmamap__port_is_ram(p, a->start, a->size) ||
		    clash) {
			dmamap__set_error(err, -EINVAL,
					  "board %s: CMA area %u (0x%llx+0x%llx) is empty, unaligned, not RAM or overlaps another",
					  p->name, i, (unsigned long long)a->start,
					  (unsigned long long)a->size);
			return -EINVAL;
		}
		l->cma_areas[l->nr_cma_areas++] = *a;
	}
	return 0;
}

/* What the page allocator must keep out of: the bounce pool, CMA, the board's reserved regions. */
static void layout_holes(struct dmamap_platform *p, struct dmamap_mm_layout *l,
			 const struct dmamap_ram_bank *reserved, unsigned int nr_reserved)
{
	struct dmamap_ram_bank pool = dmamap__swiotlb_area(p);

	if (pool.size)
		l->holes[l->nr_holes++] = pool;
	if (l->cma.size)
		l->holes[l->nr_holes++] = l->cma;
	for (unsigned int i = 0; i < l->nr_cma_areas; i++)
		l->holes[l->nr_holes++] = l->cma_areas[i];
	for (unsigned int i = 0; i < nr_reserved && i < DMAMAP_MAX_RESERVED; i++)
		l->holes[l->nr_holes++] = reserved[i];
}

/* The board's region notes, kept as text the platform owns. */
static int copy_regions(struct dmamap_platform *p, const struct dmamap_board *board,
			struct dmamap_error *err)
{
	p->regions = dmamap__calloc(board->nr_regions, sizeof(*p->regions));
	if (!p->regions) {
		dmamap__set_error(err, -ENOMEM, "board %s: no memory for its region list", p->name);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < board->nr_regions; i++) {
		const struct dmamap_region *r = &board->regions[i];
		struct dmamap_region_info *o = &p->regions[i];

		snprintf(o->name, sizeof(o->name), "%s", r->name ? r->name : "");
		snprintf(o->use, sizeof(o->use), "%s", r->use ? r->use : "");
		snprintf(o->how, sizeof(o->how), "%s", r->how ? r->how : "");
		o->start = r->start;
		o->size = r->size;
	}
	p->nr_regions = board->nr_regions;
	return 0;
}

int dmamap_region_info(struct dmamap_platform *p, unsigned int i, struct dmamap_region_info *info)
{
	if (!p || !info)
		return -EINVAL;
	if (i >= p->nr_regions)
		return -ENOENT;
	*info = p->regions[i];
	return 0;
}

phys_addr_t dmamap_zone_dma_limit(const struct dmamap_platform *p)
{
	return p && p->mm ? dmamap__zone_dma_limit(p) : 0;
}

struct dmamap_platform *dmamap_platform_create(const struct dmamap_board *board,
					       struct dmamap_error *err)
{
	struct dmamap_mm_layout layout = { 0 };
	struct dmamap_platform *p;
	int ret;

	if (!board) {
		dmamap__set_error(err, -EINVAL, "no board description");
		return NULL;
	}
	if (check_board(board, err))
		return NULL;
	p = platform_alloc(board->name);
	if (!p) {
		dmamap__set_error(err, -ENOMEM, "out of memory");
		return NULL;
	}
	p->default_mask = DMA_BIT_MASK(32);
	layout.zone_dma_limit = board->zone_dma_limit;
	layout.highmem_start = board->highmem_start;
	ret = dmamap__port_init_board(p, board, err);
	if (!ret)
		ret = swiotlb_setup(p, board, board->swiotlb_size, board->bounce_unaligned_kmalloc, err);
	if (!ret)
		ret = cma_place(p, board, &layout.cma, err);
	if (!ret)
		ret = cma_areas_check(p, board, &layout, err);
	if (!ret) {
		layout_holes(p, &layout, board->reserved, board->nr_reserved);
		ret = dmamap__mm_init(p, &layout);
		if (ret)
			dmamap__set_error(err, ret, "board %s: cannot set up page allocator",
					  p->name);
	}
	if (!ret && board->nr_regions && board->regions)
		ret = copy_regions(p, board, err);
	if (!ret && board->fdt && board->fdt_size) {
		p->fdt = dmamap__malloc(board->fdt_size);
		if (p->fdt) {
			memcpy(p->fdt, board->fdt, board->fdt_size);
			p->fdt_size = board->fdt_size;
		} else {
			ret = -ENOMEM;
			dmamap__set_error(err, ret, "board %s: no memory for its device tree", p->name);
		}
	}
	if (ret) {
		dmamap_platform_destroy(p);
		return NULL;
	}
	if (dmamap__env_flag("DMAMAP_DEBUG"))
		dmamap_debug_enable(p, true);
	if (dmamap__env_flag("DMAMAP_OWNERSHIP"))
		dmamap_debug_set_ownership(p, true);
	for (unsigned int i = 0; i < board->nr_devices; i++) {
		if (!dmamap_device_create(p, &board->devices[i], err)) {
			dmamap_platform_destroy(p);
			return NULL;
		}
	}
	return p;
}

struct dmamap_platform *dmamap_platform_host(struct dmamap_error *err)
{
	return dmamap__platform_host_sized(0, HOST_SWIOTLB_SIZE, err);
}

struct dmamap_platform *dmamap__platform_host_sized(u64 arena_size, u64 swiotlb_size,
						    struct dmamap_error *err)
{
	struct dmamap_mm_layout layout = { 0 };
	struct dmamap_platform *p = platform_alloc("host");
	const struct dmamap_bank *arena;

	if (!p) {
		dmamap__set_error(err, -ENOMEM, "out of memory");
		return NULL;
	}
	p->default_mask = DMA_BIT_MASK(64);
	if (dmamap__port_init_host(p, arena_size, err))
		goto fail;
	arena = dmamap__port_lowest_bank(p);
	if (dmamap__swiotlb_init(p, arena->start, swiotlb_size, false)) {
		dmamap__set_error(err, -ENOMEM, "host: cannot set up the bounce pool");
		goto fail;
	}
	layout_holes(p, &layout, NULL, 0);
	if (dmamap__mm_init(p, &layout)) {
		dmamap__set_error(err, -ENOMEM, "host: cannot set up the page allocator");
		goto fail;
	}
	if (dmamap__env_flag("DMAMAP_DEBUG"))
		dmamap_debug_enable(p, true);
	return p;
fail:
	dmamap_platform_destroy(p);
	return NULL;
}

void dmamap_platform_destroy(struct dmamap_platform *p)
{
	if (!p)
		return;
	/* The device thread steps the models: stop it before they go. */
	if (p->sched)
		dmamap_sim_set_threaded(p, false);
	/* Shared buffers hold mappings of the devices and memory of the board. */
	dmamap__dmabuf_board_gone(p);
	while (p->devices.n)
		dmamap_device_destroy(p->devices.list[p->devices.n - 1]);
	free(p->devices.list);
	dmamap__sched_destroy(p);
	dmamap__dbg_platform_gone(p);
	dmamap__swiotlb_fini(p);
	dmamap__mm_fini(p);
	dmamap__iommu_fini(p);
	/* The registered memory leaves the IOMMU before the container closes. */
	dmamap__vfio_space_fini(p);
	dmamap__port_fini(p);
	pthread_mutex_destroy(&p->devices.lock);
	pthread_mutex_destroy(&p->observers.lock);
	free(p->fdt);
	free(p->regions);
	free(p);
}

const void *dmamap_platform_fdt(const struct dmamap_platform *p, size_t *size)
{
	if (size)
		*size = p && p->fdt ? p->fdt_size : 0;
	return p ? p->fdt : NULL;
}

void dmamap_log_line(struct dmamap_platform *p, int level, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!fmt)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	dmamap__log_line(p ? &p->log : NULL, level, "%s", line);
}

const char *dmamap_platform_name(const struct dmamap_platform *p)
{
	return p ? p->name : "";
}
