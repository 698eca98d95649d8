/* SPDX-License-Identifier: MIT */
/* What every fuzz target shares: a log that says nothing, the ledger check at a board's end. */
#ifndef DMAMAP_FUZZ_H
#define DMAMAP_FUZZ_H

#include <stdlib.h>
#include "../src/lib/mem.h"

static inline void quiet_log(void *ctx, int level, const char *line)
{
	(void)ctx;
	(void)level;
	(void)line;
}

/* Every mapping and memfd made since @before was read has been given back. */
static inline void ledger_back_to(const struct dmamap__ledger *before)
{
	struct dmamap__ledger after;

	dmamap__ledger_read(&after);
	if (after.mapped_bytes != before->mapped_bytes || after.memfds != before->memfds)
		abort(); /* a mapping or memfd outlived its board */
}

#endif
