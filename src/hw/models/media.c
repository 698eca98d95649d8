/* SPDX-License-Identifier: MIT */
/*
 * The media devices (<dmamap/hw/media.h>): one register block and one
 * frame engine that moves 4 KiB per step, with what each kind does to a
 * burst: the camera writes its test pattern, the ISP reads a burst and
 * writes it back XORed, the display reads and keeps what it scanned out.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/hw/media.h>
#include <dmamap/model.h>
#include "models.h"

#define BURST 4096u
#define MIN(a, b) ((a) < (b) ? (a) : (b))

enum media_kind { CAMERA, ISP, DISPLAY };

struct media {
	enum media_kind kind;
	uint64_t addr;
	uint32_t len, param, status, int_status, crc, frames;
	uint32_t off;        /* progress in the frame in flight */
	uint32_t run_crc;
	uint8_t *scanout;    /* display: the frame as scanned out */
	uint32_t scanout_len;
};

/* media_crc32() a byte at a time rather than a bit: the same sums, a model step's cost. */
static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint8_t b = (uint8_t)i;

		crc_table[i] = ~media_crc32(~0u, &b, 1);
	}
}

static uint32_t crc_bytes(uint32_t crc, const uint8_t *b, size_t len)
{
	crc = ~crc;
	for (size_t i = 0; i < len; i++)
		crc = (crc >> 8) ^ crc_table[(crc ^ b[i]) & 0xff];
	return ~crc;
}

static int media_probe(enum media_kind kind, void **priv)
{
	struct media *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	pthread_once(&crc_once, crc_init);
	m->kind = kind;
	*priv = m;
	return 0;
}

static int camera_probe(struct device *dev, void **priv)
{
	(void)dev;
	return media_probe(CAMERA, priv);
}

static int isp_probe(struct device *dev, void **priv)
{
	(void)dev;
	return media_probe(ISP, priv);
}

static int display_probe(struct device *dev, void **priv)
{
	(void)dev;
	return media_probe(DISPLAY, priv);
}

static void media_remove(struct device *dev, void *priv)
{
	struct media *m = priv;

	(void)dev;
	free(m->scanout);
	free(m);
}

static void finish(struct device *dev, struct media *m, uint32_t how)
{
	m->status = (m->status & ~MEDIA_STATUS_BUSY) | how;
	if (how == MEDIA_STATUS_DONE) {
		m->crc = m->run_crc;
		m->frames++;
		if (m->kind == DISPLAY)
			m->scanout_len = m->len;
	}
	m->int_status |= MEDIA_INT_DONE;
	dmamap_model_raise_irq(dev, 0);
}

/* One burst of the frame in flight, in the device's own way. */
static bool media_step(struct device *dev, void *priv)
{
	struct media *m = priv;
	uint8_t burst[BURST];
	uint32_t n;
	uint64_t at;

	if (!(m->status & MEDIA_STATUS_BUSY))
		return false;
	if (m->off == m->len) {
		finish(dev, m, MEDIA_STATUS_DONE);
		return true;
	}
	n = MIN(BURST, m->len - m->off);
	at = m->addr + m->off;
	if (m->kind == CAMERA) {
		for (uint32_t i = 0; i < n; i++)
			burst[i] = media_camera_byte(m->param, (uint64_t)m->off + i);
	} else if (dmamap_device_read(dev, at, burst, n)) {
		finish(dev, m, MEDIA_STATUS_FAULT);
		return true;
	}
	if (m->kind == ISP)
		for (uint32_t i = 0; i < n; i++)
			burst[i] ^= (uint8_t)m->param;
	if (m->kind != DISPLAY && dmamap_device_write(dev, at, burst, n)) {
		finish(dev, m, MEDIA_STATUS_FAULT);
		return true;
	}
	if (m->kind == DISPLAY)
		memcpy(m->scanout + m->off, burst, n);
	m->run_crc = crc_bytes(m->run_crc, burst, n);
	m->off += n;
	return true;
}

static int media_write(struct device *dev, void *priv, uint32_t reg, uint32_t val)
{
	struct media *m = priv;

	(void)dev;
	switch (reg) {
	case MEDIA_REG_ADDR_LO: m->addr = (m->addr & ~0xffffffffULL) | val; return 0;
	case MEDIA_REG_ADDR_HI: m->addr = (m->addr & 0xffffffffULL) | (uint64_t)val << 32; return 0;
	case MEDIA_REG_LEN: m->len = MIN(val, MEDIA_MAX_FRAME); return 0;
	case MEDIA_REG_PARAM: m->param = val; return 0;
	case MEDIA_REG_INT_STATUS: m->int_status &= ~val; return 0;
	case MEDIA_REG_GO:
		if (!(val & 1) || (m->status & MEDIA_STATUS_BUSY))
			return 0;
		if (m->kind == DISPLAY && m->len) {
			uint8_t *s = realloc(m->scanout, m->len);

			if (!s)
				return -ENOMEM;
			m->scanout = s;
		}
		m->off = 0;
		m->run_crc = 0;
		m->status = MEDIA_STATUS_BUSY;
		return 0;
	}
	return -EINVAL;
}

static int media_read(struct device *dev, void *priv, uint32_t reg, uint32_t *val)
{
	static const uint32_t ids[] = { MEDIA_ID_CAMERA, MEDIA_ID_ISP, MEDIA_ID_DISPLAY };
	struct media *m = priv;

	(void)dev;
	switch (reg) {
	case MEDIA_REG_ID: *val = ids[m->kind]; return 0;
	case MEDIA_REG_ADDR_LO: *val = (uint32_t)m->addr; return 0;
	case MEDIA_REG_ADDR_HI: *val = (uint32_t)(m->addr >> 32); return 0;
	case MEDIA_REG_LEN: *val = m->len; return 0;
	case MEDIA_REG_PARAM: *val = m->param; return 0;
	case MEDIA_REG_STATUS: *val = m->status; return 0;
	case MEDIA_REG_INT_STATUS: *val = m->int_status; return 0;
	case MEDIA_REG_CRC: *val = m->crc; return 0;
	case MEDIA_REG_FRAMES: *val = m->frames; return 0;
	}
	return -EINVAL;
}

const struct dmamap_device_model dmamap__camera_model = {
	.name = "camera",
	.compatible = "dmamap,camera",
	.probe = camera_probe,
	.remove = media_remove,
	.mmio_read = media_read,
	.mmio_write = media_write,
	.step = media_step,
	.nr_irqs = 1,
};

const struct dmamap_device_model dmamap__isp_model = {
	.name = "isp",
	.compatible = "dmamap,isp",
	.probe = isp_probe,
	.remove = media_remove,
	.mmio_read = media_read,
	.mmio_write = media_write,
	.step = media_step,
	.nr_irqs = 1,
};

const struct dmamap_device_model dmamap__display_model = {
	.name = "display",
	.compatible = "dmamap,display",
	.probe = display_probe,
	.remove = media_remove,
	.mmio_read = media_read,
	.mmio_write = media_write,
	.step = media_step,
	.nr_irqs = 1,
};

struct scanout_io {
	void *buf;
	size_t max;
	long got;
};

static int take_scanout(struct device *dev, void *priv, void *arg)
{
	struct media *m = priv;
	struct scanout_io *io = arg;

	(void)dev;
	io->got = m->scanout_len;
	memcpy(io->buf, m->scanout, MIN((size_t)m->scanout_len, io->max));
	return 0;
}

long dmamap_display_scanout(struct device *dev, void *buf, size_t max)
{
	struct scanout_io io = { .buf = buf, .max = max };
	int ret;

	if (!dev || !buf || strcmp(dmamap_device_model_name(dev), dmamap__display_model.name))
		return -EINVAL;
	ret = dmamap_model_call(dev, take_scanout, &io);
	return ret ? ret : io.got;
}
