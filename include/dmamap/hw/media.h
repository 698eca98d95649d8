/* SPDX-License-Identifier: MIT */
/*
 * Register layout of the media devices, as a datasheet would give it: a
 * camera that captures frames, an image signal processor (ISP) that
 * processes a frame in place, and a display controller that scans a frame
 * out. The three share one register block; each works on one contiguous
 * frame at a device address (no scatter-gather: a device without an IOMMU
 * needs the frame contiguous in memory, one behind an IOMMU in IOVA
 * space).
 *
 * The driver writes ADDR_LO/ADDR_HI, LEN and PARAM, then 1 to GO. The
 * device works asynchronously, 4 KiB per step of device time: the camera
 * writes the frame (byte i of frame number PARAM is media_camera_byte()),
 * the ISP reads each burst and writes it back XORed with PARAM's low byte,
 * the display reads the frame and keeps it as scanned out (its CRC in
 * CRC, the bytes for a test through dmamap_display_scanout()). When the
 * frame is done it sets INT_STATUS_DONE and raises line 0; a bus fault
 * stops it with STATUS_FAULT (and the interrupt). Registers are 32-bit.
 */
#ifndef DMAMAP_HW_MEDIA_H
#define DMAMAP_HW_MEDIA_H

#include <stddef.h>
#include <stdint.h>
#include <dmamap/types.h>

#define MEDIA_REG_ID 0x00         /* RO: MEDIA_ID_* */
#define MEDIA_REG_ADDR_LO 0x04    /* RW: the frame's device address, low 32 bits */
#define MEDIA_REG_ADDR_HI 0x08    /* RW: high 32 bits */
#define MEDIA_REG_LEN 0x0c        /* RW: the frame's length in bytes */
#define MEDIA_REG_PARAM 0x10      /* RW: camera: frame number; ISP: XOR key; display: unused */
#define MEDIA_REG_GO 0x14         /* WO: 1 starts a frame (ignored while busy) */
#define MEDIA_REG_STATUS 0x18     /* RO: MEDIA_STATUS_* */
#define MEDIA_REG_INT_STATUS 0x1c /* RW1C: MEDIA_INT_DONE */
#define MEDIA_REG_CRC 0x20        /* RO: CRC-32 of the last frame the device read or wrote */
#define MEDIA_REG_FRAMES 0x24     /* RO: frames completed since probe */

#define MEDIA_ID_CAMERA 0x4d434d31u  /* "MCM1" */
#define MEDIA_ID_ISP 0x4d495331u     /* "MIS1" */
#define MEDIA_ID_DISPLAY 0x4d445031u /* "MDP1" */

#define MEDIA_STATUS_BUSY 0x1u
#define MEDIA_STATUS_DONE 0x2u
#define MEDIA_STATUS_FAULT 0x4u
#define MEDIA_INT_DONE 0x1u

#define MEDIA_MAX_FRAME (16u << 20)

/* Byte @i of the frame the camera captures as number @seq: a test pattern that moves. */
static inline uint8_t media_camera_byte(uint32_t seq, uint64_t i)
{
	return (uint8_t)(seq * 0x3bu + i * 7u + (i >> 9));
}

/* The CRC-32 (IEEE 802.3, reflected) the devices report, continued from @crc (0 to start). */
static inline uint32_t media_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *b = (const uint8_t *)buf;

	crc = ~crc;
	for (size_t i = 0; i < len; i++) {
		crc ^= b[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

/**
 * dmamap_display_scanout() - the last frame a display scanned out
 * @dev: a device of the "display" model
 * @buf: receives it
 * @max: @buf's size
 *
 * What the display read from memory, as a test pattern generator on the
 * other side of the cable would see it.
 *
 * Return: the frame's length (at most @max bytes copied); 0 before the
 * first frame; -EINVAL for a NULL @buf or a device of another model.
 */
DMAMAP_API long dmamap_display_scanout(struct device *dev, void *buf, size_t max);

#endif
