/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for boards described in code: the input fills a
 * struct dmamap_board (cache line, RAM banks, zones, bounce pool, CMA
 * areas, reserved regions) and up to four dmamap_device_desc (masks,
 * windows, limits, segment rules, dmabounce, IOMMU, pools, models), with
 * sizes and addresses that are sometimes sane and sometimes not, and sets
 * the environment the library reads (DMAMAP_DEBUG, DMAMAP_OWNERSHIP) to
 * one of six values (unset, empty, "0", "1", "yes", "00"). Then
 * dmamap_platform_create() builds it, and
 * dmamap_device_create() adds one more device to the board it built.
 *
 * What must hold: a refused board says why (a negative errno and a
 * message) and leaves nothing behind; a board that is made moves the right
 * bytes on every device that can map a buffer at all (a handle a map
 * gives is one the device can use), and a coherent allocation that
 * succeeds is reachable, every byte; destroying it gives back every
 * mapping and memfd.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include <dmamap/model.h>
#include <dmamap/trace.h>
#include "fuzz.h"

#define MIB (1ull << 20)

static bool verbose;

struct program {
	const uint8_t *at, *end;
};

static unsigned int byte(struct program *pr)
{
	return pr->at < pr->end ? *pr->at++ : 0;
}

static uint64_t u64_of(struct program *pr, unsigned int bytes)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < bytes; i++)
		v |= (uint64_t)byte(pr) << (8 * i);
	return v;
}

/* An address: usually where a board keeps RAM, sometimes anything. */
static uint64_t address(struct program *pr)
{
	unsigned int sel = byte(pr);

	switch (sel & 3) {
	case 0: return 0x80000000ull + (uint64_t)(sel >> 2) * 4 * MIB;
	case 1: return (uint64_t)(sel >> 2) * MIB;
	case 2: return u64_of(pr, 4);
	default: return u64_of(pr, 8);
	}
}

/* A size: usually a few MiB, sometimes 0, odd, or enormous. */
static uint64_t size_of(struct program *pr)
{
	unsigned int sel = byte(pr);

	switch (sel & 3) {
	case 0: return (uint64_t)(1 + (sel >> 2) % 16) * MIB;
	case 1: return (uint64_t)(sel >> 2) * 4096;
	case 2: return u64_of(pr, 4);
	default: return u64_of(pr, 8);
	}
}

static uint64_t mask_of(struct program *pr)
{
	unsigned int sel = byte(pr);

	if (sel & 0x80)
		return u64_of(pr, 8);
	return (sel & 0x3f) > 64 ? 0 : DMA_BIT_MASK(sel & 0x3f ? (sel & 0x3f) : 1);
}

/* BOARD_FUZZ_VERBOSE: every event of the board, and what each device still has live. */
static void print_event(void *ctx, const struct dmamap_trace_event *ev)
{
	char line[600];

	(void)ctx;
	dmamap_trace_format(ev, line, sizeof(line));
	fprintf(stderr, "  %s\n", line);
}

static const char *const names[] = { "a", "b", "c", "a", "", "nic0" };
static const char *const models[] = { NULL, "memcpy", "nic", "blk", "no-such-model" };
static const char *const iommus[] = { NULL, "smmu0", "smmu1", "" };
static const char *const flags[] = { NULL, "", "0", "1", "yes", "00" };

static void fill_device(struct program *pr, struct dmamap_device_desc *d, char *name)
{
	unsigned int sel = byte(pr);

	memset(d, 0, sizeof(*d));
	snprintf(name, 16, "%s", names[sel % 6]);
	d->name = sel & 0x80 ? NULL : name;
	d->model = models[byte(pr) % 5];
	d->dma_mask = mask_of(pr);
	d->coherent_dma_mask = byte(pr) & 1 ? mask_of(pr) : 0;
	d->coherent = byte(pr) & 1;
	d->nr_ranges = byte(pr) % 4;
	for (unsigned int i = 0; i < d->nr_ranges; i++) {
		d->ranges[i].cpu_start = address(pr);
		d->ranges[i].dma_start = address(pr);
		d->ranges[i].size = size_of(pr);
	}
	sel = byte(pr);
	if (sel & 1)
		d->bus_dma_limit = address(pr);
	if (sel & 2)
		d->max_segment_size = (unsigned int)u64_of(pr, 4);
	if (sel & 4)
		d->segment_boundary_mask = (unsigned long)mask_of(pr);
	if (sel & 8) {
		d->dmabounce_above = address(pr);
		d->dmabounce_small = (unsigned long)u64_of(pr, 2);
		d->dmabounce_large = (unsigned long)u64_of(pr, 3);
	}
	if (sel & 16) {
		d->iommu = iommus[byte(pr) % 4];
		d->iommu_group = byte(pr) % 3;
		d->iommu_lazy = byte(pr) & 1;
		d->nr_iommu_ids = byte(pr) % (DMAMAP_MAX_IOMMU_IDS + 2);
	}
	if (sel & 32) {
		d->coherent_pool_start = address(pr);
		d->coherent_pool_size = size_of(pr);
	}
	if (sel & 64) {
		d->restricted_pool_start = address(pr);
		d->restricted_pool_size = size_of(pr);
	}
	if (sel & 128) {
		d->cma_start = address(pr);
		d->cma_size = size_of(pr);
	}
}

static bool has_declared_pool(struct device *dev)
{
	struct dmamap_device_info info;

	return !dmamap_device_info(dev, &info) && info.coherent_pool;
}

/* Bytes to the device and back on @dev; a mapping that is made must carry them. */
static void round_trip(struct dmamap_platform *p, struct device *dev)
{
	uint8_t *buf = dmamap_kmalloc(p, 512, DMAMAP_GFP_DMA_ALIGN);
	uint8_t seen[512];
	dma_addr_t h;
	void *cpu;

	if (!buf)
		return; /* a board may have no kmalloc memory this device... or any */
	for (int i = 0; i < 512; i++)
		buf[i] = (uint8_t)(i * 29 + 7);
	h = dma_map_single(dev, buf, 512, DMA_TO_DEVICE);
	if (!dma_mapping_error(dev, h)) {
		/* The device may still be refused the bytes (bus master off, a window it cannot use). */
		int ret = dmamap_device_read(dev, h, seen, sizeof(seen));

		dma_unmap_single(dev, h, 512, DMA_TO_DEVICE);
		/* A handle the map gave must be one the device can use. */
		if (ret || memcmp(seen, buf, 512))
			abort(); /* the device faulted on it, or read other bytes than the CPU wrote */
	}
	h = dma_map_single(dev, buf, 512, DMA_FROM_DEVICE);
	if (!dma_mapping_error(dev, h)) {
		for (int i = 0; i < 512; i++)
			seen[i] = (uint8_t)(i * 3 + 11);
		if (dmamap_device_write(dev, h, seen, sizeof(seen)))
			abort(); /* the device faulted on a handle the map gave */
		dma_unmap_single(dev, h, 512, DMA_FROM_DEVICE);
		if (memcmp(seen, buf, 512))
			abort(); /* the CPU did not see what the device wrote */
	}
	dmamap_kfree(p, buf);
	cpu = dma_alloc_coherent(dev, 8192, &h, GFP_KERNEL);
	/*
	 * A pool declared for the device serves it at the pool's address
	 * whatever its masks say and whether or not an IOMMU stands between,
	 * as the kernel's does: a pool the device cannot reach is the
	 * description's mistake, not the library's.
	 */
	if (cpu && has_declared_pool(dev)) {
		dma_free_coherent(dev, 8192, cpu, h);
		cpu = NULL;
	}
	if (cpu) {
		uint8_t want[512];

		memset(cpu, 0x3c, 8192);
		memset(want, 0x3c, sizeof(want));
		for (unsigned int off = 0; off < 8192; off += 512)
			if (dmamap_device_read(dev, h + off, seen, 512) || memcmp(seen, want, 512))
				abort(); /* coherent memory the device cannot reach, or reads differently */
		dma_free_coherent(dev, 8192, cpu, h);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct program pr = { data, data + size };
	struct dmamap_board b = { 0 };
	struct dmamap_device_desc devs[4], extra;
	char dev_names[5][16];
	struct dmamap_error err = { 0 };
	struct dmamap__ledger before;
	struct dmamap_platform *p;
	unsigned int sel;

	verbose = getenv("BOARD_FUZZ_VERBOSE") != NULL;
	dmamap_set_log_hook(NULL, verbose ? NULL : quiet_log, NULL);
	sel = byte(&pr);
	if (flags[sel % 6])
		setenv("DMAMAP_DEBUG", flags[sel % 6], 1);
	else
		unsetenv("DMAMAP_DEBUG");
	if (flags[(sel >> 3) % 6])
		setenv("DMAMAP_OWNERSHIP", flags[(sel >> 3) % 6], 1);
	else
		unsetenv("DMAMAP_OWNERSHIP");

	b.name = "fuzz";
	sel = byte(&pr);
	b.cache_line_size = sel & 0x80 ? byte(&pr) : (sel & 7) > 4 ? 0 : 16u << (sel & 7);
	b.arch = (sel >> 3) & 1;
	b.edge_policy = (sel >> 4) & 1;
	b.memory_model = (sel >> 5) & 1;
	b.bounce_unaligned_kmalloc = (sel >> 6) & 1;
	sel = byte(&pr);
	b.nr_banks = sel & 0x80 ? byte(&pr) % (DMAMAP_MAX_BANKS + 2) : 1 + sel % 2;
	for (unsigned int i = 0; i < b.nr_banks && i < DMAMAP_MAX_BANKS; i++) {
		b.banks[i].start = address(&pr);
		b.banks[i].size = size_of(&pr);
	}
	sel = byte(&pr);
	if (sel & 1)
		b.zone_dma_limit = address(&pr);
	if (sel & 2)
		b.highmem_start = address(&pr);
	b.swiotlb_size = sel & 4 ? size_of(&pr) : sel & 8 ? ~0ull : 256 << 10;
	if (sel & 16) {
		b.cma_size = size_of(&pr);
		b.cma_start = byte(&pr) & 1 ? address(&pr) : 0;
	}
	if (sel & 32) {
		b.nr_cma_areas = byte(&pr) % (DMAMAP_MAX_CMA + 2);
		for (unsigned int i = 0; i < b.nr_cma_areas && i < DMAMAP_MAX_CMA; i++) {
			b.cma_areas[i].start = address(&pr);
			b.cma_areas[i].size = size_of(&pr);
		}
	}
	if (sel & 64) {
		b.nr_reserved = byte(&pr) % 4;
		for (unsigned int i = 0; i < b.nr_reserved; i++) {
			b.reserved[i].start = address(&pr);
			b.reserved[i].size = size_of(&pr);
		}
	}
	/*
	 * Some paths still commit memory in proportion to a region (declaring a
	 * 3.8 GiB pool copies it between the board's views): past 1 GiB of RAM
	 * every input would end at the memory limit.
	 */
	{
		u64 total = 0;

		for (unsigned int i = 0; i < b.nr_banks && i < DMAMAP_MAX_BANKS; i++)
			total += b.banks[i].size > (1ull << 40) ? (1ull << 40) : b.banks[i].size;
		if (total > (1ull << 30))
			return -1;
	}
	b.nr_devices = byte(&pr) % 5;
	for (unsigned int i = 0; i < b.nr_devices; i++)
		fill_device(&pr, &devs[i], dev_names[i]);
	b.devices = devs;

	dmamap__ledger_read(&before);
	p = dmamap_platform_create(&b, &err);
	if (!p) {
		if (err.code >= 0 || !err.msg[0])
			abort(); /* refused without saying why */
	} else {
		struct device *d;

		dmamap_set_log_hook(p, quiet_log, NULL);
		if (verbose)
			dmamap_set_trace_hook(p, print_event, NULL);
		fill_device(&pr, &extra, dev_names[4]);
		memset(&err, 0, sizeof(err));
		d = dmamap_device_create(p, &extra, &err);
		if (!d && (err.code >= 0 || !err.msg[0]))
			abort();
		for (unsigned int i = 0; i < dmamap_device_count(p); i++) {
			struct device *dev = dmamap_device_at(p, i);

			if (dev && verbose) {
				struct dmamap_device_info info;

				dmamap_device_info(dev, &info);
				fprintf(stderr, "board_fuzz: %s (%s, %s, mask 0x%llx, coherent mask 0x%llx%s%s): %lu live\n",
					dev_name(dev), info.ops,
					info.coherent ? "coherent" : "non-coherent",
					(unsigned long long)info.dma_mask,
					(unsigned long long)info.coherent_dma_mask,
					info.coherent_pool ? ", declared pool" : "",
					info.restricted_pool_size ? ", restricted pool" : "",
					dmamap_debug_live(dev, NULL));
				for (unsigned int r = 0; r < info.nr_ranges; r++)
					fprintf(stderr, "  window cpu 0x%llx -> dma 0x%llx, 0x%llx bytes\n",
						(unsigned long long)info.ranges[r].cpu_start,
						(unsigned long long)info.ranges[r].dma_start,
						(unsigned long long)info.ranges[r].size);
			}
			if (dev)
				round_trip(p, dev);
		}
		if (dmamap_debug_live(NULL, p))
			abort(); /* the round trips gave back all they took */
		dmamap_platform_destroy(p);
	}
	ledger_back_to(&before);
	return 0;
}
