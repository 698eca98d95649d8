/* SPDX-License-Identifier: MIT */
/*
 * An NVMe driver (NVM Express base specification 1.4): the
 * controller's registers through <dmamap/io.h>, its queues in coherent
 * memory, data buffers mapped for each command. NVMe is little-endian, as
 * every host this runs on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "nvme.h"

/* Controller registers. */
#define REG_CAP 0x00
#define REG_VS 0x08
#define REG_CC 0x14
#define REG_CSTS 0x1c
#define REG_AQA 0x24
#define REG_ASQ 0x28
#define REG_ACQ 0x30
#define REG_DOORBELLS 0x1000

#define CC_EN (1u << 0)
#define CC_SHN_NORMAL (1u << 14)
#define CC_IOSQES (6u << 16) /* 64-byte submission entries */
#define CC_IOCQES (4u << 20) /* 16-byte completion entries */
#define CSTS_RDY (1u << 0)
#define CSTS_CFS (1u << 1)
#define CSTS_SHST_MASK (3u << 2)
#define CSTS_SHST_DONE (2u << 2)

/* Admin and NVM opcodes. */
#define ADMIN_DELETE_SQ 0x00
#define ADMIN_CREATE_SQ 0x01
#define ADMIN_DELETE_CQ 0x04
#define ADMIN_CREATE_CQ 0x05
#define ADMIN_IDENTIFY 0x06
#define NVM_FLUSH 0x00
#define NVM_WRITE 0x01
#define NVM_READ 0x02

#define NVME_PAGE 4096u
#define PRP_PER_PAGE (NVME_PAGE / 8)

struct sqe {
	uint32_t cdw0; /* opcode, command id */
	uint32_t nsid;
	uint64_t rsvd;
	uint64_t mptr;
	uint64_t prp1, prp2;
	uint32_t cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;
};

struct cqe {
	uint32_t result;
	uint32_t rsvd;
	uint16_t sq_head, sq_id;
	uint16_t cid;
	uint16_t status; /* phase in bit 0, status field above it */
};

_Static_assert(sizeof(struct sqe) == 64, "NVMe submission entries are 64 bytes");
_Static_assert(sizeof(struct cqe) == 16, "NVMe completion entries are 16 bytes");

static void __iomem *reg(struct nvme_ctrl *c, unsigned int off)
{
	return (uint8_t __iomem *)c->regs + off;
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* Wait until CSTS & @mask is @want: 0, -ENODEV on a fatal status, -ETIMEDOUT. */
static int wait_status(struct nvme_ctrl *c, uint32_t mask, uint32_t want)
{
	uint64_t end = now_ms() + c->timeout_ms;

	for (;;) {
		uint32_t csts = readl(reg(c, REG_CSTS));

		if (csts == ~0u || (csts & CSTS_CFS))
			return -ENODEV;
		if ((csts & mask) == want)
			return 0;
		if (now_ms() > end)
			return -ETIMEDOUT;
		udelay(50);
	}
}

static int queue_alloc(struct nvme_ctrl *c, struct nvme_queue *q, uint16_t qid)
{
	q->qid = qid;
	q->depth = NVME_QUEUE_DEPTH;
	q->sq = dma_alloc_coherent(c->dev, (size_t)q->depth * sizeof(struct sqe), &q->sq_dma,
				   GFP_KERNEL);
	q->cq = dma_alloc_coherent(c->dev, (size_t)q->depth * sizeof(struct cqe), &q->cq_dma,
				   GFP_KERNEL);
	if (!q->sq || !q->cq)
		return -ENOMEM;
	memset(q->sq, 0, (size_t)q->depth * sizeof(struct sqe));
	memset(q->cq, 0, (size_t)q->depth * sizeof(struct cqe));
	q->sq_tail = q->cq_head = 0;
	q->phase = 1;
	q->sq_doorbell = reg(c, REG_DOORBELLS + (2u * qid) * c->doorbell_stride);
	q->cq_doorbell = reg(c, REG_DOORBELLS + (2u * qid + 1) * c->doorbell_stride);
	return 0;
}

static void queue_free(struct nvme_ctrl *c, struct nvme_queue *q)
{
	if (q->sq)
		dma_free_coherent(c->dev, (size_t)q->depth * sizeof(struct sqe), q->sq, q->sq_dma);
	if (q->cq)
		dma_free_coherent(c->dev, (size_t)q->depth * sizeof(struct cqe), q->cq, q->cq_dma);
	q->sq = q->cq = NULL;
}

/*
 * Whether @q's next completion entry has been written. The interrupt
 * thread asks too: head and phase are read (and written) atomically.
 */
static bool completed(const struct nvme_queue *q)
{
	uint16_t head = __atomic_load_n(&q->cq_head, __ATOMIC_ACQUIRE);
	const volatile struct cqe *e = &((const volatile struct cqe *)q->cq)[head];

	return (e->status & 1) == __atomic_load_n(&q->phase, __ATOMIC_ACQUIRE);
}

/*
 * The I/O queue's interrupt: a completion is there. The submitter reads
 * it; the handler only wakes it (a handler must not sleep, and this one
 * holds its lock for two stores).
 */
static irqreturn_t nvme_irq(int irq, void *arg)
{
	struct nvme_ctrl *c = arg;

	(void)irq;
	if (!completed(&c->io))
		return IRQ_NONE;
	pthread_mutex_lock(&c->lock);
	c->irqs++;
	pthread_cond_broadcast(&c->completed);
	pthread_mutex_unlock(&c->lock);
	return IRQ_HANDLED;
}

/* Sleep until the interrupt says @q's entry is there, or @end_ms: whether it is. */
static bool wait_irq(struct nvme_ctrl *c, struct nvme_queue *q, uint64_t end_ms)
{
	struct timespec t;
	bool done;

	pthread_mutex_lock(&c->lock);
	while (!(done = completed(q)) && now_ms() <= end_ms) {
		clock_gettime(CLOCK_REALTIME, &t);
		/* At most 100 ms at a time: a lost wake-up costs a pause, not the command. */
		t.tv_nsec += 100 * 1000000;
		if (t.tv_nsec >= 1000000000) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&c->completed, &c->lock, &t);
	}
	pthread_mutex_unlock(&c->lock);
	return done;
}

/*
 * Submit @cmd on @q and wait for its completion (by interrupt on the I/O
 * queue when it has one, else by polling): 0, -EIO with the status in
 * last_status, -ETIMEDOUT. One command at a time.
 */
static int submit(struct nvme_ctrl *c, struct nvme_queue *q, struct sqe *cmd, uint32_t *result)
{
	volatile struct cqe *e;
	uint16_t cid = c->next_cid++;
	uint64_t end;
	uint16_t status;

	cmd->cdw0 = (cmd->cdw0 & 0xffffu) | (uint32_t)cid << 16;
	((struct sqe *)q->sq)[q->sq_tail] = *cmd;
	q->sq_tail = (uint16_t)((q->sq_tail + 1) % q->depth);
	/* writel() orders the entry before the doorbell. */
	writel(q->sq_tail, q->sq_doorbell);
	c->commands++;
	e = &((volatile struct cqe *)q->cq)[q->cq_head];
	end = now_ms() + c->timeout_ms;
	if (q == &c->io && c->irq > 0 && !wait_irq(c, q, end))
		return -ETIMEDOUT;
	while (!completed(q)) {
		c->polls++;
		if (now_ms() > end)
			return -ETIMEDOUT;
		cpu_relax();
	}
	/* The phase said the entry is complete: read the rest of it after. */
	dma_rmb();
	status = e->status >> 1;
	if (result)
		*result = e->result;
	if (e->cid != cid)
		status = 0x7fff;
	if ((q->cq_head + 1) % q->depth == 0)
		__atomic_store_n(&q->phase, (uint8_t)(q->phase ^ 1), __ATOMIC_RELEASE);
	__atomic_store_n(&q->cq_head, (uint16_t)((q->cq_head + 1) % q->depth), __ATOMIC_RELEASE);
	writel(q->cq_head, q->cq_doorbell);
	c->last_status = status;
	return status ? -EIO : 0;
}

/* The PRP entries for the pages @page[0..@n) (the first may start inside its page). */
static int set_prps(struct nvme_ctrl *c, struct sqe *cmd, const dma_addr_t *page, unsigned int n)
{
	cmd->prp1 = page[0];
	cmd->prp2 = 0;
	if (n == 2)
		cmd->prp2 = page[1];
	if (n <= 2)
		return 0;
	if (n - 1 > PRP_PER_PAGE)
		return -EINVAL;
	for (unsigned int i = 1; i < n; i++)
		c->prp_list[i - 1] = page[i];
	cmd->prp2 = c->prp_list_dma;
	return 0;
}

/* The 4 KiB pages [@dma, +@len) touches, appended to @page (room for @max); -EINVAL past it. */
static int add_pages(dma_addr_t dma, size_t len, dma_addr_t *page, unsigned int *n,
		     unsigned int max)
{
	for (dma_addr_t a = dma; a < dma + len; a = (a & ~(dma_addr_t)(NVME_PAGE - 1)) + NVME_PAGE) {
		if (*n == max)
			return -EINVAL;
		page[(*n)++] = a;
	}
	return 0;
}

static int admin_identify(struct nvme_ctrl *c, uint32_t nsid, uint32_t cns, void *out)
{
	struct sqe cmd = { .cdw0 = ADMIN_IDENTIFY, .nsid = nsid, .cdw10 = cns };
	dma_addr_t dma;
	void *buf;
	int ret;

	/* Coherent: it maps on every platform, also one whose streaming maps need registered memory. */
	buf = dma_alloc_coherent(c->dev, NVME_PAGE, &dma, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	cmd.prp1 = dma;
	ret = submit(c, &c->admin, &cmd, NULL);
	if (!ret)
		memcpy(out, buf, NVME_PAGE);
	dma_free_coherent(c->dev, NVME_PAGE, buf, dma);
	return ret;
}

/* A space-padded identify string, trimmed. */
static void copy_string(char *dst, const uint8_t *src, size_t len)
{
	memcpy(dst, src, len);
	dst[len] = '\0';
	while (len && (dst[len - 1] == ' ' || dst[len - 1] == '\0'))
		dst[--len] = '\0';
}

static int identify(struct nvme_ctrl *c)
{
	uint8_t *id = malloc(NVME_PAGE);
	unsigned int mpsmin = (unsigned int)(readq(reg(c, REG_CAP)) >> 48 & 0xf);
	int ret;

	if (!id)
		return -ENOMEM;
	ret = admin_identify(c, 0, 1, id);
	if (!ret) {
		c->vendor = (uint16_t)(id[0] | id[1] << 8);
		copy_string(c->serial, id + 4, 20);
		copy_string(c->model, id + 24, 40);
		copy_string(c->firmware, id + 64, 8);
		/* In minimum pages, as a power of two; past 2^20 pages it limits nothing we send. */
		c->max_transfer = id[77] && id[77] <= 20 ? NVME_PAGE << mpsmin << id[77] : 0;
		memcpy(&c->namespaces, id + 516, 4);
		ret = admin_identify(c, 1, 0, id);
	}
	if (!ret) {
		unsigned int format = id[26] & 0xf;
		unsigned int lbads = id[128 + 4 * format + 2];

		memcpy(&c->blocks, id, 8);
		c->block_size = lbads >= 9 && lbads <= 16 ? 1u << lbads : 0;
		if (!c->block_size || !c->blocks)
			ret = -ENODEV;
	}
	free(id);
	return ret;
}

#define IO_VECTOR 1

static int create_io_queues(struct nvme_ctrl *c)
{
	/* Physically contiguous; with an interrupt, enabled on vector IO_VECTOR. */
	struct sqe cq = { .cdw0 = ADMIN_CREATE_CQ, .prp1 = c->io.cq_dma,
			  .cdw10 = c->io.qid | (uint32_t)(c->io.depth - 1) << 16,
			  .cdw11 = 1 | (c->irq > 0 ? 2u | (uint32_t)IO_VECTOR << 16 : 0) };
	struct sqe sq = { .cdw0 = ADMIN_CREATE_SQ, .prp1 = c->io.sq_dma,
			  .cdw10 = c->io.qid | (uint32_t)(c->io.depth - 1) << 16,
			  .cdw11 = 1 | (uint32_t)c->io.qid << 16 };
	int ret = submit(c, &c->admin, &cq, NULL);

	return ret ? ret : submit(c, &c->admin, &sq, NULL);
}

int nvme_probe(struct nvme_ctrl *c, struct device *dev, void __iomem *regs)
{
	uint64_t cap;
	int ret;

	c->dev = dev;
	c->regs = regs;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->completed, NULL);
	if (c->use_irq) {
		int irq = dmamap_device_irq(dev, IO_VECTOR);

		if (irq <= 0 || request_irq((unsigned int)irq, nvme_irq, 0, "nvme-io", c))
			return -ENODEV;
		c->irq = irq;
	}
	cap = readq(reg(c, REG_CAP));
	c->doorbell_stride = 4u << (cap >> 32 & 0xf);
	c->timeout_ms = (unsigned int)((cap >> 24 & 0xff) + 1) * 500;
	/* All ones: no device answers. MPSMIN above 4 KiB: pages this driver does not build. */
	if (cap == ~0ull || (cap >> 48 & 0xf) != 0 || !(cap >> 37 & 1) ||
	    dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64))) {
		nvme_remove(c);
		return -ENODEV;
	}
	writel(0, reg(c, REG_CC));
	ret = wait_status(c, CSTS_RDY, 0);
	if (ret) {
		nvme_remove(c);
		return ret;
	}
	ret = queue_alloc(c, &c->admin, 0);
	if (!ret)
		ret = queue_alloc(c, &c->io, 1);
	c->prp_list = ret ? NULL : dma_alloc_coherent(dev, NVME_PAGE, &c->prp_list_dma, GFP_KERNEL);
	if (!c->prp_list) {
		nvme_remove(c);
		return -ENOMEM;
	}
	writel((uint32_t)(c->admin.depth - 1) | (uint32_t)(c->admin.depth - 1) << 16,
	       reg(c, REG_AQA));
	writeq(c->admin.sq_dma, reg(c, REG_ASQ));
	writeq(c->admin.cq_dma, reg(c, REG_ACQ));
	writel(CC_EN | CC_IOSQES | CC_IOCQES, reg(c, REG_CC));
	ret = wait_status(c, CSTS_RDY, CSTS_RDY);
	if (!ret)
		ret = identify(c);
	if (!ret)
		ret = create_io_queues(c);
	if (ret)
		nvme_remove(c);
	return ret;
}

static int check_range(struct nvme_ctrl *c, uint64_t lba, uint64_t nblocks)
{
	if (!c->block_size || !nblocks || lba >= c->blocks || nblocks > c->blocks - lba ||
	    nblocks > 0x10000 ||
	    (c->max_transfer && nblocks * c->block_size > c->max_transfer))
		return -EINVAL;
	return 0;
}

static int rw(struct nvme_ctrl *c, bool write, uint64_t lba, uint32_t nblocks,
	      const dma_addr_t *page, unsigned int npages)
{
	struct sqe cmd = { .cdw0 = write ? NVM_WRITE : NVM_READ, .nsid = 1,
			   .cdw10 = (uint32_t)lba, .cdw11 = (uint32_t)(lba >> 32),
			   .cdw12 = nblocks - 1 };

	if (set_prps(c, &cmd, page, npages))
		return -EINVAL;
	return submit(c, &c->io, &cmd, NULL);
}

static int rw_single(struct nvme_ctrl *c, bool write, uint64_t lba, void *buf, uint32_t nblocks)
{
	enum dma_data_direction dir = write ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	dma_addr_t page[PRP_PER_PAGE + 1];
	unsigned int n = 0;
	size_t len;
	dma_addr_t dma;
	int ret = check_range(c, lba, nblocks);

	if (ret || !buf)
		return -EINVAL;
	len = (size_t)nblocks * c->block_size;
	dma = dma_map_single(c->dev, buf, len, dir);
	if (dma_mapping_error(c->dev, dma))
		return -ENOMEM;
	ret = add_pages(dma, len, page, &n, PRP_PER_PAGE + 1);
	if (!ret)
		ret = rw(c, write, lba, nblocks, page, n);
	dma_unmap_single(c->dev, dma, len, dir);
	return ret;
}

int nvme_read(struct nvme_ctrl *c, uint64_t lba, void *buf, uint32_t nblocks)
{
	return rw_single(c, false, lba, buf, nblocks);
}

int nvme_write(struct nvme_ctrl *c, uint64_t lba, const void *buf, uint32_t nblocks)
{
	/* The device only reads it: the map's direction says so. */
	return rw_single(c, true, lba, (void *)(uintptr_t)buf, nblocks);
}

int nvme_rw_sg(struct nvme_ctrl *c, bool write, uint64_t lba, struct scatterlist *sg, int nents)
{
	enum dma_data_direction dir = write ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	dma_addr_t page[PRP_PER_PAGE + 1];
	struct scatterlist *s;
	unsigned int n = 0;
	size_t total = 0;
	int mapped, i, ret = 0;

	if (!sg || nents <= 0 || !c->block_size)
		return -EINVAL;
	mapped = dma_map_sg(c->dev, sg, nents, dir);
	if (mapped <= 0)
		return -ENOMEM;
	for_each_sg(sg, s, mapped, i) {
		dma_addr_t a = sg_dma_address(s);
		size_t len = sg_dma_len(s);

		/* Only the first entry may start inside a page, only the last end inside one. */
		if ((i > 0 && (a & (NVME_PAGE - 1))) ||
		    (i < mapped - 1 && ((a + len) & (NVME_PAGE - 1))))
			ret = -EINVAL;
		if (!ret)
			ret = add_pages(a, len, page, &n, PRP_PER_PAGE + 1);
		total += len;
	}
	if (!ret && (total % c->block_size || check_range(c, lba, total / c->block_size)))
		ret = -EINVAL;
	if (!ret)
		ret = rw(c, write, lba, (uint32_t)(total / c->block_size), page, n);
	dma_unmap_sg(c->dev, sg, nents, dir);
	return ret;
}

int nvme_read_to(struct nvme_ctrl *c, uint64_t lba, dma_addr_t dma)
{
	int ret = check_range(c, lba, 1);

	return ret ? ret : rw(c, false, lba, 1, &dma, 1);
}

void nvme_remove(struct nvme_ctrl *c)
{
	if (c->io.sq && c->io.cq && c->block_size) {
		struct sqe flush = { .cdw0 = NVM_FLUSH, .nsid = 1 };
		struct sqe dsq = { .cdw0 = ADMIN_DELETE_SQ, .cdw10 = c->io.qid };
		struct sqe dcq = { .cdw0 = ADMIN_DELETE_CQ, .cdw10 = c->io.qid };

		submit(c, &c->io, &flush, NULL);
		if (!submit(c, &c->admin, &dsq, NULL))
			submit(c, &c->admin, &dcq, NULL);
	}
	if (c->regs && c->admin.sq) {
		/* A normal shutdown: the controller finishes writing what it holds. */
		writel(readl(reg(c, REG_CC)) | CC_SHN_NORMAL, reg(c, REG_CC));
		wait_status(c, CSTS_SHST_MASK, CSTS_SHST_DONE);
		writel(0, reg(c, REG_CC));
		wait_status(c, CSTS_RDY, 0);
	}
	if (c->irq > 0)
		free_irq((unsigned int)c->irq, c);
	c->irq = 0;
	queue_free(c, &c->io);
	queue_free(c, &c->admin);
	if (c->prp_list)
		dma_free_coherent(c->dev, NVME_PAGE, c->prp_list, c->prp_list_dma);
	c->prp_list = NULL;
}
