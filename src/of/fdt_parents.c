/* SPDX-License-Identifier: MIT */
/*
 * Every node's parent, found once. libfdt keeps no parent links: its
 * fdt_parent_offset() walks from the root to the node each time, and the
 * rules that climb the tree (dma-ranges, enabled ancestors, PCI hosts)
 * ask it for every device, which made the walk most of a board's
 * creation. One pass in node order records each node's parent; a lookup
 * is then a binary search, since the pass meets offsets in increasing
 * order.
 */
#include "../lib/lib.h"
#include "../lib/mem.h"
#include "fdt_parse.h"

void dmamap__fdt_parents_index(struct fdt_parse *ps)
{
	unsigned int n = 0, i = 0;
	int node, depth = 0, *stack;

	for (node = fdt_next_node(ps->fdt, -1, &depth); node >= 0;
	     node = fdt_next_node(ps->fdt, node, &depth))
		n++;
	/* Offsets, parents, and the path from the root to the node in hand (depth < n). */
	ps->node_offsets = dmamap__calloc(3 * (size_t)n, sizeof(int));
	if (!ps->node_offsets)
		return; /* lookups fall back to libfdt's walk */
	ps->node_parents = ps->node_offsets + n;
	stack = ps->node_parents + n;
	/* From before the root, whose depth is then 0. */
	depth = -1;
	/* A checked blob has as many nodes the second time, none deeper than their number. */
	for (node = fdt_next_node(ps->fdt, -1, &depth); node >= 0 && i < n && (unsigned int)depth < n;
	     node = fdt_next_node(ps->fdt, node, &depth), i++) {
		stack[depth] = node;
		ps->node_offsets[i] = node;
		ps->node_parents[i] = depth ? stack[depth - 1] : -FDT_ERR_NOTFOUND;
	}
	ps->nr_nodes = i;
}

void dmamap__fdt_parents_free(struct fdt_parse *ps)
{
	free(ps->node_offsets);
	ps->node_offsets = ps->node_parents = NULL;
	ps->nr_nodes = 0;
}

int dmamap__fdt_parent(struct fdt_parse *ps, int node)
{
	unsigned int lo = 0, hi = ps->nr_nodes;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (ps->node_offsets[mid] == node)
			return ps->node_parents[mid];
		if (ps->node_offsets[mid] < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Not a node's offset, or no index: libfdt says what it says of it. */
	return fdt_parent_offset(ps->fdt, node);
}
