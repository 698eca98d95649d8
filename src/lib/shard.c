/* SPDX-License-Identifier: MIT */
/*
 * Shard numbers for threads. The first DMAMAP_PRIVATE_SHARDS live threads
 * each own a shard; a thread that exits gives its number back, so a
 * program that starts threads again and again keeps counting privately.
 * Threads beyond that share the last shard and count with atomic adds.
 */
#include <pthread.h>

#include "shard.h"

__thread unsigned int dmamap__shard_id __attribute__((tls_model("initial-exec")));

static unsigned int shard_taken; /* bit i: id i + 1 is owned */
static pthread_key_t shard_key;
static pthread_once_t shard_key_once = PTHREAD_ONCE_INIT;

_Static_assert(DMAMAP_PRIVATE_SHARDS <= 8 * sizeof(unsigned int), "bitmask");

static void shard_release(void *unused)
{
	unsigned int id = dmamap__shard_id;

	(void)unused;
	dmamap__shard_id = 0;
	/* Release: the next owner sees this thread's last counts. */
	if (id >= 1 && id <= DMAMAP_PRIVATE_SHARDS)
		__atomic_fetch_and(&shard_taken, ~(1U << (id - 1)), __ATOMIC_RELEASE);
}

static void shard_key_create(void)
{
	if (pthread_key_create(&shard_key, shard_release) != 0)
		shard_key = (pthread_key_t)-1;
}

static unsigned int shard_take_private(void)
{
	unsigned int taken = __atomic_load_n(&shard_taken, __ATOMIC_RELAXED);

	while (~taken & ((1ULL << DMAMAP_PRIVATE_SHARDS) - 1)) {
		unsigned int bit = (unsigned int)__builtin_ctz(~taken);

		if (__atomic_compare_exchange_n(&shard_taken, &taken, taken | 1U << bit, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return bit + 1;
	}
	return 0;
}

unsigned int dmamap__shard_assign(void)
{
	unsigned int id = 0;

	/* Without the key a private id could never be given back: share instead. */
	pthread_once(&shard_key_once, shard_key_create);
	if (shard_key != (pthread_key_t)-1) {
		id = shard_take_private();
		/* Any non-NULL value makes the destructor run at thread exit. */
		if (id && pthread_setspecific(shard_key, &shard_taken) != 0) {
			dmamap__shard_id = id;
			shard_release(NULL);
			id = 0;
		}
	}
	dmamap__shard_id = id ? id : DMAMAP_SHARED_SHARD_ID;
	return dmamap__shard_id;
}
