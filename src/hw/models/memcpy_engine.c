/* SPDX-License-Identifier: MIT */
/*
 * The "memcpy" DMA engine: a descriptor ring in memory, a doorbell, and a
 * copy per descriptor. It reaches memory only as a bus master does, through
 * dmamap_device_read() and dmamap_device_write(); it runs synchronously in
 * the doorbell write so runs are deterministic.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/hw/memcpy-engine.h>
#include <pthread.h>
#include <dmamap/model.h>
#include "models.h"

#define CHUNK 4096

struct mce {
	pthread_mutex_t lock;
	uint32_t ctrl, ring_lo, ring_hi, ring_size, head, status;
	uint32_t done, errors;
};

static int mce_probe(struct device *dev, void **priv)
{
	struct mce *m = calloc(1, sizeof(*m));

	(void)dev;
	if (!m)
		return -ENOMEM;
	pthread_mutex_init(&m->lock, NULL);
	m->status = MCE_STATUS_IDLE;
	*priv = m;
	return 0;
}

static void mce_remove(struct device *dev, void *priv)
{
	struct mce *m = priv;

	(void)dev;
	pthread_mutex_destroy(&m->lock);
	free(m);
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

static int copy(struct device *dev, uint64_t src, uint64_t dst, uint32_t len)
{
	uint8_t buf[CHUNK];

	while (len) {
		uint32_t n = len < CHUNK ? len : CHUNK;

		if (dmamap_device_read(dev, src, buf, n) ||
		    dmamap_device_write(dev, dst, buf, n))
			return -EFAULT;
		src += n;
		dst += n;
		len -= n;
	}
	return 0;
}

static void process(struct device *dev, struct mce *m, uint32_t tail)
{
	uint64_t ring = (uint64_t)m->ring_hi << 32 | m->ring_lo;
	uint32_t mask = m->ring_size - 1;

	m->status &= ~MCE_STATUS_IDLE;
	while (m->head != tail) {
		uint64_t at = ring + (uint64_t)(m->head & mask) * sizeof(struct mce_desc);
		uint8_t raw[sizeof(struct mce_desc)];
		uint8_t st[4] = { 0 };
		uint32_t status;

		if (dmamap_device_read(dev, at, raw, sizeof(raw))) {
			m->status |= MCE_STATUS_ERROR;
			m->errors++;
			break; /* cannot even read the ring: stop, as hardware would */
		}
		status = MCE_DESC_DONE;
		if (!(le32(raw + 20) & MCE_DESC_VALID) ||
		    copy(dev, le64(raw), le64(raw + 8), le32(raw + 16))) {
			status |= MCE_DESC_FAULT;
			m->status |= MCE_STATUS_ERROR;
			m->errors++;
		} else {
			m->done++;
		}
		st[0] = (uint8_t)status;
		dmamap_device_write(dev, at + 24, st, sizeof(st));
		m->head++;
	}
	m->status |= MCE_STATUS_IDLE;
}

static int mce_write(struct device *dev, void *priv, uint32_t reg, uint32_t val)
{
	struct mce *m = priv;
	int ret = 0;

	pthread_mutex_lock(&m->lock);
	switch (reg) {
	case MCE_REG_CTRL:
		if (val & MCE_CTRL_RESET) {
			m->head = m->done = m->errors = 0;
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
			process(dev, m, val);
		else
			ret = -EIO;
		break;
	default:
		ret = -EINVAL;
	}
	pthread_mutex_unlock(&m->lock);
	return ret;
}

static int mce_read(struct device *dev, void *priv, uint32_t reg, uint32_t *val)
{
	struct mce *m = priv;
	int ret = 0;

	(void)dev;
	pthread_mutex_lock(&m->lock);
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
	default: ret = -EINVAL;
	}
	pthread_mutex_unlock(&m->lock);
	return ret;
}

const struct dmamap_device_model dmamap__memcpy_engine_model = {
	.name = "memcpy",
	.probe = mce_probe,
	.remove = mce_remove,
	.mmio_read = mce_read,
	.mmio_write = mce_write,
};
