/* SPDX-License-Identifier: MIT */
/*
 * The "blk" block device (<dmamap/hw/blk.h>): a ring of requests, each
 * with a scatter-gather table, over an in-memory disk image. One step
 * fetches a request or a segment descriptor, moves a 4 KiB burst, or
 * writes a status back. The image grows a 4 KiB page at a time as it is
 * written; pages never written read as zeroes.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/hw/blk.h>
#include <dmamap/model.h>
#include "models.h"

#define BURST 4096
#define IMAGE_PAGE 4096
#define IMAGE_PAGES ((uint64_t)BLK_CAPACITY_SECTORS * BLK_SECTOR_SIZE / IMAGE_PAGE)

enum phase { FETCH_REQ, FETCH_SEG, DATA, STATUS };

struct blk {
	uint32_t ctrl, ring_lo, ring_hi, ring_size, head, tail;
	uint32_t int_status, int_mask, completed, errors;
	/* The request in flight. */
	enum phase phase;
	uint64_t sector, table, pos; /* pos: byte offset in the disk */
	uint32_t nsegs, seg, seg_off, status;
	uint16_t op;
	uint64_t seg_addr;
	uint32_t seg_len;
	uint8_t *image[IMAGE_PAGES];
};

static uint64_t le(const uint8_t *b, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | b[n];
	return v;
}

static int blk_probe(struct device *dev, void **priv)
{
	struct blk *b = calloc(1, sizeof(*b));

	(void)dev;
	if (!b)
		return -ENOMEM;
	*priv = b;
	return 0;
}

static void blk_remove(struct device *dev, void *priv)
{
	struct blk *b = priv;

	(void)dev;
	for (uint64_t i = 0; i < IMAGE_PAGES; i++)
		free(b->image[i]);
	free(b);
}

/* Copy between the image and @buf; -ENOMEM if a page cannot be made. */
static int image_io(struct blk *b, uint64_t pos, uint8_t *buf, uint32_t len, bool write)
{
	while (len) {
		uint64_t page = pos / IMAGE_PAGE;
		uint32_t off = (uint32_t)(pos % IMAGE_PAGE);
		uint32_t n = IMAGE_PAGE - off < len ? IMAGE_PAGE - off : len;

		if (write && !b->image[page] && !(b->image[page] = calloc(1, IMAGE_PAGE)))
			return -ENOMEM;
		if (write)
			memcpy(b->image[page] + off, buf, n);
		else if (b->image[page])
			memcpy(buf, b->image[page] + off, n);
		else
			memset(buf, 0, n);
		pos += n;
		buf += n;
		len -= n;
	}
	return 0;
}

static uint64_t req_addr(const struct blk *b)
{
	uint64_t ring = (uint64_t)b->ring_hi << 32 | b->ring_lo;

	return ring + (uint64_t)(b->head & (b->ring_size - 1)) * sizeof(struct blk_req);
}

static void fail(struct blk *b)
{
	b->status |= BLK_STATUS_ERROR;
	b->phase = STATUS;
}

static bool blk_step(struct device *dev, void *priv)
{
	struct blk *b = priv;
	uint8_t raw[sizeof(struct blk_req)], buf[BURST];
	uint32_t n;

	if (!(b->ctrl & BLK_CTRL_ENABLE) || !b->ring_size || b->head == b->tail)
		return false;
	switch (b->phase) {
	case FETCH_REQ:
		if (dmamap_device_read(dev, req_addr(b), raw, sizeof(struct blk_req))) {
			b->errors++;
			b->ctrl &= ~BLK_CTRL_ENABLE; /* the ring is unreachable: stop */
			return false;
		}
		b->sector = le(raw, 8);
		b->table = le(raw + 8, 8);
		b->nsegs = (uint32_t)le(raw + 16, 4);
		b->op = (uint16_t)le(raw + 20, 2);
		b->status = BLK_STATUS_DONE;
		b->seg = 0;
		b->pos = b->sector * BLK_SECTOR_SIZE;
		b->phase = FETCH_SEG;
		if (!(b->op & BLK_REQ_VALID) || !b->nsegs || b->nsegs > BLK_MAX_SEGS ||
		    ((b->op & ~BLK_REQ_VALID) != BLK_OP_READ && (b->op & ~BLK_REQ_VALID) != BLK_OP_WRITE) ||
		    b->sector >= BLK_CAPACITY_SECTORS)
			fail(b);
		return true;
	case FETCH_SEG:
		if (dmamap_device_read(dev, b->table + (uint64_t)b->seg * sizeof(struct blk_seg), raw,
				       sizeof(struct blk_seg))) {
			fail(b);
			return true;
		}
		b->seg_addr = le(raw, 8);
		b->seg_len = (uint32_t)le(raw + 8, 4);
		b->seg_off = 0;
		if ((le(raw + 12, 4) & BLK_SEG_END) && b->seg + 1 < b->nsegs)
			b->nsegs = b->seg + 1; /* the table ends early: believe the END mark */
		if (b->pos + b->seg_len > (uint64_t)BLK_CAPACITY_SECTORS * BLK_SECTOR_SIZE)
			fail(b);
		else if (b->seg_len)
			b->phase = DATA;
		else /* an empty segment moves nothing: on to the next one */
			b->phase = ++b->seg == b->nsegs ? STATUS : FETCH_SEG;
		return true;
	case DATA:
		n = b->seg_len - b->seg_off < BURST ? b->seg_len - b->seg_off : BURST;
		if ((b->op & ~BLK_REQ_VALID) == BLK_OP_WRITE) {
			if (dmamap_device_read(dev, b->seg_addr + b->seg_off, buf, n) ||
			    image_io(b, b->pos, buf, n, true)) {
				fail(b);
				return true;
			}
		} else if (image_io(b, b->pos, buf, n, false) ||
			   dmamap_device_write(dev, b->seg_addr + b->seg_off, buf, n)) {
			fail(b);
			return true;
		}
		b->seg_off += n;
		b->pos += n;
		if (b->seg_off == b->seg_len)
			b->phase = ++b->seg == b->nsegs ? STATUS : FETCH_SEG;
		return true;
	case STATUS: {
		uint8_t st[2] = { (uint8_t)b->status, 0 };

		dmamap_device_write(dev, req_addr(b) + 22, st, sizeof(st));
		if (b->status & BLK_STATUS_ERROR)
			b->errors++;
		else
			b->completed++;
		b->head++;
		b->phase = FETCH_REQ;
		b->int_status |= BLK_INT_DONE;
		if (b->int_mask & BLK_INT_DONE)
			dmamap_model_raise_irq(dev, 0);
		return true;
	}
	}
	return false;
}

static int blk_write(struct device *dev, void *priv, uint32_t reg, uint32_t val)
{
	struct blk *b = priv;

	switch (reg) {
	case BLK_REG_CTRL:
		if (val & BLK_CTRL_RESET) {
			b->head = b->tail = b->completed = b->errors = 0;
			b->int_status = 0;
			b->phase = FETCH_REQ;
		}
		b->ctrl = val & BLK_CTRL_ENABLE;
		return 0;
	case BLK_REG_RING_LO: b->ring_lo = val; return 0;
	case BLK_REG_RING_HI: b->ring_hi = val; return 0;
	case BLK_REG_RING_SIZE:
		if (!val || (val & (val - 1)) || val > 1024)
			return -EINVAL;
		b->ring_size = val;
		return 0;
	case BLK_REG_TAIL:
		if (!(b->ctrl & BLK_CTRL_ENABLE) || !b->ring_size)
			return -EIO;
		b->tail = val;
		return 0;
	case BLK_REG_INT_STATUS: b->int_status &= ~val; return 0;
	case BLK_REG_INT_MASK:
		b->int_mask = val & BLK_INT_DONE;
		if (b->int_status & b->int_mask)
			dmamap_model_raise_irq(dev, 0);
		return 0;
	}
	return -EINVAL;
}

static int blk_read(struct device *dev, void *priv, uint32_t reg, uint32_t *val)
{
	struct blk *b = priv;

	(void)dev;
	switch (reg) {
	case BLK_REG_ID: *val = BLK_ID; break;
	case BLK_REG_CTRL: *val = b->ctrl; break;
	case BLK_REG_RING_LO: *val = b->ring_lo; break;
	case BLK_REG_RING_HI: *val = b->ring_hi; break;
	case BLK_REG_RING_SIZE: *val = b->ring_size; break;
	case BLK_REG_HEAD: *val = b->head; break;
	case BLK_REG_INT_STATUS: *val = b->int_status; break;
	case BLK_REG_INT_MASK: *val = b->int_mask; break;
	case BLK_REG_CAPACITY: *val = BLK_CAPACITY_SECTORS; break;
	case BLK_REG_COMPLETED: *val = b->completed; break;
	case BLK_REG_ERRORS: *val = b->errors; break;
	default: return -EINVAL;
	}
	return 0;
}

const struct dmamap_device_model dmamap__blk_model = {
	.name = "blk",
	.compatible = "dmamap,blk",
	.probe = blk_probe,
	.remove = blk_remove,
	.mmio_read = blk_read,
	.mmio_write = blk_write,
	.step = blk_step,
	.nr_irqs = 1,
};

struct disk_io {
	uint64_t offset;
	void *buf;
	size_t len;
	bool write;
};

static int disk(struct device *dev, void *priv, void *arg)
{
	struct disk_io *io = arg;

	(void)dev;
	return image_io(priv, io->offset, io->buf, (uint32_t)io->len, io->write);
}

int dmamap_blk_disk(struct device *dev, uint64_t offset, void *buf, size_t len, bool write)
{
	struct disk_io io = { offset, buf, len, write };
	uint64_t cap = (uint64_t)BLK_CAPACITY_SECTORS * BLK_SECTOR_SIZE;

	if (!dev || strcmp(dmamap_device_model_name(dev), dmamap__blk_model.name) || !buf ||
	    offset > cap || len > cap - offset)
		return -EINVAL;
	return dmamap_model_call(dev, disk, &io);
}
