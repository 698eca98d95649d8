/* SPDX-License-Identifier: MIT */
/*
 * What `dmamap run --trace` and `--trace-text` write: each run's trace
 * events, as ftrace-like lines or as Chrome trace-event JSON (Perfetto UI,
 * chrome://tracing). In the JSON a run is a process; each device has a
 * track with its API calls, interrupts and reports, and each buffer a
 * track of its own showing who owns it over time (the device from map to
 * sync_for_cpu or unmap, the CPU from sync_for_cpu to sync_for_device, both
 * for coherent memory), with its syncs, bounces, cache maintenance, device
 * accesses, faults and the checker's reports where they happened.
 *
 * A worker writes its run's events to FILE.partN, a line each as they
 * happen; the runner joins the parts in run order when every run is done,
 * ending a run whose worker died with why.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <dmamap/dma-map-ops.h>
#include <dmamap/dma-mapping.h>
#include <dmamap/page.h>
#include <dmamap/scatterlist.h>
#include "../lib/json.h"
#include "../lib/lib.h"
#include "runner.h"
#include "../lib/mem.h"

#define MAX_BUFS 512
#define MAX_TRACKS 16
#define MAX_PENDING 64
#define BUF_TID0 1000

enum owner { OWN_DEVICE, OWN_CPU, OWN_BOTH };
static const char *const owner_names[] = { "device owns", "CPU owns", "coherent: both" };

struct tbuf {
	bool live;
	char dev[DMAMAP_NAME_MAX];
	uint64_t dma, phys, size;
	uint64_t slot; /* its bounce slot's physical address, 0: none */
	int dir;
	int tid;
	enum owner owner;
	uint64_t since;
};

struct run_tracer {
	FILE *json, *text;
	pthread_mutex_t lock;
	uint64_t t0;
	unsigned int pid;
	char track[MAX_TRACKS][DMAMAP_NAME_MAX];
	unsigned int ntracks;
	struct tbuf bufs[MAX_BUFS];
	int next_tid;
	/* Bounces announced (swiotlb_bounced) whose map event has not come yet. */
	struct pending_bounce {
		const struct device *dev;
		uint64_t slot;
	} pending[MAX_PENDING];
	unsigned int npending;
};

static double us(const struct run_tracer *t, uint64_t ns)
{
	return ns > t->t0 ? (double)(ns - t->t0) / 1000.0 : 0.0;
}

static void meta(struct run_tracer *t, int tid, const char *what, const char *name)
{
	fprintf(t->json, "{\"ph\":\"M\",\"pid\":%u,\"tid\":%d,\"name\":\"%s\",\"args\":{\"name\":", t->pid,
		tid, what);
	dmamap__json_write(t->json, name);
	fprintf(t->json, "}},\n");
}

/* The device's track: one per device the run touches, numbered from 1. */
static int device_tid(struct run_tracer *t, const char *dev)
{
	const char *name = dev && *dev ? dev : "(board)";
	unsigned int i;

	for (i = 0; i < t->ntracks; i++)
		if (!strcmp(t->track[i], name))
			return (int)i + 1;
	if (t->ntracks == MAX_TRACKS)
		return MAX_TRACKS;
	snprintf(t->track[t->ntracks++], DMAMAP_NAME_MAX, "%s", name);
	meta(t, (int)i + 1, "thread_name", name);
	return (int)i + 1;
}

static void instant(struct run_tracer *t, int tid, uint64_t ts, const char *name, const char *text,
		    char scope)
{
	fprintf(t->json, "{\"ph\":\"i\",\"s\":\"%c\",\"pid\":%u,\"tid\":%d,\"ts\":%.3f,\"name\":", scope,
		t->pid, tid, us(t, ts));
	dmamap__json_write(t->json, name);
	fprintf(t->json, ",\"args\":{\"event\":");
	dmamap__json_write(t->json, text);
	fprintf(t->json, "}},\n");
}

static void span(struct run_tracer *t, struct tbuf *b, uint64_t end)
{
	fprintf(t->json, "{\"ph\":\"X\",\"pid\":%u,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"name\":\"%s\",\"args\":{\"dma_addr\":\"0x%" PRIx64 "\",\"size\":%" PRIu64 "}},\n",
		t->pid, b->tid, us(t, b->since), us(t, end) - us(t, b->since), owner_names[b->owner],
		b->dma, b->size);
	b->since = end;
}

static struct tbuf *buf_new(struct run_tracer *t, const struct dmamap_trace_event *ev, uint64_t dma,
			    uint64_t phys, uint64_t size, enum owner owner)
{
	char name[160];

	for (unsigned int i = 0; i < MAX_BUFS; i++) {
		struct tbuf *b = &t->bufs[i];

		if (b->live)
			continue;
		*b = (struct tbuf){ .live = true, .dma = dma, .phys = phys, .size = size,
				    .dir = ev->dir, .tid = t->next_tid++, .owner = owner,
				    .since = ev->ts_ns };
		snprintf(b->dev, sizeof(b->dev), "%s", ev->device);
		snprintf(name, sizeof(name), "%s buffer 0x%" PRIx64 "+%" PRIu64 " %s", ev->device, dma,
			 size, ev->dir == DMA_TO_DEVICE ? "TO_DEVICE" : ev->dir == DMA_FROM_DEVICE ?
			 "FROM_DEVICE" : ev->dir == DMA_BIDIRECTIONAL ? "BIDIRECTIONAL" : "");
		meta(t, b->tid, "thread_name", name);
		fprintf(t->json, "{\"ph\":\"M\",\"pid\":%u,\"tid\":%d,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}},\n",
			t->pid, b->tid, b->tid);
		return b;
	}
	return NULL;
}

/*
 * The buffer of @dev holding device address @addr (@phys: a physical
 * address, which for a bounced buffer may be its slot's), among the live
 * ones or (@live false) those unmapped since.
 */
static struct tbuf *buf_match(struct run_tracer *t, const char *dev, uint64_t addr, bool phys,
			      bool live)
{
	for (unsigned int i = 0; i < MAX_BUFS; i++) {
		struct tbuf *b = &t->bufs[i];
		uint64_t start = phys ? b->phys : b->dma;

		if (b->live != live || !b->tid || (dev && *dev && strcmp(b->dev, dev)))
			continue;
		if ((addr >= start && addr - start < b->size) ||
		    (phys && b->slot && addr >= b->slot && addr - b->slot < b->size))
			return b;
	}
	return NULL;
}

static struct tbuf *buf_at(struct run_tracer *t, const char *dev, uint64_t addr, bool phys)
{
	return buf_match(t, dev, addr, phys, true);
}

static void hand_over(struct run_tracer *t, struct tbuf *b, enum owner to, uint64_t ts)
{
	if (!b || b->owner == to || b->owner == OWN_BOTH)
		return;
	span(t, b, ts);
	b->owner = to;
}

static void buf_end(struct run_tracer *t, struct tbuf *b, uint64_t ts)
{
	if (!b)
		return;
	span(t, b, ts);
	b->live = false;
}

/*
 * Marks @b bounced when a swiotlb_bounced of its device announced the slot
 * behind its device address; what the map did not use is dropped with it.
 */
static void claim_bounce(struct run_tracer *t, const struct dmamap_trace_event *ev,
			 struct tbuf *b, const char *line)
{
	uint64_t slot;

	if (!b || !t->npending || !ev->dev)
		return;
	slot = dmamap_dma_to_phys(ev->dev, b->dma);
	for (unsigned int i = 0; i < t->npending; i++) {
		if (t->pending[i].dev != ev->dev || t->pending[i].slot != slot)
			continue;
		b->slot = slot;
		instant(t, b->tid, ev->ts_ns, "bounced (swiotlb)", line, 't');
		t->pending[i] = t->pending[--t->npending];
		return;
	}
}

static void drop_bounces(struct run_tracer *t, const struct device *dev)
{
	for (unsigned int i = 0; i < t->npending;)
		if (t->pending[i].dev == dev)
			t->pending[i] = t->pending[--t->npending];
		else
			i++;
}

/*
 * Each device segment of a mapped list: a buffer of its own. Its physical
 * range is its entry's when no segments were merged (an IOMMU may merge
 * them: then the buffer has none, and cache maintenance shows on the
 * device's track only).
 */
static uint64_t sg_phys_of(const struct dmamap_trace_event *ev, const struct scatterlist *sg)
{
	return ev->ents == ev->nents ? page_to_phys(sg_page(sg)) + sg->offset : 0;
}

static void sg_bufs(struct run_tracer *t, const struct dmamap_trace_event *ev, bool map, bool sync,
		    bool for_cpu, const char *line)
{
	const struct scatterlist *sg = ev->sgl;
	int n = map ? ev->ents : ev->nents;

	for (int i = 0; sg && i < n; i++, sg = sg_next((struct scatterlist *)sg)) {
		struct tbuf *b = buf_at(t, ev->device, sg_dma_address(sg), false);

		if (map) {
			claim_bounce(t, ev, buf_new(t, ev, sg_dma_address(sg), sg_phys_of(ev, sg),
						    sg_dma_len(sg), OWN_DEVICE), line);
			continue;
		}
		if (!b)
			continue;
		/* The list's sync or unmap shows on each of its segments' tracks. */
		instant(t, b->tid, ev->ts_ns, dmamap_trace_name(ev->id), line, 't');
		if (sync)
			hand_over(t, b, for_cpu ? OWN_CPU : OWN_DEVICE, ev->ts_ns);
		else
			buf_end(t, b, ev->ts_ns);
	}
}

static void on_event(void *ctx, const struct dmamap_trace_event *ev)
{
	struct run_tracer *t = ctx;
	char line[1024];
	int tid;
	struct tbuf *b = NULL;

	dmamap_trace_format(ev, line, sizeof(line));
	pthread_mutex_lock(&t->lock);
	if (!t->t0)
		t->t0 = ev->ts_ns;
	if (t->text)
		fprintf(t->text, "%12.6f: %s\n", us(t, ev->ts_ns) / 1e6, line);
	if (!t->json)
		goto out;
	tid = device_tid(t, ev->device);
	switch (ev->id) {
	case DMAMAP_TRACE_DMA_MAP_PHYS:
		if (ev->dma_addr != DMA_MAPPING_ERROR)
			b = buf_new(t, ev, ev->dma_addr, ev->phys_addr, ev->size, OWN_DEVICE);
		claim_bounce(t, ev, b, line);
		drop_bounces(t, ev->dev);
		break;
	case DMAMAP_TRACE_DMA_UNMAP_PHYS:
		buf_end(t, b = buf_at(t, ev->device, ev->dma_addr, false), ev->ts_ns);
		break;
	case DMAMAP_TRACE_DMA_MAP_SG:
		sg_bufs(t, ev, true, false, false, line);
		drop_bounces(t, ev->dev);
		break;
	case DMAMAP_TRACE_DMA_MAP_SG_ERR:
		drop_bounces(t, ev->dev);
		break;
	case DMAMAP_TRACE_DMA_UNMAP_SG:
		sg_bufs(t, ev, false, false, false, line);
		break;
	case DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_CPU:
	case DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_DEVICE:
		b = buf_at(t, ev->device, ev->dma_addr, false);
		hand_over(t, b, ev->id == DMAMAP_TRACE_DMA_SYNC_SINGLE_FOR_CPU ? OWN_CPU : OWN_DEVICE,
			  ev->ts_ns);
		break;
	case DMAMAP_TRACE_DMA_SYNC_SG_FOR_CPU:
	case DMAMAP_TRACE_DMA_SYNC_SG_FOR_DEVICE:
		sg_bufs(t, ev, false, true, ev->id == DMAMAP_TRACE_DMA_SYNC_SG_FOR_CPU, line);
		break;
	case DMAMAP_TRACE_DMA_ALLOC:
		if (ev->virt_addr)
			b = buf_new(t, ev, ev->dma_addr, ev->phys_addr, ev->size, OWN_BOTH);
		break;
	case DMAMAP_TRACE_DMA_ALLOC_PAGES:
		if (ev->virt_addr)
			b = buf_new(t, ev, ev->dma_addr, ev->phys_addr, ev->size, OWN_CPU);
		break;
	case DMAMAP_TRACE_DMA_ALLOC_SGT:
		/* The CPU owns it until a sync gives it to the device. */
		b = buf_new(t, ev, ev->dma_addr, 0, ev->size, OWN_CPU);
		break;
	case DMAMAP_TRACE_DMA_FREE:
	case DMAMAP_TRACE_DMA_FREE_PAGES:
	case DMAMAP_TRACE_DMA_FREE_SGT:
		buf_end(t, b = buf_at(t, ev->device, ev->dma_addr, false), ev->ts_ns);
		break;
	case DMAMAP_TRACE_SWIOTLB_BOUNCED:
		if (t->npending < MAX_PENDING)
			t->pending[t->npending++] = (struct pending_bounce){ ev->dev, ev->phys_addr };
		break;
	case DMAMAP_TRACE_CACHE_CLEAN:
	case DMAMAP_TRACE_CACHE_INVALIDATE:
		b = buf_at(t, ev->device, ev->phys_addr, true);
		break;
	case DMAMAP_TRACE_DEVICE_READ:
	case DMAMAP_TRACE_DEVICE_WRITE:
	case DMAMAP_TRACE_IO_PAGE_FAULT:
		b = buf_at(t, ev->device, ev->dma_addr, false);
		break;
	case DMAMAP_TRACE_REPORT:
		/* The checker reports a bad unmap after the unmap's own event. */
		/* A report names an address when it names a size (address 0 is one too). */
		if (ev->size) {
			b = buf_at(t, ev->device, ev->dma_addr, false);
			if (!b)
				b = buf_match(t, ev->device, ev->dma_addr, false, false);
		}
		break;
	default:
		break;
	}
	/* Everything on its device's track; what concerns a buffer on the buffer's too. */
	if (ev->id == DMAMAP_TRACE_REPORT) {
		char name[96];

		snprintf(name, sizeof(name), "report: %s",
			 dmamap_dbg_kind_name(ev->report ? ev->report->kind : 0));
		instant(t, tid, ev->ts_ns, name, line, 'p');
		if (b)
			instant(t, b->tid, ev->ts_ns, name, line, 't');
	} else {
		instant(t, tid, ev->ts_ns, dmamap_trace_name(ev->id), line, 't');
		if (b && ev->id != DMAMAP_TRACE_DMA_MAP_PHYS && ev->id != DMAMAP_TRACE_DMA_ALLOC &&
		    ev->id != DMAMAP_TRACE_DMA_ALLOC_PAGES && ev->id != DMAMAP_TRACE_DMA_ALLOC_SGT)
			instant(t, b->tid, ev->ts_ns, dmamap_trace_name(ev->id), line, 't');
	}
out:
	pthread_mutex_unlock(&t->lock);
}

static FILE *part(const char *path, unsigned long task, const char *mode)
{
	char name[1100];
	FILE *f;

	snprintf(name, sizeof(name), "%s.part%lu", path, task);
	f = fopen(name, mode);
	/* Each event reaches the file whole, so a run that crashes keeps its trace. */
	if (f && *mode == 'w')
		setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

struct run_tracer *dmamap__run_trace_start(const struct run_plan *pl, struct dmamap_platform *p,
					   unsigned long task)
{
	struct run_tracer *t;
	char name[160];

	if (!pl->o->trace && !pl->o->trace_text)
		return NULL;
	t = dmamap__calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	pthread_mutex_init(&t->lock, NULL);
	t->pid = (unsigned int)task + 1;
	t->next_tid = BUF_TID0;
	if (pl->o->trace)
		t->json = part(pl->o->trace, task, "w");
	if (pl->o->trace_text)
		t->text = part(pl->o->trace_text, task, "w");
	snprintf(name, sizeof(name), "%s seed %llu", pl->devices[plan_device(pl, task)],
		 (unsigned long long)plan_seed(pl, task));
	if (t->json)
		meta(t, 0, "process_name", name);
	if (t->text)
		fprintf(t->text, "# %s\n", name);
	dmamap_set_trace_hook(p, on_event, t);
	return t;
}

void dmamap__run_trace_stop(struct run_tracer *t)
{
	struct timespec ts;

	if (!t)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	pthread_mutex_lock(&t->lock);
	/* Buffers still live when the run ended: their last span ends here. */
	for (unsigned int i = 0; t->json && i < MAX_BUFS; i++)
		if (t->bufs[i].live)
			span(t, &t->bufs[i], (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
	pthread_mutex_unlock(&t->lock);
	if (t->json)
		fclose(t->json);
	if (t->text)
		fclose(t->text);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

/*
 * Copies @in's whole lines to @out (a worker killed mid-event leaves half a
 * line, which would break the JSON); returns the last event's timestamp.
 */
static double copy_lines(FILE *in, FILE *out)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	double last = 0;

	while ((n = getline(&line, &cap, in)) > 0) {
		const char *ts = strstr(line, "\"ts\":");

		if (line[n - 1] != '\n')
			break;
		fwrite(line, 1, (size_t)n, out);
		if (ts)
			last = strtod(ts + 5, NULL);
	}
	free(line);
	return last;
}

/* A run whose worker died: the trace ends with why, where its events stop. */
static void tell_death(const struct run_state *rs, unsigned long task, double ts, FILE *out,
		       bool json)
{
	const struct run_result *r = &rs->results[task];
	char stage[64], msg[512], text[640];

	if (r->status != RUN_CRASHED && r->status != RUN_TIMEOUT)
		return;
	dmamap__run_stage_name(rs, r->fail_stage, stage, sizeof(stage));
	dmamap__run_stage_msg(r->msgs, r->fail_stage, msg, sizeof(msg));
	snprintf(text, sizeof(text), "%s in %s: %s", r->status == RUN_CRASHED ? "crashed" : "timed out",
		 stage, msg);
	if (!json) {
		fprintf(out, "# %s\n", text);
		return;
	}
	fprintf(out, "{\"ph\":\"i\",\"s\":\"p\",\"pid\":%lu,\"tid\":0,\"ts\":%.3f,\"name\":", task + 1, ts);
	dmamap__json_write(out, r->status == RUN_CRASHED ? "run crashed" : "run timed out");
	fputs(",\"args\":{\"event\":", out);
	dmamap__json_write(out, text);
	fputs("}},\n", out);
}

/* Joins the parts of every run, in run order, into @path (JSON: one traceEvents array). */
static int join(const struct run_state *rs, const char *path, bool json)
{
	FILE *out = fopen(path, "w");

	if (!out)
		return -1;
	if (json)
		fputs("{\"traceEvents\":[\n", out);
	for (unsigned long task = 0; task < rs->nr_tasks; task++) {
		FILE *in = part(path, task, "r");
		char name[1100];
		double last;

		if (!in)
			continue;
		last = copy_lines(in, out);
		fclose(in);
		tell_death(rs, task, last, out, json);
		snprintf(name, sizeof(name), "%s.part%lu", path, task);
		unlink(name);
	}
	/* Every event ends with a comma: one last event closes the array. */
	if (json)
		fputs("{\"ph\":\"M\",\"pid\":0,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"dmamap run\"}}\n],\"displayTimeUnit\":\"ns\"}\n",
		      out);
	return fclose(out) ? -1 : 0;
}

int dmamap__run_trace_join(const struct run_state *rs)
{
	const struct dmamap_run_options *o = rs->plan.o;
	int ret = 0;

	if (o->trace && join(rs, o->trace, true)) {
		fprintf(stderr, "dmamap: %s: cannot write: %s\n", o->trace, strerror(errno));
		ret = -1;
	}
	if (o->trace_text && join(rs, o->trace_text, false)) {
		fprintf(stderr, "dmamap: %s: cannot write: %s\n", o->trace_text, strerror(errno));
		ret = -1;
	}
	return ret;
}
