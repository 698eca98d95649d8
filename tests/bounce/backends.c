/* SPDX-License-Identifier: MIT */
/*
 * The bounce backends of the conformance suite, as a table: how to set
 * each up, where its device must bounce, what it counts, how much room it
 * has and what no bounce buffer of it can hold.
 */
#include "bounce.h"

/* ---- swiotlb on dma-24 --------------------------------------------------- */

static struct dmamap_platform *dma24_setup(struct device **dev)
{
	struct dmamap_platform *p = quiet_board();

	*dev = p ? dmamap_device_lookup(p, D24) : NULL;
	return p;
}

static uint8_t *dma24_far(struct dmamap_platform *p, size_t len)
{
	return hi24_buf(p, len);
}

static uint8_t *dma24_near(struct dmamap_platform *p, size_t len)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < len)
		order++;
	return d24_lo_pages(p, order);
}

static bool swiotlb_is_bounce(struct device *dev, dma_addr_t h)
{
	return dmamap_swiotlb_is_bounce(dev, h);
}

static struct bounce_counters swiotlb_counters(struct dmamap_platform *p, struct device *dev)
{
	struct dmamap_swiotlb_stats s = pool_of(p, dev);

	return (struct bounce_counters){ .bounced = s.bounced_maps, .live = s.used_slots,
					 .refused = s.failures,
					 .copied_out = s.bytes_from_device };
}

static uint64_t swiotlb_room(struct dmamap_platform *p, struct device *dev)
{
	struct dmamap_swiotlb_stats s = pool_of(p, dev);

	return s.total_slots * s.slot_size;
}

/* What every swiotlb backend of the table shares: the pool is what bounces. */
#define SWIOTLB_POOL                                                          \
	.is_bounce = swiotlb_is_bounce, .counters = swiotlb_counters,         \
	.room = swiotlb_room, .too_big = DMAMAP_SWIOTLB_MAX_MAPPING + 1

static uint8_t *dma24_too_big_buf(struct dmamap_platform *p)
{
	struct page *pg = dmamap_alloc_pages(p, 7, 0); /* 512 KiB above 16 MiB */

	return pg && page_to_phys(pg) >= WIN24_END ? page_address(pg) : NULL;
}

const struct bounce_backend swiotlb_dma24 = {
	.setup = dma24_setup,
	.far_buf = dma24_far,
	.near_buf = dma24_near,
	.too_big_buf = dma24_too_big_buf,
	SWIOTLB_POOL,
};

/* ---- swiotlb=force on the host --------------------------------------------- */

static uint8_t *host_buf(struct dmamap_platform *p, size_t len)
{
	(void)p;
	return host_pages(len);
}

static void host_put(uint8_t *buf)
{
	free(buf);
}

static uint8_t *host_too_big_buf(struct dmamap_platform *p)
{
	return host_buf(p, DMAMAP_SWIOTLB_MAX_MAPPING + 1);
}

const struct bounce_backend swiotlb_host_forced = {
	.setup = host_forced,
	.far_buf = host_buf,
	.near_buf = host_buf,
	.put_buf = host_put,
	.bounces_near = true,
	.too_big_buf = host_too_big_buf,
	SWIOTLB_POOL,
};

/* ---- dmabounce on ixp-pci -------------------------------------------------- */

static struct dmamap_platform *ixp_setup(struct device **dev)
{
	struct dmamap_platform *p = quiet_board();

	*dev = p ? dmamap_device_lookup(p, IXP) : NULL;
	return p;
}

/* Its safe buffers live where its bus works: below 64 MiB. */
static bool ixp_is_bounce(struct device *dev, dma_addr_t h)
{
	phys_addr_t phys = dmamap_dma_to_phys(dev, h);

	return phys != NO_PHYS && phys < IXP_ABOVE && !dmamap_swiotlb_is_bounce(dev, h);
}

static struct bounce_counters ixp_counters(struct dmamap_platform *p, struct device *dev)
{
	struct dmamap_dmabounce_stats s = db_stats(dev);

	(void)p;
	return (struct bounce_counters){ .bounced = s.bounced, .live = s.live,
					 .refused = s.failures,
					 .copied_out = s.bytes_from_device };
}

static uint64_t ixp_room(struct dmamap_platform *p, struct device *dev)
{
	(void)p;
	(void)dev;
	return IXP_ABOVE - RAM0;
}

/*
 * 32 MiB above the limit: a safe buffer that large is one allocation of
 * its own, more than the page allocator's largest block (16 MiB). Nothing
 * else uses that RAM on a fresh board, and a refused mapping reads none.
 */
static uint8_t *ixp_too_big_buf(struct dmamap_platform *p)
{
	return dmamap_phys_to_virt(p, IXP_ABOVE);
}

const struct bounce_backend dmabounce_ixp_pci = {
	.setup = ixp_setup,
	.far_buf = ixp_hi_buf,
	.near_buf = ixp_lo_buf,
	.is_bounce = ixp_is_bounce,
	.counters = ixp_counters,
	.room = ixp_room,
	.too_big = 32 * MiB,
	.too_big_buf = ixp_too_big_buf,
};
