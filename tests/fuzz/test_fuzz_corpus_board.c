/* SPDX-License-Identifier: MIT */
/* board_fuzz's stored inputs (fuzz/corpus/board/), replayed: no invariant of the target breaks. */
#define LLVMFuzzerTestOneInput board_fuzz_one
#include "../../fuzz/board_fuzz.c"
#undef LLVMFuzzerTestOneInput
#include "corpus.h"

TEST_TIMEOUT(fuzz_corpus_board_replays_clean, 300)
{
	CHECK(replay_corpus("board", board_fuzz_one) > 0);
}
