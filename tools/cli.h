/* SPDX-License-Identifier: MIT */
#ifndef DMAMAP_TOOLS_CLI_H
#define DMAMAP_TOOLS_CLI_H

#include <stdio.h>
#include <dmamap/dmamap.h>

/* A command: its name, its entry, one line about it, and its --help (NULL: it says its own). */
struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	const char *help;
};
const struct cli_command *cli_command(const char *name);
void cli_list_commands(FILE *f, const char *sep);
/* The overview: commands, boards. */
void cli_usage(FILE *f);
/* @name's help on stdout: 0; for no such command, the list on stderr: 2. */
int cli_help(const char *name);
void cli_version(void);

int cli_demo(int argc, char **argv);
int cli_nvme(int argc, char **argv);
struct gallery_bug;
/*
 * The media pipeline on @p: both allocations side by side (@bug NULL;
 * @brief: the two lines the main demo ends with), or @bug on the right one.
 * 0, or 1 when a frame came out wrong without a bug or the board has none.
 */
int cli_demo_pipeline(struct dmamap_platform *p, const char *board, const struct gallery_bug *bug,
		      uint64_t seed, bool json, bool brief);
int cli_info(int argc, char **argv);
int cli_explain(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_sweep(int argc, char **argv);
int cli_run(int argc, char **argv);

/*
 * @s as a number from @min to @max, the whole string: decimal or 0x hex,
 * no sign; with @size a K, M, G or T suffix multiplies by 2^10.. 2^40.
 * 0, or -1 for anything else (out of range, overflowing, trailing text).
 */
int cli_number(const char *s, u64 min, u64 max, bool size, u64 *out);

/* Where a command's board comes from, as its options say. */
struct cli_board {
	const char *name; /* built-in name, or a device tree file */
	const char *ram;  /* "START+SIZE,...": replaces the tree's /memory; NULL: keep */
	struct dmamap_ram_bank banks[DMAMAP_MAX_BANKS]; /* @ram, parsed */
	unsigned int nr_ram;
	unsigned int nr_includes, nr_overlays;
	const char *includes[16]; /* -I DIR: for a .dts's #include and /include/ */
	const char *overlays[16]; /* --overlay FILE: applied in order */
};
/*
 * Takes a board option at argv[*i] (--ram, -I DIR or -IDIR, --overlay):
 * 1 when it did (and moved *i past its value), 0 when argv[*i] is none,
 * -1 after saying on stderr what is wrong with it.
 */
int cli_board_option(struct cli_board *b, int argc, char **argv, int *i);
/*
 * The board: by built-in name, or a device tree file (name with a slash
 * or a .dts/.dtb/.dtbo suffix); NULL after saying why on stderr, with the
 * exit status in *@status: 2 for a usage error (no built-in board of that
 * name, file options on a built-in board), 1 for a file that did not make
 * a board.
 */
struct dmamap_platform *cli_open_board(const struct cli_board *b, int *status);
/* Whether cli_open_board() takes @name as a file ("-" included) rather than a built-in board. */
bool cli_board_is_file(const char *name);
/* @s as a quoted JSON string on stdout, escaped whole (NULL: null). */
void cli_json_write(const char *s);
/* @size in the largest unit that keeps it whole: "64 MiB", "4 KiB", "3 bytes". */
const char *cli_size_str(u64 size, char *out, size_t len);
/* The board's address map as an SVG picture in @path: 0, or 1 after saying why. */
int cli_info_svg(struct dmamap_platform *p, const char *path);
/* A log hook for boards whose reports the command sums up itself. */
void cli_drop_line(void *ctx, int level, const char *line);
/* Seconds of the monotonic clock. */
double cli_now_s(void);
/* One line saying which ops a device uses and why. */
void cli_describe_ops(struct device *dev, char *buf, size_t len);

#endif
