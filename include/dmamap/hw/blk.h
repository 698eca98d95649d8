/* SPDX-License-Identifier: MIT */
/*
 * Register and descriptor layout of the "blk" block device model
 * (compatible "dmamap,blk"), as a datasheet would give it. Fields are
 * little-endian; a sector is 512 bytes; the disk is an in-memory image of
 * BLK_CAPACITY_SECTORS sectors, zero until written.
 *
 * Requests sit in a ring of blk_req in memory the driver gives the device
 * (coherent memory). Each names a scatter-gather table of blk_seg (an
 * ADMA2-like table, in coherent memory too: a dma_pool block, typically);
 * the last segment carries BLK_SEG_END. The driver fills a request and its
 * table, sets BLK_REQ_VALID last (after a dma_wmb()) and writes the number
 * of requests submitted so far to TAIL: TAIL and HEAD count without end
 * (a request's slot is its number modulo RING_SIZE), and the device works
 * while HEAD differs from TAIL. The device fetches the request, then each segment
 * descriptor, moves each segment in 4 KiB bursts, then writes the status
 * word (BLK_STATUS_DONE, with BLK_STATUS_ERROR for a bad request or an
 * unreachable buffer) and advances HEAD. INT_STATUS_DONE is set and line 0
 * raised (when INT_MASK allows) for every completed request.
 */
#ifndef DMAMAP_HW_BLK_H
#define DMAMAP_HW_BLK_H

#include <stdint.h>
#include <stddef.h>
#include <dmamap/types.h>

#define BLK_REG_ID 0x00        /* RO: BLK_ID */
#define BLK_REG_CTRL 0x04      /* RW: BLK_CTRL_* */
#define BLK_REG_RING_LO 0x08
#define BLK_REG_RING_HI 0x0c
#define BLK_REG_RING_SIZE 0x10 /* requests, a power of two up to 1024 */
#define BLK_REG_TAIL 0x14      /* WO doorbell: requests submitted, counting on */
#define BLK_REG_HEAD 0x18      /* RO: requests finished (status written), counting on */
#define BLK_REG_INT_STATUS 0x1c /* RW1C: BLK_INT_DONE */
#define BLK_REG_INT_MASK 0x20
#define BLK_REG_CAPACITY 0x24  /* RO: sectors */
#define BLK_REG_COMPLETED 0x28 /* RO: requests completed without error since reset */
#define BLK_REG_ERRORS 0x2c    /* RO: requests that failed since reset */

#define BLK_ID 0x424c4b31u     /* "BLK1" */
#define BLK_CTRL_ENABLE 0x1u
#define BLK_CTRL_RESET 0x2u
#define BLK_INT_DONE 0x1u

#define BLK_SECTOR_SIZE 512
#define BLK_CAPACITY_SECTORS (64u * 2048u) /* 64 MiB */
#define BLK_MAX_SEGS 128

#define BLK_OP_READ 1  /* disk -> memory */
#define BLK_OP_WRITE 2 /* memory -> disk */
#define BLK_REQ_VALID 0x8000u /* in op: set by the driver, last */

#define BLK_STATUS_DONE 0x1u
#define BLK_STATUS_ERROR 0x2u

#define BLK_SEG_END 0x1u

struct blk_req {
	uint64_t sector;
	uint64_t table;  /* device address of the blk_seg table */
	uint32_t nsegs;  /* 1 to BLK_MAX_SEGS */
	uint16_t op;     /* BLK_OP_* | BLK_REQ_VALID */
	uint16_t status; /* written by the device */
};

struct blk_seg {
	uint64_t addr;
	uint32_t len;   /* a multiple of 4 bytes; the request's total, of sectors */
	uint32_t flags; /* BLK_SEG_END on the last */
};

/**
 * dmamap_blk_disk() - read or write the disk image directly, as a test does
 * @dev: a device with the "blk" model
 * @offset: byte offset in the image
 * @buf: bytes to write, or where to read
 * @len: bytes
 * @write: write @buf into the image, or read the image into @buf
 *
 * Return: 0; -EINVAL for a NULL or non-blk @dev, a NULL @buf, or a range
 * past the capacity; -ENOMEM if the image cannot grow.
 */
DMAMAP_API int dmamap_blk_disk(struct device *dev, uint64_t offset, void *buf, size_t len,
			       bool write);

#endif
