/* SPDX-License-Identifier: MIT */
/*
 * The "nic" Ethernet controller (<dmamap/hw/nic.h>): TX and RX descriptor
 * rings with an OWN bit, a wire, coalesced interrupts. Written against the
 * public model API only, as a model author would write one: each step is
 * one bus transaction's worth of work (fetch a descriptor, move a buffer,
 * write a descriptor back), TX and RX taking turns.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/hw/nic.h>
#include <dmamap/debug.h>
#include <dmamap/model.h>
#include "models.h"

enum phase { FETCH, DATA, WRITEBACK };

struct frame {
	uint32_t len;
	uint8_t data[];
};

/* Frames waiting on a wire, oldest first. */
struct wire {
	struct frame *f[NIC_WIRE_FRAMES];
	unsigned int head, n;
};

struct ring {
	uint32_t lo, hi, size, head, tail;
	enum phase phase;
	uint8_t fetched[sizeof(struct nic_desc)]; /* the descriptor as the device read it */
	uint64_t addr;
	uint16_t len, flags;
	bool error;
	/* Found the head descriptor not owned, short of the tail: suspended until the next doorbell. */
	bool stalled;
};

struct nic {
	uint32_t ctrl, int_status, int_mask, coalesce;
	uint32_t tx_frames, rx_frames, rx_dropped, errors;
	struct ring tx, rx;
	bool rx_turn;
	/* The TX frame being gathered from its descriptors. */
	uint32_t tx_len;
	bool tx_error;
	uint8_t tx_buf[NIC_MAX_FRAME];
	struct wire in, out;
	/* Coalescing: completions not yet signalled, and when the first came. */
	uint32_t uncounted;
	uint64_t first_at;
};

static uint16_t le16(const uint8_t *b)
{
	return (uint16_t)(b[0] | b[1] << 8);
}

static uint64_t le64(const uint8_t *b)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static int wire_push(struct wire *w, const void *data, uint32_t len)
{
	struct frame *f;

	if (w->n == NIC_WIRE_FRAMES)
		return -ENOBUFS;
	f = malloc(sizeof(*f) + len);
	if (!f)
		return -ENOMEM;
	f->len = len;
	memcpy(f->data, data, len);
	w->f[(w->head + w->n++) % NIC_WIRE_FRAMES] = f;
	return 0;
}

static struct frame *wire_pop(struct wire *w)
{
	struct frame *f;

	if (!w->n)
		return NULL;
	f = w->f[w->head];
	w->head = (w->head + 1) % NIC_WIRE_FRAMES;
	w->n--;
	return f;
}

static void wire_clear(struct wire *w)
{
	struct frame *f;

	while ((f = wire_pop(w)))
		free(f);
}

static int nic_probe(struct device *dev, void **priv)
{
	struct nic *n = calloc(1, sizeof(*n));

	(void)dev;
	if (!n)
		return -ENOMEM;
	*priv = n;
	return 0;
}

static void nic_remove(struct device *dev, void *priv)
{
	struct nic *n = priv;

	(void)dev;
	wire_clear(&n->in);
	wire_clear(&n->out);
	free(n);
}

static uint64_t desc_addr(const struct ring *r, uint32_t index)
{
	uint64_t base = (uint64_t)r->hi << 32 | r->lo;

	return base + (uint64_t)(index & (r->size - 1)) * sizeof(struct nic_desc);
}

/* Raise the line when enough completions, or enough device time, have gathered. */
static void maybe_interrupt(struct device *dev, struct nic *n)
{
	uint32_t frames = n->coalesce & 0xffff, usecs = n->coalesce >> 16;

	if (!n->uncounted || !(n->int_status & n->int_mask))
		return;
	if (n->uncounted >= (frames ? frames : 1) ||
	    (usecs && dmamap_model_now(dev) - n->first_at >= usecs)) {
		n->uncounted = 0;
		dmamap_model_raise_irq(dev, 0);
	}
}

static void completed(struct device *dev, struct nic *n, uint32_t bit)
{
	n->int_status |= bit;
	if (!n->uncounted++)
		n->first_at = dmamap_model_now(dev);
	maybe_interrupt(dev, n);
}

/* Read the descriptor at the ring's head; false if there is none the device owns. */
static bool fetch(struct device *dev, struct nic *n, struct ring *r)
{
	int owned;

	if (!r->size || (!(n->ctrl & NIC_CTRL_POLL) && (r->head == r->tail || r->stalled)))
		return false;
	/* OWN is bit 15 of flags: bit 31 of the little-endian word at offset 8. */
	owned = dmamap_device_read_desc(dev, desc_addr(r, r->head), r->fetched, sizeof(r->fetched),
					8, (uint32_t)NIC_DESC_OWN << 16, (uint32_t)NIC_DESC_OWN << 16);
	if (owned < 0) {
		/* The ring itself is unreachable: stop, as hardware does. */
		n->errors++;
		n->ctrl &= ~NIC_CTRL_ENABLE;
		return false;
	}
	if (!owned) {
		/* Not handed over: the DMA engine suspends until the next doorbell (or polls again). */
		r->stalled = true;
		return false;
	}
	r->flags = le16(r->fetched + 10);
	r->addr = le64(r->fetched);
	r->len = le16(r->fetched + 8);
	r->error = false;
	r->phase = DATA;
	return true;
}

/* Write back @len and @flags with OWN clear, after checking nobody rewrote the descriptor. */
static void write_back(struct device *dev, struct ring *r, const char *which, uint16_t len,
		       uint16_t flags)
{
	uint64_t at = desc_addr(r, r->head);
	uint8_t now[sizeof(struct nic_desc)];
	uint8_t wb[4] = { (uint8_t)len, (uint8_t)(len >> 8), (uint8_t)flags,
			  (uint8_t)(flags >> 8) };

	if (!dmamap_device_read(dev, at, now, sizeof(now)) &&
	    memcmp(now, r->fetched, sizeof(now)))
		dmamap_model_report(dev, DMAMAP_DBG_DESCRIPTOR_WHILE_DEVICE_OWNS,
				    "%s descriptor %u [device address=0x%llx] was rewritten while the device owned it (OWN set): the device used the old contents",
				    which, r->head & (r->size - 1), (unsigned long long)at);
	/* len, then flags with OWN clear: the driver may read len once it sees OWN clear. */
	dmamap_device_write_desc(dev, at + 8, wb, sizeof(wb), 2, 2);
	r->head++;
	r->phase = FETCH;
}

static bool tx_step(struct device *dev, struct nic *n)
{
	struct ring *r = &n->tx;

	switch (r->phase) {
	case FETCH:
		return fetch(dev, n, r);
	case DATA:
		if (n->tx_len + r->len > NIC_MAX_FRAME ||
		    (r->len && dmamap_device_read(dev, r->addr, n->tx_buf + n->tx_len, r->len)))
			r->error = true;
		else
			n->tx_len += r->len;
		r->phase = WRITEBACK;
		return true;
	case WRITEBACK:
		if (r->error) {
			n->errors++;
			n->tx_error = true;
		}
		write_back(dev, r, "TX", r->len,
			   (uint16_t)((r->flags & ~NIC_DESC_OWN) | (r->error ? NIC_DESC_ERR : 0)));
		if (r->flags & NIC_DESC_EOP) {
			if (!n->tx_error) {
				struct wire *w = n->ctrl & NIC_CTRL_LOOPBACK ? &n->in : &n->out;

				if (w == &n->out && w->n == NIC_WIRE_FRAMES)
					free(wire_pop(w)); /* the observer keeps the newest */
				if (wire_push(w, n->tx_buf, n->tx_len))
					n->rx_dropped++;
				n->tx_frames++;
			}
			n->tx_len = 0;
			n->tx_error = false;
			completed(dev, n, NIC_INT_TX_DONE);
		}
		return true;
	}
	return false;
}

static bool rx_step(struct device *dev, struct nic *n)
{
	struct ring *r = &n->rx;
	struct frame *f = n->in.n ? n->in.f[n->in.head] : NULL;
	uint32_t len;

	if (!f)
		return false;
	switch (r->phase) {
	case FETCH:
		return fetch(dev, n, r);
	case DATA:
		len = f->len < r->len ? f->len : r->len;
		/* Too long for the buffer: what fits is written, and the descriptor says ERR. */
		if (dmamap_device_write(dev, r->addr, f->data, len) || f->len > r->len)
			r->error = true;
		r->phase = WRITEBACK;
		return true;
	case WRITEBACK:
		len = f->len < r->len ? f->len : r->len;
		if (r->error)
			n->errors++;
		write_back(dev, r, "RX", (uint16_t)len,
			   (uint16_t)(NIC_DESC_EOP | (r->error ? NIC_DESC_ERR : 0)));
		free(wire_pop(&n->in));
		n->rx_frames++;
		completed(dev, n, NIC_INT_RX_DONE);
		return true;
	}
	return false;
}

static bool nic_step(struct device *dev, void *priv)
{
	struct nic *n = priv;
	bool did;

	if (!(n->ctrl & NIC_CTRL_ENABLE))
		return false;
	n->rx_turn = !n->rx_turn;
	if (n->rx_turn)
		did = rx_step(dev, n) || tx_step(dev, n);
	else
		did = tx_step(dev, n) || rx_step(dev, n);
	maybe_interrupt(dev, n);
	/* Polling: nothing to do now, but look again at the next yield point. */
	if (!did && (n->ctrl & NIC_CTRL_POLL))
		dmamap_model_wake(dev);
	/* A coalescing timer keeps the device awake until it fires. */
	return did || (n->uncounted && (n->int_status & n->int_mask) && (n->coalesce >> 16));
}

static int ring_reg(struct ring *r, uint32_t which, uint32_t val)
{
	switch (which) {
	case 0: r->lo = val; return 0;
	case 1: r->hi = val; return 0;
	case 2:
		if (!val || (val & (val - 1)) || val > 4096)
			return -EINVAL;
		r->size = val;
		return 0;
	case 3:
		r->tail = val;
		r->stalled = false;
		return 0;
	}
	return -EINVAL;
}

static void reset(struct nic *n)
{
	wire_clear(&n->in);
	wire_clear(&n->out);
	memset(&n->tx, 0, sizeof(n->tx));
	memset(&n->rx, 0, sizeof(n->rx));
	n->int_status = n->int_mask = n->coalesce = 0;
	n->tx_frames = n->rx_frames = n->rx_dropped = n->errors = 0;
	n->tx_len = 0;
	n->tx_error = false;
	n->uncounted = 0;
}

static int nic_write(struct device *dev, void *priv, uint32_t reg, uint32_t val)
{
	struct nic *n = priv;

	switch (reg) {
	case NIC_REG_CTRL:
		if (val & NIC_CTRL_RESET)
			reset(n);
		n->ctrl = val & (NIC_CTRL_ENABLE | NIC_CTRL_LOOPBACK | NIC_CTRL_POLL);
		return 0;
	case NIC_REG_TX_RING_LO: return ring_reg(&n->tx, 0, val);
	case NIC_REG_TX_RING_HI: return ring_reg(&n->tx, 1, val);
	case NIC_REG_TX_RING_SIZE: return ring_reg(&n->tx, 2, val);
	case NIC_REG_TX_TAIL: return ring_reg(&n->tx, 3, val);
	case NIC_REG_RX_RING_LO: return ring_reg(&n->rx, 0, val);
	case NIC_REG_RX_RING_HI: return ring_reg(&n->rx, 1, val);
	case NIC_REG_RX_RING_SIZE: return ring_reg(&n->rx, 2, val);
	case NIC_REG_RX_TAIL: return ring_reg(&n->rx, 3, val);
	case NIC_REG_INT_STATUS:
		n->int_status &= ~val;
		return 0;
	case NIC_REG_INT_MASK:
		n->int_mask = val & (NIC_INT_TX_DONE | NIC_INT_RX_DONE);
		/* Unmasking what is already pending raises the line: nothing is lost in between. */
		if (n->int_status & n->int_mask) {
			n->uncounted = 0;
			dmamap_model_raise_irq(dev, 0);
		}
		return 0;
	case NIC_REG_COALESCE:
		n->coalesce = val;
		return 0;
	}
	return -EINVAL;
}

static int nic_read(struct device *dev, void *priv, uint32_t reg, uint32_t *val)
{
	struct nic *n = priv;

	(void)dev;
	switch (reg) {
	case NIC_REG_ID: *val = NIC_ID; break;
	case NIC_REG_CTRL: *val = n->ctrl; break;
	case NIC_REG_TX_RING_LO: *val = n->tx.lo; break;
	case NIC_REG_TX_RING_HI: *val = n->tx.hi; break;
	case NIC_REG_TX_RING_SIZE: *val = n->tx.size; break;
	case NIC_REG_TX_HEAD: *val = n->tx.head; break;
	case NIC_REG_RX_RING_LO: *val = n->rx.lo; break;
	case NIC_REG_RX_RING_HI: *val = n->rx.hi; break;
	case NIC_REG_RX_RING_SIZE: *val = n->rx.size; break;
	case NIC_REG_RX_HEAD: *val = n->rx.head; break;
	case NIC_REG_INT_STATUS: *val = n->int_status; break;
	case NIC_REG_INT_MASK: *val = n->int_mask; break;
	case NIC_REG_COALESCE: *val = n->coalesce; break;
	case NIC_REG_TX_FRAMES: *val = n->tx_frames; break;
	case NIC_REG_RX_FRAMES: *val = n->rx_frames; break;
	case NIC_REG_RX_DROPPED: *val = n->rx_dropped; break;
	case NIC_REG_ERRORS: *val = n->errors; break;
	default: return -EINVAL;
	}
	return 0;
}

const struct dmamap_device_model dmamap__nic_model = {
	.name = "nic",
	.compatible = "dmamap,nic",
	.probe = nic_probe,
	.remove = nic_remove,
	.mmio_read = nic_read,
	.mmio_write = nic_write,
	.step = nic_step,
	.nr_irqs = 1,
};

/* ---- the wire ------------------------------------------------------------------ */

struct wire_io {
	const void *in;
	void *out;
	size_t len;
	long got;
};

static int inject(struct device *dev, void *priv, void *arg)
{
	struct nic *n = priv;
	struct wire_io *io = arg;
	int ret = wire_push(&n->in, io->in, (uint32_t)io->len);

	(void)dev;
	if (ret == -ENOBUFS)
		n->rx_dropped++;
	return ret;
}

static int take(struct device *dev, void *priv, void *arg)
{
	struct nic *n = priv;
	struct wire_io *io = arg;
	struct frame *f = wire_pop(&n->out);

	(void)dev;
	io->got = 0;
	if (f) {
		memcpy(io->out, f->data, f->len < io->len ? f->len : io->len);
		io->got = f->len;
		free(f);
	}
	return 0;
}

static bool is_nic(struct device *dev)
{
	return dev && !strcmp(dmamap_device_model_name(dev), dmamap__nic_model.name);
}

int dmamap_nic_wire_inject(struct device *dev, const void *frame, size_t len)
{
	struct wire_io io = { .in = frame, .len = len };

	if (!is_nic(dev) || !frame || !len || len > NIC_MAX_FRAME)
		return -EINVAL;
	return dmamap_model_call(dev, inject, &io);
}

long dmamap_nic_wire_take(struct device *dev, void *buf, size_t max)
{
	struct wire_io io = { .out = buf, .len = max };
	int ret;

	if (!is_nic(dev) || !buf)
		return -EINVAL;
	ret = dmamap_model_call(dev, take, &io);
	return ret ? ret : io.got;
}
