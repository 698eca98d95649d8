/* SPDX-License-Identifier: MIT */
/*
 * .dts files as kernel trees write them: through the C preprocessor
 * (#include of a .dtsi, macros) and dtc, from any directory name; when a
 * tool fails, the error is its own words, with the file and line.
 */
#include <dirent.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../helpers.h"

static char dir[] = "/tmp/dmamap-dts-it's-XXXXXX";

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	REQUIRE(f);
	fputs(text, f);
	fclose(f);
}

static struct dmamap_platform *open_dts(const char *name, struct dmamap_error *err)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return dmamap_platform_from_file(path, err);
}

static void clean(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf \"%s\"", dir);
	CHECK(system(cmd) == 0);
}

TEST(of_dts_includes_and_macros_go_through_the_preprocessor)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	struct device *dev;

	need_dts_support();
	REQUIRE(mkdtemp(dir));
	put("soc.dtsi", "#define RAM_BASE 0x80000000\n"
			"#define DEV(addr) dma@addr\n"
			"/ { memory@80000000 { device_type = \"memory\"; reg = <RAM_BASE 0x8000000>; };\n"
			"    soc { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;\n"
			"          DEV(10000000) { compatible = \"dmamap,memcpy\"; reg = <0x10000000 0x1000>; }; }; };\n");
	put("board.dts", "/dts-v1/;\n#include \"soc.dtsi\"\n"
			 "/ { #address-cells = <1>; #size-cells = <1>; compatible = \"test,board\"; };\n");
	p = open_dts("board.dts", &err);
	CHECK_MSG(p, "%s", err.msg);
	dev = p ? dmamap_device_lookup(p, "dma@10000000") : NULL;
	CHECK(dev != NULL);
	if (p)
		dmamap_platform_destroy(p);
	clean();
}

TEST(of_dts_errors_are_the_tools_own_words)
{
	struct dmamap_error err = { 0 };

	need_dts_support();
	REQUIRE(mkdtemp(dir));
	put("syntax.dts", "/dts-v1/;\n/ { foo = <1 ; };\n");
	CHECK(!open_dts("syntax.dts", &err));
	CHECK_EQ(err.code, -ENOEXEC);
	CHECK_MSG(strstr(err.msg, "syntax.dts: dtc failed: ") && strstr(err.msg, "syntax.dts:2.") &&
		  strstr(err.msg, "syntax error"), "%s", err.msg);
	put("missing.dts", "/dts-v1/;\n#include <dt-bindings/gpio/gpio.h>\n/ { };\n");
	CHECK(!open_dts("missing.dts", &err));
	CHECK_MSG(strstr(err.msg, "missing.dts: the C preprocessor failed (dt-bindings come with the kernel: -I its include/): ") &&
		  strstr(err.msg, "missing.dts:2:") && strstr(err.msg, "dt-bindings/gpio/gpio.h") &&
		  !strchr(err.msg, '\n'), "%s", err.msg);
	clean();
}

/* The intermediate files go where TMPDIR says, as every tool's do, and are gone after. */
TEST(of_dts_temporary_files_honour_tmpdir)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	char tmp[300];
	const char *old = getenv("TMPDIR");
	char *saved = old ? strdup(old) : NULL;

	need_dts_support();
	REQUIRE(mkdtemp(dir));
	put("board.dts", "/dts-v1/;\n/ { #address-cells = <1>; #size-cells = <1>;\n"
			 "  memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; }; };\n");
	/* A TMPDIR that does not exist: nowhere to work, and it says so. */
	snprintf(tmp, sizeof(tmp), "%s/missing", dir);
	setenv("TMPDIR", tmp, 1);
	CHECK(!open_dts("board.dts", &err));
	CHECK_MSG(err.code == -EIO && strstr(err.msg, "cannot make a temporary file"), "%s", err.msg);
	/* One that exists: the board is read, and nothing is left in it. */
	snprintf(tmp, sizeof(tmp), "%s/tmp", dir);
	REQUIRE(mkdir(tmp, 0700) == 0);
	setenv("TMPDIR", tmp, 1);
	p = open_dts("board.dts", &err);
	CHECK_MSG(p, "%s", err.msg);
	dmamap_platform_destroy(p);
	{
		DIR *d = opendir(tmp);
		struct dirent *e;
		int left = 0;

		REQUIRE(d);
		while ((e = readdir(d)) != NULL)
			left += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
		closedir(d);
		CHECK_EQ(left, 0);
	}
	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
	clean();
}

/*
 * Source that includes itself twice over makes cpp grow without end: the
 * tool is stopped (DMAMAP_DTS_TIMEOUT, here 1 s), with what it started,
 * and the error says so (found by the .dts fuzzer: cc1 had grown to 16 GiB
 * after 12 minutes).
 */
TEST(of_dts_a_runaway_preprocessor_is_stopped)
{
	struct dmamap_error err = { 0 };
	struct timespec t0, t1;

	need_dts_support();
	REQUIRE(mkdtemp(dir));
	put("twice.dtsi", "/ { };\n#include \"twice.dtsi\"\n#include \"twice.dtsi\"\n");
	put("runaway.dts", "/dts-v1/;\n#include \"twice.dtsi\"\n/ { };\n");
	setenv("DMAMAP_DTS_TIMEOUT", "1", 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(!open_dts("runaway.dts", &err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	unsetenv("DMAMAP_DTS_TIMEOUT");
	CHECK_EQ(err.code, -ENOEXEC);
	CHECK_MSG(strstr(err.msg, "the C preprocessor failed") &&
		  strstr(err.msg, "stopped after 1 s (DMAMAP_DTS_TIMEOUT)"), "%s", err.msg);
	CHECK(t1.tv_sec - t0.tv_sec < 10);
	/* Nothing it started is left running: no process has this test's directory in its command line. */
	{
		DIR *procs = opendir("/proc");
		struct dirent *e;
		int left = 0;

		REQUIRE(procs);
		while ((e = readdir(procs)) != NULL) {
			char file[300], cmd[4096];
			FILE *f;
			size_t n;

			if (e->d_name[0] < '1' || e->d_name[0] > '9')
				continue;
			snprintf(file, sizeof(file), "/proc/%s/cmdline", e->d_name);
			f = fopen(file, "r");
			if (!f)
				continue;
			n = fread(cmd, 1, sizeof(cmd) - 1, f);
			fclose(f);
			for (size_t i = 0; i < n; i++)
				cmd[i] = cmd[i] ? cmd[i] : ' ';
			cmd[n] = '\0';
			left += strstr(cmd, dir) != NULL;
		}
		closedir(procs);
		CHECK_EQ(left, 0);
	}
	clean();
}

/*
 * The tools start with their limits already set, so that what they run
 * (cc1) has them too, and with nothing on standard input: a stand-in cpp
 * early on PATH says what it got.
 */
/*
 * Whether an address-space limit set here holds: qemu-user accepts
 * setrlimit(RLIMIT_AS) and keeps the host's, since the emulator itself
 * needs the space. Asked in a child, which exits 0 if the limit held.
 */
static bool address_limit_holds(void)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		struct rlimit r = { (rlim_t)1 << 30, (rlim_t)1 << 30 };
		struct rlimit back;

		_exit(setrlimit(RLIMIT_AS, &r) == 0 && getrlimit(RLIMIT_AS, &back) == 0 &&
		      back.rlim_cur == r.rlim_cur ? 0 : 1);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

TEST(of_dts_tools_start_limited_and_without_input)
{
	struct dmamap_error err = { 0 };
	char bin[300], path[4400];
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;

	need_dts_support();
	REQUIRE(mkdtemp(dir));
	snprintf(bin, sizeof(bin), "%s/bin", dir);
	REQUIRE(mkdir(bin, 0700) == 0);
	put("bin/cpp", "#!/bin/sh\n"
		       "if read -r line; then input=some; else input=none; fi\n"
		       "echo \"as=$(ulimit -v) fsize=$(ulimit -f) core=$(ulimit -c) input=$input\" >&2\n"
		       "exit 1\n");
	snprintf(path, sizeof(path), "%s/cpp", bin);
	REQUIRE(chmod(path, 0700) == 0);
	put("board.dts", "/dts-v1/;\n/ { };\n");
	snprintf(path, sizeof(path), "%s:%s", bin, old ? old : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	CHECK(!open_dts("board.dts", &err));
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	/* 2 GiB of address space in KiB, 256 MiB of file in 512-byte blocks. */
	if (address_limit_holds())
		CHECK_MSG(strstr(err.msg, "as=2097152 fsize=524288 core=0 input=none") != NULL, "%s",
			  err.msg);
	else
		printf("# this process's address-space limits do not hold (qemu-user): as= not checked\n");
	CHECK_MSG(strstr(err.msg, " fsize=524288 core=0 input=none") != NULL, "%s", err.msg);
	clean();
}

/* open_dts(@name) with PATH set to @path: NULL with *@err, or the board (destroyed here). */
static bool builds_with_path(const char *name, const char *path, struct dmamap_error *err)
{
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;
	struct dmamap_platform *p;

	setenv("PATH", path, 1);
	p = open_dts(name, err);
	if (saved)
		setenv("PATH", saved, 1);
	else
		unsetenv("PATH");
	free(saved);
	dmamap_platform_destroy(p);
	return p != NULL;
}

/*
 * A tool that is not installed is named with the package that has it,
 * whether it is not on PATH or the shell could not find it (exit 127);
 * an empty PATH searches the system's directories, as execvp() does, and
 * cpp found there still finds its cc1.
 */
TEST(of_dts_a_missing_tool_is_named_with_its_package)
{
	struct dmamap_error err = { 0 };
	char bin[300], file[400], path[4400];

	need_dts_support();
	REQUIRE(mkdtemp(dir));
	snprintf(bin, sizeof(bin), "%s/bin", dir);
	REQUIRE(mkdir(bin, 0700) == 0);
	put("board.dts", HEAD "};\n");

	CHECK(!builds_with_path("board.dts", bin, &err));
	CHECK_EQ(err.code, -ENOEXEC);
	CHECK_MSG(strstr(err.msg, "board.dts: cpp not found (install cpp)"), "%s", err.msg);

	/* A tool the shell runs but that cannot find what it runs: 127, as good as missing. */
	put("bin/cpp", "#!/bin/sh\nexit 127\n");
	snprintf(file, sizeof(file), "%s/cpp", bin);
	REQUIRE(chmod(file, 0700) == 0);
	memset(&err, 0, sizeof(err));
	CHECK(!builds_with_path("board.dts", bin, &err));
	CHECK_MSG(strstr(err.msg, "board.dts: cpp not found (install cpp)"), "%s", err.msg);

	/* The system's cpp, and a dtc that is missing in the same way. */
	REQUIRE(rename(file, strcat(strcpy(path, bin), "/dtc")) == 0);
	snprintf(path, sizeof(path), "%s:%s", bin, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	memset(&err, 0, sizeof(err));
	CHECK(!builds_with_path("board.dts", path, &err));
	CHECK_MSG(strstr(err.msg, "board.dts: dtc not found (install device-tree-compiler)"), "%s", err.msg);

	memset(&err, 0, sizeof(err));
	CHECK_MSG(builds_with_path("board.dts", "", &err), "%s", err.msg);
	clean();
}
