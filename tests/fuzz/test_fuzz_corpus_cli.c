/* SPDX-License-Identifier: MIT */
/* cli_fuzz's stored inputs (fuzz/corpus/cli/), replayed: no invariant of the target breaks. */
#define LLVMFuzzerTestOneInput cli_fuzz_one
#include "../../fuzz/cli_fuzz.c"
#undef LLVMFuzzerTestOneInput
#include "corpus.h"

TEST_TIMEOUT(fuzz_corpus_cli_replays_clean, 300)
{
	CHECK(replay_corpus("cli", cli_fuzz_one) > 0);
}
