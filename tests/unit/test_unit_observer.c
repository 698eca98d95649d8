/* SPDX-License-Identifier: MIT */
/*
 * The observer interface (src/base/observer.h): a watcher registered on a
 * platform hears of every device access, every CPU copy the library makes
 * (bounce buffers) and every byte the simulated cache loses, with the
 * addresses involved; after it is removed it hears nothing; the list has
 * room for DMAMAP_MAX_OBSERVERS.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "../../src/base/observer.h"
#include "../helpers.h"

struct heard {
	unsigned int accesses, cpu_writes, losses;
	struct device *dev;
	dma_addr_t addr;
	u64 len;
	bool write;
	phys_addr_t cpu_phys;
	size_t cpu_len;
	enum dmamap_line_loss why;
	phys_addr_t lost_phys;
	unsigned int lost_bytes;
};

static void on_access(void *ctx, struct device *dev, dma_addr_t addr, u64 len, bool write)
{
	struct heard *h = ctx;

	h->accesses++;
	h->dev = dev;
	h->addr = addr;
	h->len = len;
	h->write = write;
}

static void on_cpu_write(void *ctx, struct dmamap_platform *p, phys_addr_t phys, size_t len)
{
	struct heard *h = ctx;

	(void)p;
	h->cpu_writes++;
	h->cpu_phys = phys;
	h->cpu_len = len;
}

static void on_loss(void *ctx, struct dmamap_platform *p, struct device *dev,
		    enum dmamap_line_loss why, phys_addr_t phys, unsigned int nbytes)
{
	struct heard *h = ctx;

	(void)p;
	(void)dev;
	h->losses++;
	h->why = why;
	h->lost_phys = phys;
	h->lost_bytes = nbytes;
}

static struct heard heard;
static const struct dmamap_observer watcher = {
	.ctx = &heard,
	.device_access = on_access,
	.cpu_write = on_cpu_write,
	.line_lost = on_loss,
};

/*
 * On the default board, with the watcher registered: dma-nc and a 256-byte
 * kmalloc buffer it has mapped FROM_DEVICE (DMA_MAPPING_ERROR on failure).
 */
static dma_addr_t watched_mapping(struct dmamap_platform *p, struct device **dev, uint8_t **buf)
{
	dma_addr_t h;

	*dev = dmamap_device_lookup(p, "dma-nc");
	*buf = dmamap_kmalloc(p, 256, GFP_KERNEL);
	memset(&heard, 0, sizeof(heard));
	if (!*dev || !*buf || dmamap__observer_add(p, &watcher))
		return DMA_MAPPING_ERROR;
	h = dma_map_single(*dev, *buf, 256, DMA_FROM_DEVICE);
	return dma_mapping_error(*dev, h) ? DMA_MAPPING_ERROR : h;
}

TEST(observer_hears_device_accesses_until_removed)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	uint8_t *buf, data[64];
	dma_addr_t h;

	REQUIRE(p);
	h = watched_mapping(p, &dev, &buf);
	REQUIRE(h != DMA_MAPPING_ERROR);
	fill_pattern(data, sizeof(data), 3);
	CHECK_EQ(dmamap_device_write(dev, h + 64, data, sizeof(data)), 0);
	CHECK_EQ(heard.accesses, 1);
	CHECK(heard.dev == dev);
	CHECK_EQ(heard.addr, h + 64);
	CHECK_EQ(heard.len, sizeof(data));
	CHECK(heard.write);
	CHECK_EQ(dmamap_device_read(dev, h, data, 16), 0);
	CHECK_EQ(heard.accesses, 2);
	CHECK(!heard.write);
	CHECK_EQ(dmamap__observer_remove(p, &watcher), 0);
	CHECK_EQ(dmamap_device_read(dev, h, data, 16), 0);
	CHECK_EQ(heard.accesses, 2);
	CHECK_EQ(dmamap__observer_remove(p, &watcher), -ENOENT);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(observer_hears_bounce_copies)
{
	struct dmamap_platform *p = default_board();
	struct dmamap_swiotlb_stats sw;
	struct device *dev;
	struct page *pg;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-24");
	/* Above the 16 MiB dma-24 sees: it bounces. */
	pg = dmamap_alloc_pages(p, 0, GFP_KERNEL);
	REQUIRE(dev && pg && dmamap_swiotlb_stats(p, NULL, &sw) == 0);
	buf = page_address(pg);
	REQUIRE(virt_to_phys(buf) >= BANK0_START + (16ULL << 20));
	memset(&heard, 0, sizeof(heard));
	REQUIRE(dmamap__observer_add(p, &watcher) == 0);
	h = dma_map_single(dev, buf, 1000, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(heard.cpu_writes, 1);
	CHECK(heard.cpu_phys >= sw.start &&
	      heard.cpu_phys < sw.start + sw.total_slots * sw.slot_size);
	CHECK_EQ(heard.cpu_len, 1000);
	dma_unmap_single(dev, h, 1000, DMA_TO_DEVICE);
	/* TO_DEVICE: nothing copied back. */
	CHECK_EQ(heard.cpu_writes, 1);
	dmamap__observer_remove(p, &watcher);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

TEST(observer_hears_cpu_bytes_lost_by_an_invalidate)
{
	struct dmamap_platform *p = default_board();
	unsigned int line;
	struct device *dev;
	uint8_t *buf, data[256];
	dma_addr_t h;

	REQUIRE(p);
	line = dmamap_cache_line_size(p);
	h = watched_mapping(p, &dev, &buf);
	REQUIRE(h != DMA_MAPPING_ERROR);
	fill_pattern(data, sizeof(data), 5);
	CHECK_EQ(dmamap_device_write(dev, h, data, sizeof(data)), 0);
	/* The CPU writes a buffer the device owns: the unmap's invalidate discards it. */
	buf[2 * line + 7] = (uint8_t)~data[2 * line + 7];
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	CHECK_EQ(heard.losses, 1);
	CHECK_EQ(heard.why, LOSS_CPU_DATA);
	CHECK_EQ(heard.lost_phys, virt_to_phys(buf) + 2 * line + 7);
	CHECK_EQ(heard.lost_bytes, 1);
	dmamap__observer_remove(p, &watcher);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(observer_list_has_room_for_four)
{
	struct dmamap_platform *p = host_platform();
	struct dmamap_observer o[DMAMAP_MAX_OBSERVERS + 1] = { 0 };

	REQUIRE(p);
	for (unsigned int i = 0; i < DMAMAP_MAX_OBSERVERS; i++)
		CHECK_EQ(dmamap__observer_add(p, &o[i]), 0);
	CHECK_EQ(dmamap__observer_add(p, &o[DMAMAP_MAX_OBSERVERS]), -ENOSPC);
	CHECK_EQ(dmamap__observer_remove(p, &o[1]), 0);
	CHECK_EQ(dmamap__observer_add(p, &o[DMAMAP_MAX_OBSERVERS]), 0);
	for (unsigned int i = 0; i <= DMAMAP_MAX_OBSERVERS; i++)
		if (i != 1)
			CHECK_EQ(dmamap__observer_remove(p, &o[i]), 0);
	dmamap_platform_destroy(p);
}
