/* SPDX-License-Identifier: MIT */
/*
 * fdt_fuzz's seeds, replayed: the built-in boards' blobs (make fuzz seeds
 * the target with them; the repository keeps no other corpus for it), each
 * whole, and cut short at every 64th byte: the harness survives all of
 * them, and every whole blob still describes its board. The reader's
 * answers to corrupted blobs are tested in tests/of/.
 */
#define LLVMFuzzerTestOneInput fdt_fuzz_one
#include "../../fuzz/fdt_fuzz.c"
#undef LLVMFuzzerTestOneInput
#include <string.h>
#include <dmamap/platform.h>
#include "corpus.h"

/* From ../helpers.h, which does not mix with the harness's own includes. */
bool board_too_big_for_host(const char *name);

TEST(fuzz_corpus_fdt_replays_clean)
{
	const char *const *names = dmamap_platform_builtin_names();
	unsigned int done = 0;

	for (; names && *names; names++) {
		struct dmamap_error err = { 0 };
		struct dmamap_platform *p, *again;
		size_t size = 0;
		const void *blob;
		uint8_t *copy;
		char name[64];

		if (board_too_big_for_host(*names))
			continue;
		p = dmamap_platform_builtin(*names, NULL);
		blob = p ? dmamap_platform_fdt(p, &size) : NULL;
		copy = blob ? malloc(size) : NULL;
		if (copy) {
			memcpy(copy, blob, size);
			snprintf(name, sizeof(name), "%s", dmamap_platform_name(p));
		}
		/* One board at a time: two of the larger ones outgrow a 32-bit address space. */
		dmamap_platform_destroy(p);
		if (!copy)
			continue;
		fprintf(stderr, "replaying the built-in board %s\n", *names);
		fdt_fuzz_one(copy, size);
		for (size_t cut = 0; cut < size; cut += 64)
			fdt_fuzz_one(copy, cut);
		again = dmamap_platform_from_fdt(copy, size, &err);
		CHECK_MSG(again && !strcmp(dmamap_platform_name(again), name),
			  "%s: its blob no longer describes it (%s)", *names,
			  again ? dmamap_platform_name(again) : err.msg);
		dmamap_platform_destroy(again);
		free(copy);
		done++;
	}
	if (!done)
		SKIP("no built-in board has a device tree (a build without libfdt)");
}
