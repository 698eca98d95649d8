/* SPDX-License-Identifier: MIT */
/*
 * Weakly-ordered memory, the devices' side: a model's reads and writes of
 * followed memory, a descriptor fetched on its ownership word, and a test
 * playing the device by hand (order.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../lib/log.h"
#include "../../base/ram.h"
#include "../../base/report.h"
#include "order.h"

/* ---- the devices' side --------------------------------------------------------- */

/*
 * A model's read of [@off, +@len) of @r: stores still buffered stay
 * unseen (some of them, at random, when seeded); one a relaxed register
 * write overtook is reported when the device reads it.
 */
static void model_read(struct dmamap_order *o, struct device *dev, struct region *r,
		       size_t off, size_t len, uint8_t *buf)
{
	size_t from = off / UNIT * UNIT, to = MIN(r->size, (off + len + UNIT - 1) / UNIT * UNIT);

	/* Nothing buffered there: what the devices see is what the CPU does. */
	if (!order_bytes_pending(r, from, to)) {
		memcpy(buf, r->dev + off, len);
		return;
	}
	for (size_t u = off / UNIT; u * UNIT < off + len; u++) {
		if (!order_unit_pending(r, u))
			continue;
		if (order_chance(o, 2)) {
			dmamap__order_publish_unit(o, r, u);
			continue;
		}
		o->st.stale_reads++;
		if (r->raced[u] && !r->doorbell.reported) {
			char site[128];

			r->doorbell.reported = true;
			dmamap__symbolize(r->doorbell.site, site, sizeof(site));
			dmamap__order_report(o, dev, DMAMAP_DBG_UNORDERED_DOORBELL, order_dma_of(r, dev, u * UNIT), UNIT,
			       "device read memory at [phys=0x%llx] whose CPU store was not ordered before the relaxed register write that sent it there (writel_relaxed() of register 0x%x of %s, at %s): it read the old bytes (wmb() before the doorbell, or writel())",
			       (unsigned long long)(r->phys + u * UNIT), r->doorbell.reg,
			       dev_name(r->owner), site);
		}
	}
	memcpy(buf, r->dev + off, len);
}

static void model_write(struct dmamap_order *o, struct device *dev, struct region *r,
			size_t off, size_t len, const uint8_t *buf)
{
	memcpy(r->dev + off, buf, len);
	if (o->nheld == HELD_MAX)
		dmamap__order_pull_held(dev->plat, o, 0); /* the oldest reaches the CPU: loads are not stale for ever */
	o->held[o->nheld++] = (struct held){ .r = r, .off = off, .len = (uint32_t)len,
					      .kind = o->writing, .desc = o->desc, .at = o->now,
					      .dev = dev };
}

/* A hand-made access (a test playing the device): both sides catch up first, and it lands at once. */
static void hand_sync(struct dmamap_platform *p, struct dmamap_order *o, struct region *r)
{
	dmamap__order_publish_range(o, r, 0, r->size);
	for (unsigned int i = o->nheld; i-- > 0;)
		if (o->held[i].r == r)
			dmamap__order_pull_held(p, o, i);
}

int dmamap__sim_order_access(struct device *dev, phys_addr_t phys, void *buf, size_t len,
			     bool write, bool model)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_order *o = order_of(p);
	phys_addr_t end = phys + len;
	uint8_t *io = buf;
	int ret = 0;

	if (!o) /* went TSO since the caller looked */
		return dmamap__sim_device_access_plain(dev, phys, buf, len, write);
	dmamap__spin_lock(&o->lock);
	while (phys < end && !ret) {
		struct region *r = dmamap__order_region_from(o, phys, end);
		phys_addr_t stop = r ? MAX(r->phys, phys) : end;
		size_t n;

		if (stop > phys) {
			/* Outside every region: memory as usual. */
			n = (size_t)(stop - phys);
			ret = dmamap__sim_device_access_plain(dev, phys, io, n, write);
		} else {
			size_t off = (size_t)(phys - r->phys);

			n = (size_t)MIN(end - phys, r->size - off);
			if (!model) {
				hand_sync(p, o, r);
				ret = dmamap__sim_device_access_plain(dev, phys, io, n, write);
				if (!ret && write) {
					memcpy(r->dev + off, io, n);
					memcpy(r->agreed + off, io, n);
				}
			} else if (write) {
				model_write(o, dev, r, off, n, io);
				dmamap__sim_note_device_write(p, dev, phys, n);
			} else {
				model_read(o, dev, r, off, n, io);
			}
		}
		phys += n;
		io += n;
	}
	dmamap__spin_unlock(&o->lock);
	/* A model's reports wait for the scheduler's lock to drop; a hand holds none. */
	if (!model)
		dmamap__sim_order_flush(p);
	return ret;
}

void dmamap__sim_order_writing(struct dmamap_platform *p, enum dmamap_order_write what)
{
	struct dmamap_order *o = order_of(p);

	if (!o)
		return;
	dmamap__spin_lock(&o->lock);
	if (what == ORDER_WRITE_BODY)
		o->desc++;
	o->writing = what;
	dmamap__spin_unlock(&o->lock);
}

void dmamap__sim_order_fetch(struct device *dev, phys_addr_t desc, size_t len, size_t own_off,
			     bool owned, dma_addr_t dma)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_order *o = order_of(p);
	size_t off, own, own_end, end;
	struct region *r;

	if (!o || !o->n)
		return;
	dmamap__spin_lock(&o->lock);
	r = dmamap__order_region_at(o, desc);
	if (!r || desc + len > r->phys + r->size) {
		dmamap__spin_unlock(&o->lock);
		return;
	}
	off = (size_t)(desc - r->phys);
	end = off + len;
	/*
	 * The ownership word's aligned 8-byte unit, inside the descriptor: a
	 * single store may have written all of it, and a neighbour's bytes
	 * are not this descriptor's business.
	 */
	own = MAX(off, (off + own_off) / UNIT * UNIT);
	own_end = MIN(end, (off + own_off) / UNIT * UNIT + UNIT);
	if (!owned) {
		/*
		 * Before the read: the ownership word's store overtakes the stores
		 * before it that no barrier ordered, the weakest order there is.
		 * Unless a relaxed register write overtook it: then it is the one
		 * left behind, which is how that mistake shows.
		 */
		if (order_bytes_pending(r, own, own_end) && !r->raced[(off + own_off) / UNIT] &&
		    (!o->rng || !order_chance(o, 4))) {
			o->st.stores_early += order_bytes_pending(r, off, own) ||
					      order_bytes_pending(r, own_end, end);
			dmamap__order_publish_bytes(o, r, own, own_end);
		}
	} else {
		/* After it, the device took the descriptor: were all its other stores ordered before? */
		for (size_t i = off; i < end; i++) {
			if ((i >= own && i < own_end) || r->cpu[i] == r->agreed[i])
				continue;
			dmamap__order_report(o, dev, DMAMAP_DBG_UNORDERED_DESCRIPTOR, dma, len,
			       "device took the descriptor at [device address=0x%llx] on its ownership word (offset %zu) while the CPU's store to offset %zu was still buffered: no dma_wmb() ordered it before the ownership store, and the device used the old bytes",
			       (unsigned long long)dma, own_off, i - off);
			break;
		}
	}
	dmamap__spin_unlock(&o->lock);
}

