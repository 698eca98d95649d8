/* SPDX-License-Identifier: MIT */
/*
 * Example driver for the "memcpy" DMA engine, written against
 * <dmamap/dma-mapping.h> only (plus the engine's register sheet). It is the
 * driver `dmamap demo` runs; its bug switches make one classic DMA mistake
 * each, so the demo can show what that mistake does on each kind of device.
 */
#ifndef DMAMAP_DRIVERS_MEMCPY_DMA_H
#define DMAMAP_DRIVERS_MEMCPY_DMA_H

#include <dmamap/dma-mapping.h>
#include <dmamap/io.h>
#include <dmamap/hw/memcpy-engine.h>

enum mcdma_bug {
	MCDMA_BUG_NONE = 0,
	/* Fill the source after mapping it and read the destination before
	 * giving it back, with no dma_sync_single_for_device/for_cpu. */
	MCDMA_BUG_MISSING_SYNC,
	/* Map the destination DMA_TO_DEVICE instead of DMA_FROM_DEVICE. */
	MCDMA_BUG_WRONG_DIRECTION,
	/* Stamp the first MCDMA_STAMP_LEN bytes of the result with MCDMA_STAMP
	 * before unmapping it, while the device still owns it. */
	MCDMA_BUG_CPU_WRITE_WHILE_MAPPED,
	/* Destination shares a cache line with a variable the CPU updates during DMA. */
	MCDMA_BUG_SHARED_CACHELINE,
	/* Read the destination before unmapping it, with no dma_sync_single_for_cpu(). */
	MCDMA_BUG_MISSING_SYNC_FOR_CPU,
	/* Fill the source after mapping it, with no dma_sync_single_for_device(). */
	MCDMA_BUG_MISSING_SYNC_FOR_DEVICE,
	/* Unmap the source right after the doorbell, before the engine read it. */
	MCDMA_BUG_UNMAP_BEFORE_DONE,
	/* Never call dma_mapping_error(). */
	MCDMA_BUG_MAP_ERROR_UNCHECKED,
	/* Give the engine CPU physical addresses (virt_to_phys) instead of mapping. */
	MCDMA_BUG_NO_DMA_API,
	/* mcdma_remove() forgets to free the ring (set struct mcdma's bug). */
	MCDMA_BUG_LEAK_AT_REMOVE,
	MCDMA_BUG_COUNT
};

#define MCDMA_STAMP 0x5a
#define MCDMA_STAMP_LEN 16

struct mcdma {
	struct device *dev;
	void __iomem *regs;
	struct mce_desc *ring;
	dma_addr_t ring_dma;
	unsigned int ring_size;
	uint32_t tail;
	enum mcdma_bug bug; /* the driver-wide mistake (MCDMA_BUG_LEAK_AT_REMOVE) */
};

/* Allocate the ring (coherent memory), program and enable the engine. */
int mcdma_probe(struct mcdma *m, struct device *dev, unsigned int ring_size);
void mcdma_remove(struct mcdma *m);

/* Copy @len bytes between two device addresses; waits. 0, -EIO on a fault, -ETIMEDOUT. */
int mcdma_copy_dma(struct mcdma *m, dma_addr_t dst, dma_addr_t src, uint32_t len);

/*
 * Copy between two CPU buffers: map, run, unmap, as a driver does for each
 * transfer. @fill, if not NULL, is what the CPU writes into @src for the
 * transfer; @seen, if not NULL, receives what the CPU read from @dst when
 * it consumed the result. The buggy variants do one of these at the wrong
 * moment. MCDMA_BUG_SHARED_CACHELINE needs @dst to have one more byte: the
 * driver's own field that shares the last cache line.
 */
int mcdma_copy_buf(struct mcdma *m, void *dst, void *src, size_t len,
		   const void *fill, void *seen, enum mcdma_bug bug);

/* Copy scatter-gather to scatter-gather (same segment sizes), one descriptor per pair. */
int mcdma_copy_sg(struct mcdma *m, struct scatterlist *dst,
		  struct scatterlist *src, int nents);

const char *mcdma_bug_name(enum mcdma_bug bug);
int mcdma_bug_parse(const char *name, enum mcdma_bug *bug);

#endif
