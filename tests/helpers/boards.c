/* SPDX-License-Identifier: MIT */
/* Boards and devices with their reports captured, directions, and counters. */
#include <unistd.h>
#include "../helpers.h"

/* ---- directions ---------------------------------------------------------- */

const enum dma_data_direction dirs[3] = { DMA_TO_DEVICE, DMA_FROM_DEVICE,
					  DMA_BIDIRECTIONAL };
const char *const both_devs[2] = { COH, NC };

const char *dir_name(enum dma_data_direction dir)
{
	switch (dir) {
	case DMA_TO_DEVICE: return "TO_DEVICE";
	case DMA_FROM_DEVICE: return "FROM_DEVICE";
	case DMA_BIDIRECTIONAL: return "BIDIRECTIONAL";
	default: return "?";
	}
}

/* ---- boards and devices, their reports captured ---------------------------- */

struct log_capture logs;
struct report_capture reps;

void capture_hook(void *ctx, int level, const char *line)
{
	struct log_capture *c = ctx;
	size_t used = strlen(c->all);

	(void)level;
	c->lines++;
	snprintf(c->last, sizeof(c->last), "%s", line);
	if (used + strlen(line) + 2 < sizeof(c->all))
		snprintf(c->all + used, sizeof(c->all) - used, "%s\n", line);
}

void capture_report(void *ctx, const struct dmamap_report *r)
{
	struct report_capture *c = ctx;

	c->n++;
	c->last = *r;
}

void drop_log(void *ctx, int level, const char *line)
{
	(void)ctx;
	(void)level;
	(void)line;
}

struct dmamap_platform *quiet(struct dmamap_platform *p)
{
	if (p) {
		dmamap_set_log_hook(p, capture_hook, &logs);
		dmamap_set_report_hook(p, capture_report, &reps);
	}
	return p;
}

struct dmamap_platform *default_board(void)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_builtin("default", &err);

	if (!p)
		printf("#   default board: %d %s\n", err.code, err.msg);
	else
		dmamap_debug_enable(p, false);
	return p;
}

struct dmamap_platform *quiet_board(void)
{
	return quiet(default_board());
}

size_t host_page(void)
{
	long s = sysconf(_SC_PAGESIZE);

	return s > (long)PAGE_SIZE ? (size_t)s : PAGE_SIZE;
}

unsigned int host_page_order(void)
{
	return (unsigned int)__builtin_ctzl((unsigned long)(host_page() / PAGE_SIZE));
}

struct dmamap_platform *builtin_board(const char *name)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_builtin(name, &err);

	if (!p)
		printf("#   board %s: %s\n", name, err.msg);
	return quiet(p);
}

static const struct dmamap_device_desc discard_devices[] = {
	{
		.name = COH,
		.model = "memcpy",
		.dma_mask = DMA_BIT_MASK(40),
		.coherent = true,
	},
	{
		.name = NC,
		.model = "memcpy",
		.dma_mask = DMA_BIT_MASK(32),
		.nr_ranges = 1,
		.ranges = { { .cpu_start = RAM0, .dma_start = 0, .size = 128 * MiB } },
	},
};

struct dmamap_platform *discard_board(void)
{
	struct dmamap_board b = {
		.name = "discard",
		.cache_line_size = 64,
		.arch = DMAMAP_CACHE_ARM64,
		.edge_policy = DMAMAP_EDGE_DISCARD,
		.nr_banks = 1,
		.banks = { { RAM0, 128 * MiB } },
		.zone_dma_limit = RAM0 + 64 * MiB - 1,
		.nr_devices = 2,
		.devices = discard_devices,
	};
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_create(&b, &err);

	if (!p)
		printf("#   discard board: %s\n", err.msg);
	return quiet(p);
}

struct dmamap_platform *host_platform(void)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_host(&err);

	if (!p)
		printf("#   host platform: %d %s\n", err.code, err.msg);
	else
		dmamap_debug_enable(p, false);
	return p;
}

struct device *host_device(struct dmamap_platform *p, const char *name,
			   const char *model)
{
	struct dmamap_device_desc d = { .name = name, .model = model };

	return new_device(p, &d);
}

struct dmamap_platform *host_forced(struct device **dev)
{
	struct dmamap_platform *p = quiet(host_platform());

	if (!p)
		return NULL;
	*dev = host_device(p, "hb", NULL);
	if (!*dev || dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_FORCE)) {
		dmamap_platform_destroy(p);
		return NULL;
	}
	return p;
}

struct device *iommu_device(struct dmamap_platform *p, const char *name,
			    const char *iommu, unsigned int group,
			    unsigned int max_seg, bool coherent)
{
	struct dmamap_device_desc d = {
		.name = name,
		.model = NULL,
		.coherent = coherent,
		.max_segment_size = max_seg,
		.iommu = iommu,
		.iommu_group = group,
	};

	return new_device(p, &d);
}

struct device *new_device(struct dmamap_platform *p,
			  const struct dmamap_device_desc *d)
{
	struct dmamap_error err = { 0 };
	struct device *dev = dmamap_device_create(p, d, &err);

	if (!dev)
		printf("#   device %s: %d %s\n", d->name, err.code, err.msg);
	return dev;
}

struct device *lookup(struct dmamap_platform *p, const char *name)
{
	struct device *dev = dmamap_device_lookup(p, name);

	if (!dev)
		printf("#   no device %s\n", name);
	return dev;
}

/* ---- counters -------------------------------------------------------------- */

struct dmamap_device_stats stats_of(struct device *dev)
{
	struct dmamap_device_stats s;

	memset(&s, 0, sizeof(s));
	if (dmamap_device_stats(dev, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

struct dmamap_swiotlb_stats pool_of(struct dmamap_platform *p, struct device *dev)
{
	struct dmamap_swiotlb_stats s;

	memset(&s, 0, sizeof(s));
	if (dmamap_swiotlb_stats(p, dev, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

struct dmamap_dmabounce_stats db_stats(struct device *dev)
{
	struct dmamap_dmabounce_stats s;

	memset(&s, 0, sizeof(s));
	if (dmamap_dmabounce_stats(dev, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

struct dmamap_iommu_stats istats(struct device *dev)
{
	struct dmamap_iommu_stats s;

	memset(&s, 0, sizeof(s));
	if (dmamap_iommu_stats(dev, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

bool iommu_left_clean(struct device *dev)
{
	uint64_t pages = istats(dev).pages_mapped, errors = stats_of(dev).errors;

	if (pages || errors)
		printf("#   %s: %llu IO pages still mapped, %llu errors\n", dev_name(dev),
		       (unsigned long long)pages, (unsigned long long)errors);
	return !pages && !errors;
}

bool in_pool(const struct dmamap_swiotlb_stats *s, phys_addr_t phys, size_t size)
{
	return phys >= s->start &&
	       phys + size <= s->start + s->total_slots * s->slot_size;
}

unsigned int chunks_in_pool(struct dmamap_platform *p)
{
	struct dmamap_swiotlb_stats s = pool_of(p, NULL);

	return (unsigned int)(s.total_slots * s.slot_size / (64 * KiB));
}

uint64_t sim_losses(struct dmamap_platform *p)
{
	struct dmamap_sim_cache_stats s;

	if (dmamap_sim_cache_stats(p, &s))
		return ~0ULL;
	return s.device_bytes_lost + s.conflicts +
	       dmamap_report_count(p, DMAMAP_DBG_CPU_DATA_LOST) +
	       dmamap_report_count(p, DMAMAP_DBG_DEVICE_DATA_LOST);
}

unsigned int count_events(struct dmamap_platform *p, enum dmamap_sim_event_kind kind,
			  phys_addr_t line, struct dmamap_sim_event *out)
{
	static struct dmamap_sim_event ev[256];
	unsigned int n = dmamap_sim_events(p, ev, 256), found = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (ev[i].kind != kind || (line && ev[i].line != line))
			continue;
		if (!found && out)
			*out = ev[i];
		found++;
	}
	return found;
}
