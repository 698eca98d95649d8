/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the checker tests (test_checker.c): a report hook that records
 * every report, a log hook that keeps the lines, exact assertions on the
 * list of kinds seen, and a small JSON validator for dmamap_report_json().
 *
 * The usual pattern: p = checked(board); make one mistake; EXPECT_KINDS(k)
 * asserts that the reports since the last rec_reset() are exactly [k], and
 * that the platform's counters and the log agree with the hook.
 */
#ifndef DMAMAP_TESTS_CHECKER_HELPERS_H
#define DMAMAP_TESTS_CHECKER_HELPERS_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "tap.h"

#define REC_MAX 256
#define LOG_MAX 64

static struct {
	unsigned int n; /* reports seen (may exceed REC_MAX) */
	struct dmamap_report r[REC_MAX];
} rec;

static struct {
	unsigned int n; /* lines seen */
	char line[LOG_MAX][512];
} logc;

/* Counters of the platform being checked at the last rec_reset(). */
static struct dmamap_platform *cur_p;
static unsigned long count_base[DMAMAP_DBG_KIND_COUNT];
static unsigned int log_base;
/* Whether EXPECT_* also checks one log line per report (no filter, no limit). */
static bool check_log = true;

static const char *kname(enum dmamap_dbg_kind k)
{
	const char *n = dmamap_dbg_kind_name(k);

	return n ? n : "(null)";
}

static void rec_hook(void *ctx, const struct dmamap_report *r)
{
	(void)ctx;
	if (rec.n < REC_MAX)
		rec.r[rec.n] = *r;
	rec.n++;
}

static void log_hook(void *ctx, int level, const char *line)
{
	(void)ctx;
	(void)level;
	if (logc.n < LOG_MAX)
		snprintf(logc.line[logc.n], sizeof(logc.line[0]), "%s", line);
	logc.n++;
}

static const char *last_line(void)
{
	if (!logc.n)
		return "";
	return logc.line[(logc.n - 1) < LOG_MAX ? logc.n - 1 : LOG_MAX - 1];
}

/* Forget what was recorded; counts and log lines are compared from here on. */
static void rec_reset(void)
{
	rec.n = 0;
	log_base = logc.n;
	for (unsigned int k = 0; k < DMAMAP_DBG_KIND_COUNT; k++)
		count_base[k] = cur_p ? dmamap_report_count(cur_p, (enum dmamap_dbg_kind)k) : 0;
}

/* Hooks on, checker on, recorder empty. */
static struct dmamap_platform *checked(struct dmamap_platform *p)
{
	if (!p)
		return NULL;
	dmamap_set_log_hook(p, log_hook, NULL);
	dmamap_set_report_hook(p, rec_hook, NULL);
	dmamap_debug_enable(p, true);
	cur_p = p;
	rec_reset();
	return p;
}

static struct dmamap_platform *sim_board(const char *name)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_builtin(name, &err);

	if (!p)
		printf("#   board %s: %d %s\n", name, err.code, err.msg);
	return checked(p);
}

static struct dmamap_platform *host_board(void)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_host(&err);

	if (!p)
		printf("#   host platform: %d %s\n", err.code, err.msg);
	return checked(p);
}

static struct device *new_device(struct dmamap_platform *p,
				 const struct dmamap_device_desc *d)
{
	struct dmamap_error err = { 0 };
	struct device *dev = dmamap_device_create(p, d, &err);

	if (!dev)
		printf("#   device %s: %d %s\n", d->name, err.code, err.msg);
	return dev;
}

/*
 * For cleanups whose reports the contract leaves open (what the checker does
 * with an entry after a mismatched unmap or a rejected free): stop checking
 * and recording. Turning the checker off forgets every entry.
 */
static void stop_checking(struct dmamap_platform *p)
{
	dmamap_debug_enable(p, false);
	dmamap_set_report_hook(p, NULL, NULL);
}

static void dump_reports(void)
{
	for (unsigned int i = 0; i < rec.n && i < REC_MAX; i++)
		printf("#     report %u: %s dev='%s' addr=0x%llx size=%llu dir=%d at=%p: %s\n",
		       i, kname(rec.r[i].kind), rec.r[i].device,
		       (unsigned long long)rec.r[i].addr,
		       (unsigned long long)rec.r[i].size, rec.r[i].direction,
		       rec.r[i].mapped_at, rec.r[i].text);
}

/*
 * The reports since rec_reset() are exactly @want (in this order when
 * @ordered, else as a multiset); the platform's counters grew by exactly
 * those; and (check_log) one log line each, naming the kind.
 */
static void expect_kinds(const char *file, int line, bool ordered,
			 const enum dmamap_dbg_kind *want, unsigned int nwant)
{
	bool ok = rec.n == nwant;
	bool used[REC_MAX] = { false };

	for (unsigned int i = 0; ok && i < nwant; i++) {
		if (ordered) {
			ok = rec.r[i].kind == want[i];
			continue;
		}
		ok = false;
		for (unsigned int j = 0; j < rec.n; j++) {
			if (!used[j] && rec.r[j].kind == want[i]) {
				used[j] = ok = true;
				break;
			}
		}
	}
	if (!ok) {
		char got[1024] = "", exp[1024] = "";

		for (unsigned int i = 0; i < rec.n && i < REC_MAX; i++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
				 i ? ", " : "", kname(rec.r[i].kind));
		for (unsigned int i = 0; i < nwant; i++)
			snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), "%s%s",
				 i ? ", " : "", kname(want[i]));
		tap_fail(file, line, "reports [%s], expected %s[%s]", got,
			 ordered ? "" : "in any order ", exp);
		dump_reports();
		return;
	}
	if (cur_p) {
		for (unsigned int k = 1; k < DMAMAP_DBG_KIND_COUNT; k++) {
			unsigned long n = 0, c;

			for (unsigned int i = 0; i < nwant; i++)
				n += want[i] == k;
			c = dmamap_report_count(cur_p, (enum dmamap_dbg_kind)k) - count_base[k];
			if (c != n)
				tap_fail(file, line, "dmamap_report_count(%s) grew by %lu, the hook saw %lu",
					 kname((enum dmamap_dbg_kind)k), c, n);
		}
	}
	if (check_log) {
		if (logc.n - log_base != nwant)
			tap_fail(file, line, "%u log lines for %u reports", logc.n - log_base,
				 nwant);
		for (unsigned int i = log_base; i < logc.n && i < LOG_MAX; i++) {
			char tag[96];

			snprintf(tag, sizeof(tag), "[%s]",
				 kname(rec.r[i - log_base < REC_MAX ? i - log_base : 0].kind));
			if (strncmp(logc.line[i], "DMA-API: ", 9) || !strstr(logc.line[i], tag))
				tap_fail(file, line, "log line '%s' is not 'DMA-API: ... %s'",
					 logc.line[i], tag);
		}
	}
}

#define KINDS_(...)                                                           \
	((const enum dmamap_dbg_kind[]){ __VA_ARGS__ }),                      \
	(unsigned int)(sizeof((const enum dmamap_dbg_kind[]){ __VA_ARGS__ }) / \
		       sizeof(enum dmamap_dbg_kind))
/* Exactly these kinds, in this order, since rec_reset(). */
#define EXPECT_KINDS(...) expect_kinds(__FILE__, __LINE__, true, KINDS_(__VA_ARGS__))
/* Exactly these kinds, in any order, since rec_reset(). */
#define EXPECT_KINDS_ANY_ORDER(...)                                           \
	expect_kinds(__FILE__, __LINE__, false, KINDS_(__VA_ARGS__))
/* No report at all since rec_reset(). */
#define EXPECT_NO_REPORTS() expect_kinds(__FILE__, __LINE__, true, NULL, 0)

/* Destroy @p; nothing may be reported (no leak). */
#define DESTROY_CLEAN(p)                                                      \
	do {                                                                  \
		cur_p = NULL;                                                 \
		rec_reset();                                                  \
		dmamap_platform_destroy(p);                                   \
		EXPECT_NO_REPORTS();                                          \
	} while (0)

/* The text of the code of this binary (test and library, linked statically). */
extern char __executable_start[];
extern char etext[];

static bool in_binary_text(const void *a)
{
	return (const char *)a >= __executable_start && (const char *)a < etext;
}

/* Report @i is about a tracked entry: where it was mapped is known. */
#define CHECK_TRACKED(i)                                                      \
	CHECK_MSG((i) < rec.n && rec.r[i].mapped_at &&                        \
			  in_binary_text(rec.r[i].mapped_at),                 \
		  "report %d: mapped_at %p is not code of this binary", (int)(i), \
		  (i) < rec.n ? rec.r[i].mapped_at : NULL)

static bool text_has(unsigned int i, const char *s)
{
	return i < rec.n && strstr(rec.r[i].text, s) != NULL;
}

/* Does report @i's text name @addr as a hex number (0x..., any padding)? */
static bool text_has_addr(unsigned int i, dma_addr_t addr)
{
	const char *s;

	if (i >= rec.n)
		return false;
	for (s = strstr(rec.r[i].text, "0x"); s; s = strstr(s + 2, "0x"))
		if (strtoull(s + 2, NULL, 16) == addr)
			return true;
	return false;
}

/* ---- a strict, minimal JSON validator ------------------------------------- */

static const char *js_value(const char *s, int depth);

static const char *js_ws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return s;
}

static const char *js_string(const char *s)
{
	if (*s++ != '"')
		return NULL;
	while (*s != '"') {
		if (!*s || (unsigned char)*s < 0x20)
			return NULL;
		if (*s == '\\') {
			s++;
			if (*s == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
						return NULL;
				s += 4;
			} else if (!*s || !strchr("\"\\/bfnrt", *s)) {
				return NULL;
			}
		}
		s++;
	}
	return s + 1;
}

static const char *js_digits(const char *s)
{
	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

static const char *js_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (!(s = js_digits(s)))
		return NULL;
	if (*s == '.' && !(s = js_digits(s + 1)))
		return NULL;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(s = js_digits(s)))
			return NULL;
	}
	return s;
}

static const char *js_value(const char *s, int depth)
{
	char close;

	s = js_ws(s);
	if (depth > 16)
		return NULL;
	if (*s == '"')
		return js_string(s);
	if (!strncmp(s, "true", 4))
		return s + 4;
	if (!strncmp(s, "false", 5))
		return s + 5;
	if (!strncmp(s, "null", 4))
		return s + 4;
	if (*s != '{' && *s != '[')
		return js_number(s);
	close = *s == '{' ? '}' : ']';
	s = js_ws(s + 1);
	if (*s == close)
		return s + 1;
	for (;;) {
		if (close == '}') {
			if (!(s = js_string(js_ws(s))))
				return NULL;
			s = js_ws(s);
			if (*s++ != ':')
				return NULL;
		}
		if (!(s = js_value(s, depth + 1)))
			return NULL;
		s = js_ws(s);
		if (*s == close)
			return s + 1;
		if (*s++ != ',')
			return NULL;
	}
}

static bool json_valid_object(const char *s)
{
	s = js_ws(s);
	if (*s != '{')
		return false;
	s = js_value(s, 0);
	return s && !*js_ws(s);
}

#endif
