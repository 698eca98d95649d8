/* SPDX-License-Identifier: MIT */
/* The checker's reports recorded, and what a test asks of them. */
#include <stdarg.h>
#include "../helpers.h"

/* ---- the checker's reports, recorded ------------------------------------------------ */

struct report_record rec;
struct log_record logc;
struct dmamap_platform *cur_p;
unsigned long count_base[DMAMAP_DBG_KIND_COUNT];
unsigned int log_base;
bool check_log = true;

const char *kname(enum dmamap_dbg_kind k)
{
	const char *n = dmamap_dbg_kind_name(k);

	return n ? n : "(null)";
}

void rec_hook(void *ctx, const struct dmamap_report *r)
{
	(void)ctx;
	if (rec.n < REC_MAX)
		rec.r[rec.n] = *r;
	rec.n++;
}

void log_hook(void *ctx, int level, const char *line)
{
	(void)ctx;
	(void)level;
	if (logc.n < LOG_MAX)
		snprintf(logc.line[logc.n], sizeof(logc.line[0]), "%s", line);
	logc.n++;
}

const char *last_line(void)
{
	if (!logc.n)
		return "";
	return logc.line[(logc.n - 1) < LOG_MAX ? logc.n - 1 : LOG_MAX - 1];
}

void rec_reset(void)
{
	rec.n = 0;
	log_base = logc.n;
	for (unsigned int k = 0; k < DMAMAP_DBG_KIND_COUNT; k++)
		count_base[k] = cur_p ? dmamap_report_count(cur_p, (enum dmamap_dbg_kind)k) : 0;
}

struct dmamap_platform *checked(struct dmamap_platform *p)
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

struct dmamap_platform *sim_board(const char *name)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_builtin(name, &err);

	if (!p)
		printf("#   board %s: %d %s\n", name, err.code, err.msg);
	return checked(p);
}

struct dmamap_platform *host_board(void)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_host(&err);

	if (!p)
		printf("#   host platform: %d %s\n", err.code, err.msg);
	return checked(p);
}

void stop_checking(struct dmamap_platform *p)
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

void expect_kinds(const char *file, int line, bool ordered,
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

/* The text of the code of this binary (test and library, linked statically). */
extern char __executable_start[];
extern char etext[];

bool in_binary_text(const void *a)
{
	return (const char *)a >= __executable_start && (const char *)a < etext;
}

bool text_has(unsigned int i, const char *s)
{
	return i < rec.n && strstr(rec.r[i].text, s) != NULL;
}

bool text_has_addr(unsigned int i, dma_addr_t addr)
{
	const char *s;

	if (i >= rec.n)
		return false;
	for (s = strstr(rec.r[i].text, "0x"); s; s = strstr(s + 2, "0x"))
		if (strtoull(s + 2, NULL, 16) == addr)
			return true;
	return false;
}
