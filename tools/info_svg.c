/* SPDX-License-Identifier: MIT */
/*
 * dmamap info --svg: the board's address map as a picture. The CPU's
 * physical map on top: RAM banks to scale, the gaps between them drawn as
 * a broken axis with their size, and on the banks the bounce pool, CMA
 * and every reserved region. Below, one row per device: the RAM it
 * reaches on the same axis (through its IOMMU: all of it) and, when its
 * bus sees RAM elsewhere, its bus view with the addresses it uses. A dot
 * says whether it is coherent; a legend says what each colour is.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

#define LEFT 200.0   /* labels live left of the axis */
#define WIDTH 760.0  /* the axis */
#define GAP 28.0     /* a broken-axis mark between banks */
#define ROW 46.0

struct axis {
	unsigned int nb;
	struct dmamap_ram_bank banks[DMAMAP_MAX_BANKS];
	u64 total;
	double scale; /* pixels per byte of RAM */
};

static void sort_banks(struct axis *a)
{
	for (unsigned int i = 1; i < a->nb; i++)
		for (unsigned int j = i; j && a->banks[j].start < a->banks[j - 1].start; j--) {
			struct dmamap_ram_bank t = a->banks[j];

			a->banks[j] = a->banks[j - 1];
			a->banks[j - 1] = t;
		}
}

/* Where @addr is drawn, or a negative number when it is in no bank. */
static double x_of(const struct axis *a, phys_addr_t addr)
{
	double x = LEFT;

	for (unsigned int b = 0; b < a->nb; b++) {
		const struct dmamap_ram_bank *k = &a->banks[b];

		if (addr >= k->start && addr <= k->start + k->size)
			return x + (double)(addr - k->start) * a->scale;
		x += (double)k->size * a->scale + GAP;
	}
	return -1;
}

/* [@start, +@size) clipped to each bank, as rectangles at height @y. */
static void span(FILE *f, const struct axis *a, phys_addr_t start, u64 size, double y, double h,
		 const char *fill, const char *title)
{
	for (unsigned int b = 0; b < a->nb && size; b++) {
		const struct dmamap_ram_bank *k = &a->banks[b];
		phys_addr_t s = start > k->start ? start : k->start;
		phys_addr_t e = start + size < k->start + k->size ? start + size : k->start + k->size;

		if (s >= e)
			continue;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
			   "<title>%s</title></rect>\n",
			x_of(a, s), y, x_of(a, e) - x_of(a, s) > 1 ? x_of(a, e) - x_of(a, s) : 1, h,
			fill, title);
	}
}

static void esc_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

static void cpu_map(FILE *f, struct dmamap_platform *p, const struct axis *a)
{
	struct dmamap_swiotlb_stats sw;
	struct dmamap_cma_stats cma;
	struct dmamap_region_info r;
	double x = LEFT;
	char sz[32];

	fprintf(f, "<text x=\"20\" y=\"72\" font-weight=\"bold\">CPU physical map</text>\n");
	for (unsigned int b = 0; b < a->nb; b++) {
		const struct dmamap_ram_bank *k = &a->banks[b];
		double w = (double)k->size * a->scale;

		fprintf(f, "<rect x=\"%.1f\" y=\"58\" width=\"%.1f\" height=\"26\" fill=\"#cfe0f0\" stroke=\"#333\"/>\n",
			x, w);
		fprintf(f, "<text x=\"%.1f\" y=\"98\" font-size=\"10\">0x%llx</text>\n", x,
			(unsigned long long)k->start);
		fprintf(f, "<text x=\"%.1f\" y=\"52\" font-size=\"10\">RAM %s</text>\n", x + 2,
			cli_size_str(k->size, sz, sizeof(sz)));
		x += w;
		if (b + 1 < a->nb) {
			u64 hole = a->banks[b + 1].start - (k->start + k->size);

			/* The broken axis: a zigzag and how much address space it leaves out. */
			fprintf(f, "<path d=\"M%.1f 71 l5 -8 l6 16 l6 -16 l5 8\" stroke=\"#333\" fill=\"none\"/>\n",
				x + 3);
			fprintf(f, "<text x=\"%.1f\" y=\"112\" font-size=\"9\" fill=\"#666\">gap %s</text>\n",
				x - 4, cli_size_str(hole, sz, sizeof(sz)));
			x += GAP;
		}
	}
	fprintf(f, "<text x=\"%.1f\" y=\"98\" font-size=\"10\" text-anchor=\"end\">0x%llx</text>\n",
		x, (unsigned long long)(a->banks[a->nb - 1].start + a->banks[a->nb - 1].size));
	for (unsigned int i = 0; !dmamap_region_info(p, i, &r); i++) {
		const char *fill = strstr(r.use, "CMA") ? "#8c8" : strstr(r.use, "pool") ? "#b8d" :
				   !strcmp(r.use, "released") || !r.size ? NULL : "#999";

		if (fill)
			span(f, a, r.start, r.size, 58, 26, fill, r.name);
	}
	if (!dmamap_swiotlb_stats(p, NULL, &sw))
		span(f, a, sw.start, (u64)sw.total_slots * sw.slot_size, 58, 26, "#f2a541",
		     "swiotlb: the default bounce pool");
	if (!dmamap_cma_stats(p, &cma))
		span(f, a, cma.start, cma.total_pages << PAGE_SHIFT, 58, 26, "#5a5",
		     "CMA: the default area");
}

/* A device's bus view, when its bus sees RAM at other addresses than the CPU does. */
static void bus_view(FILE *f, const struct dmamap_device_info *in, double y)
{
	u64 top = 0;
	char sz[32];

	for (unsigned int r = 0; r < in->nr_ranges; r++)
		if (in->ranges[r].dma_start + in->ranges[r].size > top)
			top = in->ranges[r].dma_start + in->ranges[r].size;
	if (!top)
		return;
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>\n", LEFT,
		y + 4, LEFT + WIDTH, y + 4);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" text-anchor=\"end\" fill=\"#666\">bus 0..0x%llx</text>\n",
		LEFT - 4, y + 8, (unsigned long long)top);
	for (unsigned int r = 0; r < in->nr_ranges; r++) {
		const struct dmamap_dma_range *w = &in->ranges[r];
		double x = LEFT + (double)w->dma_start / (double)top * WIDTH;
		double len = (double)w->size / (double)top * WIDTH;

		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"8\" fill=\"#2b7bb9\" opacity=\"0.55\"/>\n",
			x, y, len > 1 ? len : 1);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\">dma 0x%llx = cpu 0x%llx (%s)</text>\n",
			x + 2, y + 18, (unsigned long long)w->dma_start,
			(unsigned long long)w->cpu_start, cli_size_str(w->size, sz, sizeof(sz)));
	}
}

static void device_row(FILE *f, const struct axis *a, const struct dmamap_device_info *in, double y)
{
	bool mapped = in->nr_ranges && (in->ranges[0].cpu_start != in->ranges[0].dma_start ||
					 in->nr_ranges > 1);
	u64 limit = in->bus_dma_limit && in->bus_dma_limit < in->dma_mask ? in->bus_dma_limit :
									     in->dma_mask;

	fprintf(f, "<circle cx=\"26\" cy=\"%.1f\" r=\"5\" fill=\"%s\"><title>%s</title></circle>\n",
		y + 4, in->coherent ? "#2a2" : "#d60",
		in->coherent ? "coherent" : "non-coherent");
	fprintf(f, "<text x=\"36\" y=\"%.1f\">", y + 8);
	esc_text(f, in->name);
	fprintf(f, "</text>\n<text x=\"36\" y=\"%.1f\" font-size=\"9\" fill=\"#666\">%s%s%s</text>\n",
		y + 20, in->ops, in->iommu[0] ? " via " : "", in->iommu[0] ? in->iommu : "");
	if (in->iommu[0]) {
		for (unsigned int b = 0; b < a->nb; b++)
			span(f, a, a->banks[b].start, a->banks[b].size, y, 8, "#a4a",
			     "through its IOMMU: whatever is mapped");
		return;
	}
	/* The RAM it reaches: covered by a window (or identity), under the mask and limit. */
	for (unsigned int b = 0; b < a->nb; b++) {
		phys_addr_t s = a->banks[b].start, e = s + a->banks[b].size;

		for (unsigned int r = 0; r < (in->nr_ranges ? in->nr_ranges : 1); r++) {
			phys_addr_t cs = s, ce = e;
			u64 dma0 = cs;

			if (in->nr_ranges) {
				const struct dmamap_dma_range *w = &in->ranges[r];

				cs = w->cpu_start > s ? w->cpu_start : s;
				ce = w->cpu_start + w->size < e ? w->cpu_start + w->size : e;
				dma0 = w->dma_start + (cs - w->cpu_start);
			}
			if (cs >= ce || dma0 > limit)
				continue;
			if (dma0 + (ce - cs) - 1 > limit)
				ce = cs + (limit - dma0) + 1;
			span(f, a, cs, ce - cs, y, 8, "#2b7bb9", "reached directly");
		}
	}
	if (mapped)
		bus_view(f, in, y + 14);
}

static void legend(FILE *f, double y)
{
	static const struct {
		const char *fill, *what;
	} item[] = {
		{ "#cfe0f0", "RAM" },          { "#f2a541", "swiotlb bounce pool" },
		{ "#5a5", "default CMA" },     { "#8c8", "per-device CMA" },
		{ "#b8d", "device or restricted pool" }, { "#999", "reserved" },
		{ "#2b7bb9", "reached directly" }, { "#a4a", "through an IOMMU" },
	};
	double x = 20;

	for (size_t i = 0; i < sizeof(item) / sizeof(item[0]); i++) {
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"10\" fill=\"%s\" stroke=\"#333\"/>"
			   "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\">%s</text>\n",
			x, y, item[i].fill, x + 16, y + 9, item[i].what);
		x += 16 + 7.0 * strlen(item[i].what) + 14;
		if (x > LEFT + WIDTH - 120) {
			x = 20;
			y += 16;
		}
	}
	fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"5\" fill=\"#2a2\"/><text x=\"%.0f\" y=\"%.0f\" font-size=\"10\">coherent</text>\n",
		x + 6, y + 5, x + 14, y + 9);
	fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"5\" fill=\"#d60\"/><text x=\"%.0f\" y=\"%.0f\" font-size=\"10\">non-coherent</text>\n",
		x + 86, y + 5, x + 94, y + 9);
}

int cli_info_svg(struct dmamap_platform *p, const char *path)
{
	struct axis a = { 0 };
	unsigned int n = dmamap_device_count(p);
	double y = 130, height;
	FILE *f;

	while (a.nb < DMAMAP_MAX_BANKS && !dmamap_ram_bank(p, a.nb, &a.banks[a.nb]))
		a.total += a.banks[a.nb++].size;
	if (!a.nb) {
		fprintf(stderr, "dmamap info: no RAM to draw (the host has none of its own)\n");
		return 1;
	}
	sort_banks(&a);
	a.scale = (WIDTH - GAP * (a.nb - 1)) / (double)a.total;
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "dmamap: %s: cannot write: %s\n", path, strerror(errno));
		return 1;
	}
	height = y + ROW * n + 60;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "font-family=\"monospace\" font-size=\"11\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		LEFT + WIDTH + 40, height);
	fprintf(f, "<text x=\"20\" y=\"20\" font-size=\"14\">");
	esc_text(f, dmamap_platform_name(p));
	fprintf(f, ": RAM, pools and what each device reaches</text>\n");
	cpu_map(f, p, &a);
	for (unsigned int d = 0; d < n; d++) {
		struct dmamap_device_info in;

		if (!dmamap_device_info(dmamap_device_at(p, d), &in))
			device_row(f, &a, &in, y + ROW * d);
	}
	legend(f, height - 44);
	fprintf(f, "</svg>\n");
	if (fclose(f)) {
		fprintf(stderr, "dmamap: %s: cannot write: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}
