/* SPDX-License-Identifier: MIT */
/*
 * A FROM_DEVICE buffer sharing its last cache line with a CPU variable
 * updated while the device owns the buffer: a discarding invalidate loses
 * the CPU's write, a clean-then-invalidate (arm64) loses the device's bytes
 * in that line; the cache model names the line, the bytes and the device,
 * and a coherent device loses nothing.
 *
 * Every check compares bytes the device read (dmamap_device_read), bytes
 * the CPU reads through its pointer, or the memory view probed with
 * dmamap_sim_mem_read(), against patterns the test wrote: a missing clean or
 * invalidate in the library shows up as stale bytes, never as a counter.
 */
#include "../helpers.h"

/* Did the checker's last line name @kind and @dev? */
static bool logged(enum dmamap_dbg_kind kind, const char *dev)
{
	return strstr(logs.last, dmamap_dbg_kind_name(kind)) && strstr(logs.last, dev);
}

struct shared_result {
	uint8_t *obj;      /* buffer [0, len) then the variable at var_off */
	size_t len, var_off;
	phys_addr_t line;  /* physical address of the shared line */
	uint8_t old_var, new_var;
};

/*
 * The CPU fills the buffer with @a, maps it FROM_DEVICE, the device writes
 * @b, and the CPU updates its variable in the buffer's last line before the
 * unmap: the line is CPU-dirty and device-written at once.
 */
static bool shared_line(struct dmamap_platform *p, struct device *dev,
			const uint8_t *a, const uint8_t *b,
			struct shared_result *r)
{
	unsigned int line = dmamap_cache_line_size(p);
	dma_addr_t h;

	r->len = 3 * line + 8;
	r->var_off = r->len + 16;
	r->obj = dbuf(p, 4 * line);
	if (!r->obj)
		return false;
	r->line = virt_to_phys(r->obj) + 3 * line;
	r->old_var = 0x11;
	r->new_var = 0x22;
	memcpy(r->obj, a, r->len);
	r->obj[r->var_off] = r->old_var;
	h = dma_map_single(dev, r->obj, r->len, DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, h))
		return false;
	dmamap_sim_events_clear(p);
	dmamap_report_reset(p);
	logs.last[0] = 0;
	if (dmamap_device_write(dev, h, b, r->len))
		return false;
	r->obj[r->var_off] = r->new_var;
	dma_unmap_single(dev, h, r->len, DMA_FROM_DEVICE);
	return true;
}

/*
 * What the shared line on dma-nc cost was one side's bytes only (the event
 * of the other side's loss never happened): one report of @kind, none of
 * @other, and the checker's last line names it.
 */
static void lost_one_side(struct dmamap_platform *p, enum dmamap_sim_event_kind other_event,
			  enum dmamap_dbg_kind kind, enum dmamap_dbg_kind other)
{
	CHECK_EQ(count_events(p, other_event, 0, NULL), 0);
	CHECK_EQ(dmamap_report_count(p, kind), 1);
	CHECK_EQ(dmamap_report_count(p, other), 0);
	CHECK_MSG(logged(kind, NC), "checker said: '%s'", logs.last);
}

/* The same on dma-coh: nothing to invalidate, nothing lost. */
static void coherent_loses_nothing(struct dmamap_platform *p, const uint8_t *a,
				   const uint8_t *b)
{
	struct shared_result r;
	struct dmamap_sim_event ev;

	REQUIRE(shared_line(p, dmamap_device_lookup(p, COH), a, b, &r));
	CHECK(!memcmp(r.obj, b, r.len));
	CHECK_EQ(r.obj[r.var_off], r.new_var);
	CHECK_EQ(sim_losses(p), 0);
	CHECK_EQ(dmamap_sim_events(p, &ev, 1), 0);
}

TEST(cache_shared_line_discard_loses_cpu_write)
{
	struct dmamap_platform *p = discard_board();
	struct shared_result r;
	struct dmamap_sim_event ev;
	uint8_t a[256], b[256];
	unsigned int line;

	REQUIRE(p);
	dmamap_debug_enable(p, true);
	line = dmamap_cache_line_size(p);
	pattern(a, sizeof(a), 12);
	pattern(b, sizeof(b), 13);

	/* dma-nc: the invalidate at unmap discards the CPU's variable. */
	REQUIRE(shared_line(p, dmamap_device_lookup(p, NC), a, b, &r));
	CHECK_MSG(!memcmp(r.obj, b, r.len), "device bytes damaged: %zu",
		  ndiff(r.obj, b, r.len));
	CHECK_MSG(r.obj[r.var_off] == r.old_var,
		  "the CPU's write to the shared line survived a discarding invalidate (0x%x)",
		  r.obj[r.var_off]);
	CHECK(mem_is(p, r.obj, b, r.len));
	CHECK_EQ(count_events(p, DMAMAP_SIM_CPU_DATA_LOST, r.line, &ev), 1);
	CHECK_EQ(ev.first_byte, r.var_off - 3 * line);
	CHECK_EQ(ev.nbytes, 1);
	CHECK(ev.conflict);
	CHECK_MSG(!strcmp(ev.device, NC), "event names device '%s'", ev.device);
	lost_one_side(p, DMAMAP_SIM_DEVICE_DATA_LOST, DMAMAP_DBG_CPU_DATA_LOST,
		      DMAMAP_DBG_DEVICE_DATA_LOST);
	coherent_loses_nothing(p, a, b);
	dmamap_platform_destroy(p);
}

TEST(cache_shared_line_clean_invalidate_loses_device_bytes)
{
	struct dmamap_platform *p = builtin_board("default");
	struct shared_result r;
	struct dmamap_sim_event ev;
	uint8_t a[256], b[256], want[256];
	unsigned int line;

	REQUIRE(p);
	dmamap_debug_enable(p, true);
	line = dmamap_cache_line_size(p);
	pattern(a, sizeof(a), 14);
	pattern(b, sizeof(b), 15);

	/*
	 * dma-nc on arm64: the partial edge line is cleaned before it is
	 * invalidated, so the CPU's stale copy of the device's bytes in that
	 * line goes back over them.
	 */
	REQUIRE(shared_line(p, dmamap_device_lookup(p, NC), a, b, &r));
	overlay(want, b, a, r.len, 3 * line, r.len - 3 * line);
	CHECK_MSG(!memcmp(r.obj, want, r.len),
		  "buffer should hold the device's bytes except the shared line's (%zu differ)",
		  ndiff(r.obj, want, r.len));
	CHECK_EQ(r.obj[r.var_off], r.new_var);
	CHECK(mem_is(p, r.obj, want, r.len));
	CHECK_EQ(count_events(p, DMAMAP_SIM_DEVICE_DATA_LOST, r.line, &ev), 1);
	CHECK_MSG(!strcmp(ev.device, NC), "event names device '%s'", ev.device);
	CHECK_EQ(ev.first_byte, 0);
	CHECK_EQ(ev.nbytes, r.len - 3 * line);
	CHECK(ev.conflict);
	lost_one_side(p, DMAMAP_SIM_CPU_DATA_LOST, DMAMAP_DBG_DEVICE_DATA_LOST,
		      DMAMAP_DBG_CPU_DATA_LOST);
	coherent_loses_nothing(p, a, b);
	dmamap_platform_destroy(p);
}
