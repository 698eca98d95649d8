/* SPDX-License-Identifier: MIT */
/*
 * The fuzz targets' stored inputs, replayed by the ordinary test build: each
 * target's harness is compiled here with its entry point renamed, and every
 * file of fuzz/corpus/NAME/ goes through it, in name order, in one process
 * as libFuzzer would run them. A harness aborts when an invariant breaks,
 * which fails the test; the input it was on is the last line on stderr.
 * An input that runs longer than INPUT_SECONDS fails it too.
 */
#ifndef DMAMAP_TESTS_FUZZ_CORPUS_H
#define DMAMAP_TESTS_FUZZ_CORPUS_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "../tap.h"

/*
 * No stored input takes a second in this build; one that takes this long
 * has started to hang (the test's own timeout ends one that never returns).
 */
#define INPUT_SECONDS 20

typedef int (*fuzz_one_fn)(const uint8_t *data, size_t size);

/* Every file of fuzz/corpus/@name through @one; how many there were. */
static inline unsigned int replay_corpus(const char *name, fuzz_one_fn one)
{
	char dir[256], path[512];
	struct dirent **ents;
	unsigned int done = 0;
	int n;

	snprintf(dir, sizeof(dir), "fuzz/corpus/%s", name);
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0) {
		CHECK_MSG(false, "%s: cannot list it (the tests run from the top of the tree)", dir);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		FILE *f;
		uint8_t *data;
		long len;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		f = ents[i]->d_name[0] == '.' ? NULL : fopen(path, "rb");
		free(ents[i]);
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		data = malloc(len > 0 ? (size_t)len : 1);
		if (data && len >= 0 && fread(data, 1, (size_t)len, f) == (size_t)len) {
			struct timespec t0, t1;

			fprintf(stderr, "replaying %s\n", path);
			clock_gettime(CLOCK_MONOTONIC, &t0);
			one(data, (size_t)len);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			CHECK_MSG(t1.tv_sec - t0.tv_sec < INPUT_SECONDS, "%s took %ld s", path,
				  (long)(t1.tv_sec - t0.tv_sec));
			done++;
		}
		free(data);
		fclose(f);
	}
	free(ents);
	return done;
}

#endif
