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
		} else {
			fprintf(stderr, "dmamap sweep: unknown option %s, or a value missing (dmamap sweep --help)\n",
				argv[i]);
			return 2;
		}
	}
	for (uint64_t seed = first; seed < first + seeds; seed++) {
		struct dmamap_platform *p = cli_open_board(&(struct cli_board){ .name = board });
		struct sweep_result r;

		if (!p)
			return 1;
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
	if (progress)
		fprintf(stderr, "\r%50s\r", "");
	printf("sweep: board %s, %llu seeds from %llu, %lu drivers each, %lu units checked: %lu seeds failed (%.1f s, %.1f seeds/s)\n",
	       board, (unsigned long long)seeds, (unsigned long long)first, devices, units, bad_seeds,
	       cli_now_s() - t0, seeds / (cli_now_s() - t0));
	return bad_seeds ? 1 : 0;
}
