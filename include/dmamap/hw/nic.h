/* SPDX-License-Identifier: MIT */
/*
 * Register and descriptor layout of the "nic" Ethernet controller model
 * (compatible "dmamap,nic"), as a datasheet would give it, and the wire a
 * test or the demo drives. Fields are little-endian.
 *
 * Two rings of nic_desc in memory the driver gives the device (coherent
 * memory, normally). A descriptor belongs to the device while its OWN bit
 * is set, as on stmmac-class hardware: the driver fills addr and len,
 * then sets OWN (after a dma_wmb(), so the device never sees OWN with an
 * old address); the device clears OWN when it is done with it, after
 * writing back len for a received frame in a write of its own (so the
 * driver reads len after seeing OWN clear, and a dma_rmb()).
 *
 * TX: the driver writes TX_TAIL (the index after the last descriptor it
 * handed over). The device walks from TX_HEAD: fetches a descriptor,
 * reads its buffer, writes it back with OWN clear; a frame is the
 * descriptors up to one with EOP (sg transmit), at most NIC_MAX_FRAME
 * bytes. It stops at a descriptor without OWN until the next TX_TAIL
 * write, even one that changes nothing.
 *
 * POLL (in CTRL): the device ignores both TAIL registers and fetches the
 * descriptor at each ring's head at every yield point until it finds OWN
 * set, as DMA engines without a tail pointer poll their rings: it never
 * waits for a doorbell, so OWN must come after the rest (dma_wmb()).
 *
 * RX: the driver hands empty buffers over the same way and writes RX_TAIL.
 * Each received frame takes one descriptor: the device writes the frame
 * into its buffer (truncated, with ERR, if it is longer than len), then
 * len and flags (EOP, OWN clear). Without a free buffer a frame waits on
 * the wire; past NIC_WIRE_FRAMES waiting, it is dropped (RX_DROPPED).
 *
 * Interrupts (line 0): INT_STATUS collects TX_DONE and RX_DONE as frames
 * complete and raises the line when (INT_STATUS & INT_MASK) has
 * COALESCE_FRAMES completions, or COALESCE_USECS of device time after the
 * first one. The driver clears bits by writing them to INT_STATUS.
 */
#ifndef DMAMAP_HW_NIC_H
#define DMAMAP_HW_NIC_H

#include <stdint.h>
#include <stddef.h>
#include <dmamap/types.h>

#define NIC_REG_ID 0x00          /* RO: NIC_ID */
#define NIC_REG_CTRL 0x04        /* RW: NIC_CTRL_* */
#define NIC_REG_TX_RING_LO 0x08
#define NIC_REG_TX_RING_HI 0x0c
#define NIC_REG_TX_RING_SIZE 0x10 /* descriptors, a power of two up to 4096 */
#define NIC_REG_TX_TAIL 0x14      /* WO doorbell */
#define NIC_REG_TX_HEAD 0x18      /* RO: next descriptor the device fetches */
#define NIC_REG_RX_RING_LO 0x1c
#define NIC_REG_RX_RING_HI 0x20
#define NIC_REG_RX_RING_SIZE 0x24
#define NIC_REG_RX_TAIL 0x28
#define NIC_REG_RX_HEAD 0x2c
#define NIC_REG_INT_STATUS 0x30   /* RW1C: NIC_INT_* */
#define NIC_REG_INT_MASK 0x34     /* RW: NIC_INT_* that raise the line */
#define NIC_REG_COALESCE 0x38     /* RW: frames (bits 0-15, 0 = 1), usecs (bits 16-31) */
#define NIC_REG_TX_FRAMES 0x3c    /* RO counters since reset */
#define NIC_REG_RX_FRAMES 0x40
#define NIC_REG_RX_DROPPED 0x44
#define NIC_REG_ERRORS 0x48       /* descriptors or buffers the device could not reach */

#define NIC_ID 0x4e494331u        /* "NIC1" */
#define NIC_CTRL_ENABLE 0x1u
#define NIC_CTRL_RESET 0x2u
#define NIC_CTRL_LOOPBACK 0x4u    /* transmitted frames come back as received ones */
#define NIC_CTRL_POLL 0x8u        /* ignore the TAIL registers: poll each ring's head for OWN */

#define NIC_INT_TX_DONE 0x1u
#define NIC_INT_RX_DONE 0x2u

#define NIC_DESC_OWN 0x8000u      /* the device owns the descriptor */
#define NIC_DESC_EOP 0x0001u      /* last descriptor of a frame */
#define NIC_DESC_ERR 0x0002u      /* written back: buffer unreachable, or frame truncated */

#define NIC_MAX_FRAME 9216
#define NIC_WIRE_FRAMES 256

struct nic_desc {
	uint64_t addr;
	uint16_t len;
	uint16_t flags;
	uint32_t reserved;
};

/**
 * dmamap_nic_wire_inject() - a frame arrives on the device's wire
 * @dev: a device with the "nic" model
 * @frame: its bytes
 * @len: 1 to NIC_MAX_FRAME
 *
 * The device receives it in its own time (device steps), into the next
 * free RX buffer.
 *
 * Return: 0; -EINVAL for a NULL or non-nic @dev, a NULL @frame or a bad
 * @len; -ENOBUFS when NIC_WIRE_FRAMES frames already wait (the frame is
 * dropped and counted in RX_DROPPED); -ENOMEM if the frame cannot be
 * stored.
 */
DMAMAP_API int dmamap_nic_wire_inject(struct device *dev, const void *frame, size_t len);

/**
 * dmamap_nic_wire_take() - the oldest frame the device sent on its wire
 * @dev: a device with the "nic" model, not in loopback
 * @buf: receives the frame
 * @max: size of @buf
 *
 * Return: the frame's length (the frame is taken even when @max is
 * smaller, and copied truncated); 0 when no frame waits; -EINVAL for a
 * NULL or non-nic @dev or a NULL @buf. The device keeps the last
 * NIC_WIRE_FRAMES frames it sent; older ones are dropped.
 */
DMAMAP_API long dmamap_nic_wire_take(struct device *dev, void *buf, size_t max);

#endif
