/* SPDX-License-Identifier: MIT */
/*
 * Each of the five ways to map one buffer (dma_map_single, its _attrs
 * form, dma_map_page, its _attrs form, dma_map_phys) with its unmap, on
 * every path the mapping code takes: the host's identity mapping plain,
 * traced and checked; everything bounced (swiotlb=force); an armed fault
 * injector; a non-coherent simulated device plain and checked; a 24-bit
 * device that bounces. Each time the device reads what the CPU wrote and
 * the CPU reads what the device wrote; a bad argument is refused by each.
 */
#include <dmamap/sim.h>
#include <dmamap/swiotlb.h>
#include <dmamap/trace.h>
#include "../helpers.h"

#define LEN 1024
#define WAYS 5

static const char *const way_name[WAYS] = { "dma_map_single", "dma_map_single_attrs", "dma_map_page",
					     "dma_map_page_attrs", "dma_map_phys" };

static dma_addr_t map_way(int way, struct device *dev, uint8_t *buf, size_t len, enum dma_data_direction dir)
{
	switch (way) {
	case 0: return dma_map_single(dev, buf, len, dir);
	case 1: return dma_map_single_attrs(dev, buf, len, dir, 0);
	case 2: return dma_map_page(dev, virt_to_page(buf), offset_in_page(buf), len, dir);
	case 3: return dma_map_page_attrs(dev, virt_to_page(buf), offset_in_page(buf), len, dir, 0);
	default: return dma_map_phys(dev, virt_to_phys(buf), len, dir, 0);
	}
}

static void unmap_way(int way, struct device *dev, dma_addr_t h, size_t len, enum dma_data_direction dir)
{
	switch (way) {
	case 0: dma_unmap_single(dev, h, len, dir); break;
	case 1: dma_unmap_single_attrs(dev, h, len, dir, 0); break;
	case 2: dma_unmap_page(dev, h, len, dir); break;
	case 3: dma_unmap_page_attrs(dev, h, len, dir, 0); break;
	default: dma_unmap_phys(dev, h, len, dir, 0); break;
	}
}

/* Map and unmap events (dma_map_phys, dma_unmap_phys: what every one of the five emits). */
static void count_event(void *ctx, const struct dmamap_trace_event *ev)
{
	if (ev->id == DMAMAP_TRACE_DMA_MAP_PHYS || ev->id == DMAMAP_TRACE_DMA_UNMAP_PHYS)
		++*(unsigned long *)ctx;
}

/* Both directions through @way on @dev, the bytes compared; @what names the path. */
static void round_trip(int way, struct device *dev, uint8_t *buf, const char *what)
{
	uint8_t want[LEN], got[LEN];
	dma_addr_t h;

	fill_pattern(want, LEN, (unsigned int)way + 1);
	memcpy(buf, want, LEN);
	h = map_way(way, dev, buf, LEN, DMA_TO_DEVICE);
	CHECK_MSG(!dma_mapping_error(dev, h), "%s, %s: to the device", way_name[way], what);
	if (dma_mapping_error(dev, h))
		return;
	CHECK_EQ(dmamap_device_read(dev, h, got, LEN), 0);
	CHECK_MSG(!memcmp(got, want, LEN), "%s, %s: the device read other bytes", way_name[way], what);
	unmap_way(way, dev, h, LEN, DMA_TO_DEVICE);
	h = map_way(way, dev, buf, LEN, DMA_FROM_DEVICE);
	CHECK_MSG(!dma_mapping_error(dev, h), "%s, %s: from the device", way_name[way], what);
	if (dma_mapping_error(dev, h))
		return;
	fill_pattern(want, LEN, (unsigned int)way + 11);
	CHECK_EQ(dmamap_device_write(dev, h, want, LEN), 0);
	unmap_way(way, dev, h, LEN, DMA_FROM_DEVICE);
	CHECK_MSG(!memcmp(buf, want, LEN), "%s, %s: the CPU reads other bytes", way_name[way], what);
}

TEST(api_every_map_entry_point_on_every_host_path)
{
	unsigned long events = 0;
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *buf;

	for (int way = 0; way < WAYS; way++) {
		p = quiet(host_platform());
		REQUIRE(p && (dev = host_device(p, "h0", NULL)));
		buf = dmamap_kmalloc(p, LEN, DMAMAP_GFP_DMA_ALIGN);
		REQUIRE(buf);
		round_trip(way, dev, buf, "host");
		CHECK_EQ(dmamap_set_trace_hook(p, count_event, &events), 0);
		events = 0;
		round_trip(way, dev, buf, "host, traced");
		CHECK_MSG(events == 4, "%s: %lu map and unmap events, not 4", way_name[way], events);
		CHECK_EQ(dmamap_set_trace_hook(p, NULL, NULL), 0);
		dmamap_debug_enable(p, true);
		round_trip(way, dev, buf, "host, checked");
		CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
		dmamap_debug_enable(p, false);
		/* An armed injector takes the general path: the first mapping fails, the next works. */
		dmamap_fault_inject(p, DMAMAP_FAULT_MAP, 1);
		CHECK(dma_mapping_error(dev, map_way(way, dev, buf, LEN, DMA_TO_DEVICE)));
		round_trip(way, dev, buf, "host, after an injected fault");
		dmamap_fault_inject(p, 0, 0);
		REQUIRE(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_FORCE) == 0);
		{
			/* Bounced: the device is given a slot, not the buffer. */
			dma_addr_t h = map_way(way, dev, buf, LEN, DMA_TO_DEVICE);

			CHECK(!dma_mapping_error(dev, h) && h != (dma_addr_t)(uintptr_t)buf);
			unmap_way(way, dev, h, LEN, DMA_TO_DEVICE);
		}
		round_trip(way, dev, buf, "host, swiotlb=force");
		dmamap_kfree(p, buf);
		CHECK_EQ(reps.n, 0);
		dmamap_platform_destroy(p);
	}
}

TEST(api_every_map_entry_point_on_simulated_paths_and_its_bad_arguments)
{
	struct dmamap_platform *p = quiet_board();
	struct device *nc = lookup(p, NC), *d24 = lookup(p, D24);
	uint8_t *buf = dbuf(p, LEN), *hi = hi24_buf(p, LEN);

	REQUIRE(nc && d24 && buf && hi);
	for (int way = 0; way < WAYS; way++) {
		reps.n = 0;
		round_trip(way, nc, buf, "non-coherent");
		round_trip(way, d24, hi, "24-bit, bounced");
		dmamap_debug_enable(p, true);
		round_trip(way, nc, buf, "non-coherent, checked");
		round_trip(way, d24, hi, "24-bit, bounced, checked");
		dmamap_debug_enable(p, false);
		CHECK_EQ(reps.n, 0);
		/* Refused: no device, no size, no direction. */
		CHECK(dma_mapping_error(nc, map_way(way, NULL, buf, LEN, DMA_TO_DEVICE)));
		CHECK(dma_mapping_error(nc, map_way(way, nc, buf, 0, DMA_TO_DEVICE)));
		CHECK(dma_mapping_error(nc, map_way(way, nc, buf, LEN, DMA_NONE)));
		unmap_way(way, NULL, 0x1000, LEN, DMA_TO_DEVICE);
		unmap_way(way, nc, 0x1000, 0, DMA_TO_DEVICE);
		/* A NULL device has no board to report on; the other three are the board's. */
		CHECK_EQ(reps.n, 3);
	}
	dmamap_platform_destroy(p);
}
