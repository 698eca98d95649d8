/* SPDX-License-Identifier: MIT */
/*
 * What the driver-model tests share: a log hook that keeps every line with
 * its level, and the default board as a tree (its devices have nodes).
 */
#ifndef DMAMAP_TESTS_DRIVER_HELPERS_H
#define DMAMAP_TESTS_DRIVER_HELPERS_H

#include <dmamap/platform_device.h>
#include <dmamap/hw/memcpy-engine.h>
#include "../helpers.h"

#define LINES_MAX 32

/* Every log line a board gave, with its level. */
struct line_log {
	unsigned int n;
	int level[LINES_MAX];
	char line[LINES_MAX][512];
};

static inline void line_hook(void *ctx, int level, const char *line)
{
	struct line_log *l = ctx;

	if (l->n < LINES_MAX) {
		l->level[l->n] = level;
		snprintf(l->line[l->n], sizeof(l->line[0]), "%s", line);
	}
	l->n++;
}

/* The index of the first line containing @s, or -1. */
static inline int line_with(const struct line_log *l, const char *s)
{
	for (unsigned int i = 0; i < l->n && i < LINES_MAX; i++)
		if (strstr(l->line[i], s))
			return (int)i;
	return -1;
}

/*
 * The default board, quiet, with its lines in @l (when not NULL). Skips
 * the test where the board is not read from boards/default.dts (a build
 * without libfdt): its devices would have no node to match.
 */
static inline struct dmamap_platform *tree_board(struct line_log *l)
{
	struct dmamap_platform *p = quiet_board();

	if (p && !dmamap_platform_fdt(p, NULL)) {
		dmamap_platform_destroy(p);
		SKIP("the default board has no device tree in this build");
	}
	if (p && l)
		dmamap_set_log_hook(p, line_hook, l);
	return p;
}

/* The index of @dev on its board, or -1. */
static inline int device_index(struct dmamap_platform *p, struct device *dev)
{
	for (unsigned int i = 0; i < dmamap_device_count(p); i++)
		if (dmamap_device_at(p, i) == dev)
			return (int)i;
	return -1;
}

#endif
