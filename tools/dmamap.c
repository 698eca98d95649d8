/* SPDX-License-Identifier: MIT */
/* dmamap: demo · info · explain · sweep · run · bench; help and version in help.c */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../src/lib/json.h"
#include "cli.h"

int cli_number(const char *s, u64 min, u64 max, bool size, u64 *out)
{
	static const char units[] = "KMGT";
	unsigned long long v;
	char *end;
	const char *u;

	if (!s || *s < '0' || *s > '9')
		return -1; /* no sign, no blank: strtoull would take "-1" as 2^64 - 1 */
	errno = 0;
	/* Decimal or 0x hex: a leading zero is not octal, "010" is ten as everywhere here. */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!isxdigit((unsigned char)s[2]))
			return -1; /* "0x", "0x-1", "0x 1" */
		v = strtoull(s + 2, &end, 16);
	} else {
		v = strtoull(s, &end, 10);
	}
	if (errno == ERANGE || end == s)
		return -1;
	if (size && *end && (u = strchr(units, *end)) != NULL) {
		unsigned int shift = 10 * (unsigned int)(u - units + 1);

		if (v > (~0ULL >> shift))
			return -1;
		v <<= shift;
		end++;
	}
	if (*end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* "START+SIZE[,START+SIZE...]": the RAM a .dts leaves to firmware; sizes may say K, M, G, T. */
static int parse_ram(const char *arg, struct dmamap_ram_bank *banks, unsigned int *nr)
{
	char item[128];

	*nr = 0;
	for (const char *s = arg; *s;) {
		size_t len = strcspn(s, ",");
		char *plus;
		u64 start, size;

		if (*nr == DMAMAP_MAX_BANKS || len >= sizeof(item))
			return -1;
		memcpy(item, s, len);
		item[len] = '\0';
		plus = strchr(item, '+');
		if (!plus)
			return -1;
		*plus = '\0';
		if (cli_number(item, 0, ~0ULL, true, &start) ||
		    cli_number(plus + 1, 1, ~0ULL, true, &size) || start + size - 1 < start)
			return -1;
		banks[*nr].start = start;
		banks[(*nr)++].size = size;
		s += len;
		if (*s == ',' && !*++s)
			return -1;
	}
	return *nr ? 0 : -1;
}

int cli_board_option(struct cli_board *b, int argc, char **argv, int *i)
{
	const char *arg = argv[*i], *value = NULL;
	bool include = !strncmp(arg, "-I", 2), overlay = !strcmp(arg, "--overlay");

	if (!include && !overlay && strcmp(arg, "--ram"))
		return 0;
	if (include && arg[2])
		value = arg + 2;
	else if (*i + 1 < argc)
		value = argv[++*i];
	if (!value) {
		fprintf(stderr, "dmamap: %s needs a value\n", arg);
		return -1;
	}
	if (!include && !overlay) {
		/* Checked here, with the other usage errors, before any board is built. */
		if (parse_ram(value, b->banks, &b->nr_ram)) {
			fprintf(stderr, "dmamap: --ram '%s': takes START+SIZE[,START+SIZE...], at most %d banks, sizes may end in K, M, G or T\n",
				value, DMAMAP_MAX_BANKS);
			return -1;
		}
		b->ram = value;
		return 1;
	}
	if ((include ? b->nr_includes : b->nr_overlays) == 16) {
		fprintf(stderr, "dmamap: more than 16 %s\n", include ? "-I directories" : "overlays");
		return -1;
	}
	if (include)
		b->includes[b->nr_includes++] = value;
	else
		b->overlays[b->nr_overlays++] = value;
	return 1;
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n > m && !strcmp(s + n - m, end);
}

bool cli_board_is_file(const char *name)
{
	/* A name with a slash or a device tree suffix is a file. */
	return strchr(name, '/') || ends_with(name, ".dts") || ends_with(name, ".dtb") ||
	       ends_with(name, ".dtbo") || !strcmp(name, "-");
}

struct dmamap_platform *cli_open_board(const struct cli_board *b, int *status)
{
	struct dmamap_of_options opts = { 0 };
	struct dmamap_error err = { 0 };
	const char *name = b->name;
	bool file = cli_board_is_file(name);
	struct dmamap_platform *p;

	*status = 2; /* the command line names no board, or misuses one */
	if (!file && (b->ram || b->nr_includes || b->nr_overlays)) {
		fprintf(stderr, "dmamap: --ram, -I and --overlay apply to a device tree file, not the built-in board %s\n",
			name);
		return NULL;
	}
	if (b->ram) {
		opts.ram = b->banks;
		opts.nr_ram = b->nr_ram;
	}
	opts.include_dirs = b->includes;
	opts.nr_include_dirs = b->nr_includes;
	opts.overlays = b->overlays;
	opts.nr_overlays = b->nr_overlays;
	p = file ? dmamap_platform_from_file_opts(name, &opts, &err) :
		   dmamap_platform_builtin(name, &err);
	if (!p && !file && (!err.msg[0] || strstr(err.msg, "no built-in board"))) {
		fprintf(stderr, "dmamap: no built-in board named '%s' (boards:", name);
		for (const char *const *n = dmamap_platform_builtin_names(); *n; n++)
			fprintf(stderr, " %s", *n);
		fprintf(stderr, "; or a device tree file: a path, or a .dts/.dtb name)\n");
	} else if (!p) {
		fprintf(stderr, "dmamap: %s\n", err.msg);
		*status = 1;
	}
	return p;
}

/* Names come from the tree and from file names: the library's one JSON writer. */
void cli_json_write(const char *s)
{
	dmamap__json_write(stdout, s);
}

const char *cli_size_str(u64 size, char *out, size_t len)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;

	while (u < 4 && size >= 1024 && !(size & 1023)) {
		size >>= 10;
		u++;
	}
	snprintf(out, len, "%llu %s", (unsigned long long)size, unit[u]);
	return out;
}

void cli_drop_line(void *ctx, int level, const char *line)
{
	(void)ctx;
	(void)level;
	(void)line;
}

double cli_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void cli_describe_ops(struct device *dev, char *buf, size_t len)
{
	const struct dma_map_ops *ops = get_dma_ops(dev);
	u64 limit = dmamap_bus_dma_limit(dev);
	struct dmamap_ram_bank ram;
	char win[128] = "";

	if (limit)
		snprintf(win, sizeof(win), ", bus limit 0x%llx", (unsigned long long)limit);
	/* Where the device sees the start of RAM, when its bus moves it (dma-ranges). */
	if (!dmamap_ram_bank(dmamap_device_platform(dev), 0, &ram)) {
		dma_addr_t seen = dmamap_phys_to_dma(dev, ram.start);

		if (seen != DMA_MAPPING_ERROR && seen != ram.start)
			snprintf(win + strlen(win), sizeof(win) - strlen(win),
				 ", RAM 0x%llx seen at 0x%llx", (unsigned long long)ram.start,
				 (unsigned long long)seen);
	}
	snprintf(buf, len, "%s (%s%s, mask 0x%llx)", ops->name ? ops->name : "?",
		 dev_is_dma_coherent(dev) ? "coherent: snoops the CPU cache" :
					    "non-coherent: clean/invalidate around DMA",
		 win, (unsigned long long)dma_get_mask(dev));
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

/* What the command printed reached its reader: a full disk or a closed pipe is a failure. */
static int stdout_written(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "dmamap: standard output: %s\n", strerror(errno ? errno : EIO));
		return status ? status : 1;
	}
	return status;
}

static int run_command(int argc, char **argv)
{
	const struct cli_command *c;

	if (argc < 2) {
		cli_usage(stderr);
		return 2;
	}
	/* "help X", "-h X" and "--help X" all mean X's help. */
	if (is_help(argv[1]) || !strcmp(argv[1], "help"))
		return argc > 2 ? cli_help(argv[2]) : (cli_usage(stdout), 0);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		cli_version();
		return 0;
	}
	c = cli_command(argv[1]);
	if (!c) {
		fprintf(stderr, "dmamap: unknown %s '%s' (commands: ",
			argv[1][0] == '-' ? "option" : "command", argv[1]);
		cli_list_commands(stderr, ", ");
		fprintf(stderr, "; options: --help, --version; dmamap --help)\n");
		return 2;
	}
	/* COMMAND --help, wherever it stands. */
	for (int i = 2; i < argc && c->help; i++)
		if (is_help(argv[i]))
			return cli_help(c->name);
	return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	return stdout_written(run_command(argc, argv));
}
