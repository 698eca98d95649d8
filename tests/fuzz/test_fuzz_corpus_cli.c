/* SPDX-License-Identifier: MIT */
/*
 * cli_fuzz's stored inputs (fuzz/corpus/cli/), replayed: every command line
 * ends with an exit status of 0, 1 or 2. These only show that much: what
 * each command prints is tested in tests/sh/.
 */
#define LLVMFuzzerTestOneInput cli_fuzz_one
#include "../../fuzz/cli_fuzz.c"
#undef LLVMFuzzerTestOneInput
#include "corpus.h"

TEST_TIMEOUT(fuzz_corpus_cli_replays_clean, 300)
{
	/* The target sends standard output to /dev/null: the test's own lines come back after. */
	int out = dup(1);

	CHECK(replay_corpus("cli", cli_fuzz_one) > 0);
	if (out >= 0) {
		fflush(stdout);
		dup2(out, 1);
		close(out);
	}
	remove_scratch();
}
