/* SPDX-License-Identifier: MIT */
#ifndef DMAMAP_DMA_DIRECTION_H
#define DMAMAP_DMA_DIRECTION_H

/* The kernel's values: the checker's reports and device models rely on them. */
enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

/**
 * valid_dma_direction() - whether @dir may be used for a mapping
 * @dir: direction passed by a driver
 *
 * Return: non-zero for DMA_BIDIRECTIONAL, DMA_TO_DEVICE and DMA_FROM_DEVICE.
 */
static inline int valid_dma_direction(int dir)
{
	return dir == DMA_BIDIRECTIONAL || dir == DMA_TO_DEVICE ||
	       dir == DMA_FROM_DEVICE;
}

#endif
