/* SPDX-License-Identifier: MIT */
/*
 * A worker process: for each task number the parent sends, a fresh board
 * seeded with the task's seed, the checker on, the device bound (probe),
 * every test, and the driver released (remove); what happened goes back
 * as one record. Each stage is announced first, so that the parent can
 * name the stage a crash or a hang happened in.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <dmamap/debug.h>
#include <dmamap/dma-map-ops.h>
#include <dmamap/dma-mapping.h>
#include <dmamap/sim.h>
#include "../driver/driver.h"
#include "../lib/lib.h"
#include "runner.h"

struct worker {
	pthread_mutex_t lock;
	struct test_outcome *cur; /* where a report lands: the running stage's outcome */
	struct run_record rec;
	char log[sizeof(((struct run_record *)0)->log)];
	size_t log_len;
};

/*
 * libgcov's, present only in a --coverage build. A worker leaves by _exit()
 * (the caller's atexit handlers are not its own to run), which would throw
 * away what a coverage run counted in it.
 */
extern void __gcov_dump(void) __attribute__((weak));

static __attribute__((noreturn)) void worker_exit(int status)
{
	if (__gcov_dump)
		__gcov_dump();
	_exit(status);
}

static void send_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			worker_exit(3); /* the parent is gone */
		p += n;
		len -= (size_t)n;
	}
}

/* The run so far, with the stage beginning: what the parent keeps if the worker dies in it. */
static void stage_begin(struct worker *w, int out, uint32_t task, int stage)
{
	static struct run_record r;

	r = w->rec;
	r.type = REC_STAGE;
	r.task = task;
	r.stage = stage;
	/* The board log so far (a device thread may be adding to it). */
	pthread_mutex_lock(&w->lock);
	memcpy(r.log, w->log, sizeof(r.log));
	pthread_mutex_unlock(&w->lock);
	send_all(out, &r, sizeof(r));
}

/* Keep the last lines: the oldest go when the buffer is full. */
static void on_log(void *ctx, int level, const char *line)
{
	struct worker *w = ctx;
	size_t n = strlen(line) + 1, cap = sizeof(w->log) - 1;

	(void)level;
	if (n > cap)
		return;
	pthread_mutex_lock(&w->lock);
	if (w->log_len + n > cap) {
		size_t drop = w->log_len + n - cap;
		char *nl = memchr(w->log + drop, '\n', w->log_len - drop);

		drop = nl ? (size_t)(nl - w->log) + 1 : w->log_len;
		memmove(w->log, w->log + drop, w->log_len - drop);
		w->log_len -= drop;
	}
	memcpy(w->log + w->log_len, line, n - 1);
	w->log_len += n;
	w->log[w->log_len - 1] = '\n';
	w->log[w->log_len] = '\0';
	pthread_mutex_unlock(&w->lock);
}

/* A report fails the stage it comes in; its text is the failure if nothing failed before. */
static void on_report(void *ctx, const struct dmamap_report *r)
{
	struct worker *w = ctx;

	pthread_mutex_lock(&w->lock);
	if (w->cur && !w->cur->failed) {
		w->cur->failed = true;
		snprintf(w->cur->where, sizeof(w->cur->where), "checker");
		/* Cut to fit: the text ends the line. */
		if (snprintf(w->cur->msg, sizeof(w->cur->msg), "%s on %s: %s",
			     dmamap_dbg_kind_name(r->kind), r->device[0] ? r->device : "(no device)",
			     r->text) < 0)
			w->cur->msg[0] = '\0';
	} else if (w->cur) {
		w->cur->failed = true;
	}
	pthread_mutex_unlock(&w->lock);
}

static void set_cur(struct worker *w, struct test_outcome *o)
{
	pthread_mutex_lock(&w->lock);
	w->cur = o;
	pthread_mutex_unlock(&w->lock);
}

static void note_failure(struct worker *w, int stage, const struct test_outcome *o)
{
	struct run_record *rec = &w->rec;
	size_t room = sizeof(rec->msgs) - rec->msgs_len;
	int n;

	if (rec->fail_stage == STAGE_NONE)
		rec->fail_stage = stage;
	n = snprintf(rec->msgs + rec->msgs_len, room, "%d\t%s\t%s\n", stage, o->where, o->msg);
	if (n > 0 && (size_t)n < room)
		rec->msgs_len += (uint32_t)n;
}

struct dmamap_platform *dmamap__run_board(const struct run_plan *pl, struct dmamap_error *err)
{
	const char *b = pl->o && pl->o->board ? pl->o->board : "default";
	size_t n = strlen(b);

	if (pl->fdt)
		return dmamap_platform_from_fdt(pl->fdt, pl->fdt_size, err);
	if (strchr(b, '/') || (n > 4 && (!strcmp(b + n - 4, ".dts") || !strcmp(b + n - 4, ".dtb"))))
		return dmamap_platform_from_file(b, err);
	return dmamap_platform_builtin(b, err);
}

static bool test_applies(const struct run_plan *pl, const struct dmamap_test *t,
			 struct device *dev)
{
	const char *only = pl->o ? pl->o->test : NULL;

	if (only && strcmp(only, t->name))
		return false;
	return !t->driver || !strcmp(t->driver->driver.name, dmamap_dev_driver_name(dev));
}

static void run_task(const struct run_plan *pl, struct worker *w, int out, uint32_t task)
{
	struct run_record *rec = &w->rec;
	const char *name = pl->devices[plan_device(pl, task)];
	uint64_t seed = plan_seed(pl, task);
	struct dmamap_error err = { 0 };
	struct test_outcome stage = { 0 };
	struct run_tracer *tracer = NULL;
	const struct platform_driver *drv;
	struct dmamap_platform *p;
	struct device *dev;
	int ret;

	memset(rec, 0, sizeof(*rec));
	rec->type = REC_DONE;
	rec->task = task;
	rec->fail_stage = STAGE_NONE;
	w->log_len = 0;
	w->log[0] = '\0';
	stage_begin(w, out, task, STAGE_PROBE);
	p = dmamap__run_board(pl, &err);
	dev = p ? dmamap_device_lookup(p, name) : NULL;
	if (!dev) {
		rec->status = RUN_BOARD;
		rec->probe_failed = 1;
		snprintf(stage.where, sizeof(stage.where), "board");
		/* A board error longer than a stage message keeps its start, where the reason is. */
		snprintf(stage.msg, sizeof(stage.msg), "%.*s", (int)sizeof(stage.msg) - 1,
			 p ? "the device is not on the board" : err.msg);
		note_failure(w, STAGE_PROBE, &stage);
		goto out;
	}
	dmamap_set_log_hook(p, on_log, w);
	dmamap_set_report_hook(p, on_report, w);
	tracer = dmamap__run_trace_start(pl, p, task);
	dmamap_debug_enable(p, true);
	if (pl->o->ownership)
		dmamap_debug_set_ownership(p, true);
	dmamap_sim_set_chaos(p, seed, 0);
	dmamap_sim_set_schedule(p, seed);
	dmamap__run_set_seed(seed);

	set_cur(w, &stage);
	ret = dmamap_device_attach(dev);
	if (ret != 1 && !stage.failed) {
		stage.failed = true;
		stage.where[0] = '\0'; /* the stage's name says it: "probe" */
		if (ret)
			snprintf(stage.msg, sizeof(stage.msg), "probe failed with error %d", ret);
		else if ((drv = dmamap__driver_match(dev)))
			/* As the kernel: "not my device" moves on, and no driver is left. */
			snprintf(stage.msg, sizeof(stage.msg),
				 "probe with driver %s declined the device (-ENODEV or -ENXIO)",
				 drv->driver.name);
		else
			snprintf(stage.msg, sizeof(stage.msg), "no registered driver matches the device");
	}
	if (stage.failed) {
		rec->probe_failed = 1;
		note_failure(w, STAGE_PROBE, &stage);
	}
	for (unsigned int i = 0; ret == 1 && i < pl->nr_tests; i++) {
		const struct dmamap_test *t = dmamap__run_test(i);
		struct test_outcome o;

		if (!t || !test_applies(pl, t, dev))
			continue;
		stage_begin(w, out, task, (int)i);
		set_cur(w, &o);
		dmamap__run_one(t, to_platform_device(dev), seed, &o);
		/* Let the devices finish what the test started: a late report is still its. */
		dmamap_sim_run_devices(p, 100000);
		set_cur(w, NULL);
		rec->ran[i / 8] |= (uint8_t)(1u << (i % 8));
		if (o.failed) {
			rec->tests_failed++;
			rec->failed[i / 8] |= (uint8_t)(1u << (i % 8));
			note_failure(w, (int)i, &o);
		}
	}
	stage_begin(w, out, task, (int)pl->nr_tests);
	memset(&stage, 0, sizeof(stage));
	set_cur(w, &stage);
	dmamap_device_release_driver(dev);
	dmamap_platform_destroy(p);
	p = NULL;
	dmamap__run_trace_stop(tracer);
	set_cur(w, NULL);
	if (stage.failed) {
		rec->remove_failed = 1;
		note_failure(w, (int)pl->nr_tests, &stage);
	}
	rec->status = rec->fail_stage == STAGE_NONE ? RUN_PASSED : RUN_FAILED;
out:
	if (p)
		dmamap_platform_destroy(p);
	dmamap__run_set_seed(0);
	snprintf(rec->log, sizeof(rec->log), "%s", w->log);
	send_all(out, rec, sizeof(*rec));
}

void dmamap__run_worker(const struct run_plan *pl, int in, int out)
{
	static struct worker w;
	uint32_t task;

	/* What tests print goes to stderr: stdout is the runner's report. */
	dup2(2, 1);
	signal(SIGPIPE, SIG_DFL);
	pthread_mutex_init(&w.lock, NULL);
	for (;;) {
		ssize_t n = read(in, &task, sizeof(task));

		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(task))
			break;
		run_task(pl, &w, out, task);
	}
	worker_exit(0);
}

const char *dmamap__run_kind(struct device *dev)
{
	struct dmamap_platform *p = dmamap_device_platform(dev);
	struct dmamap_device_info info;
	struct dmamap_ram_bank bank;

	if (dmamap_device_info(dev, &info))
		return "?";
	if (info.iommu[0])
		return "IOMMU";
	if (!strcmp(info.ops, "dmabounce") || info.restricted_pool_size ||
	    strstr(info.ops, "swiotlb"))
		return "bounced";
	/*
	 * Kmalloc memory it cannot reach is memory its mappings bounce from.
	 * That is the first bank: high memory above it holds only pages a
	 * driver asks for by name (__GFP_HIGHMEM).
	 */
	if (!dmamap_ram_bank(p, 0, &bank)) {
		phys_addr_t last = bank.start + bank.size - PAGE_SIZE;
		dma_addr_t a = dmamap_phys_to_dma(dev, bank.start), z = dmamap_phys_to_dma(dev, last);

		if (a == DMA_MAPPING_ERROR || z == DMA_MAPPING_ERROR ||
		    !dmamap_dma_capable(dev, a, PAGE_SIZE, true) ||
		    !dmamap_dma_capable(dev, z, PAGE_SIZE, true))
			return "bounced";
	}
	return info.coherent ? "coherent" : "non-coherent";
}
