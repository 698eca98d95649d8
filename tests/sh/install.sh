#!/bin/sh
# `make install` into a scratch prefix, then build and run a small program
# against the installed copy only, found through pkg-config and linked to
# the shared library.
# $1: the build directory (only "build" is installable: `make install`
# builds the plain configuration).
set -eu
build=${1:-build}
if [ "$(basename "$build")" != build ]; then
	echo "install.sh: skipped: '$build' is not the plain build (make install only installs build/)"
	exit 0
fi
for tool in pkg-config cc make; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "install.sh: $tool not found" >&2
		exit 1
	fi
done
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

make -C "$top" --no-print-directory install PREFIX="$prefix" >"$tmp/install.log" 2>&1 || {
	cat "$tmp/install.log" >&2
	echo "install.sh: make install failed" >&2
	exit 1
}
# Installed where the loader does not look: it says how programs find the library.
grep -q "LD_LIBRARY_PATH=$prefix/lib" "$tmp/install.log" || {
	cat "$tmp/install.log" >&2
	echo "install.sh: make install did not say how to find $prefix/lib" >&2
	exit 1
}
for f in lib/libdmamap.a lib/libdmamap.so.0 lib/libdmamap.so lib/pkgconfig/dmamap.pc \
	include/dmamap/dma-mapping.h include/dmamap/platform.h include/dmamap/hw bin/dmamap \
	share/man/man1/dmamap.1 share/man/man1/dmamap-run.1 share/man/man3/libdmamap.3 \
	share/bash-completion/completions/dmamap; do
	if [ ! -e "$prefix/$f" ]; then
		echo "install.sh: $prefix/$f was not installed" >&2
		exit 1
	fi
done

cat >"$tmp/prog.c" <<'PROG'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dma-mapping.h>
#include <dmamap/platform.h>

int main(void)
{
	struct dmamap_device_desc desc = { .name = "installed" };
	struct dmamap_device_stats st;
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	struct device *dev;
	unsigned char got[64];
	dma_addr_t h;
	char *buf;

	p = dmamap_platform_host(&err);
	if (!p) {
		fprintf(stderr, "host platform: %d %s\n", err.code, err.msg);
		return 1;
	}
	dev = dmamap_device_create(p, &desc, &err);
	buf = malloc(4096);
	if (!dev || !buf) {
		fprintf(stderr, "device: %d %s\n", err.code, err.msg);
		return 1;
	}
	memset(buf, 0x5c, 4096);
	h = dma_map_single(dev, buf + 8, 64, DMA_TO_DEVICE);
	if (dma_mapping_error(dev, h) || h != (dma_addr_t)(uintptr_t)(buf + 8)) {
		fprintf(stderr, "mapping: 0x%llx for %p\n", (unsigned long long)h,
			(void *)(buf + 8));
		return 1;
	}
	if (dmamap_device_read(dev, h, got, sizeof(got)) || got[0] != 0x5c ||
	    got[63] != 0x5c) {
		fprintf(stderr, "device read\n");
		return 1;
	}
	dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	if (dmamap_device_stats(dev, &st) || st.maps != 1 || st.unmaps != 1 ||
	    st.errors) {
		fprintf(stderr, "stats\n");
		return 1;
	}
	free(buf);
	dmamap_platform_destroy(p);
	printf("installed dmamap ok\n");
	return 0;
}
PROG

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs dmamap) || {
	echo "install.sh: pkg-config does not know dmamap" >&2
	exit 1
}
case "$flags" in
*"-I$prefix/include"*) ;;
*) echo "install.sh: pkg-config flags do not point into the prefix: $flags" >&2; exit 1 ;;
esac
# Only the installed headers: nothing from the source tree.
# shellcheck disable=SC2086
(cd "$tmp" && cc -std=gnu11 -Wall -Wextra -Werror -o prog prog.c $flags)
if ! readelf -d "$tmp/prog" | grep -q 'NEEDED.*libdmamap\.so\.0'; then
	echo "install.sh: the program is not linked to libdmamap.so.0" >&2
	exit 1
fi
out=$(LD_LIBRARY_PATH="$prefix/lib" "$tmp/prog")
echo "$out"
[ "$out" = "installed dmamap ok" ]
# Linked statically, the archive needs what Libs.private names, and nothing unsubstituted.
if grep -q '@' "$prefix/lib/pkgconfig/dmamap.pc"; then
	echo "install.sh: dmamap.pc keeps a placeholder" >&2
	exit 1
fi
# A built-in board is a device tree: the program pulls in the whole library.
cat >"$tmp/board.c" <<'PROG'
#include <stdio.h>
#include <dmamap/platform.h>

int main(void)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_builtin("default", &err);

	if (!p) {
		fprintf(stderr, "default board: %d %s\n", err.code, err.msg);
		return 1;
	}
	dmamap_platform_destroy(p);
	printf("static dmamap ok\n");
	return 0;
}
PROG
static=$(pkg-config --static --libs dmamap | sed 's/-ldmamap/-l:libdmamap.a/')
# shellcheck disable=SC2086
(cd "$tmp" && cc -std=gnu11 -Wall -Wextra -Werror -o board board.c \
	$(pkg-config --cflags dmamap) $static) || {
	echo "install.sh: a static link with pkg-config --static fails: $static" >&2
	exit 1
}
[ "$("$tmp/board")" = "static dmamap ok" ]
# The installed CLI runs too.
"$prefix/bin/dmamap" info >/dev/null 2>&1 || {
	echo "install.sh: installed CLI does not run" >&2
	exit 1
}
echo "install.sh: ok"
