/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the driver API: the input is a program of calls
 * (map, unmap, sync, alloc, free, mmap, sg, masks, pools) on the devices of
 * the default board, one per backend, checker on, with right and wrong
 * arguments: wrong sizes and directions, handles never mapped or already
 * unmapped, ranges past the end, masks too narrow. After each call the
 * library must still move the right bytes: a correct round trip on the
 * same device is checked byte for byte. At the end everything still live
 * is released correctly and the checker must track nothing; each board's
 * destruction must give back every mapping and memfd.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include <dmamap/dmapool.h>
#include "fuzz.h"

#define SLOTS 8

static const char *const devices[] = { "dma-coh", "dma-nc", "dma-32", "dma-24", "ixp-pci",
					 "dma-iommu" };

struct mapping {
	bool live, sg;
	int dev;
	void *buf;
	size_t size;
	dma_addr_t addr;
	enum dma_data_direction dir;
	struct scatterlist sgl[3];
	int nents, mapped;
};

struct coherent {
	bool live;
	int dev;
	void *cpu;
	dma_addr_t addr;
	size_t size;
};

struct program {
	const uint8_t *at, *end;
};

static unsigned int byte(struct program *pr)
{
	return pr->at < pr->end ? *pr->at++ : 0;
}

static unsigned int word(struct program *pr)
{
	unsigned int lo = byte(pr);

	return lo | byte(pr) << 8;
}

static void quiet_report(void *ctx, const struct dmamap_report *r)
{
	/* Every report must format into a buffer of any size, never past it, always ended. */
	size_t len = 1 + (size_t)(r->addr % 512);
	char *json = malloc(len);
	int n;

	(void)ctx;
	if (!json)
		return;
	n = dmamap_report_json(r, json, len);
	if ((n < 0 && n != -ENOSPC) || !memchr(json, '\0', len) || (n >= 0 && (size_t)n >= len))
		abort();
	free(json);
}

/*
 * A board lives for BOARD_RUNS inputs (making one per input would leave
 * a few runs a second): each input must leave it as it found it, and each
 * board's destruction must give back every mapping and memfd.
 */
#define BOARD_RUNS 256

static struct dmamap_platform *p;
static struct device *dev[sizeof(devices) / sizeof(devices[0])];
static struct dmamap__ledger before;
static unsigned int runs;

/*
 * The library still moves the right bytes on @d: to the device and back,
 * checked. Unless @may_fail (a mask too narrow for any memory), a correct
 * mapping must work whatever the program did before: any failure aborts.
 */
static void round_trip(struct device *d, bool may_fail)
{
	uint8_t *buf = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA_ALIGN);
	uint8_t seen[256];
	dma_addr_t h;

	if (!buf)
		abort();
	for (int i = 0; i < 256; i++)
		buf[i] = (uint8_t)(i * 13 + 1);
	h = dma_map_single(d, buf, 256, DMA_TO_DEVICE);
	if (dma_mapping_error(d, h)) {
		if (!may_fail)
			abort();
		dmamap_kfree(p, buf);
		return;
	}
	if (dmamap_device_read(d, h, seen, sizeof(seen)) || memcmp(seen, buf, 256))
		abort(); /* the device saw other bytes than the CPU wrote */
	dma_unmap_single(d, h, 256, DMA_TO_DEVICE);
	h = dma_map_single(d, buf, 256, DMA_FROM_DEVICE);
	if (dma_mapping_error(d, h))
		abort();
	for (int i = 0; i < 256; i++)
		seen[i] = (uint8_t)(i * 7 + 3);
	if (dmamap_device_write(d, h, seen, sizeof(seen)))
		abort();
	dma_unmap_single(d, h, 256, DMA_FROM_DEVICE);
	if (memcmp(seen, buf, 256))
		abort(); /* the CPU did not see what the device wrote */
	dmamap_kfree(p, buf);
}

static void release(struct mapping *m, struct coherent *c)
{
	for (int i = 0; i < SLOTS; i++) {
		if (m[i].live && m[i].sg)
			dma_unmap_sg(dev[m[i].dev], m[i].sgl, m[i].nents, m[i].dir);
		else if (m[i].live)
			dma_unmap_single(dev[m[i].dev], m[i].addr, m[i].size, m[i].dir);
		if (m[i].buf)
			dmamap_kfree(p, m[i].buf);
		if (c[i].live)
			dma_free_coherent(dev[c[i].dev], c[i].size, c[i].cpu, c[i].addr);
	}
}

static const enum dma_data_direction dirs[] = { DMA_BIDIRECTIONAL, DMA_TO_DEVICE,
						 DMA_FROM_DEVICE, DMA_NONE };

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
	dmamap_set_report_hook(p, quiet_report, NULL);
	dmamap_debug_enable(p, true);
	for (size_t i = 0; i < sizeof(devices) / sizeof(devices[0]); i++)
		if (!(dev[i] = dmamap_device_lookup(p, devices[i])))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct program pr = { data, data + size };
	struct mapping m[SLOTS] = { 0 };
	struct coherent c[SLOTS] = { 0 };
	struct dma_pool *pool = NULL;
	int steps = 0;

	if (!p || runs++ % BOARD_RUNS == 0)
		board_cycle();
	while (pr.at < pr.end && steps++ < 64) {
		unsigned int op = byte(&pr), s = byte(&pr) % SLOTS, d = byte(&pr) % 6;
		struct mapping *mm = &m[s];
		struct coherent *cc = &c[s];
		bool wrong = op & 0x80;

		switch (op & 0x7f) {
		case 0: /* a buffer, 1 byte to 16 KiB, any alignment */
			if (!mm->buf && !mm->live) {
				mm->size = 1 + word(&pr) % 16384;
				mm->buf = dmamap_kmalloc(p, mm->size, byte(&pr) & 1 ? DMAMAP_GFP_DMA_ALIGN : 0);
			}
			break;
		case 1: /* map it; wrong: a size past its end */
			if (mm->buf && !mm->live) {
				mm->dev = (int)d;
				mm->dir = dirs[byte(&pr) % 4];
				mm->addr = dma_map_single(dev[d], mm->buf, mm->size + (wrong ? 4096 : 0),
							  mm->dir);
				mm->live = !dma_mapping_error(dev[d], mm->addr) && !wrong;
				if (wrong && !dma_mapping_error(dev[d], mm->addr))
					dma_unmap_single(dev[d], mm->addr, mm->size + 4096, mm->dir);
			}
			break;
		case 2: /* unmap; wrong: another size, direction or device, then right */
			if (mm->live && !mm->sg) {
				if (wrong)
					dma_unmap_single(dev[byte(&pr) & 1 ? d : (unsigned int)mm->dev], mm->addr,
							 mm->size + (byte(&pr) & 1), dirs[byte(&pr) % 4]);
				dma_unmap_single(dev[mm->dev], mm->addr, mm->size, mm->dir);
				mm->live = false;
			} else if (wrong) { /* a handle never mapped, or mapped and gone */
				dma_unmap_single(dev[d], (dma_addr_t)word(&pr) << 12 | byte(&pr), 1 + byte(&pr),
						 dirs[byte(&pr) % 4]);
			}
			break;
		case 3: { /* sync a range; wrong: past the end or the other direction */
			size_t off = word(&pr), len = 1 + word(&pr);

			if (mm->live && !mm->sg) {
				if (!wrong) {
					off %= mm->size;
					len = 1 + len % (mm->size - off);
				}
				if (byte(&pr) & 1)
					dma_sync_single_range_for_cpu(dev[mm->dev], mm->addr, off, len,
								      wrong ? dirs[byte(&pr) % 4] : mm->dir);
				else
					dma_sync_single_range_for_device(dev[mm->dev], mm->addr, off, len,
									 wrong ? dirs[byte(&pr) % 4] : mm->dir);
			}
			break;
		}
		case 4: /* coherent memory; wrong: a size no board has */
			if (!cc->live) {
				cc->size = wrong ? ~(size_t)0 - word(&pr) : 1 + word(&pr) * 4u;
				cc->dev = (int)d;
				cc->cpu = dma_alloc_coherent(dev[d], cc->size, &cc->addr, GFP_KERNEL);
				cc->live = cc->cpu != NULL;
				if (cc->live)
					memset(cc->cpu, 0x5a, cc->size);
			}
			break;
		case 5: /* free it; wrong: first with another size */
			if (cc->live) {
				if (wrong)
					dma_free_coherent(dev[cc->dev], cc->size + 4096, cc->cpu, cc->addr);
				dma_free_coherent(dev[cc->dev], cc->size, cc->cpu, cc->addr);
				cc->live = false;
			}
			break;
		case 6: /* the buffer split into a list of up to three */
			if (mm->buf && !mm->live && mm->size >= 3) {
				size_t a = 1 + byte(&pr) % (mm->size - 2), b = 1 + byte(&pr) % (mm->size - a - 1);

				mm->nents = 3;
				sg_init_table(mm->sgl, 3);
				sg_set_buf(&mm->sgl[0], mm->buf, (unsigned int)a);
				sg_set_buf(&mm->sgl[1], (uint8_t *)mm->buf + a, (unsigned int)b);
				sg_set_buf(&mm->sgl[2], (uint8_t *)mm->buf + a + b, (unsigned int)(mm->size - a - b));
				mm->dev = (int)d;
				mm->dir = dirs[byte(&pr) % 3];
				mm->mapped = dma_map_sg(dev[d], mm->sgl, 3, mm->dir);
				mm->live = mm->sg = mm->mapped > 0;
				if (mm->live && (byte(&pr) & 1))
					dma_sync_sg_for_cpu(dev[d], mm->sgl, 3, mm->dir);
			}
			break;
		case 7: /* unmap the list; wrong: with the count it returned, as drivers get it wrong */
			if (mm->live && mm->sg) {
				if (wrong && mm->mapped != mm->nents)
					dma_unmap_sg(dev[mm->dev], mm->sgl, mm->mapped, mm->dir);
				dma_unmap_sg(dev[mm->dev], mm->sgl, mm->nents, mm->dir);
				mm->live = mm->sg = false;
			}
			break;
		case 8: { /* a streaming mask of any width, then the device's own back */
			u64 own = dma_get_mask(dev[d]);
			unsigned int bits = byte(&pr) % 65;

			dma_set_mask(dev[d], DMA_BIT_MASK(bits));
			round_trip(dev[d], true);
			dma_set_mask(dev[d], own);
			break;
		}
		case 9: { /* user mapping of coherent memory */
			struct vm_area_struct vma = { .vm_pgoff = byte(&pr) % 3 };

			if (cc->live) {
				vma.vm_end = (unsigned long)(wrong ? 1 + word(&pr) : 4096);
				if (!dma_mmap_coherent(dev[cc->dev], &vma, cc->cpu, cc->addr, cc->size))
					dmamap_munmap(&vma);
			}
			break;
		}
		case 10: /* a pool's blocks */
			if (!pool)
				pool = dma_pool_create("fuzz", dev[d], 1 + byte(&pr) * 8u, 1u << (byte(&pr) % 8), 0);
			if (pool) {
				dma_addr_t h;
				void *blk = dma_pool_alloc(pool, GFP_KERNEL, &h);

				if (blk)
					dma_pool_free(pool, blk, wrong ? h + 1 : h);
				if (blk && wrong)
					dma_pool_free(pool, blk, h);
			}
			break;
		case 11: /* free the buffer; wrong: while still mapped (the checker says so) */
			if (mm->buf && (!mm->live || wrong)) {
				dmamap_kfree(p, mm->buf);
				if (mm->live && mm->sg)
					dma_unmap_sg(dev[mm->dev], mm->sgl, mm->nents, mm->dir);
				else if (mm->live)
					dma_unmap_single(dev[mm->dev], mm->addr, mm->size, mm->dir);
				mm->live = mm->sg = false;
				mm->buf = NULL;
			}
			break;
		default: /* the device writes into what it has mapped, then the CPU looks */
			if (mm->live && !mm->sg) {
				uint8_t junk[64];

				memset(junk, (int)op, sizeof(junk));
				dmamap_device_write(dev[mm->dev], mm->addr + word(&pr) % mm->size, junk,
						    1 + byte(&pr) % sizeof(junk));
			}
			break;
		}
		round_trip(dev[d], false);
	}
	release(m, c);
	dma_pool_destroy(pool);
	if (dmamap_debug_live(NULL, p))
		abort(); /* everything was released: the checker tracks nothing */
	return 0;
}
