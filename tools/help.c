/* SPDX-License-Identifier: MIT */
/*
 * The commands and what each says for itself: `dmamap --help`,
 * `dmamap help COMMAND`, `dmamap COMMAND --help` and `dmamap --version`.
 * Help goes to stdout with exit 0; a usage error to stderr with exit 2,
 * naming what was wrong and what would be right.
 */
#include <stdio.h>
#include <string.h>
#include <dmamap/version.h>
#include "cli.h"

#define BOARD_OPTS                                                                               \
	"  --ram START+SIZE[,...]  the RAM, for a tree whose /memory firmware fills in\n"           \
	"  -I DIR                  a .dts's include directory (a kernel tree's\n"                   \
	"                          scripts/dtc/include-prefixes), repeatable\n"                     \
	"  --overlay FILE          an overlay (.dtbo, .dtso) applied to the tree, repeatable\n"

static const struct cli_command commands[] = {
	{ "demo", cli_demo, "run every example driver on every device of a board",
	  "usage: dmamap demo [pipeline] [--board NAME|FILE] [--bug KIND|list] [--chaos SEED]\n"
	  "                   [--scale N] [--threaded] [--verbose] [--json] [--ram ...] [-I DIR]\n"
	  "                   [--overlay FILE]\n\n"
	  "Runs the correct example drivers on every device of the board and checks every byte\n"
	  "the devices and the CPU see, then the media pipeline (one shared buffer through a\n"
	  "camera, an ISP and a display); with --bug, one kind of driver bug, and which devices\n"
	  "it breaks and what the checker says. With pipeline, the pipeline only: its buffer\n"
	  "allocated for its devices beside the system heap's, copies and bounces counted.\n\n"
	  "  --board NAME|FILE       a built-in board or a device tree (default: default)\n"
	  "  --bug KIND|list         run one kind of bug; list names them\n"
	  "  --chaos SEED            seeded cache evictions and prefetches\n"
	  "  --scale N               N times the work per device (1..1000)\n"
	  "  --threaded              devices run on their own thread\n"
	  "  --verbose               every report line, not only the sums\n"
	  "  --json                  the results as JSON\n" BOARD_OPTS },
	{ "info", cli_info, "show a board and each device's DMA configuration",
	  "usage: dmamap info [BOARD] [--json] [--svg FILE] [--ram ...] [-I DIR] [--overlay FILE]\n\n"
	  "The board as the kernel sets it up (RAM, zones, bounce pool, CMA, reserved regions)\n"
	  "and each device's bus, ops, coherency, masks, bus limit, map, IOMMU and pools.\n\n"
	  "  BOARD                   a built-in board or a device tree file (default: default);\n"
	  "                          - reads a .dtb or .dts from standard input\n"
	  "  --json                  as JSON\n"
	  "  --svg FILE              the address map as an SVG picture\n" BOARD_OPTS },
	{ "explain", cli_explain, "derive one device's DMA configuration as Linux does",
	  "usage: dmamap explain BOARD NODE [--ram ...] [-I DIR] [--overlay FILE]\n\n"
	  "Each rule that made NODE's DMA configuration, with the kernel function that applies\n"
	  "it, then the ops the board gives it and what will bounce.\n\n"
	  "  BOARD                   a built-in board or a device tree file\n"
	  "  NODE                    a device's name (as info lists it) or a node's full path\n"
	  BOARD_OPTS },
	{ "sweep", cli_sweep, "run the correct drivers under many seeds",
	  "usage: dmamap sweep [--board NAME|FILE] [--seeds N] [--first SEED]\n\n"
	  "Every correct example driver on every device, under N chaos and schedule seeds;\n"
	  "a seed that loses or corrupts a byte is named.\n\n"
	  "  --board NAME|FILE       a built-in board or a device tree (default: default)\n"
	  "  --seeds N               how many seeds (default: 1000)\n"
	  "  --first SEED            the first seed (default: 1)\n" },
	{ "run", cli_run, "run your driver and device model across boards and seeds", NULL },
	{ "bench", cli_bench, "the speed ratios, or dma_map_benchmark's measurement", NULL },
	{ "nvme", cli_nvme, "the example NVMe driver on a real function, through VFIO",
	  "usage: dmamap nvme BDF [--bench] [--no-stray] [--poll] [--unsafe-noiommu]\n\n"
	  "Holds the PCI function BDF (0000:01:00.0, bound to vfio-pci) through VFIO and runs\n"
	  "the example NVMe driver on it: Identify, blocks written and read back through\n"
	  "dma_map_single() (registered memory and not) and dma_map_sg(), then a read into an\n"
	  "IOVA nobody mapped, which the IOMMU must refuse. It overwrites blocks 8-631.\n\n"
	  "  --bench                 map+unmap costs: registered, unregistered, host identity\n"
	  "  --no-stray              skip the read into an unmapped IOVA\n"
	  "  --poll                  poll the I/O queue (default: its MSI-X interrupt)\n"
	  "  --unsafe-noiommu        no IOMMU: physical addresses, a hugepage arena; through\n"
	  "                          VFIO's no-IOMMU mode, or sysfs (polled)\n"
	  "docs/vfio.md tells how to bind a function and what the machine needs.\n" },
	{ NULL, NULL, NULL, NULL },
};

const struct cli_command *cli_command(const char *name)
{
	for (const struct cli_command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

void cli_list_commands(FILE *f, const char *sep)
{
	for (const struct cli_command *c = commands; c->name; c++)
		fprintf(f, "%s%s", c == commands ? "" : sep, c->name);
}

void cli_usage(FILE *f)
{
	fprintf(f, "usage: dmamap COMMAND [OPTIONS]\n       dmamap help COMMAND | --help | --version\n\ncommands:\n");
	for (const struct cli_command *c = commands; c->name; c++)
		fprintf(f, "  %-8s %s\n", c->name, c->summary);
	fprintf(f, "\nboards:");
	for (const char *const *n = dmamap_platform_builtin_names(); *n; n++)
		fprintf(f, " %s", *n);
	fprintf(f, "\n`dmamap COMMAND --help` says what a command takes.\n");
}

int cli_help(const char *name)
{
	const struct cli_command *c = cli_command(name);
	char help[] = "--help", *argv[] = { (char *)name, help, NULL };

	if (!c) {
		fprintf(stderr, "dmamap: no command '%s' (commands: ", name);
		cli_list_commands(stderr, ", ");
		fprintf(stderr, ")\n");
		return 2;
	}
	if (!c->help)
		return c->run(2, argv); /* it says its own */
	fputs(c->help, stdout);
	return 0;
}

void cli_version(void)
{
	struct dmamap_error err = { 0 };

	/* A build without libfdt answers every tree with -ENOSYS. */
	dmamap_platform_from_fdt(NULL, 0, &err);
	printf("dmamap %s (library %s; device trees: %s)\n", DMAMAP_VERSION, dmamap_version(),
	       err.code == -ENOSYS ? "not read, built without libfdt" : "read with libfdt");
}
