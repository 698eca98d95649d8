/* SPDX-License-Identifier: MIT */
/*
 * dmamap sweep: the correct drivers under many seeds. Each seed is a fresh
 * board whose cache chaos and device schedule it seeds, every driver on
 * every device with a light load, checker on. A seed that loses a byte or
 * draws a report is printed with the command that replays it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../drivers/gallery.h"
#include "cli.h"

int cli_sweep(int argc, char **argv)
{
	const char *board = "default";
	uint64_t seeds = 1000, first = 1;
	unsigned long bad_seeds = 0, units = 0, devices = 0;
	bool progress = isatty(2);
	double t0 = cli_now_s();
	struct dmamap_platform *first_board;
	size_t tree_size = 0;
	void *tree = NULL;
	int status;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--board") && i + 1 < argc) {
			board = argv[++i];
		} else if (!strcmp(argv[i], "--seeds") && i + 1 < argc) {
			if (cli_number(argv[++i], 1, 1ULL << 40, false, &seeds)) {
				fprintf(stderr, "dmamap sweep: --seeds '%s': needs a number from 1 to 2^40\n",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--first") && i + 1 < argc) {
			if (cli_number(argv[++i], 1, ~0ULL >> 1, false, &first)) {
				fprintf(stderr, "dmamap sweep: --first '%s': needs a seed from 1 to 2^63-1\n",
					argv[i]);
				return 2;
			}
		} else if (i + 1 == argc && (!strcmp(argv[i], "--board") || !strcmp(argv[i], "--seeds") ||
					     !strcmp(argv[i], "--first"))) {
			fprintf(stderr, "dmamap sweep: %s needs a value: %s (dmamap sweep --help)\n", argv[i],
				!strcmp(argv[i], "--board") ? "a built-in board's name or a device tree file" :
				!strcmp(argv[i], "--seeds") ? "how many seeds, 1 to 2^40" :
							      "the first seed, 1 to 2^63-1");
			return 2;
		} else {
			fprintf(stderr, "dmamap sweep: unknown option %s (dmamap sweep --help)\n", argv[i]);
			return 2;
		}
	}
	first_board = cli_open_board(&(struct cli_board){ .name = board }, &status);
	if (!first_board)
		return status;
	/* A file is read once (standard input cannot be read again): each seed boards its blob. */
	if (cli_board_is_file(board)) {
		const void *blob = dmamap_platform_fdt(first_board, &tree_size);

		tree = blob ? malloc(tree_size) : NULL;
		if (!tree) {
			fprintf(stderr, "dmamap sweep: %s: no device tree to board again\n", board);
			dmamap_platform_destroy(first_board);
			return 1;
		}
		memcpy(tree, blob, tree_size);
	}
	for (uint64_t seed = first; seed < first + seeds; seed++) {
		struct dmamap_error err = { 0 };
		struct dmamap_platform *p = first_board;
		struct sweep_result r;

		if (!p)
			p = tree ? dmamap_platform_from_fdt(tree, tree_size, &err) :
				   cli_open_board(&(struct cli_board){ .name = board }, &status);
		first_board = NULL;
		if (!p) {
			if (tree)
				fprintf(stderr, "dmamap sweep: %s: %s\n", board, err.msg);
			free(tree);
			return 1;
		}
		dmamap_set_log_hook(p, cli_drop_line, NULL);
		sweep_seed(p, seed, &r);
		dmamap_platform_destroy(p);
		units += r.units;
		devices = r.devices;
		if (r.bad_units || r.reports) {
			bad_seeds++;
			printf("seed %llu: %lu units lost or wrong, %lu reports; first: %s\n"
			       "  replay: dmamap sweep --board %s --first %llu --seeds 1\n",
			       (unsigned long long)seed, r.bad_units, r.reports, r.first_bad, board,
			       (unsigned long long)seed);
		}
		if (progress && (seed - first) % 100 == 99)
			fprintf(stderr, "\r  %llu/%llu seeds, %lu failed", (unsigned long long)(seed - first + 1),
				(unsigned long long)seeds, bad_seeds);
	}
	free(tree);
	if (progress)
		fprintf(stderr, "\r%50s\r", "");
	printf("sweep: board %s, %llu seeds from %llu, %lu drivers each, %lu units checked: %lu seeds failed (%.1f s, %.1f seeds/s)\n",
	       board, (unsigned long long)seeds, (unsigned long long)first, devices, units, bad_seeds,
	       cli_now_s() - t0, seeds / (cli_now_s() - t0));
	return bad_seeds ? 1 : 0;
}
