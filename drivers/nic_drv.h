/* SPDX-License-Identifier: MIT */
/*
 * Example driver for the "nic" Ethernet controller (<dmamap/hw/nic.h>),
 * written as a kernel network driver is: coherent descriptor rings, TX
 * buffers mapped at transmit and unmapped when the device is done with
 * them, RX buffers mapped once and recycled with dma_sync_single_for_cpu()
 * and dma_sync_single_for_device() as page_pool does, an interrupt handler
 * that masks the device and polls (NAPI), a lock between transmit and
 * completion. Each bug switch is a one-line variation of it.
 */
#ifndef DMAMAP_DRIVERS_NIC_DRV_H
#define DMAMAP_DRIVERS_NIC_DRV_H

#include <dmamap/dma-mapping.h>
#include <dmamap/interrupt.h>
#include <dmamap/io.h>
#include <dmamap/hw/nic.h>

enum nicdrv_bug {
	NICDRV_BUG_NONE = 0,
	/* Read a received frame without dma_sync_single_for_cpu() first. */
	NICDRV_BUG_MISSING_SYNC_FOR_CPU,
	/* Give a received buffer back to the device without dma_sync_single_for_device(). */
	NICDRV_BUG_RX_NO_SYNC_FOR_DEVICE,
	/* Map RX buffers DMA_TO_DEVICE. */
	NICDRV_BUG_WRONG_DIRECTION,
	/* Unmap a TX buffer right after the doorbell, not at completion. */
	NICDRV_BUG_TX_UNMAP_AT_DOORBELL,
	/* Reclaim TX descriptors without looking at OWN: rewrites ones the device still owns. */
	NICDRV_BUG_DESC_WHILE_DEVICE_OWNS,
	/* Never call dma_mapping_error() on a TX mapping. */
	NICDRV_BUG_MAP_ERROR_UNCHECKED,
	/* Give the device CPU physical addresses (virt_to_phys) instead of mapping. */
	NICDRV_BUG_NO_DMA_API,
	/* remove() frees the rings but leaves the RX buffers mapped. */
	NICDRV_BUG_LEAK_AT_REMOVE,
	/* Set OWN with no dma_wmb() after addr and len (the device polls its rings: NIC_CTRL_POLL). */
	NICDRV_BUG_MISSING_DMA_WMB,
	/* Ring the TX doorbell with writel_relaxed() and no wmb() before it. */
	NICDRV_BUG_RELAXED_DOORBELL,
	/* Read a received frame's len after seeing OWN clear, with no dma_rmb() between. */
	NICDRV_BUG_MISSING_DMA_RMB,
	NICDRV_BUG_COUNT
};

#define NICDRV_RX_BUF 4096 /* a page each, as page_pool gives them */
#define NICDRV_MAX_FRAGS 8

struct nicdrv_frag {
	void *buf;
	size_t len;
};

/* What the driver hands up for each received frame; it may rewrite the frame in place (as XDP does). */
typedef void (*nicdrv_rx_fn)(void *ctx, uint8_t *frame, size_t len, bool error);
/* A transmitted frame's buffers are the caller's again. */
typedef void (*nicdrv_tx_done_fn)(void *ctx, void *cookie, bool error);

struct nicdrv_tx_slot {
	dma_addr_t dma;
	void *buf;
	uint32_t len;
	bool mapped, eop;
	void *cookie; /* on the frame's last slot */
};

struct nicdrv_rx_slot {
	uint8_t *buf;
	dma_addr_t dma;
};

struct nicdrv_stats {
	unsigned long tx_frames, tx_done, tx_errors, tx_busy, tx_map_errors;
	unsigned long rx_frames, rx_errors, irqs, polls;
};

struct nicdrv {
	struct device *dev;
	void __iomem *regs;
	int irq;
	unsigned int ring_size;
	struct nic_desc *tx_ring, *rx_ring;
	dma_addr_t tx_ring_dma, rx_ring_dma;
	struct nicdrv_tx_slot *tx;
	struct nicdrv_rx_slot *rx;
	uint32_t tx_next, tx_clean, rx_clean;
	spinlock_t lock;
	bool napi_more; /* the last poll ran out of budget: the device stays masked */
	int napi_budget; /* frames the interrupt's poll takes (64; smaller makes NAPI repoll) */
	enum nicdrv_bug bug;
	nicdrv_rx_fn rx_fn;
	nicdrv_tx_done_fn tx_done_fn;
	void *ctx;
	struct nicdrv_stats stats;
};

/*
 * Bring the device up: rings of @ring_size (a power of two, up to 1024)
 * in coherent memory, RX buffers mapped and handed over, the interrupt
 * installed, loopback if @loopback. 0 or -errno; nothing is left on error.
 */
int nicdrv_probe(struct nicdrv *n, struct device *dev, unsigned int ring_size, bool loopback,
		 enum nicdrv_bug bug, nicdrv_rx_fn rx, nicdrv_tx_done_fn tx_done, void *ctx);
void nicdrv_remove(struct nicdrv *n);

/*
 * Queue one frame of @nfrags buffers (sg transmit). The buffers belong to
 * the driver until tx_done(@cookie). 0; -EBUSY when the ring is full;
 * -ENOMEM if a buffer cannot be mapped; -EINVAL for a bad frame.
 */
int nicdrv_xmit(struct nicdrv *n, const struct nicdrv_frag *frags, unsigned int nfrags,
		void *cookie);

/*
 * The NAPI poll: reclaim sent frames, receive up to @budget frames, give
 * the buffers back; unmasks the device when done under budget. Called by
 * the interrupt handler, and by the caller while napi_more says so.
 * Returns the frames received.
 */
int nicdrv_poll(struct nicdrv *n, int budget);

/* Frames queued and not yet reclaimed. */
unsigned int nicdrv_tx_pending(struct nicdrv *n);

const char *nicdrv_bug_name(enum nicdrv_bug bug);

#endif
