/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <dmamap/sim.h>
#include <dmamap/swiotlb.h>
#include "gallery.h"

const struct gallery_bug gallery_bugs[] = {
	{ "missing-sync-for-cpu",
	  "reads what the device wrote without dma_sync_single_for_cpu() (or before unmapping it)",
	  "dma_sync_single_for_cpu(dev, dma, len, DMA_FROM_DEVICE) before the CPU reads",
	  MCDMA_BUG_MISSING_SYNC_FOR_CPU, NICDRV_BUG_MISSING_SYNC_FOR_CPU, 0,
	  { DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS, DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS } },
	{ "missing-sync-for-device",
	  "fills a buffer after mapping it, with no dma_sync_single_for_device()",
	  "fill before dma_map_single(), or dma_sync_single_for_device() after filling",
	  MCDMA_BUG_MISSING_SYNC_FOR_DEVICE, 0, 0,
	  { DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS, DMAMAP_DBG_MISSING_SYNC_FOR_DEVICE, DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS } },
	{ "missing-sync",
	  "both of the above in one driver",
	  "sync for the device after filling, for the CPU before reading",
	  MCDMA_BUG_MISSING_SYNC, 0, 0,
	  { DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS, DMAMAP_DBG_MISSING_SYNC_FOR_DEVICE, DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS } },
	{ "wrong-direction",
	  "maps a buffer the device writes as DMA_TO_DEVICE",
	  "DMA_FROM_DEVICE for what the device writes, DMA_TO_DEVICE for what it reads",
	  MCDMA_BUG_WRONG_DIRECTION, NICDRV_BUG_WRONG_DIRECTION, BLKDRV_BUG_WRONG_DIRECTION,
	  { DMAMAP_DBG_DEVICE_WRITE_READONLY } },
	{ "cpu-write-while-mapped",
	  "writes into a buffer while the device owns it",
	  "write before mapping or after unmapping (or between sync_for_cpu and sync_for_device)",
	  MCDMA_BUG_CPU_WRITE_WHILE_MAPPED, 0, BLKDRV_BUG_CPU_WRITE_WHILE_MAPPED,
	  { DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS, DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS } },
	{ "shared-cacheline",
	  "the device-written buffer shares a cache line with a field the CPU updates",
	  "align and pad DMA buffers to the cache line (kmalloc does: ARCH_DMA_MINALIGN)",
	  MCDMA_BUG_SHARED_CACHELINE, 0, 0,
	  { DMAMAP_DBG_MAP_UNALIGNED, DMAMAP_DBG_CACHELINE_OVERLAP } },
	{ "unmap-before-done",
	  "unmaps a buffer when it rings the doorbell (TX), not when the device completes it",
	  "unmap in the completion path, after the device gave the descriptor back",
	  MCDMA_BUG_UNMAP_BEFORE_DONE, NICDRV_BUG_TX_UNMAP_AT_DOORBELL,
	  BLKDRV_BUG_UNMAP_BEFORE_DONE,
	  { DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED } },
	{ "rx-no-sync-for-device",
	  "recycles an RX buffer to the device without dma_sync_single_for_device()",
	  "dma_sync_single_for_device(dev, dma, size, DMA_FROM_DEVICE) before giving it back",
	  0, NICDRV_BUG_RX_NO_SYNC_FOR_DEVICE, 0,
	  { DMAMAP_DBG_DEVICE_ACCESS_CPU_OWNS } },
	{ "descriptor-while-device-owns",
	  "reclaims (rewrites) TX descriptors without checking OWN: some are still the device's",
	  "stop at the first descriptor with OWN set, and dma_rmb() before reading the rest",
	  0, NICDRV_BUG_DESC_WHILE_DEVICE_OWNS, 0,
	  { DMAMAP_DBG_DESCRIPTOR_WHILE_DEVICE_OWNS } },
	{ "map-error-unchecked",
	  "uses a handle without dma_mapping_error() (one mapping is made to fail here)",
	  "if (dma_mapping_error(dev, dma)) { drop the request; }",
	  MCDMA_BUG_MAP_ERROR_UNCHECKED, NICDRV_BUG_MAP_ERROR_UNCHECKED,
	  BLKDRV_BUG_MAP_ERROR_UNCHECKED,
	  { DMAMAP_DBG_MAP_ERR_NOT_CHECKED, DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED } },
	{ "24bit-no-bounce",
	  "a 24-bit device on a board without a bounce path (swiotlb=noforce): mappings above 16 MiB fail, and the driver never checks",
	  "check dma_mapping_error() and fail the request (or allocate below the limit: GFP_DMA, dma_alloc_*)",
	  MCDMA_BUG_MAP_ERROR_UNCHECKED, NICDRV_BUG_MAP_ERROR_UNCHECKED,
	  BLKDRV_BUG_MAP_ERROR_UNCHECKED,
	  { DMAMAP_DBG_UNREACHABLE, DMAMAP_DBG_DEVICE_FAULT, DMAMAP_DBG_MAP_ERR_NOT_CHECKED } },
	{ "no-dma-api",
	  "gives the device virt_to_phys() addresses: no bounce, no window offset, no IOMMU mapping, no cache maintenance",
	  "dma_map_single()/dma_map_sg(): the device's ops bounce, offset or translate as its bus needs",
	  MCDMA_BUG_NO_DMA_API, NICDRV_BUG_NO_DMA_API, BLKDRV_BUG_NO_DMA_API,
	  { DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED, DMAMAP_DBG_DEVICE_FAULT } },
	{ "leak-at-remove",
	  "remove() leaves mappings or coherent memory behind",
	  "unmap and free in remove() what probe() mapped and allocated (or use dmam_*/devm_*)",
	  MCDMA_BUG_LEAK_AT_REMOVE, NICDRV_BUG_LEAK_AT_REMOVE, BLKDRV_BUG_LEAK_AT_REMOVE,
	  { DMAMAP_DBG_LEAK } },
	{ "missing-dma-wmb",
	  "sets a descriptor's OWN bit with no dma_wmb() after its address and length (the NIC polls its ring)",
	  "dma_wmb() between filling the descriptor and setting OWN",
	  0, NICDRV_BUG_MISSING_DMA_WMB, 0,
	  { DMAMAP_DBG_UNORDERED_DESCRIPTOR }, true },
	{ "relaxed-doorbell",
	  "rings the doorbell with writel_relaxed() and no wmb(): the device can see it before the descriptors",
	  "writel() for a doorbell (or wmb() before writel_relaxed())",
	  0, NICDRV_BUG_RELAXED_DOORBELL, 0,
	  { DMAMAP_DBG_UNORDERED_DOORBELL }, true },
	{ "missing-dma-rmb",
	  "reads a received frame's length after seeing OWN clear, with no dma_rmb() between",
	  "dma_rmb() after reading OWN, before reading the rest of the descriptor",
	  0, NICDRV_BUG_MISSING_DMA_RMB, 0,
	  { DMAMAP_DBG_UNORDERED_COMPLETION }, true },
	{ "missing-fence-wait",
	  "starts a device on a shared buffer (dma-buf) without waiting for the fence of the device still writing it",
	  "dma_resv_wait_timeout(buf->resv, DMA_RESV_USAGE_WRITE, ...) (or a dma_fence callback) before starting the device",
	  0, 0, 0,
	  { DMAMAP_DBG_DMABUF_FENCE_NOT_WAITED }, false, PIPE_BUG_MISSING_FENCE_WAIT },
	{ "missing-begin-cpu-access",
	  "writes a shared buffer (dma-buf) with the CPU without dma_buf_begin_cpu_access()/dma_buf_end_cpu_access()",
	  "dma_buf_begin_cpu_access() before the CPU touches the buffer, dma_buf_end_cpu_access() after",
	  0, 0, 0,
	  { DMAMAP_DBG_DMABUF_CPU_UNBRACKETED, DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS }, false,
	  PIPE_BUG_MISSING_CPU_ACCESS },
	{ NULL, NULL, NULL, 0, 0, 0, { 0 } },
};

const struct gallery_bug *gallery_find(const char *name)
{
	for (const struct gallery_bug *b = gallery_bugs; name && b->name; b++)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}

/* Reports come from the device thread too (threaded mode). */
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static void count_report(void *ctx, const struct dmamap_report *rep)
{
	struct gallery_result *g = ctx;

	pthread_mutex_lock(&count_lock);
	if ((unsigned int)rep->kind < DMAMAP_DBG_KIND_COUNT)
		g->by_kind[rep->kind]++;
	if (g->reports < 3)
		snprintf(g->first[g->reports], sizeof(g->first[0]), "%s: %s",
			 dmamap_dbg_kind_name(rep->kind), rep->text);
	g->reports++;
	pthread_mutex_unlock(&count_lock);
}

const char *gallery_driver(struct device *dev)
{
	const char *model = dmamap_device_model_name(dev);

	if (!strcmp(model, "nic"))
		return "nic_drv";
	if (!strcmp(model, "blk"))
		return "blk_drv";
	if (!strcmp(model, "memcpy"))
		return "memcpy_dma";
	return NULL;
}

/* The first device of @p with model @model, or NULL. */
static struct device *first_of(struct dmamap_platform *p, const char *model)
{
	for (unsigned int i = 0; i < dmamap_device_count(p); i++)
		if (!strcmp(dmamap_device_model_name(dmamap_device_at(p, i)), model))
			return dmamap_device_at(p, i);
	return NULL;
}

static void count_pipe_report(void *ctx, const struct dmamap_report *rep)
{
	struct gallery_pipe_result *g = ctx;

	pthread_mutex_lock(&count_lock);
	if ((unsigned int)rep->kind < DMAMAP_DBG_KIND_COUNT)
		g->by_kind[rep->kind]++;
	if (g->reports < 3)
		snprintf(g->first[g->reports], sizeof(g->first[0]), "%.40s: %.31s: %.400s",
			 dmamap_dbg_kind_name(rep->kind), rep->device, rep->text);
	g->reports++;
	pthread_mutex_unlock(&count_lock);
}

static int run_pipeline(struct dmamap_platform *p, const struct gallery_bug *bug,
			enum pipe_alloc alloc, size_t len, unsigned int frames, uint64_t seed,
			bool ownership, struct gallery_pipe_result *out)
{
	static const char *const models[3] = { "camera", "isp", "display" };
	int ret;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < 3; i++) {
		struct device *dev = first_of(p, models[i]);

		if (!dev)
			return -ENODEV;
		snprintf(out->devices[i], sizeof(out->devices[i]), "%s", dev_name(dev));
	}
	out->applies = true;
	dmamap_debug_enable(p, true);
	dmamap_debug_set_ownership(p, ownership);
	if (seed)
		dmamap_sim_set_schedule(p, seed);
	dmamap_set_report_hook(p, count_pipe_report, out);
	ret = pipe_run(p, out->devices[0], out->devices[1], out->devices[2], len,
		       frames ? frames : 8, alloc, bug ? bug->pipe : PIPE_BUG_NONE, &out->r);
	dmamap_set_report_hook(p, NULL, NULL);
	return ret;
}

int gallery_run_pipeline(struct dmamap_platform *p, const struct gallery_bug *bug,
			 enum pipe_alloc alloc, unsigned int frames, uint64_t seed,
			 struct gallery_pipe_result *out)
{
	return run_pipeline(p, bug, alloc, 640 * 480 * 2, frames, seed, true, out);
}

int gallery_run_pipeline_sized(struct dmamap_platform *p, const struct gallery_bug *bug,
			       size_t len, unsigned int frames, uint64_t seed,
			       struct gallery_pipe_result *out)
{
	return run_pipeline(p, bug, PIPE_ALLOC_FOR_DEVICES, len, frames, seed, false, out);
}

const char *gallery_unit(struct device *dev)
{
	const char *model = dmamap_device_model_name(dev);

	return !strcmp(model, "nic") ? "frames" : !strcmp(model, "blk") ? "requests" : "transfers";
}

int gallery_run(struct device *dev, const struct gallery_bug *bug, unsigned int scale,
		uint64_t seed, struct gallery_result *out)
{
	struct dmamap_platform *p = dmamap_device_platform(dev);
	const char *model = dmamap_device_model_name(dev);
	int ret;

	memset(out, 0, sizeof(*out));
	if (!gallery_driver(dev))
		return -ENODEV;
	if (!scale)
		scale = 1;
	dmamap_debug_enable(p, true);
	/* Ownership mode: the checker follows each buffer's owner, and traps the CPU touching one it gave away. */
	dmamap_debug_set_ownership(p, true);
	dmamap_set_report_hook(p, count_report, out);
	/* The one failed mapping the unchecked handle then carries to the device (past the NIC's RX buffers). */
	if (bug && !strcmp(bug->name, "map-error-unchecked"))
		dmamap_fault_inject(p, DMAMAP_FAULT_MAP, strcmp(model, "nic") ? 3 : 16 + 3);
	/* No bounce path: what a device cannot reach fails to map. */
	if (bug && !strcmp(bug->name, "24bit-no-bounce"))
		dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_NOFORCE);
	if (!strcmp(model, "nic")) {
		out->applies = !bug || bug->nic;
		ret = exercise_nic(dev, 256 * scale, bug ? bug->nic : 0, seed, &out->r);
	} else if (!strcmp(model, "blk")) {
		out->applies = !bug || bug->blk;
		ret = exercise_blk(dev, 32 * scale, bug ? bug->blk : 0, seed, &out->r);
	} else {
		out->applies = !bug || bug->mcdma;
		ret = exercise_memcpy(dev, 48 * scale, bug ? bug->mcdma : 0, seed, &out->r);
	}
	dmamap_fault_inject(p, 0, 0);
	if (bug && !strcmp(bug->name, "24bit-no-bounce"))
		dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_ON);
	dmamap_device_stats(dev, &out->st);
	out->leaked = dmamap_debug_live(dev, NULL);
	dmamap_set_report_hook(p, NULL, NULL);
	return ret;
}

void gallery_unbind(struct device *dev, struct gallery_result *out)
{
	struct dmamap_platform *p = dmamap_device_platform(dev);

	dmamap_set_report_hook(p, count_report, out);
	dmamap_device_destroy(dev);
	dmamap_set_report_hook(p, NULL, NULL);
}

bool gallery_named(const struct gallery_bug *bug, const struct gallery_result *g)
{
	for (unsigned int i = 0; bug && i < 3 && bug->names[i]; i++)
		if (g->by_kind[bug->names[i]])
			return true;
	return false;
}

bool gallery_broke(const struct gallery_result *g)
{
	return g->r.corrupted || g->r.lost || g->r.wrong_bytes || g->r.probe_error || g->leaked;
}

enum dmamap_dbg_kind gallery_main_kind(const struct gallery_bug *bug,
				       const struct gallery_result *g)
{
	enum dmamap_dbg_kind fallback = 0;

	for (unsigned int i = 0; bug && i < 3 && bug->names[i]; i++)
		if (g->by_kind[bug->names[i]])
			return bug->names[i];
	for (unsigned int k = 1; k < DMAMAP_DBG_KIND_COUNT; k++) {
		if (!g->by_kind[k])
			continue;
		if (k != DMAMAP_DBG_CPU_DATA_LOST && k != DMAMAP_DBG_DEVICE_DATA_LOST)
			return (enum dmamap_dbg_kind)k;
		if (!fallback)
			fallback = (enum dmamap_dbg_kind)k;
	}
	return fallback;
}

static void count_only(void *ctx, const struct dmamap_report *rep)
{
	struct sweep_result *s = ctx;

	if (!s->reports++ && !s->first_bad[0])
		snprintf(s->first_bad, sizeof(s->first_bad), "%s: %s: %s", rep->device,
			 dmamap_dbg_kind_name(rep->kind), rep->text);
}

void sweep_seed(struct dmamap_platform *p, uint64_t seed, struct sweep_result *out)
{
	memset(out, 0, sizeof(*out));
	dmamap_debug_enable(p, true);
	dmamap_set_report_hook(p, count_only, out);
	dmamap_sim_set_chaos(p, seed, 0);
	dmamap_sim_set_schedule(p, seed);
	for (unsigned int i = 0; i < dmamap_device_count(p); i++) {
		struct device *dev = dmamap_device_at(p, i);
		const char *model = dmamap_device_model_name(dev);
		struct exercise_result r;
		int ret;

		if (!strcmp(model, "nic"))
			ret = exercise_nic(dev, 32, NICDRV_BUG_NONE, seed, &r);
		else if (!strcmp(model, "blk"))
			ret = exercise_blk(dev, 3, BLKDRV_BUG_NONE, seed, &r);
		else if (!strcmp(model, "memcpy"))
			ret = exercise_memcpy(dev, 6, MCDMA_BUG_NONE, seed, &r);
		else
			continue;
		out->devices++;
		out->units += r.units;
		if (ret || r.ok != r.units || r.wrong_bytes || dmamap_debug_live(dev, NULL)) {
			out->bad_units += ret ? 1 : r.units - r.ok;
			if (!out->first_bad[0])
				snprintf(out->first_bad, sizeof(out->first_bad),
					 "%s: %lu of %lu %s intact, %llu bytes wrong, probe %d", dev_name(dev),
					 r.ok, r.units, gallery_unit(dev), r.wrong_bytes, ret);
		}
	}
	dmamap_set_report_hook(p, NULL, NULL);
}
