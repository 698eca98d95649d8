/* SPDX-License-Identifier: MIT */
/*
 * An NVMe driver in user space, written against the public driver headers
 * only (<dmamap/dma-mapping.h>, <dmamap/io.h>): the admin queue, Identify,
 * one I/O queue pair, and block reads and writes whose PRP entries come
 * from dma_map_single() or dma_map_sg(). The I/O queue's completions come
 * by interrupt (MSI-X vector 1, with request_irq()) or are polled.
 * Whatever gives it a device and its registers (VFIO:
 * dmamap_platform_vfio() and dmamap_vfio_bar()) does the bus's own part
 * (bus mastering) first.
 */
#ifndef DMAMAP_DRIVERS_NVME_H
#define DMAMAP_DRIVERS_NVME_H

#include <pthread.h>
#include <dmamap/dma-mapping.h>
#include <dmamap/interrupt.h>
#include <dmamap/io.h>
#include <dmamap/scatterlist.h>

#define NVME_QUEUE_DEPTH 32

struct nvme_queue {
	void *sq;            /* 64-byte submission entries */
	dma_addr_t sq_dma;
	void *cq;            /* 16-byte completion entries */
	dma_addr_t cq_dma;
	uint16_t qid, depth, sq_tail, cq_head;
	uint8_t phase;
	void __iomem *sq_doorbell, *cq_doorbell;
};

struct nvme_ctrl {
	/* Set before nvme_probe(): the I/O queue completes by interrupt (else polled). */
	bool use_irq;
	struct device *dev;
	void __iomem *regs;
	unsigned int doorbell_stride;
	unsigned int timeout_ms;
	struct nvme_queue admin, io;
	uint16_t next_cid;
	/* One page of PRP entries, for the command in flight (one at a time). */
	uint64_t *prp_list;
	dma_addr_t prp_list_dma;
	/* From Identify. */
	char model[41], serial[21], firmware[9];
	uint16_t vendor;
	uint32_t namespaces;
	uint32_t max_transfer; /* bytes in one command (MDTS), 0: no limit said */
	uint64_t blocks;       /* of namespace 1 */
	uint32_t block_size;
	/* What the last failed command said (status field), for the caller's message. */
	uint16_t last_status;
	/* The I/O queue's interrupt (0: polled) and how its handler wakes the submitter. */
	int irq;
	pthread_mutex_t lock;
	pthread_cond_t completed;
	/* Counters: commands, completion-entry reads that found nothing, interrupts handled. */
	uint64_t commands, polls, irqs;
};

/**
 * nvme_probe() - bring a controller up and learn it
 * @c: zeroed state
 * @dev: the device (its DMA mask is set here to 64 bits)
 * @regs: BAR0, mapped
 *
 * Disables the controller, sets up the admin queue, enables it, reads
 * Identify Controller and Identify Namespace 1, and creates one I/O queue
 * pair. The admin queue is polled; the I/O queue too, unless @c->use_irq
 * asked for its interrupt (MSI-X vector 1).
 *
 * Return: 0; -ENODEV if the registers do not look like NVMe's or the
 * controller reports a fatal status, or use_irq was asked of a device
 * without a vector 1 (or request_irq() refused it); -ETIMEDOUT if it does not become
 * ready within its CAP.TO; -ENOMEM for the queues; -EIO for a command the
 * controller failed (its status in @c->last_status).
 */
int nvme_probe(struct nvme_ctrl *c, struct device *dev, void __iomem *regs);

/**
 * nvme_read() - read blocks into a buffer, mapped with dma_map_single()
 * @c: a probed controller
 * @lba: first block
 * @buf: @nblocks * block_size bytes
 * @nblocks: 1..
 *
 * Return: 0; -EINVAL for a range past the namespace, a zero count or one
 * beyond the controller's transfer limit; -ENOMEM when the mapping fails;
 * -EIO, -ETIMEDOUT as nvme_probe().
 */
int nvme_read(struct nvme_ctrl *c, uint64_t lba, void *buf, uint32_t nblocks);
/** nvme_write() - write blocks from a buffer; as nvme_read(). */
int nvme_write(struct nvme_ctrl *c, uint64_t lba, const void *buf, uint32_t nblocks);

/**
 * nvme_rw_sg() - read or write blocks through a scatterlist, mapped with dma_map_sg()
 * @c: a probed controller
 * @write: true to write
 * @lba: first block
 * @sg: the list; every segment but the first must start on a 4 KiB page,
 *      and every one but the last end on one (what PRP entries can say)
 * @nents: its entries
 *
 * Return: as nvme_read(); -EINVAL also for segments PRP cannot describe.
 */
int nvme_rw_sg(struct nvme_ctrl *c, bool write, uint64_t lba, struct scatterlist *sg, int nents);

/**
 * nvme_read_to() - a read whose data goes to a device address the caller names
 * @c: a probed controller
 * @lba: first block
 * @dma: where the controller writes (one block); nothing is mapped for it
 *
 * For showing what an IOMMU does with a DMA to an address nobody mapped:
 * it refuses the controller's write and the kernel logs the fault. What
 * the controller says of the command is its own business (QEMU's says
 * success).
 *
 * Return: 0 if the controller said it succeeded; -EIO, -ETIMEDOUT otherwise.
 */
int nvme_read_to(struct nvme_ctrl *c, uint64_t lba, dma_addr_t dma);

/** nvme_remove() - delete the I/O queues, disable the controller, free everything. */
void nvme_remove(struct nvme_ctrl *c);

#endif
