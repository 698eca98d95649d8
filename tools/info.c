/* SPDX-License-Identifier: MIT */
/*
 * dmamap info: the whole board as the kernel would set it up — RAM, the
 * DMA zone, the bounce pool, CMA, every reserved-memory region with where
 * it landed and why, and each device's DMA configuration (bus, ops,
 * coherency, both masks, bus limit, map, IOMMU and ids, pools, whether the
 * tree makes it a DMA master) — as tables or JSON, and on request an SVG
 * picture (info_svg.c).
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"

/* A JSON string, or null for an empty one: no sentinel values. */
static void json_opt(const char *key, const char *value, bool comma)
{
	printf("%s\"%s\":", comma ? "," : "", key);
	if (*value)
		cli_json_write(value);
	else
		printf("null");
}

static void json_span(const char *key, u64 start, u64 size, bool comma)
{
	printf("%s\"%s\":", comma ? "," : "", key);
	if (size)
		printf("{\"start\":\"0x%llx\",\"size\":\"0x%llx\"}", (unsigned long long)start,
		       (unsigned long long)size);
	else
		printf("null");
}

static void json_device(const struct dmamap_device_info *in, bool comma)
{
	printf("%s{", comma ? "," : "");
	json_opt("name", in->name, false);
	json_opt("path", in->path, true);
	json_opt("bus", in->bus, true);
	json_opt("model", in->model, true);
	json_opt("dma_master", in->dma_master, true);
	printf(",\"ops\":\"%s\",\"coherent\":%s,\"dma_mask\":\"0x%llx\","
	       "\"coherent_dma_mask\":\"0x%llx\",\"bus_dma_limit\":",
	       in->ops, in->coherent ? "true" : "false", (unsigned long long)in->dma_mask,
	       (unsigned long long)in->coherent_dma_mask);
	if (in->bus_dma_limit)
		printf("\"0x%llx\"", (unsigned long long)in->bus_dma_limit);
	else
		printf("null");
	printf(",\"map\":[");
	for (unsigned int r = 0; r < in->nr_ranges; r++)
		printf("%s{\"cpu\":\"0x%llx\",\"dma\":\"0x%llx\",\"size\":\"0x%llx\"}",
		       r ? "," : "", (unsigned long long)in->ranges[r].cpu_start,
		       (unsigned long long)in->ranges[r].dma_start,
		       (unsigned long long)in->ranges[r].size);
	printf("],\"iommu\":");
	if (in->iommu[0]) {
		printf("{\"name\":");
		cli_json_write(in->iommu);
		printf(",\"stream_ids\":[");
		for (unsigned int k = 0; k < in->nr_iommu_ids; k++)
			printf("%s%u", k ? "," : "", in->iommu_ids[k]);
		printf("]}");
	} else {
		printf("null");
	}
	json_span("restricted_pool", in->restricted_pool, in->restricted_pool_size, true);
	json_span("cma", in->cma, in->cma_size, true);
	printf(",\"coherent_pool\":%s}", in->coherent_pool ? "true" : "false");
}

/* What a device's row says after its fixed columns. */
static void details(const struct dmamap_device_info *in, char *out, size_t len)
{
	size_t n = 0;
	char sz[32];

#define ADD(...) (n += n < len ? (size_t)snprintf(out + n, len - n, __VA_ARGS__) : 0)
	if (!in->nr_ranges)
		ADD("identity");
	for (unsigned int r = 0; r < in->nr_ranges; r++)
		ADD("%scpu 0x%llx -> dma 0x%llx (%s)", r ? ", " : "",
		    (unsigned long long)in->ranges[r].cpu_start,
		    (unsigned long long)in->ranges[r].dma_start,
		    cli_size_str(in->ranges[r].size, sz, sizeof(sz)));
	if (in->iommu[0]) {
		ADD("; iommu %s", in->iommu);
		for (unsigned int k = 0; k < in->nr_iommu_ids; k++)
			ADD("%s0x%x", k ? "," : (in->nr_iommu_ids > 1 ? " streams " : " stream "),
			    in->iommu_ids[k]);
	}
	if (in->restricted_pool_size)
		ADD("; restricted pool 0x%llx (%s)", (unsigned long long)in->restricted_pool,
		    cli_size_str(in->restricted_pool_size, sz, sizeof(sz)));
	if (in->coherent_pool)
		ADD("; own coherent pool");
	if (in->cma_size)
		ADD("; own CMA 0x%llx (%s)", (unsigned long long)in->cma,
		    cli_size_str(in->cma_size, sz, sizeof(sz)));
	if (in->dma_master[0])
		ADD("; DMA master: %s", in->dma_master);
	/* The node path, when the name alone does not say where it is. */
	if (in->path[0] && strcmp(in->path + 1, in->name))
		ADD("; node %s", in->path);
#undef ADD
}

static void text_span(const char *what, u64 start, u64 size, const char *note)
{
	char sz[32];

	if (!size) {
		printf("  %-10s none%s%s\n", what, *note ? "  " : "", note);
		return;
	}
	printf("  %-10s 0x%-14llx 0x%-14llx %10s  %s\n", what, (unsigned long long)start,
	       (unsigned long long)(start + size - 1), cli_size_str(size, sz, sizeof(sz)), note);
}

static void text_board(struct dmamap_platform *p)
{
	struct dmamap_ram_bank bank;
	struct dmamap_swiotlb_stats sw;
	struct dmamap_cma_stats cma;
	struct dmamap_region_info r;
	phys_addr_t zone = dmamap_zone_dma_limit(p), first = ~0ULL;
	unsigned int width = 6;
	u64 in_zone = 0, in_dma32 = 0;
	phys_addr_t dma32_first = ~0ULL, dma32_last = 0;
	char sz[32];

	printf("memory\n  %-10s %-16s %-16s %10s  %s\n", "what", "start", "last byte", "size", "notes");
	for (unsigned int i = 0; !dmamap_ram_bank(p, i, &bank); i++) {
		first = bank.start < first ? bank.start : first;
		text_span("RAM", bank.start, bank.size, "");
		/* The RAM below the zone's end. */
		if (zone && bank.start <= zone)
			in_zone += (zone - bank.start < bank.size ? zone - bank.start + 1 : bank.size);
	}
	if (zone && zone >= first)
		printf("  %-10s 0x%-14llx 0x%-14llx %10s  of RAM below its end\n", "ZONE_DMA",
		       (unsigned long long)first, (unsigned long long)zone,
		       cli_size_str(in_zone, sz, sizeof(sz)));
	else
		text_span("ZONE_DMA", 0, 0, zone ? "(it ends below RAM)" : "");
	/* ZONE_DMA32: the rest of the RAM below 4 GiB. */
	for (unsigned int i = 0; !dmamap_ram_bank(p, i, &bank); i++) {
		phys_addr_t s = bank.start > zone + 1 || !zone ? bank.start : zone + 1;
		phys_addr_t e = bank.start + bank.size < 0x100000000ULL ? bank.start + bank.size :
									   0x100000000ULL;

		if (zone && bank.start + bank.size <= zone + 1)
			continue;
		if (s >= e)
			continue;
		in_dma32 += e - s;
		dma32_first = s < dma32_first ? s : dma32_first;
		dma32_last = e - 1 > dma32_last ? e - 1 : dma32_last;
	}
	if (in_dma32)
		printf("  %-10s 0x%-14llx 0x%-14llx %10s  of RAM\n", "ZONE_DMA32",
		       (unsigned long long)dma32_first, (unsigned long long)dma32_last,
		       cli_size_str(in_dma32, sz, sizeof(sz)));
	if (!dmamap_swiotlb_stats(p, NULL, &sw))
		text_span("swiotlb", sw.start, (u64)sw.total_slots * sw.slot_size,
			  "default bounce pool");
	if (!dmamap_cma_stats(p, &cma))
		text_span("CMA", cma.start, cma.total_pages << PAGE_SHIFT, "default area");
	for (unsigned int i = 0; !dmamap_region_info(p, i, &r); i++)
		width = strlen(r.name) > width ? (unsigned int)strlen(r.name) : width;
	if (dmamap_region_info(p, 0, &r))
		return;
	printf("reserved memory\n  %-*s %-16s %10s  %-18s %s\n", width, "region", "start", "size",
	       "use", "how");
	for (unsigned int i = 0; !dmamap_region_info(p, i, &r); i++) {
		char at[24] = "-";

		if (r.size)
			snprintf(at, sizeof(at), "0x%llx", (unsigned long long)r.start);
		printf("  %-*s %-16s %10s  %-18s %s\n", width, r.name, at,
		       r.size ? cli_size_str(r.size, sz, sizeof(sz)) : "-", r.use, r.how);
	}
}

static void json_board(struct dmamap_platform *p)
{
	struct dmamap_ram_bank bank;
	struct dmamap_swiotlb_stats sw;
	struct dmamap_cma_stats cma;
	struct dmamap_region_info r;
	phys_addr_t zone = dmamap_zone_dma_limit(p);

	printf(",\"ram\":[");
	for (unsigned int i = 0; !dmamap_ram_bank(p, i, &bank); i++)
		printf("%s{\"start\":\"0x%llx\",\"size\":\"0x%llx\"}", i ? "," : "",
		       (unsigned long long)bank.start, (unsigned long long)bank.size);
	printf("],\"zone_dma_last\":");
	if (zone)
		printf("\"0x%llx\"", (unsigned long long)zone);
	else
		printf("null");
	if (!dmamap_swiotlb_stats(p, NULL, &sw))
		json_span("swiotlb", sw.start, (u64)sw.total_slots * sw.slot_size, true);
	else
		printf(",\"swiotlb\":null");
	if (!dmamap_cma_stats(p, &cma))
		json_span("cma", cma.start, cma.total_pages << PAGE_SHIFT, true);
	else
		printf(",\"cma\":null");
	printf(",\"reserved_memory\":[");
	for (unsigned int i = 0; !dmamap_region_info(p, i, &r); i++) {
		printf("%s{", i ? "," : "");
		json_opt("name", r.name, false);
		if (r.size)
			printf(",\"start\":\"0x%llx\",\"size\":\"0x%llx\"", (unsigned long long)r.start,
			       (unsigned long long)r.size);
		else
			printf(",\"start\":null,\"size\":null");
		json_opt("use", r.use, true);
		json_opt("how", r.how, true);
		printf("}");
	}
	printf("]");
}

static void text_devices(struct dmamap_platform *p)
{
	unsigned int n = dmamap_device_count(p), width = 4;
	struct dmamap_device_info in;

	for (unsigned int i = 0; i < n; i++)
		if (!dmamap_device_info(dmamap_device_at(p, i), &in) && strlen(in.name) > width)
			width = (unsigned int)strlen(in.name);
	printf("devices\n  %-*s %-8s %-9s %-9s %-18s %-18s %-18s %s\n", width, "name", "bus", "ops",
	       "coherent", "dma mask", "coherent mask", "bus limit", "map; iommu; pools; why");
	for (unsigned int i = 0; i < n; i++) {
		char limit[24] = "none", more[1024];

		if (dmamap_device_info(dmamap_device_at(p, i), &in))
			continue;
		if (in.bus_dma_limit)
			snprintf(limit, sizeof(limit), "0x%llx", (unsigned long long)in.bus_dma_limit);
		details(&in, more, sizeof(more));
		printf("  %-*s %-8s %-9s %-9s 0x%-16llx 0x%-16llx %-18s %s\n", width, in.name,
		       in.bus[0] ? in.bus : "-", in.ops, in.coherent ? "yes" : "no",
		       (unsigned long long)in.dma_mask, (unsigned long long)in.coherent_dma_mask,
		       limit, more);
	}
}

int cli_info(int argc, char **argv)
{
	struct cli_board board = { .name = "default" };
	const char *svg = NULL;
	bool json = false, named = false;
	struct dmamap_platform *p;
	unsigned int n;
	int ret = 0, status;

	for (int i = 1; i < argc; i++) {
		int took = cli_board_option(&board, argc, argv, &i);

		if (took < 0)
			return 2;
		if (took)
			continue;
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--svg") && i + 1 < argc)
			svg = argv[++i];
		else if ((argv[i][0] != '-' || !strcmp(argv[i], "-")) && !named) {
			board.name = argv[i];
			named = true;
		} else if (argv[i][0] != '-') {
			fprintf(stderr, "dmamap info: one board, not '%s' after '%s' (dmamap info --help)\n",
				argv[i], board.name);
			return 2;
		} else if (!strcmp(argv[i], "--svg")) {
			fprintf(stderr, "dmamap info: --svg needs a FILE (dmamap info --help)\n");
			return 2;
		} else {
			fprintf(stderr, "dmamap info: unknown option %s (dmamap info --help)\n", argv[i]);
			return 2;
		}
	}
	p = cli_open_board(&board, &status);
	if (!p)
		return status;
	n = dmamap_device_count(p);
	if (json) {
		printf("{\"board\":");
		cli_json_write(dmamap_platform_name(p));
		printf(",\"cache_line\":%u", dmamap_cache_line_size(p));
		json_board(p);
		printf(",\"devices\":[");
		for (unsigned int i = 0; i < n; i++) {
			struct dmamap_device_info in;

			if (!dmamap_device_info(dmamap_device_at(p, i), &in))
				json_device(&in, i > 0);
		}
		printf("]}\n");
	} else {
		printf("board %s: cache line %u bytes, %u devices\n", dmamap_platform_name(p),
		       dmamap_cache_line_size(p), n);
		text_board(p);
		text_devices(p);
	}
	if (svg)
		ret = cli_info_svg(p, svg);
	dmamap_platform_destroy(p);
	return ret;
}
