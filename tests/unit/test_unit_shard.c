/* SPDX-License-Identifier: MIT */
/*
 * Shard numbers (src/lib/shard.h): live threads get distinct private
 * shards up to DMAMAP_PRIVATE_SHARDS, then share the last one; a thread
 * that exits gives its shard back, so waves of short-lived threads keep
 * counting privately.
 */
#include <pthread.h>
#include "../tap.h"
#include "../../src/lib/shard.h"

#define CROWD (DMAMAP_PRIVATE_SHARDS + 8)

struct wave {
	pthread_barrier_t alive, counted;
	unsigned int shard[CROWD];
	uint64_t counter[DMAMAP_STAT_SHARDS];
};

struct seat {
	struct wave *w;
	int i;
};

static void *take_shard(void *arg)
{
	struct seat *s = arg;

	pthread_barrier_wait(&s->w->alive);
	s->w->shard[s->i] = dmamap__my_shard();
	for (int k = 0; k < 1000; k++)
		dmamap__count_add(&s->w->counter[s->w->shard[s->i]], 1);
	/* Nobody leaves before all have a shard: none is handed back early. */
	pthread_barrier_wait(&s->w->counted);
	return NULL;
}

static void run_wave(struct wave *w, int n)
{
	pthread_t t[CROWD];
	struct seat seats[CROWD];

	REQUIRE(pthread_barrier_init(&w->alive, NULL, (unsigned int)n) == 0);
	REQUIRE(pthread_barrier_init(&w->counted, NULL, (unsigned int)n) == 0);
	for (int i = 0; i < n; i++) {
		seats[i] = (struct seat){ w, i };
		REQUIRE(pthread_create(&t[i], NULL, take_shard, &seats[i]) == 0);
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&w->alive);
	pthread_barrier_destroy(&w->counted);
}

TEST(unit_shard_live_threads_own_distinct_shards_then_share_one)
{
	static struct wave w;
	unsigned int owners[DMAMAP_STAT_SHARDS] = { 0 };
	uint64_t sum = 0;

	/* This thread may hold a shard already; the crowd has the rest. */
	(void)dmamap__my_shard();
	run_wave(&w, CROWD);
	for (int i = 0; i < CROWD; i++) {
		REQUIRE(w.shard[i] < DMAMAP_STAT_SHARDS);
		owners[w.shard[i]]++;
	}
	for (unsigned int k = 0; k < DMAMAP_PRIVATE_SHARDS; k++)
		CHECK(owners[k] <= 1);
	/* At most 15 private shards were free, so at least 9 threads share. */
	CHECK(owners[DMAMAP_STAT_SHARDS - 1] >= CROWD - (DMAMAP_PRIVATE_SHARDS - 1));
	for (unsigned int k = 0; k < DMAMAP_STAT_SHARDS; k++)
		sum += w.counter[k];
	CHECK_EQ(sum, (uint64_t)CROWD * 1000);
	CHECK_EQ(w.counter[DMAMAP_STAT_SHARDS - 1], (uint64_t)owners[DMAMAP_STAT_SHARDS - 1] * 1000);
}

TEST(unit_shard_exited_threads_give_their_shard_back)
{
	static struct wave w;
	int n = DMAMAP_PRIVATE_SHARDS - 1; /* leave one for this thread */

	(void)dmamap__my_shard();
	for (int round = 0; round < 4; round++) {
		unsigned int owners[DMAMAP_STAT_SHARDS] = { 0 };

		run_wave(&w, n);
		for (int i = 0; i < n; i++)
			owners[w.shard[i]]++;
		/* Were shards not given back, the second wave would share. */
		CHECK_EQ(owners[DMAMAP_STAT_SHARDS - 1], 0);
	}
}
