/* SPDX-License-Identifier: MIT */
/* Boards from device-tree source, for the device-tree tests. */
#include <unistd.h>
#include "../helpers.h"

/* ---- device trees ------------------------------------------------------------------ */

/*
 * NO_FDT builds (the 32-bit CI build when there is no 32-bit libfdt) have
 * stubs that refuse every tree with -ENOSYS; .dts files need dtc at test
 * time. Either way those tests cannot run: they skip, saying why.
 */
void need_dts_support(void)
{
	struct dmamap_error err = { 0 };

	if (!dmamap_platform_from_fdt(NULL, 0, &err) && err.code == -ENOSYS)
		SKIP("built without libfdt");
	if (system("dtc --version >/dev/null 2>&1") != 0)
		SKIP("dtc (device-tree-compiler) is not installed");
}

struct dmamap_platform *from_dts(const char *dts, struct dmamap_error *err)
{
	char path[] = "/tmp/dmamap-test-XXXXXX.dts";
	int fd;
	struct dmamap_platform *p;
	FILE *f;

	need_dts_support();
	fd = mkstemps(path, 4);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	fputs(dts, f);
	fclose(f);
	p = dmamap_platform_from_file(path, err);
	unlink(path);
	return p;
}

struct dmamap_platform *dts_board(const char *dts)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(dts, &err);

	SKIP_WITHOUT_FDT(err);
	if (!p)
		printf("#   the tree was refused: %d %s\n", err.code, err.msg);
	return p;
}

void dts_refused(const char *dts, const char *what)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(dts, &err);

	SKIP_WITHOUT_FDT(err);
	CHECK_MSG(!p, "built, though it should fail with \"%s\"", what);
	CHECK_MSG(err.code == -EINVAL && strstr(err.msg, what), "%d %s (want \"%s\")", err.code,
		  err.msg, what);
	dmamap_platform_destroy(p);
}

struct device *dts_device(const char *dts, const char *name, struct dmamap_platform **p)
{
	*p = dts_board(dts);
	return *p ? lookup(*p, name) : NULL;
}

size_t board_blob(uint8_t *blob, size_t cap)
{
	char path[] = "/tmp/dmamap-blob-XXXXXX", cmd[256];
	int fd;
	size_t n = 0;
	FILE *f;

	need_dts_support();
	fd = mkstemp(path);
	if (fd < 0)
		return 0;
	close(fd);
	snprintf(cmd, sizeof(cmd), "dtc -q -I dts -O dtb -o %s boards/rpi4-like.dts 2>/dev/null",
		 path);
	if (system(cmd) == 0 && (f = fopen(path, "rb"))) {
		n = fread(blob, 1, cap, f);
		fclose(f);
	}
	unlink(path);
	if (!n)
		printf("#   dtc did not compile the board's .dts\n");
	return n;
}

bool board_too_big_for_host(const char *name)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;

	if (sizeof(void *) >= 8)
		return false;
	p = dmamap_platform_builtin(name, &err);
	dmamap_platform_destroy(p);
	if (p || !(strstr(err.msg, "RAM to simulate on a 32-bit host") ||
		   strstr(err.msg, "cannot reserve RAM bank")))
		return false;
	printf("#   board %s not simulated here: %s\n", name, err.msg);
	return true;
}
