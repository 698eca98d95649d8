/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the device models against a hostile driver: the
 * input is a program that writes any register of a memcpy engine, NIC or
 * block device (on every kind of bus of the default board: coherent,
 * non-coherent, 24-bit with swiotlb, dmabounce, behind an IOMMU) and
 * writes any bytes into its rings, with addresses aimed at its own
 * mappings, at stale ones, at memory never mapped, or anywhere; unmaps
 * buffers while the device works on them; feeds frames and disk sectors;
 * and lets the device run.
 *
 * What must hold, whatever the program does:
 * - nothing crashes, nothing hangs;
 * - every access the device makes outside the driver's live mappings is
 *   reported by the checker (DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED), one report
 *   for each; behind the IOMMU such an access must also fault, unless it
 *   lies in a page a live mapping shares;
 * - after a reset the device goes idle;
 * A board serves 256 inputs (making one per input would leave a few runs a
 * second), so a finding may depend on the inputs before it: replay one by
 * running the target over the corpus with the finding last.
 * - once the driver has released all it had, the checker tracks nothing,
 *   and each board's destruction gives back every mapping and memfd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include <dmamap/interrupt.h>
#include <dmamap/io.h>
#include <dmamap/model.h>
#include <dmamap/sim.h>
#include <dmamap/trace.h>
#include <dmamap/hw/blk.h>
#include <dmamap/hw/nic.h>
#include <dmamap/hw/memcpy-engine.h>
#include "fuzz.h"

static const char *const devices[] = {
	"dma-coh", "dma-nc", "dma-32", "dma-24", "ixp-pci", "dma-iommu",
	"nic-coh", "nic-nc", "nic-24", "nic-iommu",
	"blk-coh", "blk-nc", "blk-24", "blk-iommu",
};
#define NDEV (sizeof(devices) / sizeof(devices[0]))
#define NBUF 4
#define RING_BYTES 16384
#define BUF_BYTES 4096
#define BOARD_RUNS 256
#define CTRL_REG 0x04 /* every model's control register */
#define CTRL_RESET 0x2u

struct region {
	bool live;
	dma_addr_t addr;
	size_t size;
	dma_addr_t stale; /* where it was mapped before an unmap (0 until then), for aiming at */
};

struct harness {
	struct device *dev;
	bool behind_iommu;
	struct region ring, buf[NBUF];
	void *ring_cpu, *buf_cpu[NBUF];
	enum dma_data_direction buf_dir[NBUF];
	unsigned long outside, unmapped_reports, faults, unfaulted;
	bool fault_due; /* an access the IOMMU must refuse, not yet refused */
	dma_addr_t last_outside;
	bool ack_irq;
	unsigned long irqs;
	uint8_t __iomem *regs; /* bytes: register offsets are added to it */
};

static struct dmamap_platform *p;
static struct device *dev[NDEV];
static struct dmamap__ledger before;
static unsigned int runs;
static bool verbose; /* RING_FUZZ_VERBOSE: the device's events and counters */

struct program {
	const uint8_t *at, *end;
};

static unsigned int byte(struct program *pr)
{
	return pr->at < pr->end ? *pr->at++ : 0;
}

static uint32_t u32_of(struct program *pr)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++)
		v |= (uint32_t)byte(pr) << (8 * i);
	return v;
}

/* [@a, +@len) lies in the union of the live regions (rounded out to pages with @pages). */
static bool covered(const struct harness *h, dma_addr_t a, u64 len, bool pages)
{
	dma_addr_t end = a + len;

	while (a < end) {
		bool moved = false;
		const struct region *r[NBUF + 1] = { &h->ring, &h->buf[0], &h->buf[1], &h->buf[2],
						     &h->buf[3] };

		for (int i = 0; i < NBUF + 1; i++) {
			dma_addr_t lo = r[i]->addr, hi = r[i]->addr + r[i]->size;

			if (!r[i]->live)
				continue;
			if (pages) {
				lo &= ~(dma_addr_t)4095;
				hi = (hi + 4095) & ~(dma_addr_t)4095;
			}
			if (a >= lo && a < hi) {
				a = hi;
				moved = true;
			}
		}
		if (!moved)
			return false;
	}
	return true;
}

static void on_trace(void *ctx, const struct dmamap_trace_event *ev)
{
	struct harness *h = ctx;

	/* Reports carry the device's name only. */
	if (!h || (ev->dev ? ev->dev != h->dev : strcmp(ev->device, dev_name(h->dev))))
		return;
	if (verbose) {
		char line[600];

		dmamap_trace_format(ev, line, sizeof(line));
		fprintf(stderr, "  %s\n", line);
	}
	switch (ev->id) {
	case DMAMAP_TRACE_DEVICE_READ:
	case DMAMAP_TRACE_DEVICE_WRITE:
		/* The IOMMU answers each access before the next one starts. */
		h->unfaulted += h->fault_due;
		h->fault_due = false;
		if (!covered(h, ev->dma_addr, ev->size, false)) {
			h->outside++;
			h->last_outside = ev->dma_addr;
			/* Through the IOMMU only a page a live mapping shares can be reached. */
			h->fault_due = h->behind_iommu && !covered(h, ev->dma_addr, ev->size, true);
		}
		break;
	case DMAMAP_TRACE_IO_PAGE_FAULT:
		h->faults++;
		h->fault_due = false;
		break;
	case DMAMAP_TRACE_REPORT:
		if (ev->report && ev->report->kind == DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED)
			h->unmapped_reports++;
		break;
	default:
		break;
	}
}

/* Every access outside the live mappings reported; behind an IOMMU, refused too. */
static void check_accesses(const struct harness *h)
{
	if (h->outside != h->unmapped_reports) {
		fprintf(stderr, "ring_fuzz: %s: %lu accesses outside live mappings (last 0x%llx), %lu reported\n",
			dev_name(h->dev), h->outside, (unsigned long long)h->last_outside,
			h->unmapped_reports);
		abort();
	}
	if (h->unfaulted || h->fault_due) {
		fprintf(stderr, "ring_fuzz: %s: an access outside every IOMMU mapping (last 0x%llx) did not fault\n",
			dev_name(h->dev), (unsigned long long)h->last_outside);
		abort();
	}
}

static irqreturn_t on_irq(int irq, void *dev_id)
{
	struct harness *h = dev_id;

	(void)irq;
	h->irqs++;
	if (!h->ack_irq)
		return IRQ_NONE; /* a driver that never acknowledges: the line must not wedge the board */
	/* Every model's INT_STATUS is write-one-to-clear; where it sits differs. */
	writel(~0u, h->regs + (strncmp(dev_name(h->dev), "nic", 3) == 0 ? NIC_REG_INT_STATUS :
			       strncmp(dev_name(h->dev), "blk", 3) == 0 ? BLK_REG_INT_STATUS :
									  MCE_REG_INT_STATUS));
	return IRQ_HANDLED;
}

static void board_cycle(void)
{
	if (p) {
		dmamap_platform_destroy(p);
		ledger_back_to(&before);
	}
	dmamap__ledger_read(&before);
	dmamap_set_log_hook(NULL, quiet_log, NULL);
	p = dmamap_platform_builtin("default", NULL);
	if (!p)
		abort();
	dmamap_set_log_hook(p, quiet_log, NULL);
	dmamap_debug_enable(p, true);
	if (dmamap_set_trace_hook(p, on_trace, NULL))
		abort();
	for (size_t i = 0; i < NDEV; i++)
		if (!(dev[i] = dmamap_device_lookup(p, devices[i])))
			abort();
}

/* A value aimed somewhere: the driver's own memory, memory it gave back, or anywhere. */
static uint64_t aim(struct harness *h, struct program *pr)
{
	unsigned int sel = byte(pr), k = (sel >> 3) % NBUF;
	uint64_t off = byte(pr) * 16u;

	switch (sel & 7) {
	case 0: return u32_of(pr);
	case 1: return h->ring.addr + off;
	case 2: return h->buf[k].addr + off;
	case 3: return h->buf[k].stale + off;
	case 4: return h->ring.addr + RING_BYTES - 8 + (off & 31); /* across the ring's end */
	case 5: return byte(pr) % 8 ? 1u << (byte(pr) % 13) : 0; /* sizes, counts */
	case 6: {
		uint64_t hi = u32_of(pr);

		return hi << 32 | u32_of(pr);
	}
	default: return 0x1u | (byte(pr) & 0xc); /* ENABLE with LOOPBACK/POLL */
	}
}

static void yields(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		dmamap_cpu_relax();
}

static int setup(struct harness *h, struct device *d, unsigned int flags)
{
	struct dmamap_platform *bp = dmamap_device_platform(d);

	h->dev = d;
	h->behind_iommu = !strcmp(get_dma_ops(d)->name, "iommu");
	h->ack_irq = flags & 1;
	h->regs = (uint8_t __iomem *)dmamap_device_ioremap(d);
	if (!h->regs)
		abort();
	h->ring_cpu = dma_alloc_coherent(d, RING_BYTES, &h->ring.addr, GFP_KERNEL);
	if (!h->ring_cpu)
		abort();
	memset(h->ring_cpu, 0, RING_BYTES);
	h->ring.size = RING_BYTES;
	h->ring.live = true;
	for (int i = 0; i < NBUF; i++) {
		static const enum dma_data_direction dirs[] = { DMA_BIDIRECTIONAL, DMA_TO_DEVICE,
								 DMA_FROM_DEVICE, DMA_BIDIRECTIONAL };

		h->buf_cpu[i] = dmamap_kmalloc(bp, BUF_BYTES, DMAMAP_GFP_DMA_ALIGN);
		if (!h->buf_cpu[i])
			abort();
		memset(h->buf_cpu[i], 0x5a + i, BUF_BYTES);
		h->buf_dir[i] = dirs[(flags >> (1 + 2 * i)) & 3];
		h->buf[i].addr = dma_map_single(d, h->buf_cpu[i], BUF_BYTES, h->buf_dir[i]);
		if (dma_mapping_error(d, h->buf[i].addr))
			abort();
		h->buf[i].size = BUF_BYTES;
		h->buf[i].live = true;
	}
	return dmamap_request_irq((unsigned int)dmamap_device_irq(d, 0), on_irq, 0, "ring_fuzz", h);
}

static void release(struct harness *h)
{
	struct dmamap_platform *bp = dmamap_device_platform(h->dev);

	for (int i = 0; i < NBUF; i++) {
		if (h->buf[i].live)
			dma_unmap_single(h->dev, h->buf[i].addr, BUF_BYTES, h->buf_dir[i]);
		h->buf[i].live = false;
		dmamap_kfree(bp, h->buf_cpu[i]);
	}
	dma_free_coherent(h->dev, RING_BYTES, h->ring_cpu, h->ring.addr);
	h->ring.live = false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct program pr = { data, data + size };
	struct harness h = { 0 };
	unsigned int which = byte(&pr), flags = byte(&pr);
	int steps = 0;
	long ran;

	verbose = getenv("RING_FUZZ_VERBOSE") != NULL;
	if (!p || runs++ % BOARD_RUNS == 0)
		board_cycle();
	if (setup(&h, dev[which % NDEV], flags))
		abort();
	dmamap_set_trace_hook(p, on_trace, &h);
	while (pr.at < pr.end && steps++ < 64) {
		unsigned int op = byte(&pr), k = (op >> 4) % NBUF;

		switch (op & 7) {
		case 0: /* any register, any value: doorbells, ring bases, sizes, CTRL */
		case 1: {
			uint32_t reg = (byte(&pr) % 24) * 4;
			uint64_t v = aim(&h, &pr);

			writel((uint32_t)(op & 8 ? v >> 32 : v), h.regs + reg);
			break;
		}
		case 2: /* eight bytes anywhere in the ring: descriptors, tables, OWN bits */
			if (h.ring.live) {
				size_t off = ((size_t)byte(&pr) << 8 | byte(&pr)) % RING_BYTES & ~(size_t)7;
				uint64_t v = aim(&h, &pr);

				memcpy((uint8_t *)h.ring_cpu + off, &v, 8);
				if (op & 8)
					dma_wmb();
			}
			break;
		case 3: /* let the device run */
			yields(1 + byte(&pr) % 32);
			break;
		case 4: /* take a buffer back while the device may still use it */
			if (h.buf[k].live) {
				dma_unmap_single(h.dev, h.buf[k].addr, BUF_BYTES, h.buf_dir[k]);
				h.buf[k].live = false;
				h.buf[k].stale = h.buf[k].addr;
			}
			break;
		case 5: /* outside input: a frame on the wire, sectors on the disk */
			if (!strncmp(dev_name(h.dev), "nic", 3)) {
				uint8_t frame[256];
				size_t len = 1 + byte(&pr) % sizeof(frame);

				memset(frame, (int)op, len);
				dmamap_nic_wire_inject(h.dev, frame, op & 8 ? NIC_MAX_FRAME + 1 : len);
			} else if (!strncmp(dev_name(h.dev), "blk", 3)) {
				uint8_t sector[BLK_SECTOR_SIZE];

				memset(sector, (int)op, sizeof(sector));
				dmamap_blk_disk(h.dev, (uint64_t)u32_of(&pr) * BLK_SECTOR_SIZE, sector,
						sizeof(sector), true);
			}
			break;
		case 6: /* what the device sent, and the counters */
			if (!strncmp(dev_name(h.dev), "nic", 3)) {
				uint8_t frame[64];

				dmamap_nic_wire_take(h.dev, frame, op & 8 ? 0 : sizeof(frame));
			}
			(void)readl(h.regs + (byte(&pr) % 24) * 4);
			break;
		default: /* syncs a driver owes, or does not */
			if (h.buf[k].live) {
				if (op & 8)
					dma_sync_single_for_cpu(h.dev, h.buf[k].addr, BUF_BYTES, h.buf_dir[k]);
				else
					dma_sync_single_for_device(h.dev, h.buf[k].addr, BUF_BYTES,
								   h.buf_dir[k]);
			}
			break;
		}
		check_accesses(&h);
	}
	if (verbose) {
		struct dmamap_device_stats st;

		dmamap_device_stats(h.dev, &st);
		fprintf(stderr, "ring_fuzz: %s: device read %llu, wrote %llu bytes; %lu irqs; %lu outside, %lu faults\n",
			dev_name(h.dev), (unsigned long long)st.dev_bytes_read,
			(unsigned long long)st.dev_bytes_written, h.irqs, h.outside, h.faults);
	}
	/* A reset stops the device: it must go idle and touch nothing after. */
	writel(CTRL_RESET, h.regs + CTRL_REG);
	ran = dmamap_sim_run_devices(p, 100000);
	if (ran < 0) {
		fprintf(stderr, "ring_fuzz: %s still busy after a reset (%ld)\n", dev_name(h.dev), ran);
		abort();
	}
	check_accesses(&h);
	dmamap_free_irq((unsigned int)dmamap_device_irq(h.dev, 0), &h);
	release(&h);
	dmamap_sim_run_devices(p, 100000);
	check_accesses(&h);
	dmamap_set_trace_hook(p, on_trace, NULL);
	if (dmamap_debug_live(NULL, p))
		abort(); /* the checker still tracks something the driver gave back */
	return 0;
}
