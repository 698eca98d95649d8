/* SPDX-License-Identifier: MIT */
/*
 * dmamap run DRIVER.so [MODEL.so...] [options]: load the shared objects
 * (their constructors register drivers, models and tests), then run them
 * as dmamap_run_main() does. The replay line starts with this command.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/run.h>
#include "cli.h"

int cli_run(int argc, char **argv)
{
	char replay[1024] = "dmamap run";
	int nobj = 0;

	while (1 + nobj < argc && strncmp(argv[1 + nobj], "-", 1)) {
		const char *path = argv[1 + nobj];
		/* dlopen() looks a bare name up in the library path: a file here is meant. */
		char local[1100];

		snprintf(local, sizeof(local), "%s%s", strchr(path, '/') ? "" : "./", path);
		if (!dlopen(local, RTLD_NOW | RTLD_GLOBAL)) {
			/* dlerror() names the file and the reason. */
			fprintf(stderr, "dmamap: %s\n", dlerror());
			return 1;
		}
		if (strlen(replay) + strlen(path) + 2 < sizeof(replay)) {
			strcat(replay, " ");
			strcat(replay, path);
		}
		nobj++;
	}
	if (!nobj) {
		/* No driver yet: the options are the harness's own, and so is their help. */
		bool help = argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
		char *help_argv[] = { "dmamap run DRIVER.so [MODEL.so...]", "--help", NULL };

		if (help)
			return dmamap_run_main(2, help_argv);
		fprintf(stderr, "usage: dmamap run DRIVER.so [MODEL.so...] [OPTIONS] (dmamap run --help; docs/run.md)\n");
		return 2;
	}
	argv[nobj] = replay;
	return dmamap_run_main(argc - nobj, argv + nobj);
}
