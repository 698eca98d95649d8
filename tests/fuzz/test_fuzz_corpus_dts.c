/* SPDX-License-Identifier: MIT */
/* dts_fuzz's stored inputs (fuzz/corpus/dts/), replayed: no invariant of the target breaks. */
#define LLVMFuzzerTestOneInput dts_fuzz_one
#include "../../fuzz/dts_fuzz.c"
#undef LLVMFuzzerTestOneInput
#include "corpus.h"

TEST_TIMEOUT(fuzz_corpus_dts_replays_clean, 300)
{
	CHECK(replay_corpus("dts", dts_fuzz_one) > 0);
}
