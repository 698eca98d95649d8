/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the .dts path: the input is device tree source
 * (before the first NUL byte) and an include file it may pull in with
 * #include "inc.dtsi" or /include/ "inc.dtsi" (after it). The library
 * preprocesses it with cpp, compiles it with dtc, and reads the board
 * (dmamap_platform_from_file_opts(), with the scratch directory as an
 * include directory and, when the input asks, a --ram override).
 *
 * What must hold: a board is made, or refused with a negative errno and a
 * message; nothing crashes or hangs whatever cpp and dtc make of the text;
 * every temporary file is gone afterwards (TMPDIR is a directory of the
 * target's own, checked empty after each input); each board's destruction
 * gives back every mapping and memfd.
 *
 * Each input runs two programs, so this target is slow (tens of inputs a
 * second): it is for what the tools and the reader do with odd source,
 * while fdt_fuzz covers the reader at speed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <dmamap/dmamap.h>
#include <dmamap/of.h>
#include "fuzz.h"

static char scratch[64], tmpdir[80], main_dts[96], include[96];

static void once(void)
{
	static bool done;
	char dir[] = "/tmp/dmamap-dts-fuzz-XXXXXX";

	if (done)
		return;
	done = true;
	if (!mkdtemp(dir))
		abort();
	snprintf(scratch, sizeof(scratch), "%s", dir);
	snprintf(tmpdir, sizeof(tmpdir), "%s/tmp", dir);
	snprintf(main_dts, sizeof(main_dts), "%s/board.dts", dir);
	snprintf(include, sizeof(include), "%s/inc.dtsi", dir);
	/* A runaway source gives up well inside libFuzzer's timeout, with what it started. */
	if (mkdir(tmpdir, 0700) || setenv("TMPDIR", tmpdir, 1) ||
	    setenv("DMAMAP_DTS_TIMEOUT", "3", 1))
		abort();
	dmamap_set_log_hook(NULL, quiet_log, NULL);
}

static void write_file(const char *path, const uint8_t *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f))
		abort();
}

/* Whatever the library made in TMPDIR for this input must be gone. */
static void check_tmpdir_empty(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;

	if (!d)
		abort();
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			fprintf(stderr, "dts_fuzz: %s left in TMPDIR\n", e->d_name);
			abort();
		}
	}
	closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t main_len = nul ? (size_t)(nul - data) : size;
	struct dmamap_ram_bank ram = { 0x80000000ull, 16ull << 20 };
	const char *dirs[] = { scratch };
	struct dmamap_of_options opts = { .include_dirs = dirs, .nr_include_dirs = 1 };
	struct dmamap_error err = { 0 };
	struct dmamap__ledger before;
	struct dmamap_platform *p;

	once();
	write_file(main_dts, data, main_len);
	write_file(include, nul ? nul + 1 : data, nul ? size - main_len - 1 : 0);
	/* A source that names no memory itself may still make a board, as --ram does. */
	if (main_len && data[main_len - 1] == '\n') {
		opts.ram = &ram;
		opts.nr_ram = 1;
	}
	dmamap__ledger_read(&before);
	p = dmamap_platform_from_file_opts(main_dts, &opts, &err);
	if (p) {
		dmamap_set_log_hook(p, quiet_log, NULL);
		dmamap_platform_destroy(p);
	} else if (err.code >= 0 || !err.msg[0]) {
		abort(); /* refused without saying why */
	}
	ledger_back_to(&before);
	check_tmpdir_empty();
	return 0;
}
