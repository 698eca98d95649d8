/* SPDX-License-Identifier: MIT */
/* api_fuzz's stored inputs (fuzz/corpus/api/), replayed: no invariant of the target breaks. */
#define LLVMFuzzerTestOneInput api_fuzz_one
#include "../../fuzz/api_fuzz.c"
#undef LLVMFuzzerTestOneInput
#include "corpus.h"

TEST_TIMEOUT(fuzz_corpus_api_replays_clean, 300)
{
	CHECK(replay_corpus("api", api_fuzz_one) > 0);
	/* The harness checks its board's ledger when it makes the next one: end this one here. */
	if (p) {
		dmamap_platform_destroy(p);
		ledger_back_to(&before);
	}
}
