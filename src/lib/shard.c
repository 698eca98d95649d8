/* SPDX-License-Identifier: MIT */
/* Shard numbers for threads, handed out once per thread. */
#include "shard.h"

__thread unsigned int dmamap__shard_id __attribute__((tls_model("initial-exec")));
static unsigned int shard_next;

unsigned int dmamap__shard_assign(void)
{
	/* 0 means "not yet": skip it when the counter wraps. */
	dmamap__shard_id = __atomic_add_fetch(&shard_next, 1, __ATOMIC_RELAXED);
	if (dmamap__shard_id == 0)
		dmamap__shard_id = __atomic_add_fetch(&shard_next, 1, __ATOMIC_RELAXED);
	return dmamap__shard_id;
}
