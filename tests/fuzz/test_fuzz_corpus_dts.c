/* SPDX-License-Identifier: MIT */
/* dts_fuzz's stored inputs (fuzz/corpus/dts/), replayed: no invariant of the target breaks. */
#define LLVMFuzzerTestOneInput dts_fuzz_one
#include "../../fuzz/dts_fuzz.c"
#undef LLVMFuzzerTestOneInput
#include "../helpers.h"
#include "corpus.h"

TEST_TIMEOUT(fuzz_corpus_dts_replays_clean, 300)
{
	char cmd[128];

	/* Without cpp and dtc every input would be refused: nothing tested. */
	need_dts_support();
	CHECK(replay_corpus("dts", dts_fuzz_one) > 0);
	/* The target keeps its directory for the process's life: this process ends here. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	CHECK(!scratch[0] || system(cmd) == 0);
}
