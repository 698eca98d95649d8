/* SPDX-License-Identifier: MIT */
/*
 * The model interface (<dmamap/model.h>) and register access from code
 * (dmamap_mmio_read32/write32): every register of the block device and
 * the NIC reads back what was written or what it counts, as their
 * datasheets (<dmamap/hw/blk.h>, <dmamap/hw/nic.h>) say; a ring size that
 * is no power of two, a read of a write-only register, an unknown offset
 * and a doorbell on a disabled device are refused; a model registered
 * wrong, or whose probe fails, makes no device.
 */
#include <dmamap/io.h>
#include <dmamap/model.h>
#include <dmamap/sim.h>
#include <dmamap/hw/blk.h>
#include <dmamap/hw/nic.h>
#include "../helpers.h"

/* @reg of @dev reads @want. */
static void reads(struct device *dev, uint32_t reg, uint32_t want)
{
	uint32_t v = 0xdeadbeef;

	CHECK_MSG(dmamap_mmio_read32(dev, reg, &v) == 0 && v == want, "%s reg 0x%x: 0x%x, not 0x%x",
		  dev_name(dev), reg, v, want);
}

/* @reg of @dev takes @val and reads it back. */
static void keeps(struct device *dev, uint32_t reg, uint32_t val)
{
	CHECK_EQ(dmamap_mmio_write32(dev, reg, val), 0);
	reads(dev, reg, val);
}

TEST(model_blk_registers_read_back_as_its_datasheet_says)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, "blk-coh");
	uint32_t v;

	REQUIRE(dev);
	reads(dev, BLK_REG_ID, BLK_ID);
	reads(dev, BLK_REG_CAPACITY, BLK_CAPACITY_SECTORS);
	keeps(dev, BLK_REG_RING_LO, 0x12345000);
	keeps(dev, BLK_REG_RING_HI, 0x1);
	keeps(dev, BLK_REG_RING_SIZE, 64);
	keeps(dev, BLK_REG_INT_MASK, BLK_INT_DONE);
	keeps(dev, BLK_REG_CTRL, 0);
	reads(dev, BLK_REG_HEAD, 0);
	reads(dev, BLK_REG_COMPLETED, 0);
	reads(dev, BLK_REG_ERRORS, 0);
	reads(dev, BLK_REG_INT_STATUS, 0);
	CHECK_EQ(dmamap_mmio_write32(dev, BLK_REG_RING_SIZE, 3), -EINVAL);
	CHECK_EQ(dmamap_mmio_write32(dev, BLK_REG_RING_SIZE, 2048), -EINVAL);
	reads(dev, BLK_REG_RING_SIZE, 64);
	CHECK_EQ(dmamap_mmio_write32(dev, BLK_REG_TAIL, 1), -EIO); /* disabled */
	CHECK_EQ(dmamap_mmio_write32(dev, BLK_REG_CAPACITY, 1), -EINVAL);
	v = 7;
	CHECK_EQ(dmamap_mmio_read32(dev, BLK_REG_TAIL, &v), -EINVAL);
	CHECK_EQ(dmamap_mmio_read32(dev, 0x100, &v), -EINVAL);
	CHECK_EQ(v, 7);
	dmamap_platform_destroy(p);
}

TEST(model_nic_registers_read_back_as_its_datasheet_says)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, "nic-coh");
	uint32_t v;

	REQUIRE(dev);
	reads(dev, NIC_REG_ID, NIC_ID);
	keeps(dev, NIC_REG_CTRL, NIC_CTRL_LOOPBACK);
	keeps(dev, NIC_REG_TX_RING_LO, 0x1000);
	keeps(dev, NIC_REG_TX_RING_HI, 0x2);
	keeps(dev, NIC_REG_TX_RING_SIZE, 256);
	keeps(dev, NIC_REG_RX_RING_LO, 0x3000);
	keeps(dev, NIC_REG_RX_RING_HI, 0x4);
	keeps(dev, NIC_REG_RX_RING_SIZE, 4096);
	keeps(dev, NIC_REG_INT_MASK, NIC_INT_TX_DONE | NIC_INT_RX_DONE);
	keeps(dev, NIC_REG_COALESCE, (50u << 16) | 8);
	reads(dev, NIC_REG_TX_HEAD, 0);
	reads(dev, NIC_REG_RX_HEAD, 0);
	reads(dev, NIC_REG_TX_FRAMES, 0);
	reads(dev, NIC_REG_RX_FRAMES, 0);
	reads(dev, NIC_REG_RX_DROPPED, 0);
	reads(dev, NIC_REG_ERRORS, 0);
	reads(dev, NIC_REG_INT_STATUS, 0);
	CHECK_EQ(dmamap_mmio_write32(dev, NIC_REG_TX_RING_SIZE, 100), -EINVAL);
	CHECK_EQ(dmamap_mmio_write32(dev, NIC_REG_RX_RING_SIZE, 8192), -EINVAL);
	reads(dev, NIC_REG_RX_RING_SIZE, 4096);
	CHECK_EQ(dmamap_mmio_write32(dev, NIC_REG_ERRORS, 1), -EINVAL);
	CHECK_EQ(dmamap_mmio_read32(dev, NIC_REG_TX_TAIL, &v), -EINVAL);
	CHECK_EQ(dmamap_mmio_read32(dev, 0x200, &v), -EINVAL);
	dmamap_platform_destroy(p);
}

static int failing_probe(struct device *dev, void **priv)
{
	(void)dev;
	(void)priv;
	return -EIO;
}

static const struct dmamap_device_model failing = { .name = "test-failing-probe", .probe = failing_probe };
static const struct dmamap_device_model many_lines = { .name = "test-nine-lines", .nr_irqs = 9 };
static const struct dmamap_device_model no_registers = { .name = "test-no-registers" };

TEST(model_registered_wrong_or_failing_its_probe_makes_no_device)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_error err = { 0 };
	struct dmamap_device_desc d = { .name = "x" };
	static const struct dmamap_device_model unnamed = { .compatible = "test,unnamed" };
	static const struct dmamap_device_model twin = { .name = "test-twin", .compatible = "dmamap,blk" };
	struct device *dev;
	uint32_t v;

	REQUIRE(p);
	CHECK_EQ(dmamap_model_register(NULL), -EINVAL);
	CHECK_EQ(dmamap_model_register(&unnamed), -EINVAL);
	CHECK_EQ(dmamap_model_register(&twin), -EEXIST); /* the compatible is the block device's */
	CHECK(dmamap_model_find(NULL) == NULL && dmamap_model_find_compatible(NULL) == NULL);
	CHECK_EQ(dmamap_model_register(&failing), 0);
	CHECK_EQ(dmamap_model_register(&many_lines), 0);
	CHECK_EQ(dmamap_model_register(&no_registers), 0);
	d.model = "test-failing-probe";
	CHECK(dmamap_device_create(p, &d, &err) == NULL && err.code == -EIO);
	d.model = "test-nine-lines";
	CHECK(dmamap_device_create(p, &d, &err) == NULL && err.code == -EINVAL);
	/* A model with no registers: register access says so. */
	d.model = "test-no-registers";
	dev = dmamap_device_create(p, &d, &err);
	REQUIRE_MSG(dev, "%s", err.msg);
	CHECK_EQ(dmamap_mmio_write32(dev, 0, 1), -ENODEV);
	CHECK_EQ(dmamap_mmio_read32(dev, 0, &v), -ENODEV);
	CHECK_EQ(dmamap_mmio_read32(dev, 0, NULL), -EINVAL);
	CHECK_EQ(dmamap_mmio_write32(NULL, 0, 1), -EINVAL);
	REQUIRE(lookup(p, "dma-coh"));
	CHECK_EQ(dmamap_mmio_write32(lookup(p, "dma-coh"), 0x400, 1), -EINVAL);
	dmamap_platform_destroy(p);
}

/* A block device, enabled, with a ring of four requests and a segment table in coherent memory. */
struct blk_rig {
	struct dmamap_platform *p;
	struct device *dev;
	struct blk_req *ring;
	struct blk_seg *table;
	uint8_t *data;
	dma_addr_t ring_dma, table_dma, data_dma;
	unsigned int tail;
};

static bool blk_rig(struct blk_rig *r)
{
	memset(r, 0, sizeof(*r));
	r->p = quiet_board();
	r->dev = r->p ? lookup(r->p, "blk-coh") : NULL;
	if (!r->dev)
		return false;
	r->ring = dma_alloc_coherent(r->dev, 4 * sizeof(*r->ring), &r->ring_dma, GFP_KERNEL);
	r->table = dma_alloc_coherent(r->dev, 4 * sizeof(*r->table), &r->table_dma, GFP_KERNEL);
	r->data = dma_alloc_coherent(r->dev, 8192, &r->data_dma, GFP_KERNEL);
	if (!r->ring || !r->table || !r->data)
		return false;
	memset(r->ring, 0, 4 * sizeof(*r->ring));
	dmamap_mmio_write32(r->dev, BLK_REG_RING_LO, (uint32_t)r->ring_dma);
	dmamap_mmio_write32(r->dev, BLK_REG_RING_HI, (uint32_t)(r->ring_dma >> 32));
	dmamap_mmio_write32(r->dev, BLK_REG_RING_SIZE, 4);
	dmamap_mmio_write32(r->dev, BLK_REG_INT_MASK, BLK_INT_DONE);
	return dmamap_mmio_write32(r->dev, BLK_REG_CTRL, BLK_CTRL_ENABLE) == 0;
}

/* Submit one request of @op at @sector over @nsegs entries of the table; its status. */
static uint16_t blk_submit(struct blk_rig *r, uint16_t op, uint64_t sector, uint32_t nsegs)
{
	struct blk_req *q = &r->ring[r->tail % 4];

	q->sector = sector;
	q->table = r->table_dma;
	q->nsegs = nsegs;
	q->status = 0;
	dma_wmb();
	q->op = op;
	r->tail++;
	dmamap_mmio_write32(r->dev, BLK_REG_TAIL, r->tail); /* free-running, as HEAD */
	dmamap_sim_run_devices(r->p, 100000);
	return q->status;
}

/*
 * Requests a disk would refuse: no VALID bit, no segments or too many, an
 * unknown operation, a sector past the end, a segment that runs past it;
 * each completes with ERROR and is counted. A table whose END mark comes
 * early ends the request there.
 */
TEST(model_blk_refuses_bad_requests_and_believes_an_early_end_mark)
{
	struct blk_rig r;
	uint32_t v;

	REQUIRE(blk_rig(&r));
	r.table[0] = (struct blk_seg){ r.data_dma, 4096, 0 };
	r.table[1] = (struct blk_seg){ r.data_dma + 4096, 4096, BLK_SEG_END };
	CHECK_EQ(blk_submit(&r, BLK_OP_READ | BLK_REQ_VALID, 0, 0), BLK_STATUS_DONE | BLK_STATUS_ERROR);
	CHECK_EQ(blk_submit(&r, BLK_OP_READ | BLK_REQ_VALID, 0, BLK_MAX_SEGS + 1),
		 BLK_STATUS_DONE | BLK_STATUS_ERROR);
	CHECK_EQ(blk_submit(&r, 3 | BLK_REQ_VALID, 0, 2), BLK_STATUS_DONE | BLK_STATUS_ERROR);
	CHECK_EQ(blk_submit(&r, BLK_OP_WRITE | BLK_REQ_VALID, BLK_CAPACITY_SECTORS, 2),
		 BLK_STATUS_DONE | BLK_STATUS_ERROR);
	CHECK_EQ(blk_submit(&r, BLK_OP_WRITE | BLK_REQ_VALID, BLK_CAPACITY_SECTORS - 8, 2),
		 BLK_STATUS_DONE | BLK_STATUS_ERROR);
	CHECK_EQ(dmamap_mmio_read32(r.dev, BLK_REG_ERRORS, &v), 0);
	CHECK_EQ(v, 5);
	/* Four segments said, the second marked END: two written, the request done; the third, out of reach, never read. */
	memset(r.data, 0x6c, 8192);
	r.table[0].flags = 0;
	r.table[2] = (struct blk_seg){ 0xfff00000ULL, 4096, 0 };
	CHECK_EQ(blk_submit(&r, BLK_OP_WRITE | BLK_REQ_VALID, 100, 4), BLK_STATUS_DONE);
	{
		uint8_t disk[8192];

		CHECK_EQ(dmamap_blk_disk(r.dev, 100 * BLK_SECTOR_SIZE, disk, sizeof(disk), false), 0);
		CHECK(all_bytes(disk, sizeof(disk), 0x6c));
	}
	CHECK_EQ(dmamap_mmio_read32(r.dev, BLK_REG_COMPLETED, &v), 0);
	CHECK_EQ(v, 1); /* without error: the five that failed are ERRORS */
	CHECK_EQ(dmamap_blk_disk(r.dev, 0, NULL, 1, false), -EINVAL);
	CHECK_EQ(dmamap_blk_disk(lookup(r.p, "nic-coh"), 0, &v, 1, false), -EINVAL);
	CHECK_EQ(dmamap_blk_disk(r.dev, (uint64_t)BLK_CAPACITY_SECTORS * BLK_SECTOR_SIZE, &v, 1, false), -EINVAL);
	dmamap_platform_destroy(r.p);
}
