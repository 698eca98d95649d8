/* SPDX-License-Identifier: MIT */
/*
 * The simulator's probes (<dmamap/sim.h>) refuse what is not a simulated
 * board's: NULL arguments and the host platform get their documented
 * error, an address outside RAM -EFAULT; the host has no memory model and
 * no counters to give.
 */
#include <dmamap/sim.h>
#include "../helpers.h"

TEST(sim_probes_refuse_null_arguments_the_host_and_addresses_outside_ram)
{
	struct dmamap_platform *p = quiet_board(), *h = host_platform();
	struct dmamap_sim_cache_stats cs;
	struct dmamap_sim_order_stats os;
	struct dmamap_sim_event ev[2];
	uint8_t b[8];
	bool dirty, changed;

	REQUIRE(p && h);
	CHECK_EQ(dmamap_sim_cache_stats(NULL, &cs), -EINVAL);
	CHECK_EQ(dmamap_sim_cache_stats(p, NULL), -EINVAL);
	CHECK_EQ(dmamap_sim_cache_stats(h, &cs), -EINVAL);
	CHECK_EQ(dmamap_sim_events(NULL, ev, 2), 0);
	CHECK_EQ(dmamap_sim_events(p, NULL, 2), 0);
	CHECK_EQ(dmamap_sim_events(h, ev, 2), 0);
	dmamap_sim_events_clear(NULL);
	dmamap_sim_events_clear(h);
	CHECK_EQ(dmamap_sim_mem_read(NULL, 0x80000000, b, 8), -EINVAL);
	CHECK_EQ(dmamap_sim_mem_read(p, 0x80000000, NULL, 8), -EINVAL);
	CHECK_EQ(dmamap_sim_mem_read(p, 0x80000000, b, 0), -EINVAL);
	CHECK_EQ(dmamap_sim_mem_read(h, 0x80000000, b, 8), -EINVAL);
	CHECK_EQ(dmamap_sim_mem_read(p, 0x10, b, 8), -EFAULT);
	CHECK_EQ(dmamap_sim_line_state(NULL, 0x80000000, &dirty, &changed), -EINVAL);
	CHECK_EQ(dmamap_sim_line_state(p, 0x80000000, NULL, &changed), -EINVAL);
	CHECK_EQ(dmamap_sim_line_state(p, 0x80000000, &dirty, NULL), -EINVAL);
	CHECK_EQ(dmamap_sim_line_state(h, 0x80000000, &dirty, &changed), -EINVAL);
	CHECK_EQ(dmamap_sim_line_state(p, 0x10, &dirty, &changed), -EFAULT);
	CHECK_EQ(dmamap_sim_set_memory_model(NULL, DMAMAP_MEMORY_TSO), -EINVAL);
	CHECK_EQ(dmamap_sim_set_memory_model(h, DMAMAP_MEMORY_TSO), -EINVAL);
	CHECK_EQ(dmamap_sim_memory_model(NULL), -EINVAL);
	CHECK_EQ(dmamap_sim_memory_model(h), -EINVAL);
	CHECK_EQ(dmamap_sim_order_stats(NULL, &os), -EINVAL);
	CHECK_EQ(dmamap_sim_order_stats(p, NULL), -EINVAL);
	memset(&os, 0xff, sizeof(os));
	CHECK_EQ(dmamap_sim_order_stats(h, &os), 0);
	CHECK(os.regions == 0 && os.barriers == 0 && os.drains == 0);
	dmamap_platform_destroy(h);
	dmamap_platform_destroy(p);
}
