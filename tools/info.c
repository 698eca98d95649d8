/* SPDX-License-Identifier: MIT */
/*
 * dmamap info: each device's DMA configuration as the kernel would derive
 * it (ops, coherency, windows, bus limit, masks, IOMMU, pools), as a table
 * or JSON, and on request an SVG picture of the board's address map.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"

/* Names come from the tree: quote what JSON cannot carry as is. */
static const char *json_str(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in && o + 7 < len; in++) {
		unsigned char c = (unsigned char)*in;

		if (c == '"' || c == '\\')
			o += (size_t)snprintf(out + o, len - o, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			o += (size_t)snprintf(out + o, len - o, "\\u%04x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
	return out;
}

static void json_ranges(const struct dmamap_device_info *in)
{
	printf("[");
	for (unsigned int r = 0; r < in->nr_ranges; r++)
		printf("%s{\"cpu\":\"0x%llx\",\"dma\":\"0x%llx\",\"size\":\"0x%llx\"}",
		       r ? "," : "", (unsigned long long)in->ranges[r].cpu_start,
		       (unsigned long long)in->ranges[r].dma_start,
		       (unsigned long long)in->ranges[r].size);
	printf("]");
}

static void text_ranges(const struct dmamap_device_info *in, char *out, size_t len)
{
	size_t n = 0;

	if (!in->nr_ranges) {
		snprintf(out, len, "identity");
		return;
	}
	for (unsigned int r = 0; r < in->nr_ranges && n < len; r++)
		n += (size_t)snprintf(out + n, len - n, "%scpu 0x%llx -> dma 0x%llx (+0x%llx)",
				      r ? ", " : "",
				      (unsigned long long)in->ranges[r].cpu_start,
				      (unsigned long long)in->ranges[r].dma_start,
				      (unsigned long long)in->ranges[r].size);
}

/* An address map: RAM banks, the bounce pool, CMA, and what each device reaches. */
static int write_svg(struct dmamap_platform *p, const char *path)
{
	struct dmamap_ram_bank banks[DMAMAP_MAX_BANKS];
	struct dmamap_swiotlb_stats sw;
	struct dmamap_cma_stats cma;
	unsigned int nb = 0, n = dmamap_device_count(p);
	double lo = 1e30, hi = 0, w = 900;
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "dmamap info: cannot write %s\n", path);
		return 1;
	}
	while (nb < DMAMAP_MAX_BANKS && !dmamap_ram_bank(p, nb, &banks[nb])) {
		lo = lo < (double)banks[nb].start ? lo : (double)banks[nb].start;
		hi = hi > (double)(banks[nb].start + banks[nb].size) ?
			     hi : (double)(banks[nb].start + banks[nb].size);
		nb++;
	}
	if (!nb) {
		fclose(f);
		fprintf(stderr, "dmamap info: no RAM to draw\n");
		return 1;
	}
	/* Banks are drawn side by side, each scaled into its own slot. */
#define X(b, a) (20 + (b) * (w / nb) + ((double)(a) - (double)banks[b].start) / \
		 (double)banks[b].size * (w / nb - 10))
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%u\" "
		   "font-family=\"monospace\" font-size=\"11\">\n",
		(int)w + 40, 120 + 26 * n);
	fprintf(f, "<text x=\"20\" y=\"18\">%s: RAM, pools and what each device reaches</text>\n",
		dmamap_platform_name(p));
	for (unsigned int b = 0; b < nb; b++) {
		fprintf(f, "<rect x=\"%.1f\" y=\"30\" width=\"%.1f\" height=\"24\" fill=\"#cde\" stroke=\"#333\"/>\n",
			X(b, banks[b].start), X(b, banks[b].start + banks[b].size) - X(b, banks[b].start));
		fprintf(f, "<text x=\"%.1f\" y=\"68\">RAM 0x%llx +0x%llx</text>\n",
			X(b, banks[b].start), (unsigned long long)banks[b].start,
			(unsigned long long)banks[b].size);
	}
	for (unsigned int b = 0; b < nb; b++) {
		phys_addr_t e = banks[b].start + banks[b].size;

		if (!dmamap_swiotlb_stats(p, NULL, &sw) && sw.start >= banks[b].start && sw.start < e)
			fprintf(f, "<rect x=\"%.1f\" y=\"30\" width=\"%.1f\" height=\"24\" fill=\"#fb6\"><title>swiotlb</title></rect>\n",
				X(b, sw.start), X(b, sw.start + sw.total_slots * sw.slot_size) - X(b, sw.start));
		if (!dmamap_cma_stats(p, &cma) && cma.start >= banks[b].start && cma.start < e)
			fprintf(f, "<rect x=\"%.1f\" y=\"30\" width=\"%.1f\" height=\"24\" fill=\"#9c9\"><title>CMA</title></rect>\n",
				X(b, cma.start), X(b, cma.start + cma.total_pages * PAGE_SIZE) - X(b, cma.start));
	}
	for (unsigned int d = 0; d < n; d++) {
		struct dmamap_device_info in;
		double y = 90 + 26 * d;

		dmamap_device_info(dmamap_device_at(p, d), &in);
		fprintf(f, "<text x=\"20\" y=\"%.0f\">%s (%s%s%s)</text>\n", y + 12, in.name, in.ops,
			in.coherent ? ", coherent" : "", in.iommu[0] ? ", behind an IOMMU" : "");
		for (unsigned int b = 0; b < nb; b++) {
			/* Reachable: covered by a window (or identity) and under the mask and limit. */
			u64 limit = in.bus_dma_limit && in.bus_dma_limit < in.dma_mask ?
					    in.bus_dma_limit : in.dma_mask;
			phys_addr_t s = banks[b].start, e = s + banks[b].size;

			for (unsigned int r = 0; r <= in.nr_ranges; r++) {
				phys_addr_t cs = s, ce = e;
				u64 dma0 = cs;

				if (in.iommu[0])
					break; /* through the IOMMU: anything mapped */
				if (in.nr_ranges) {
					if (r == in.nr_ranges)
						break;
					cs = in.ranges[r].cpu_start > s ? in.ranges[r].cpu_start : s;
					ce = in.ranges[r].cpu_start + in.ranges[r].size < e ?
						     in.ranges[r].cpu_start + in.ranges[r].size : e;
					dma0 = in.ranges[r].dma_start + (cs - in.ranges[r].cpu_start);
				} else if (r) {
					break;
				}
				if (cs >= ce || dma0 > limit)
					continue;
				if (dma0 + (ce - cs) - 1 > limit)
					ce = cs + (limit - dma0) + 1;
				fprintf(f, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"8\" fill=\"#47a\"/>\n",
					X(b, cs), y + 16, X(b, ce) - X(b, cs));
			}
			if (in.iommu[0])
				fprintf(f, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"8\" fill=\"#a47\"/>\n",
					X(b, s), y + 16, X(b, e) - X(b, s));
		}
	}
	fprintf(f, "</svg>\n");
#undef X
	return fclose(f) ? 1 : 0;
}

int cli_info(int argc, char **argv)
{
	struct cli_board board = { .name = "default" };
	const char *svg = NULL;
	bool json = false;
	char esc[3][DMAMAP_PATH_MAX * 6];
	struct dmamap_platform *p;
	unsigned int n;
	int ret = 0;

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
		else if (argv[i][0] != '-')
			board.name = argv[i];
		else {
			fprintf(stderr, "dmamap info: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	p = cli_open_board(&board);
	if (!p)
		return 1;
	n = dmamap_device_count(p);
	if (json)
		printf("{\"board\":\"%s\",\"cache_line\":%u,\"devices\":[",
		       json_str(dmamap_platform_name(p), esc[0], sizeof(esc[0])),
		       dmamap_cache_line_size(p));
	else
		printf("board %s: cache line %u bytes, %u devices\n", dmamap_platform_name(p),
		       dmamap_cache_line_size(p), n);
	for (unsigned int i = 0; i < n; i++) {
		struct dmamap_device_info in;
		char ranges[512];

		dmamap_device_info(dmamap_device_at(p, i), &in);
		if (json) {
			printf("%s{\"name\":\"%s\",\"path\":\"%s\",\"model\":\"%s\",\"ops\":\"%s\",\"coherent\":%s,"
			       "\"dma_mask\":\"0x%llx\",\"coherent_dma_mask\":\"0x%llx\","
			       "\"bus_dma_limit\":\"0x%llx\",\"iommu\":\"%s\",\"stream_ids\":[",
			       i ? "," : "", json_str(in.name, esc[0], sizeof(esc[0])),
			       json_str(in.path, esc[1], sizeof(esc[1])), in.model, in.ops,
			       in.coherent ? "true" : "false",
			       (unsigned long long)in.dma_mask,
			       (unsigned long long)in.coherent_dma_mask,
			       (unsigned long long)in.bus_dma_limit,
			       json_str(in.iommu, esc[2], sizeof(esc[2])));
			for (unsigned int k = 0; k < in.nr_iommu_ids; k++)
				printf("%s%u", k ? "," : "", in.iommu_ids[k]);
			printf("],\"map\":");
			json_ranges(&in);
			printf(",\"restricted_pool\":\"0x%llx+0x%llx\",\"coherent_pool\":%s}",
			       (unsigned long long)in.restricted_pool,
			       (unsigned long long)in.restricted_pool_size,
			       in.coherent_pool ? "true" : "false");
			continue;
		}
		text_ranges(&in, ranges, sizeof(ranges));
		char iommu[256] = "";
		/* The node path, when the name alone does not say where it is. */
		const char *node = in.path[0] && strcmp(in.path + 1, in.name) ? in.path : NULL;

		if (in.iommu[0]) {
			size_t at = (size_t)snprintf(iommu, sizeof(iommu), ", iommu %s stream%s", in.iommu,
						     in.nr_iommu_ids > 1 ? "s" : "");

			for (unsigned int k = 0; k < in.nr_iommu_ids && at < sizeof(iommu); k++)
				at += (size_t)snprintf(iommu + at, sizeof(iommu) - at, "%s0x%x",
						       k ? "," : " ", in.iommu_ids[k]);
		}
		printf("  %-18s %-9s %-10s mask 0x%llx, limit 0x%llx, map: %s%s%s%s%s%s\n",
		       in.name, in.ops, in.coherent ? "coherent" : "non-coh",
		       (unsigned long long)in.dma_mask, (unsigned long long)in.bus_dma_limit,
		       ranges, iommu,
		       in.restricted_pool_size ? ", restricted pool" : "",
		       in.coherent_pool ? ", own coherent pool" : "",
		       node ? ", node " : "", node ? node : "");
	}
	if (json)
		printf("]}\n");
	if (svg)
		ret = write_svg(p, svg);
	dmamap_platform_destroy(p);
	return ret;
}
