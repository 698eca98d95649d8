/* SPDX-License-Identifier: MIT */
/*
 * Per-thread shards: each thread counts in its own cache line, so hot
 * paths never bounce a line between CPUs; readers sum the shards.
 * The first DMAMAP_PRIVATE_SHARDS live threads own one each; any more
 * share the last one, where counts are atomic adds, so every count is
 * exact at any number of threads.
 */
#ifndef DMAMAP_LIB_SHARD_H
#define DMAMAP_LIB_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DMAMAP_PRIVATE_SHARDS 16
#define DMAMAP_STAT_SHARDS (DMAMAP_PRIVATE_SHARDS + 1)
#define DMAMAP_SHARED_SHARD_ID DMAMAP_STAT_SHARDS

extern __thread unsigned int dmamap__shard_id
	__attribute__((tls_model("initial-exec")));
unsigned int dmamap__shard_assign(void);

/* Whether this thread has its shard yet: paths that must make no call check it first. */
static inline bool dmamap__shard_known(void)
{
	return dmamap__shard_id != 0;
}

static inline unsigned int dmamap__my_shard(void)
{
	unsigned int id = dmamap__shard_id;

	if (__builtin_expect(id == 0, 0))
		id = dmamap__shard_assign();
	return id - 1;
}

/* Whether this thread counts in the shared shard, with atomic adds. */
static inline bool dmamap__shard_shared(void)
{
	return __builtin_expect(dmamap__shard_id == DMAMAP_SHARED_SHARD_ID, 0);
}

/* Add to a counter of a shard this thread owns: a relaxed load and store, no locked RMW. */
static inline void dmamap__count_add_owned(uint64_t *v, uint64_t n)
{
	__atomic_store_n(v, __atomic_load_n(v, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

/* Add to a counter in the calling thread's shard, owned or shared. */
static inline void dmamap__count_add(uint64_t *v, uint64_t n)
{
	if (dmamap__shard_shared())
		__atomic_fetch_add(v, n, __ATOMIC_RELAXED);
	else
		dmamap__count_add_owned(v, n);
}

/* The sum over the DMAMAP_STAT_SHARDS shards at @shards, @stride bytes apart, of the counter at @offset. */
static inline uint64_t dmamap__count_sum(const void *shards, size_t stride, size_t offset)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < DMAMAP_STAT_SHARDS; i++)
		n += __atomic_load_n((const uint64_t *)((const char *)shards + i * stride + offset),
				     __ATOMIC_RELAXED);
	return n;
}

#endif
