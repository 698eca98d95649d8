/* SPDX-License-Identifier: MIT */
/*
 * Where reports go: the log line's form, the per-device filter and the
 * print limit (which limit the log, never the counts or the hook), the
 * report hook with and without a hook installed, and strict mode calling
 * the hook before it aborts.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked(), checked_scene()) and calls dma_mapping_error() on
 * every handle it maps, else it would also get MAP_ERR_NOT_CHECKED;
 * device-writable mappings on non-coherent devices use line-aligned buffers,
 * else MAP_UNALIGNED; except where that is the mistake under test.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../helpers.h"

/* Unmap an address of @dev that was never mapped: one NOT_MAPPED report. */
static void not_mapped_on(struct device *dev, uint8_t *buf)
{
	dma_unmap_single(dev, dmamap_phys_to_dma(dev, virt_to_phys(buf)), 64,
			 DMA_TO_DEVICE);
}

TEST(checker_filter)
{
	char tag[96], prefix[600];
	struct device *d32;
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 256));
	d32 = lookup(s.p, D32);
	REQUIRE(d32);

	/* The line: "DMA-API: <dev>: <text> [<kind>]". */
	not_mapped_on(s.dev, s.buf);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	snprintf(prefix, sizeof(prefix), "DMA-API: %s: %s", NC, rec.r[0].text);
	snprintf(tag, sizeof(tag), " [%s]", kname(DMAMAP_DBG_NOT_MAPPED));
	CHECK_MSG(!strncmp(last_line(), prefix, strlen(prefix)), "line '%s', text '%s'",
		  last_line(), rec.r[0].text);
	CHECK_MSG(strlen(last_line()) > strlen(tag) &&
			  !strcmp(last_line() + strlen(last_line()) - strlen(tag), tag),
		  "line '%s' does not end in '%s'", last_line(), tag);

	CHECK_EQ(dmamap_debug_set_filter(s.p, NC), 0);
	check_log = false;
	rec_reset();
	not_mapped_on(s.dev, s.buf);
	not_mapped_on(d32, s.buf);
	not_mapped_on(s.dev, s.buf);
	/* Logged: dma-nc's two. Counted and hooked: all three. */
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_NOT_MAPPED);
	CHECK_EQ(logc.n - log_base, 2);
	for (unsigned int i = log_base; i < logc.n && i < LOG_MAX; i++)
		CHECK_MSG(strstr(logc.line[i], "DMA-API: dma-nc: ") == logc.line[i],
			  "filtered log has '%s'", logc.line[i]);
	CHECK(!strcmp(rec.r[1].device, D32));

	/* NULL: every device again. */
	CHECK_EQ(dmamap_debug_set_filter(s.p, NULL), 0);
	check_log = true;
	rec_reset();
	not_mapped_on(d32, s.buf);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	CHECK_MSG(strstr(last_line(), D32) != NULL, "'%s'", last_line());

	/* Bad arguments. */
	{
		char longname[DMAMAP_NAME_MAX + 8];

		memset(longname, 'n', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = 0;
		CHECK_EQ(dmamap_debug_set_filter(s.p, longname), -EINVAL);
		CHECK_EQ(dmamap_debug_set_filter(NULL, NC), -EINVAL);
	}
	scene_end_clean(&s);
}

TEST(checker_print_limit)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 256));
	dmamap_debug_set_print_limit(s.p, 2);
	check_log = false;
	for (int i = 0; i < 5; i++)
		not_mapped_on(s.dev, s.buf);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_NOT_MAPPED,
		     DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_NOT_MAPPED);
	CHECK_EQ(logc.n - log_base, 2);
	CHECK_EQ(dmamap_report_count(s.p, DMAMAP_DBG_NOT_MAPPED), 5);
	/* 0: no limit. */
	dmamap_debug_set_print_limit(s.p, 0);
	rec_reset();
	not_mapped_on(s.dev, s.buf);
	not_mapped_on(s.dev, s.buf);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_NOT_MAPPED);
	CHECK_EQ(logc.n - log_base, 2);
	check_log = true;
	scene_end_clean(&s);
}

TEST(checker_report_hook)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 512) && scene_map(&s, 512, DMA_FROM_DEVICE));
	dma_unmap_single(s.dev, s.h, 512, DMA_BIDIRECTIONAL);
	EXPECT_REPORT_AT(DMAMAP_DBG_WRONG_DIRECTION, s.h);
	CHECK_EQ(rec.r[0].kind, DMAMAP_DBG_WRONG_DIRECTION);
	CHECK(!strcmp(rec.r[0].device, NC));
	CHECK_EQ(rec.r[0].size, 512);
	CHECK_EQ(rec.r[0].direction, DMA_FROM_DEVICE);
	CHECK(rec.r[0].text[0] != 0);
	CHECK(memchr(rec.r[0].text, 0, sizeof(rec.r[0].text)) != NULL);
	/* Unhooked: counted and logged, not delivered. */
	dmamap_set_report_hook(s.p, NULL, NULL);
	rec_reset();
	not_mapped_on(s.dev, s.buf);
	CHECK_EQ(rec.n, 0);
	CHECK_EQ(dmamap_report_count(s.p, DMAMAP_DBG_NOT_MAPPED) -
			 count_base[DMAMAP_DBG_NOT_MAPPED], 1);
	CHECK_EQ(logc.n - log_base, 1);
	dmamap_set_report_hook(s.p, rec_hook, NULL);
	scene_end_clean(&s);
}

static int hook_fd = -1;

static void pipe_hook(void *ctx, const struct dmamap_report *r)
{
	int k = (int)r->kind;

	(void)ctx;
	if (write(hook_fd, &k, sizeof(k)) != (ssize_t)sizeof(k))
		_exit(3);
}

TEST(checker_strict_calls_hook_before_abort)
{
	int fds[2], status = 0, k = 0;
	pid_t pid;

	REQUIRE(pipe(fds) == 0);
	fflush(stdout);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct dmamap_platform *p;
		struct device *dev;
		uint8_t *buf;

		signal(SIGABRT, SIG_DFL);
		if (!freopen("/dev/null", "w", stderr)) /* the abort message */
			_exit(2);
		close(fds[0]);
		hook_fd = fds[1];
		p = sim_board("default");
		if (!p)
			_exit(2);
		dmamap_set_report_hook(p, pipe_hook, NULL);
		dmamap_set_strict(p, true);
		dev = dmamap_device_lookup(p, NC);
		buf = dbuf(p, 256);
		if (!dev || !buf)
			_exit(2);
		not_mapped_on(dev, buf);
		_exit(0); /* strict mode should not get here */
	}
	close(fds[1]);
	CHECK_EQ(read(fds[0], &k, sizeof(k)), (ssize_t)sizeof(k));
	close(fds[0]);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		  "child did not abort (status 0x%x)", status);
	CHECK_EQ(k, DMAMAP_DBG_NOT_MAPPED);
}
