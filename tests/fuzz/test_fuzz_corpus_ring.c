/* SPDX-License-Identifier: MIT */
/* ring_fuzz's stored inputs (fuzz/corpus/ring/), replayed: no invariant of the target breaks. */
#define LLVMFuzzerTestOneInput ring_fuzz_one
#include "../../fuzz/ring_fuzz.c"
#undef LLVMFuzzerTestOneInput
#include "corpus.h"

TEST_TIMEOUT(fuzz_corpus_ring_replays_clean, 300)
{
	CHECK(replay_corpus("ring", ring_fuzz_one) > 0);
	/* The harness checks its board's ledger when it makes the next one: end this one here. */
	if (p) {
		dmamap_platform_destroy(p);
		ledger_back_to(&before);
	}
}
