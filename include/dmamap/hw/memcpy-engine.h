/* SPDX-License-Identifier: MIT */
/*
 * Register and descriptor layout of the "memcpy" DMA engine model, as a
 * datasheet would give it. Drivers include this beside dma-mapping.h.
 *
 * The driver places a ring of descriptors in coherent memory, writes its
 * device address to RING_LO/RING_HI and its length (a power of two) to
 * RING_SIZE, sets CTRL_ENABLE, then writes the index after the last filled
 * descriptor to TAIL. The engine works asynchronously: it fetches the
 * descriptors from HEAD up to TAIL one by one, copies in 16 KiB bursts,
 * writes each one's status word, then advances HEAD. When HEAD reaches
 * TAIL with INT_ENABLE set it sets INT_STATUS_DONE and raises its
 * interrupt (line 0). Fields are little-endian.
 */
#ifndef DMAMAP_HW_MEMCPY_ENGINE_H
#define DMAMAP_HW_MEMCPY_ENGINE_H

#include <stdint.h>

#define MCE_REG_ID 0x00      /* RO: MCE_ID */
#define MCE_REG_CTRL 0x04    /* RW: MCE_CTRL_* */
#define MCE_REG_RING_LO 0x08 /* RW: ring device address, low 32 bits */
#define MCE_REG_RING_HI 0x0c /* RW: high 32 bits */
#define MCE_REG_RING_SIZE 0x10 /* RW: descriptors in the ring, power of two */
#define MCE_REG_HEAD 0x14    /* RO: next descriptor the engine will process */
#define MCE_REG_TAIL 0x18    /* WO: doorbell, index after the last valid one */
#define MCE_REG_STATUS 0x1c  /* RO: MCE_STATUS_* */
#define MCE_REG_DONE 0x20    /* RO: descriptors completed since reset */
#define MCE_REG_ERRORS 0x24  /* RO: descriptors that failed since reset */
#define MCE_REG_INT_ENABLE 0x28 /* RW: MCE_INT_DONE: interrupt when the ring drains */
#define MCE_REG_INT_STATUS 0x2c /* RW1C: MCE_INT_DONE */

#define MCE_ID 0x4d434531u   /* "MCE1" */
#define MCE_CTRL_ENABLE 0x1u
#define MCE_CTRL_RESET 0x2u
#define MCE_STATUS_IDLE 0x1u
#define MCE_STATUS_ERROR 0x2u /* a descriptor faulted */
#define MCE_INT_DONE 0x1u

#define MCE_DESC_VALID 0x1u   /* ctrl: set by the driver */
#define MCE_DESC_DONE 0x1u    /* status: written by the engine */
#define MCE_DESC_FAULT 0x2u   /* status: a read or write of the copy faulted */

struct mce_desc {
	uint64_t src;
	uint64_t dst;
	uint32_t len;
	uint32_t ctrl;
	uint32_t status;
	uint32_t reserved;
};

#endif
