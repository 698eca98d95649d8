/* SPDX-License-Identifier: MIT */
/*
 * dmamap_run(): plan the runs (every device a registered driver would
 * bind, times every seed), hand them to worker processes, and collect
 * what they send. A worker that dies or outlives its stage's deadline
 * fails its run alone; a new worker takes its place.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <dmamap/dma-mapping.h>
#include "../driver/driver.h"
#include "../lib/lib.h"
#include "runner.h"
#include "../lib/mem.h"

#define MAX_JOBS 256

struct worker_slot {
	pid_t pid;
	int to, from;       /* task numbers out, records in */
	long task;          /* -1: idle */
	int stage;
	/* What the stages so far said, for a run the worker does not finish. */
	uint8_t ran[RUN_MAX_TESTS / 8];
	uint8_t failed[RUN_MAX_TESTS / 8];
	char msgs[sizeof(((struct run_record *)0)->msgs)];
	char log[sizeof(((struct run_record *)0)->log)];
	double deadline;
	double started;
	size_t got;         /* bytes of the record being read */
	struct run_record rec;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The devices a registered driver matches, and their kinds, from one board made here. */
static int plan_devices(struct run_plan *pl)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap__run_board(pl, &err);
	/* Which tests some planned device runs: the count the table's header gives. */
	bool applies[RUN_MAX_TESTS] = { false };
	const void *fdt;
	size_t size;
	unsigned int n;

	if (!p) {
		fprintf(stderr, "dmamap: %s", err.msg);
		/* A misspelt board: the names it could have been. */
		if (!strncmp(err.msg, "no built-in board", 17)) {
			fprintf(stderr, " (boards:");
			for (const char *const *b = dmamap_platform_builtin_names(); *b; b++)
				fprintf(stderr, " %s", *b);
			fprintf(stderr, "; or a device tree file: a path, or a .dts/.dtb name)");
		}
		fprintf(stderr, "\n");
		return -EINVAL;
	}
	fdt = dmamap_platform_fdt(p, &size);
	n = dmamap_device_count(p);
	pl->devices = dmamap__calloc(n ? n : 1, sizeof(*pl->devices));
	pl->kinds = dmamap__calloc(n ? n : 1, sizeof(*pl->kinds));
	pl->fdt = fdt ? dmamap__malloc(size) : NULL;
	if (!pl->devices || !pl->kinds || (fdt && !pl->fdt)) {
		dmamap_platform_destroy(p);
		return -ENOMEM;
	}
	if (fdt) {
		memcpy((void *)pl->fdt, fdt, size);
		pl->fdt_size = size;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct device *dev = dmamap_device_at(p, i);

		if (pl->o->device && strcmp(pl->o->device, dev_name(dev)))
			continue;
		const struct platform_driver *drv = dmamap__driver_match(dev);

		if (!drv)
			continue;
		for (unsigned int t = 0; t < pl->nr_tests; t++) {
			const struct dmamap_test *test = dmamap__run_test(t);

			if (test && (!pl->o->test || !strcmp(pl->o->test, test->name)) &&
			    (!test->driver || test->driver == drv))
				applies[t] = true;
		}
		snprintf(pl->devices[pl->nr_devices], DMAMAP_NAME_MAX, "%s", dev_name(dev));
		pl->kinds[pl->nr_devices++] = dmamap__run_kind(dev);
	}
	for (unsigned int t = 0; t < pl->nr_tests; t++)
		pl->nr_applied += applies[t];
	dmamap_platform_destroy(p);
	return pl->nr_devices ? 0 : -ENODEV;
}

/*
 * A worker must hold no pipe of another: a worker's end of the task pipe
 * left open in a sibling would keep it from ever seeing the end.
 */
static int spawn(struct run_state *rs, struct worker_slot *ws, unsigned int jobs,
		 struct worker_slot *w)
{
	int down[2], up[2];

	if (pipe(down))
		return -errno;
	if (pipe(up)) {
		close(down[0]);
		close(down[1]);
		return -errno;
	}
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0) {
		int ret = -errno;

		close(down[0]);
		close(down[1]);
		close(up[0]);
		close(up[1]);
		return ret;
	}
	if (!w->pid) {
#ifdef __linux__
		/* A hung worker must not outlive a runner that was killed. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
		close(down[1]);
		close(up[0]);
		for (unsigned int j = 0; j < jobs; j++) {
			if (&ws[j] == w || !ws[j].pid)
				continue;
			close(ws[j].to);
			close(ws[j].from);
		}
		dmamap__run_worker(&rs->plan, down[0], up[1]);
	}
	close(down[0]);
	close(up[1]);
	w->to = down[1];
	w->from = up[0];
	w->task = -1;
	w->got = 0;
	return 0;
}

/* The worker's end: *@sig its signal, or 0 and its exit status in *@code. */
static void reap(struct worker_slot *w, int *sig, int *code)
{
	int status = 0;

	close(w->to);
	close(w->from);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	*sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	*code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
	w->pid = 0;
}

static void finish(struct run_state *rs, unsigned long task, const struct run_record *rec,
		   double seconds)
{
	struct run_result *r = &rs->results[task];

	r->done = true;
	r->status = (uint8_t)rec->status;
	r->fail_stage = rec->fail_stage;
	r->tests_run = 0;
	for (unsigned int i = 0; i < RUN_MAX_TESTS; i++)
		r->tests_run += rec->ran[i / 8] >> (i % 8) & 1;
	r->seconds = seconds;
	memcpy(r->failed, rec->failed, sizeof(r->failed));
	memcpy(r->ran, rec->ran, sizeof(r->ran));
	r->probe_failed = rec->probe_failed;
	r->remove_failed = rec->remove_failed;
	if (rec->status != RUN_PASSED) {
		size_t ml = strnlen(rec->msgs, sizeof(rec->msgs));
		size_t ll = strnlen(rec->log, sizeof(rec->log));

		r->msgs = dmamap__malloc(ml + ll + 2);
		if (r->msgs) {
			memcpy(r->msgs, rec->msgs, ml);
			r->msgs[ml] = '\0';
			memcpy(r->msgs + ml + 1, rec->log, ll);
			r->msgs[ml + 1 + ll] = '\0';
		}
		rs->failed++;
	}
	rs->done++;
	dmamap__run_emit_one(rs, task);
}

/* A worker died or was killed in the middle of @w->task: its run fails with why. */
static void lost(struct run_state *rs, struct worker_slot *w, bool timed_out, int sig, int code)
{
	static struct run_record rec;
	char stage[64];
	size_t used, room;

	memset(&rec, 0, sizeof(rec));
	rec.type = REC_DONE;
	rec.task = (uint32_t)w->task;

	rec.status = timed_out ? RUN_TIMEOUT : RUN_CRASHED;
	rec.fail_stage = w->stage;
	memcpy(rec.ran, w->ran, sizeof(rec.ran));
	memcpy(rec.failed, w->failed, sizeof(rec.failed));
	if (w->stage == STAGE_PROBE) {
		rec.probe_failed = 1;
	} else if (w->stage >= (int)rs->plan.nr_tests) {
		rec.remove_failed = 1;
	} else {
		rec.ran[w->stage / 8] |= (uint8_t)(1u << (w->stage % 8));
		rec.failed[w->stage / 8] |= (uint8_t)(1u << (w->stage % 8));
	}
	dmamap__run_stage_name(rs, w->stage, stage, sizeof(stage));
	/* What the finished stages reported stays; the death is told after it. */
	memcpy(rec.msgs, w->msgs, sizeof(rec.msgs));
	memcpy(rec.log, w->log, sizeof(rec.log));
	/* The death line always fits: earlier messages give way to it. */
	used = MIN(strnlen(rec.msgs, sizeof(rec.msgs) - 1), sizeof(rec.msgs) - 256);
	while (used && rec.msgs[used - 1] != '\n')
		used--;
	room = sizeof(rec.msgs) - used;
	if (timed_out)
		snprintf(rec.msgs + used, room, "%d\ttimeout\t%s still running after %u s (killed)\n",
			 w->stage, stage, rs->plan.timeout_s);
	else if (sig)
		snprintf(rec.msgs + used, room, "%d\tcrash\tthe worker died in %s: %s\n", w->stage,
			 stage, strsignal(sig));
	else
		snprintf(rec.msgs + used, room,
			 "%d\tcrash\tthe worker died in %s: it exited with status %d\n", w->stage,
			 stage, code);
	finish(rs, (unsigned long)w->task, &rec, now_s() - w->started);
	w->task = -1;
}

static int collect(struct run_state *rs, struct worker_slot *w)
{
	ssize_t n = read(w->from, (char *)&w->rec + w->got, sizeof(w->rec) - w->got);

	if (n < 0 && errno == EINTR)
		return 0;
	if (n <= 0)
		return -1;
	w->got += (size_t)n;
	if (w->got < sizeof(w->rec))
		return 0;
	w->got = 0;
	if (w->rec.type == REC_STAGE && (long)w->rec.task == w->task) {
		w->stage = w->rec.stage;
		memcpy(w->ran, w->rec.ran, sizeof(w->ran));
		memcpy(w->failed, w->rec.failed, sizeof(w->failed));
		memcpy(w->msgs, w->rec.msgs, sizeof(w->msgs));
		memcpy(w->log, w->rec.log, sizeof(w->log));
		w->deadline = now_s() + rs->plan.timeout_s;
	} else if (w->rec.type == REC_DONE && (long)w->rec.task == w->task) {
		finish(rs, (unsigned long)w->task, &w->rec, now_s() - w->started);
		w->task = -1;
	}
	return 0;
}

static int give(struct run_state *rs, struct worker_slot *w, unsigned long task)
{
	uint32_t t = (uint32_t)task;
	sigset_t pipe_sig, old;
	const struct timespec now = { 0, 0 };
	ssize_t n;

	/*
	 * A worker that died between tasks must make this write fail, not
	 * kill the runner: SIGPIPE is held on this thread for the write and
	 * taken back if it came (the process's disposition stays the caller's).
	 */
	sigemptyset(&pipe_sig);
	sigaddset(&pipe_sig, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_sig, &old);
	n = write(w->to, &t, sizeof(t));
	if (n < 0 && errno == EPIPE)
		while (sigtimedwait(&pipe_sig, NULL, &now) < 0 && errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (n != (ssize_t)sizeof(t))
		return -1;
	w->task = (long)task;
	w->stage = STAGE_PROBE;
	memset(w->ran, 0, sizeof(w->ran));
	memset(w->failed, 0, sizeof(w->failed));
	w->msgs[0] = w->log[0] = '\0';
	w->started = now_s();
	w->deadline = w->started + rs->plan.timeout_s;
	return 0;
}

static int drive(struct run_state *rs, unsigned int jobs)
{
	struct worker_slot *ws = dmamap__calloc(jobs, sizeof(*ws));
	struct pollfd *pfd = dmamap__calloc(jobs, sizeof(*pfd));
	unsigned long next = 0;
	int ret = 0;

	if (!ws || !pfd) {
		free(ws);
		free(pfd);
		return -ENOMEM;
	}
	for (unsigned int j = 0; j < jobs && !ret; j++)
		ret = spawn(rs, ws, jobs, &ws[j]);
	while (!ret && rs->done < rs->nr_tasks) {
		double now = now_s(), first = now + 3600;
		int sig, code, wait_ms;

		for (unsigned int j = 0; j < jobs; j++) {
			if (!ws[j].pid && next < rs->nr_tasks && (ret = spawn(rs, ws, jobs, &ws[j])))
				break;
			if (ws[j].pid && ws[j].task < 0 && next < rs->nr_tasks &&
			    give(rs, &ws[j], next) == 0)
				next++;
			pfd[j].fd = ws[j].pid ? ws[j].from : -1;
			pfd[j].events = POLLIN;
			if (ws[j].pid && ws[j].task >= 0 && ws[j].deadline < first)
				first = ws[j].deadline;
		}
		if (ret)
			break;
		/* A deadline already past must not become a negative, endless wait. */
		wait_ms = first > now ? (int)((first - now) * 1000) + 1 : 0;
		if (poll(pfd, jobs, wait_ms) < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		now = now_s();
		for (unsigned int j = 0; j < jobs; j++) {
			struct worker_slot *w = &ws[j];

			if (!w->pid)
				continue;
			if ((pfd[j].revents & (POLLIN | POLLHUP | POLLERR)) && collect(rs, w)) {
				reap(w, &sig, &code);
				if (w->task >= 0)
					lost(rs, w, false, sig, code);
			} else if (w->task >= 0 && now > w->deadline) {
				kill(w->pid, SIGKILL);
				reap(w, &sig, &code);
				lost(rs, w, true, sig, code);
			}
		}
	}
	for (unsigned int j = 0; j < jobs; j++) {
		int sig, code;

		if (ws[j].pid)
			reap(&ws[j], &sig, &code);
	}
	free(ws);
	free(pfd);
	return ret;
}

/* A run of a suite missing a test, or of a test that does not exist, would pass for nothing. */
static int check_tests(const struct run_plan *pl)
{
	unsigned int refused = dmamap__run_register_failures();

	if (refused) {
		fprintf(stderr, "dmamap run: %u test%s could not be registered (a name used twice, "
			"or more than %d tests): not running a partial suite\n", refused,
			refused == 1 ? "" : "s", RUN_MAX_TESTS);
		return -EEXIST;
	}
	if (!pl->o->test)
		return 0;
	for (unsigned int t = 0; t < pl->nr_tests; t++)
		if (!strcmp(dmamap__run_test(t)->name, pl->o->test))
			return 0;
	fprintf(stderr, "dmamap run: no test is named '%s'; the tests are:", pl->o->test);
	for (unsigned int t = 0; t < pl->nr_tests; t++)
		fprintf(stderr, " %s", dmamap__run_test(t)->name);
	fprintf(stderr, "%s\n", pl->nr_tests ? "" : " (none)");
	return -ENOENT;
}

long dmamap_run(const struct dmamap_run_options *opts, struct dmamap_run_summary *sum)
{
	static const struct dmamap_run_options defaults;
	const struct dmamap_run_options *o = opts ? opts : &defaults;
	struct run_state rs = { 0 };
	struct run_plan *pl = &rs.plan;
	unsigned int jobs = o->jobs ? o->jobs : 1;
	int ret;

	if (sum)
		memset(sum, 0, sizeof(*sum));
	if (jobs > MAX_JOBS)
		return -EINVAL;
	pl->o = o;
	pl->first = o->first_seed ? o->first_seed : 1;
	pl->last = o->last_seed >= pl->first ? o->last_seed : pl->first;
	pl->timeout_s = o->timeout_s ? o->timeout_s : 10;
	pl->nr_tests = dmamap__run_nr_tests();
	if (pl->last - pl->first >= (1ULL << 31))
		return -EINVAL;
	rs.out = o->out ? o->out : stdout;
	rs.t0 = now_s();
	ret = check_tests(pl);
	if (!ret)
		ret = plan_devices(pl);
	if (!ret && (pl->last - pl->first + 1) * pl->nr_devices > UINT32_MAX)
		ret = -EINVAL;
	if (!ret) {
		rs.nr_tasks = (unsigned long)(pl->last - pl->first + 1) * pl->nr_devices;
		rs.results = dmamap__calloc(rs.nr_tasks, sizeof(*rs.results));
		if (!rs.results)
			ret = -ENOMEM;
	}
	if (!ret) {
		if (jobs > rs.nr_tasks)
			jobs = (unsigned int)rs.nr_tasks;
		if (o->format == DMAMAP_RUN_TAP)
			fprintf(rs.out, "TAP version 13\n1..%lu\n", rs.nr_tasks);
		ret = drive(&rs, jobs);
	}
	if (!ret) {
		dmamap__run_emit_end(&rs);
		if (o->junit && dmamap__run_write_junit(&rs, o->junit)) {
			fprintf(stderr, "dmamap: %s: cannot write: %s\n", o->junit, strerror(errno));
			ret = -EIO;
		}
		if (dmamap__run_trace_join(&rs))
			ret = -EIO;
	}
	if (sum && rs.results) {
		sum->runs = rs.nr_tasks;
		sum->failed = rs.failed;
		sum->devices = pl->nr_devices;
		sum->seconds = now_s() - rs.t0;
		for (unsigned long t = 0; t < rs.nr_tasks; t++) {
			sum->tests += rs.results[t].tests_run;
			for (unsigned int i = 0; i < pl->nr_tests; i++)
				sum->tests_failed += rs.results[t].failed[i / 8] >> (i % 8) & 1;
		}
	}
	for (unsigned long t = 0; rs.results && t < rs.nr_tasks; t++)
		free(rs.results[t].msgs);
	free(rs.results);
	free(pl->devices);
	free(pl->kinds);
	free((void *)pl->fdt);
	return ret ? ret : (long)rs.failed;
}
