/* SPDX-License-Identifier: MIT */
/* vfio_fuzz's stored inputs (fuzz/corpus/vfio/), replayed: no invariant of the target breaks. */
#define LLVMFuzzerTestOneInput vfio_fuzz_one
#include "../../fuzz/vfio_fuzz.c"
#undef LLVMFuzzerTestOneInput
#include "corpus.h"

TEST(fuzz_corpus_vfio_replays_clean)
{
	CHECK(replay_corpus("vfio", vfio_fuzz_one) > 0);
}
