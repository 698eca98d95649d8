/* SPDX-License-Identifier: MIT */
/*
 * fdt_fuzz's seeds, replayed: the built-in boards' blobs (make fuzz seeds
 * the target with them; the repository keeps no other corpus for it).
 */
#define LLVMFuzzerTestOneInput fdt_fuzz_one
#include "../../fuzz/fdt_fuzz.c"
#undef LLVMFuzzerTestOneInput
#include <string.h>
#include <dmamap/platform.h>
#include "corpus.h"

TEST(fuzz_corpus_fdt_replays_clean)
{
	const char *const *names = dmamap_platform_builtin_names();
	unsigned int done = 0;

	for (; names && *names; names++) {
		struct dmamap_platform *p = dmamap_platform_builtin(*names, NULL);
		size_t size = 0;
		const void *blob = p ? dmamap_platform_fdt(p, &size) : NULL;
		uint8_t *copy = blob ? malloc(size) : NULL;

		if (copy) {
			memcpy(copy, blob, size);
			fprintf(stderr, "replaying the built-in board %s\n", *names);
			fdt_fuzz_one(copy, size);
			done++;
		}
		free(copy);
		dmamap_platform_destroy(p);
	}
	if (!done)
		SKIP("no built-in board has a device tree (a build without libfdt)");
}
