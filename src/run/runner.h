/* SPDX-License-Identifier: MIT */
/*
 * The runner's private header: the registered tests, what a worker
 * process sends back about a run, and what the parent keeps of it.
 */
#ifndef DMAMAP_RUN_RUNNER_H
#define DMAMAP_RUN_RUNNER_H

#include <setjmp.h>
#include <dmamap/trace.h>
#include <dmamap/run.h>

#define RUN_MAX_TESTS 256
#define STAGE_PROBE (-1)
#define STAGE_NONE (-2)
/* The remove stage is numbered after the last test: nr_tests. */

/* ---- tests.c: the registry and the running test -------------------------------- */

/* Tests refused by dmamap_test_register() (a name taken, no room). */
unsigned int dmamap__run_register_failures(void);
unsigned int dmamap__run_nr_tests(void);
const struct dmamap_test *dmamap__run_test(unsigned int i);

/* The failure the running test (or stage) recorded, for the worker. */
struct test_outcome {
	bool failed;
	char where[96];
	char msg[512];
};

/*
 * Run @fn(@pdev) as the current test on this thread: an assertion jumps
 * back here. @seed is what dmamap_test_seed() says meanwhile.
 */
void dmamap__run_one(const struct dmamap_test *t, struct platform_device *pdev, uint64_t seed,
		     struct test_outcome *out);
void dmamap__run_set_seed(uint64_t seed);

/* ---- what a worker sends: a stage begins, or a run is done ------------------------ */

enum rec_type { REC_STAGE = 1, REC_DONE };

enum run_status {
	RUN_PASSED,
	RUN_FAILED,   /* a test, the probe or the remove failed, or a report came */
	RUN_CRASHED,  /* the worker died (a signal) */
	RUN_TIMEOUT,  /* a stage outlived the timeout; the worker was killed */
	RUN_BOARD,    /* the board could not be made, or the device is gone */
};

/* Fits in PIPE_BUF, so each write arrives whole. */
struct run_record {
	uint32_t type;
	uint32_t task;
	int32_t stage;       /* REC_STAGE: the stage beginning */
	uint32_t status;     /* REC_DONE: enum run_status */
	int32_t fail_stage;  /* the first stage that failed, or STAGE_NONE */
	uint32_t tests_failed;
	uint32_t msgs_len;
	uint8_t ran[RUN_MAX_TESTS / 8];    /* which tests ran */
	uint8_t failed[RUN_MAX_TESTS / 8]; /* which tests failed */
	uint8_t probe_failed, remove_failed;
	/* "STAGE\tWHERE\tTEXT\n" per failed stage, as much as fits. */
	char msgs[2048];
	/* The last log lines of the board, for the first failure's story. */
	char log[1600];
};

_Static_assert(sizeof(struct run_record) <= 4096, "a record must be one atomic pipe write");

/* ---- worker.c ------------------------------------------------------------------------ */

struct run_plan {
	const struct dmamap_run_options *o;
	const void *fdt;     /* the board's tree, or NULL: reopen by name */
	size_t fdt_size;
	unsigned int nr_devices;
	char (*devices)[DMAMAP_NAME_MAX];
	const char **kinds;  /* per device */
	uint64_t first, last;
	unsigned int timeout_s;
	unsigned int nr_tests; /* registered, before the --test filter */
	unsigned int nr_applied; /* those that apply to a planned device's driver (and --test) */
};

/* Task @task's device and seed: seed-major, so the first seeds finish first. */
static inline unsigned int plan_device(const struct run_plan *pl, unsigned long task)
{
	return (unsigned int)(task % pl->nr_devices);
}
static inline uint64_t plan_seed(const struct run_plan *pl, unsigned long task)
{
	return pl->first + task / pl->nr_devices;
}

/* A worker's life: read task numbers from @in, run each, write records to @out. */
void dmamap__run_worker(const struct run_plan *pl, int in, int out) __attribute__((noreturn));
/* A board as the plan says: NULL with the reason in @err. */
struct dmamap_platform *dmamap__run_board(const struct run_plan *pl, struct dmamap_error *err);
/* The kind of a device for the verdict table: "coherent", "non-coherent", "bounced", "IOMMU". */
const char *dmamap__run_kind(struct device *dev);

/* ---- trace_out.c: --trace and --trace-text ----------------------------------------------- */

struct run_tracer;
/* The run's trace hook on @p, writing its part files; NULL when not asked (or no memory). */
struct run_tracer *dmamap__run_trace_start(const struct run_plan *pl, struct dmamap_platform *p,
					   unsigned long task);
void dmamap__run_trace_stop(struct run_tracer *t);

/* ---- output.c ------------------------------------------------------------------------ */

struct run_result {
	uint8_t status;        /* enum run_status; RUN_PASSED until done */
	bool done;
	int32_t fail_stage;
	uint32_t tests_run;
	uint8_t ran[RUN_MAX_TESTS / 8];
	uint8_t failed[RUN_MAX_TESTS / 8];
	bool probe_failed, remove_failed;
	char *msgs;            /* failed runs: their record's msgs and log, joined */
	double seconds;
};

struct run_state {
	struct run_plan plan;
	unsigned long nr_tasks;
	struct run_result *results;
	unsigned long done, failed;
	unsigned long tap_n;
	double t0;
	FILE *out;
};

const char *dmamap__run_stage_name(const struct run_state *rs, int stage, char *buf, size_t len);
/* The record's message for @stage ("WHERE: TEXT"), or "" (msgs as the record keeps them). */
void dmamap__run_stage_msg(const char *msgs, int stage, char *buf, size_t len);
void dmamap__run_replay(const struct run_state *rs, unsigned long task, char *buf, size_t len);
void dmamap__run_emit_one(struct run_state *rs, unsigned long task);
void dmamap__run_emit_end(struct run_state *rs);
int dmamap__run_write_junit(const struct run_state *rs, const char *path);
/* The runs' trace parts joined into the files asked for: 0, or -1. */
int dmamap__run_trace_join(const struct run_state *rs);

#endif
