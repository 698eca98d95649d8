/* SPDX-License-Identifier: MIT */
/*
 * A .dts source to a blob, as the kernel's build makes one: the C
 * preprocessor first (kernel trees #include their .dtsi files and
 * dt-bindings headers, and use their macros), then dtc. The tools run
 * without a shell, so any file name works, and what they print on error
 * is what the caller is told.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../lib/lib.h"
#include "../lib/log.h"
#include "of.h"

extern char **environ;

/*
 * What one tool may take: a kernel tree's largest .dts goes through in
 * well under a second and a few hundred MiB, while source that includes
 * itself twice over makes cpp grow without end. DMAMAP_DTS_TIMEOUT (whole
 * seconds) overrides the time.
 */
#define TOOL_SECONDS 60
#define TOOL_MEMORY (2ull << 30)
#define TOOL_FILE_BYTES (256ull << 20) /* its output, and its messages */
#define MAX_INCLUDES 16
/* A tool's arguments: its fixed ones, and a pair per include directory. */
#define MAX_TOOL_ARGS (16 + 2 * MAX_INCLUDES)

static unsigned int tool_seconds(void)
{
	const char *v = getenv("DMAMAP_DTS_TIMEOUT");
	char *end;
	unsigned long n;

	if (!v || *v < '1' || *v > '9')
		return TOOL_SECONDS;
	n = strtoul(v, &end, 10);
	return *end || n > 86400 ? TOOL_SECONDS : (unsigned int)n;
}

/*
 * Kill the tool's process group and wait (2 s at most) until its last
 * member is gone: what it started (cc1) is not our child, and dies on its
 * own time after the signal, so a caller could otherwise still see it.
 */
static void kill_group(pid_t pid)
{
	struct timespec nap = { 0, 1000000 };

	kill(-pid, SIGKILL);
	for (int i = 0; i < 2000 && kill(-pid, 0) == 0; i++)
		nanosleep(&nap, NULL);
}

/* Stop the tool and whatever it started; its error file says why instead of what it printed. */
static void kill_tool(pid_t pid, const char *errfile, unsigned int seconds)
{
	int fd, status;
	char note[96];

	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	kill_group(pid);
	fd = open(errfile, O_WRONLY | O_TRUNC);
	if (fd >= 0) {
		int n = snprintf(note, sizeof(note), "stopped after %u s (DMAMAP_DTS_TIMEOUT)\n",
				 seconds);

		if (write(fd, note, (size_t)n) < 0)
			n = 0; /* the message is all that is lost */
		close(fd);
	}
}

/* @name as execvp() would find it, in @path (@len bytes): 0, or -ENOENT. */
static int find_tool(const char *name, char *path, size_t len)
{
	const char *dirs = getenv("PATH");

	if (strchr(name, '/'))
		return snprintf(path, len, "%s", name) < (int)len && !access(path, X_OK) ? 0 : -ENOENT;
	if (!dirs || !*dirs)
		dirs = "/usr/local/bin:/usr/bin:/bin";
	for (const char *d = dirs; *d;) {
		size_t n = strcspn(d, ":");
		int w = snprintf(path, len, "%.*s%s%s", (int)n, d, n ? "/" : "", name);

		if (w > 0 && (size_t)w < len && !access(path, X_OK))
			return 0;
		d += n + (d[n] == ':');
	}
	return -ENOENT;
}

/*
 * Runs @argv with stderr into @errfile and no standard input, in a process
 * group of its own (cpp runs cc1), with its limits set before it starts so
 * that whatever it runs inherits them; 0 when it exited with 0, else
 * -ENOENT when the tool is missing, -ENOEXEC when it failed or was stopped.
 * The child only makes system calls between fork() and execve(): the
 * caller may have threads.
 */
static int run_tool(char *const argv[], const char *errfile)
{
	const struct rlimit mem = { TOOL_MEMORY, TOOL_MEMORY };
	const struct rlimit file = { TOOL_FILE_BYTES, TOOL_FILE_BYTES };
	const struct rlimit core = { 0, 0 };
	unsigned int seconds = tool_seconds();
	struct timespec start, now, nap = { 0, 1000000 };
	char path[4096], *args[MAX_TOOL_ARGS + 1];
	pid_t pid, done;
	int status, err, null;
	size_t n = 0;

	if (find_tool(argv[0], path, sizeof(path)))
		return -ENOENT;
	/* gcc's driver finds cc1 through its own argv[0]: a bare name only through PATH, which may not say. */
	args[n++] = path;
	for (; n < MAX_TOOL_ARGS && argv[n]; n++)
		args[n] = argv[n];
	args[n] = NULL;
	err = open(errfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (err < 0 || null < 0) {
		if (err >= 0)
			close(err);
		if (null >= 0)
			close(null);
		return -ENOEXEC;
	}
	pid = fork();
	if (pid == 0) {
		/* Killed with the caller (cc1, the tool's own child, is stopped by the group kill). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (setpgid(0, 0) || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(err, 2) < 0 ||
		    setrlimit(RLIMIT_AS, &mem) || setrlimit(RLIMIT_FSIZE, &file) ||
		    setrlimit(RLIMIT_CORE, &core))
			_exit(126);
		execve(path, args, environ);
		_exit(127);
	}
	close(err);
	close(null);
	if (pid < 0)
		return -ENOEXEC;
	clock_gettime(CLOCK_MONOTONIC, &start);
	while ((done = waitpid(pid, &status, WNOHANG)) == 0 || (done < 0 && errno == EINTR)) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - start.tv_sec) * 1000000000LL + (now.tv_nsec - start.tv_nsec) >=
		    (long long)seconds * 1000000000LL) {
			kill_tool(pid, errfile, seconds);
			return -ENOEXEC;
		}
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 20000000)
			nap.tv_nsec *= 2; /* 1 ms first: the usual tree takes a few */
	}
	/* What the tool started and left behind goes with it. */
	kill_group(pid);
	if (done < 0)
		return -ENOEXEC;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOENT;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ENOEXEC;
}

/* The first lines the tool printed, on one line: what went wrong. */
static void tool_said(const char *errfile, char *buf, size_t len)
{
	FILE *f = fopen(errfile, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	/* One line, its runs of blanks as one space (gcc's caret lines are mostly blanks). */
	n = 0;
	for (char *c = buf; *c; c++) {
		char ch = *c == '\n' || *c == '\t' ? ' ' : *c;

		if (ch != ' ' || (n && buf[n - 1] != ' '))
			buf[n++] = ch;
	}
	buf[n] = '\0';
	if (!n)
		snprintf(buf, len, "no message");
}

/*
 * cpp says "fatal error: dt-bindings/x/y.h: No such file or directory":
 * name where a kernel tree keeps what its sources include.
 */
static void include_hint(const char *said, char *out, size_t len)
{
	out[0] = '\0';
	if (!strstr(said, "No such file"))
		return;
	if (strstr(said, "dt-bindings/"))
		snprintf(out, len, " (dt-bindings come with the kernel: -I its include/)");
	else
		snprintf(out, len, " (a kernel tree: -I its scripts/dtc/include-prefixes)");
}


int dmamap__of_mktemp(char *path, size_t len, const char *stem, const char *suffix)
{
	const char *dir = getenv("TMPDIR");
	int n;

	if (!dir || !*dir)
		dir = "/tmp";
	n = snprintf(path, len, "%s/dmamap-%s-XXXXXX%s", dir, stem, suffix);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return mkstemps(path, (int)strlen(suffix));
}

int dmamap__dts_compile(const char *path, const char *home, const char *dtb,
			const char *const *includes, unsigned int nr_includes,
			struct dmamap_error *err)
{
	char pre[4096], errs[4096];
	char dir[4096], said[900], hint[160];
	const char *slash = strrchr(path, '/');
	char *cpp[MAX_TOOL_ARGS + 1], *dtc[MAX_TOOL_ARGS + 1];
	int fd1 = -1, fd2 = -1, ret = -ENOMEM, nc = 0, nd = 0;

	if (nr_includes > MAX_INCLUDES) {
		dmamap__set_error(err, -EINVAL, "%s: more than %d include directories", path,
				  MAX_INCLUDES);
		return -EINVAL;
	}
	fd1 = dmamap__of_mktemp(pre, sizeof(pre), "dts", "");
	fd2 = dmamap__of_mktemp(errs, sizeof(errs), "dtserr", "");
	if (fd1 < 0 || fd2 < 0) {
		dmamap__set_error(err, -EIO, "%s: cannot make a temporary file: %s", path,
				  strerror(errno));
		goto out;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	if (home)
		snprintf(dir, sizeof(dir), "%s", home);
	/* As the kernel's cmd_dtc: no system headers, no predefined macros, the file's directory first. */
	static const char *const cpp_head[] = { "cpp", "-nostdinc", "-undef", "-D__DTS__", "-x",
						"assembler-with-cpp", "-I" };
	/* Labels kept (-@), so that overlays can refer to them. */
	static const char *const dtc_head[] = { "dtc", "-q", "-@", "-I", "dts", "-O", "dtb", "-i" };

	for (size_t i = 0; i < ARRAY_SIZE(cpp_head); i++)
		cpp[nc++] = (char *)cpp_head[i];
	cpp[nc++] = dir;
	for (size_t i = 0; i < ARRAY_SIZE(dtc_head); i++)
		dtc[nd++] = (char *)dtc_head[i];
	dtc[nd++] = dir;
	for (unsigned int i = 0; i < nr_includes; i++) {
		cpp[nc++] = "-I";
		cpp[nc++] = (char *)includes[i];
		dtc[nd++] = "-i";
		dtc[nd++] = (char *)includes[i];
	}
	cpp[nc++] = "-o";
	cpp[nc++] = pre;
	cpp[nc++] = (char *)path;
	cpp[nc] = NULL;
	dtc[nd++] = "-o";
	dtc[nd++] = (char *)dtb;
	dtc[nd++] = pre;
	dtc[nd] = NULL;
	ret = run_tool(cpp, errs);
	if (ret) {
		tool_said(errs, said, sizeof(said));
		include_hint(said, hint, sizeof(hint));
		/* The hint first: the tool's words may not all fit. */
		dmamap__set_error(err, -ENOEXEC, ret == -ENOENT ?
				  "%s: cpp not found (install cpp)%s: %s" :
				  "%s: the C preprocessor failed%s: %s", path, hint,
				  ret == -ENOENT ? "needed for #include" : said);
		ret = -ENOEXEC;
		goto out;
	}
	ret = run_tool(dtc, errs);
	if (ret) {
		tool_said(errs, said, sizeof(said));
		if (ret == -ENOENT)
			dmamap__set_error(err, -ENOEXEC,
					  "%s: dtc not found (install device-tree-compiler)", path);
		else
			dmamap__set_error(err, -ENOEXEC, "%s: dtc failed: %s", path, said);
		ret = -ENOEXEC;
	}
out:
	if (fd1 >= 0) {
		close(fd1);
		unlink(pre);
	}
	if (fd2 >= 0) {
		close(fd2);
		unlink(errs);
	}
	return ret;
}
