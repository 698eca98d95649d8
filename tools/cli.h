/* SPDX-License-Identifier: MIT */
#ifndef DMAMAP_TOOLS_CLI_H
#define DMAMAP_TOOLS_CLI_H

#include <dmamap/dmamap.h>

int cli_demo(int argc, char **argv);
int cli_info(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_sweep(int argc, char **argv);
int cli_run(int argc, char **argv);

/*
 * A board by built-in name, or a device tree file (name with a slash or a
 * .dts/.dtb suffix); @ram ("START+SIZE,...", or NULL) replaces its /memory.
 */
struct dmamap_platform *cli_open_board(const char *name, const char *ram);
/* A log hook for boards whose reports the command sums up itself. */
void cli_drop_line(void *ctx, int level, const char *line);
/* Seconds of the monotonic clock. */
double cli_now_s(void);
/* One line saying which ops a device uses and why. */
void cli_describe_ops(struct device *dev, char *buf, size_t len);

#endif
