#!/bin/sh
# The Debian packages: built with dpkg-buildpackage from a copy of the
# tree, checked with lintian (errors fail), unpacked into a scratch root,
# and a program built against the unpacked libdmamap-dev with pkg-config
# and run against the unpacked libdmamap0. Installs its tools when root.
# $1: where to work (default: build-deb/).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$top/build-deb}
need=""
for t in dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian pkg-config:pkgconf dtc:device-tree-compiler; do
	command -v "${t%%:*}" >/dev/null 2>&1 || need="$need ${t#*:}"
done
[ -f /usr/include/libfdt.h ] || need="$need libfdt-dev"
if [ -n "$need" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y $need >/dev/null 2>&1 ||
			{ apt-get update >/dev/null 2>&1 &&
			  DEBIAN_FRONTEND=noninteractive apt-get install -y $need >/dev/null; }
	else
		echo "deb.sh: missing:$need" >&2
		exit 1
	fi
fi
rm -rf "$work"
mkdir -p "$work/src"
# The tree as committed plus what is not ignored: never a build directory.
(cd "$top" && git ls-files -co --exclude-standard | tar cf - -T -) | (cd "$work/src" && tar xf -)
(cd "$work/src" && dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1) ||
	{ tail -n 40 "$work/build.log"; echo "deb.sh: dpkg-buildpackage failed"; exit 1; }
version=$(sed -n 's/^#define DMAMAP_VERSION "\(.*\)"/\1/p' "$top/include/dmamap/version.h")
for p in libdmamap0 libdmamap-dev dmamap; do
	deb=$(ls "$work/${p}_${version}_"*.deb)
	dpkg -c "$deb" >"$work/$p.contents"
done
grep -q '/libdmamap\.so\.0$' "$work/libdmamap0.contents"
grep -q '/usr/include/dmamap/dma-mapping\.h$' "$work/libdmamap-dev.contents"
grep -q '/pkgconfig/dmamap\.pc$' "$work/libdmamap-dev.contents"
grep -q '/usr/share/man/man3/libdmamap\.3\.gz$' "$work/libdmamap-dev.contents"
grep -q '/usr/bin/dmamap$' "$work/dmamap.contents"
grep -q '/usr/share/man/man1/dmamap-run\.1\.gz$' "$work/dmamap.contents"
grep -q '/completions/dmamap$' "$work/dmamap.contents"
# A driver built against libdmamap-dev needs libdmamap.so.0 when dmamap run loads it.
dpkg -f "$(ls "$work/dmamap_${version}_"*.deb)" Depends | grep -q "libdmamap0 (= $version)" ||
	{ echo "deb.sh: dmamap does not depend on libdmamap0 $version"; exit 1; }
# lintian: errors fail the step; warnings are shown.
status=0
lintian --fail-on error "$work"/*.changes >"$work/lintian.log" 2>&1 || status=$?
grep -v 'root privileges' "$work/lintian.log" || true
[ "$status" = 0 ] || { echo "deb.sh: lintian errors"; exit 1; }
# Unpacked, not installed: the machine's own /usr is left alone.
root=$work/root
for p in libdmamap0 libdmamap-dev dmamap; do
	dpkg -x "$(ls "$work/${p}_${version}_"*.deb)" "$root"
done
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
cat >"$work/prog.c" <<'PROG'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dma-mapping.h>
#include <dmamap/platform.h>
#include <dmamap/version.h>

int main(void)
{
	struct dmamap_device_desc desc = { .name = "packaged" };
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_host(&err);
	struct device *dev = p ? dmamap_device_create(p, &desc, &err) : NULL;
	unsigned char seen[64];
	char *buf = malloc(4096);
	dma_addr_t h;

	if (!dev || !buf) {
		fprintf(stderr, "host device: %d %s\n", err.code, err.msg);
		return 1;
	}
	memset(buf, 0xa5, 4096);
	h = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);
	if (dma_mapping_error(dev, h) || dmamap_device_read(dev, h, seen, sizeof(seen)) ||
	    seen[0] != 0xa5 || seen[63] != 0xa5) {
		fprintf(stderr, "the device did not see the bytes\n");
		return 1;
	}
	dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	free(buf);
	dmamap_platform_destroy(p);
	printf("packaged dmamap %s ok\n", dmamap_version());
	return 0;
}
PROG
flags=$(PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$root/usr/lib/$arch/pkgconfig \
	pkg-config --cflags --libs dmamap)
# shellcheck disable=SC2086
cc -std=gnu11 -Wall -Wextra -Werror -o "$work/prog" "$work/prog.c" $flags
readelf -d "$work/prog" | grep -q 'NEEDED.*libdmamap\.so\.0'
LD_LIBRARY_PATH=$root/usr/lib/$arch "$work/prog"
"$root/usr/bin/dmamap" --version
echo "deb.sh: ok"
