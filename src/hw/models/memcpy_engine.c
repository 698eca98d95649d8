/* SPDX-License-Identifier: MIT */
/*
 * The "memcpy" DMA engine: a descriptor ring in memory, a doorbell, and a
 * copy per descriptor. It reaches memory only as a bus master does, through
 * dmamap_device_read(), dmamap_device_write() and dmamap_device_transfer(),
 * and works in steps after the doorbell: a descriptor fetch, 16 KiB bursts
 * (a real engine's are smaller; the step is the scheduler's unit, not the
 * bus's), a status write-back, an interrupt when the ring drains.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/hw/memcpy-engine.h>
#include <dmamap/model.h>
#include "models.h"

#define CHUNK 16384

enum mce_phase { FETCH, COPY, WRITEBACK };

struct mce {
	uint32_t ctrl, ring_lo, ring_hi, ring_size, head, tail, status;
	uint32_t done, errors, int_enable, int_status;
	/* The descriptor in flight. */
	enum mce_phase phase;
	uint64_t src, dst;
	uint32_t len, off, desc_status;
};

static int mce_probe(struct device *dev, void **priv)
{
	struct mce *m = calloc(1, sizeof(*m));

	(void)dev;
	if (!m)
		return -ENOMEM;
	m->status = MCE_STATUS_IDLE;
	*priv = m;
	return 0;
}

static void mce_remove(struct device *dev, void *priv)
{
	(void)dev;
	free(priv);
}

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static uint64_t le64(const uint8_t *b)
{
	return le32(b) | (uint64_t)le32(b + 4) << 32;
}

static uint64_t desc_at(const struct mce *m, uint32_t index)
{
	uint64_t ring = (uint64_t)m->ring_hi << 32 | m->ring_lo;

	return ring + (uint64_t)(index & (m->ring_size - 1)) * sizeof(struct mce_desc);
}

static void fail(struct mce *m)
{
	m->desc_status |= MCE_DESC_FAULT;
	m->status |= MCE_STATUS_ERROR;
}

/* One step: fetch a descriptor, move one burst, or write a status back. */
static bool mce_step(struct device *dev, void *priv)
{
	struct mce *m = priv;
	uint8_t raw[sizeof(struct mce_desc)];
	uint32_t n;

	if (!(m->ctrl & MCE_CTRL_ENABLE) || !m->ring_size || m->head == m->tail) {
		m->status |= MCE_STATUS_IDLE;
		return false;
	}
	m->status &= ~MCE_STATUS_IDLE;
	switch (m->phase) {
	case FETCH:
		if (dmamap_device_read(dev, desc_at(m, m->head), raw, sizeof(raw))) {
			/* Cannot even read the ring: stop, as hardware would. */
			m->status |= MCE_STATUS_ERROR | MCE_STATUS_IDLE;
			m->errors++;
			m->ctrl &= ~MCE_CTRL_ENABLE;
			return false;
		}
		m->src = le64(raw);
		m->dst = le64(raw + 8);
		m->len = le32(raw + 16);
		m->off = 0;
		m->desc_status = MCE_DESC_DONE;
		if (!(le32(raw + 20) & MCE_DESC_VALID)) {
			fail(m);
			m->phase = WRITEBACK;
		} else {
			m->phase = m->len ? COPY : WRITEBACK;
		}
		return true;
	case COPY:
		n = m->len - m->off < CHUNK ? m->len - m->off : CHUNK;
		if (dmamap_device_transfer(dev, m->dst + m->off, m->src + m->off, n)) {
			fail(m);
			m->phase = WRITEBACK;
			return true;
		}
		m->off += n;
		if (m->off == m->len)
			m->phase = WRITEBACK;
		return true;
	case WRITEBACK: {
		uint8_t st[4] = { (uint8_t)m->desc_status };

		dmamap_device_write(dev, desc_at(m, m->head) + 24, st, sizeof(st));
		if (m->desc_status & MCE_DESC_FAULT)
			m->errors++;
		else
			m->done++;
		m->head++;
		m->phase = FETCH;
		if (m->head == m->tail && (m->int_enable & MCE_INT_DONE)) {
			m->int_status |= MCE_INT_DONE;
			dmamap_model_raise_irq(dev, 0);
		}
		return true;
	}
	}
	return false;
}

static int mce_write(struct device *dev, void *priv, uint32_t reg, uint32_t val)
{
	struct mce *m = priv;
	int ret = 0;

	(void)dev;
	switch (reg) {
	case MCE_REG_CTRL:
		if (val & MCE_CTRL_RESET) {
			m->head = m->tail = m->done = m->errors = 0;
			m->int_status = 0;
			m->phase = FETCH;
			m->status = MCE_STATUS_IDLE;
		}
		m->ctrl = val & MCE_CTRL_ENABLE;
		break;
	case MCE_REG_RING_LO: m->ring_lo = val; break;
	case MCE_REG_RING_HI: m->ring_hi = val; break;
	case MCE_REG_RING_SIZE:
		if (!val || (val & (val - 1)))
			ret = -EINVAL;
		else
			m->ring_size = val;
		break;
	case MCE_REG_TAIL:
		if ((m->ctrl & MCE_CTRL_ENABLE) && m->ring_size)
			m->tail = val;
		else
			ret = -EIO;
		break;
	case MCE_REG_INT_ENABLE: m->int_enable = val & MCE_INT_DONE; break;
	case MCE_REG_INT_STATUS: m->int_status &= ~val; break;
	default:
		ret = -EINVAL;
	}
	return ret;
}

static int mce_read(struct device *dev, void *priv, uint32_t reg, uint32_t *val)
{
	struct mce *m = priv;
	int ret = 0;

	(void)dev;
	switch (reg) {
	case MCE_REG_ID: *val = MCE_ID; break;
	case MCE_REG_CTRL: *val = m->ctrl; break;
	case MCE_REG_RING_LO: *val = m->ring_lo; break;
	case MCE_REG_RING_HI: *val = m->ring_hi; break;
	case MCE_REG_RING_SIZE: *val = m->ring_size; break;
	case MCE_REG_HEAD: *val = m->head; break;
	case MCE_REG_STATUS: *val = m->status; break;
	case MCE_REG_DONE: *val = m->done; break;
	case MCE_REG_ERRORS: *val = m->errors; break;
	case MCE_REG_INT_ENABLE: *val = m->int_enable; break;
	case MCE_REG_INT_STATUS: *val = m->int_status; break;
	default: ret = -EINVAL;
	}
	return ret;
}

const struct dmamap_device_model dmamap__memcpy_engine_model = {
	.name = "memcpy",
	.compatible = "dmamap,memcpy",
	.probe = mce_probe,
	.remove = mce_remove,
	.mmio_read = mce_read,
	.mmio_write = mce_write,
	.step = mce_step,
	.nr_irqs = 1,
};
