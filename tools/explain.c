/* SPDX-License-Identifier: MIT */
/*
 * dmamap explain BOARD NODE: one device's DMA configuration as Linux
 * derives it, step by step with the kernel function behind each rule
 * (dmamap_of_explain()), then what the board made of it: the ops, and
 * which buffers will bounce and why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

#define EXPLAIN_ROOM (64u << 10)

/* Whether every byte of RAM is reachable without bouncing, else the first CPU address that is not. */
static bool reaches_all(struct dmamap_platform *p, const struct dmamap_device_info *in,
			phys_addr_t *first_bad)
{
	u64 top = in->bus_dma_limit && in->bus_dma_limit < in->dma_mask ? in->bus_dma_limit :
									   in->dma_mask;
	struct dmamap_ram_bank b;

	for (unsigned int i = 0; !dmamap_ram_bank(p, i, &b); i++) {
		for (phys_addr_t a = b.start; a < b.start + b.size;) {
			phys_addr_t next = 0;
			bool ok = false;

			if (!in->nr_ranges) {
				ok = a <= top;
				next = ok ? (top < b.start + b.size - 1 ? top + 1 : b.start + b.size) : 0;
			}
			for (unsigned int r = 0; r < in->nr_ranges && !ok; r++) {
				const struct dmamap_dma_range *w = &in->ranges[r];
				u64 dma;

				if (a < w->cpu_start || a - w->cpu_start >= w->size)
					continue;
				dma = w->dma_start + (a - w->cpu_start);
				if (dma > top)
					continue;
				ok = true;
				next = w->cpu_start + w->size;
				if (top - w->dma_start < w->size)
					next = w->cpu_start + (top - w->dma_start) + 1;
			}
			if (!ok) {
				*first_bad = a;
				return false;
			}
			a = next;
		}
	}
	return true;
}

static void result(struct dmamap_platform *p, struct device *dev)
{
	struct dmamap_device_info in;
	phys_addr_t bad = 0;
	char how[256];

	if (dmamap_device_info(dev, &in))
		return;
	cli_describe_ops(dev, how, sizeof(how));
	printf("result\n  ops: %s\n", how);
	if (!in.coherent)
		printf("  non-coherent: every map, unmap and sync cleans or invalidates the CPU cache (arch_sync_dma_for_device/_for_cpu)\n");
	if (in.restricted_pool_size)
		printf("  bounces: every streaming mapping, through its restricted pool at 0x%llx (swiotlb_map)\n",
		       (unsigned long long)in.restricted_pool);
	else if (in.iommu[0])
		printf("  bounces: nothing; the IOMMU maps any page where the device can reach it (iommu_dma_map_page)\n");
	else if (!strcmp(in.ops, "dmabounce"))
		printf("  bounces: buffers its bus cannot reach, through dmabounce's pools\n");
	else if (reaches_all(p, &in, &bad))
		printf("  bounces: nothing; its mask, bus limit and map reach all of RAM\n");
	else
		printf("  bounces: buffers from CPU 0x%llx on (out of its mask, bus limit or map: dma_capable() fails), through swiotlb (swiotlb_map)\n",
		       (unsigned long long)bad);
}

int cli_explain(int argc, char **argv)
{
	struct cli_board board = { .name = NULL };
	struct dmamap_ram_bank ram[DMAMAP_MAX_BANKS];
	struct dmamap_of_options opts = { 0 };
	struct dmamap_error err = { 0 };
	struct dmamap_device_info in;
	const char *node = NULL, *path;
	struct dmamap_platform *p;
	int status;
	struct device *dev = NULL;
	const void *blob;
	size_t size;
	char *out;
	int ret;

	for (int i = 1; i < argc; i++) {
		int took = cli_board_option(&board, argc, argv, &i);

		if (took < 0)
			return 2;
		if (took)
			continue;
		if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "dmamap explain: unknown option %s (dmamap explain --help)\n", argv[i]);
			return 2;
		}
		if (!board.name)
			board.name = argv[i];
		else if (!node)
			node = argv[i];
		else {
			fprintf(stderr, "dmamap explain: one board and one node, not '%s' too\n", argv[i]);
			return 2;
		}
	}
	if (!board.name) {
		fprintf(stderr, "dmamap explain: a BOARD and a NODE are needed (dmamap explain --help)\n");
		return 2;
	}
	if (!node) {
		fprintf(stderr, "dmamap explain: which NODE of %s? a device's name, as 'dmamap info %s' lists them, or a node's full path\n",
			board.name, board.name);
		return 2;
	}
	p = cli_open_board(&board, &status);
	if (!p)
		return status;
	blob = dmamap_platform_fdt(p, &size);
	path = node;
	if (node[0] != '/') {
		dev = dmamap_device_lookup(p, node);
		if (!dev || dmamap_device_info(dev, &in) || !in.path[0]) {
			fprintf(stderr, "dmamap explain: board %s has no device %s from its tree (dmamap info %s lists them; a node's full path works too)\n",
				board.name, node, board.name);
			dmamap_platform_destroy(p);
			return 1;
		}
		path = in.path;
	}
	if (!blob) {
		fprintf(stderr, "dmamap explain: board %s has no device tree to explain\n", board.name);
		dmamap_platform_destroy(p);
		return 1;
	}
	/* The RAM the board was built with (the tree's, or --ram's). */
	while (opts.nr_ram < DMAMAP_MAX_BANKS && !dmamap_ram_bank(p, opts.nr_ram, &ram[opts.nr_ram]))
		opts.nr_ram++;
	opts.ram = ram;
	out = malloc(EXPLAIN_ROOM);
	ret = out ? dmamap_of_explain(blob, size, &opts, path, out, EXPLAIN_ROOM, &err) : -ENOMEM;
	if (ret) {
		fprintf(stderr, "dmamap explain: %s\n", out ? err.msg : "out of memory");
		free(out);
		dmamap_platform_destroy(p);
		return 1;
	}
	printf("%s on %s, as Linux configures it\n", path, dmamap_platform_name(p));
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
		printf("  %s\n", line);
	if (!dev) {
		for (unsigned int i = 0; i < dmamap_device_count(p); i++)
			if (!dmamap_device_info(dmamap_device_at(p, i), &in) && !strcmp(in.path, path))
				dev = dmamap_device_at(p, i);
	}
	if (dev)
		result(p, dev);
	free(out);
	dmamap_platform_destroy(p);
	return 0;
}
