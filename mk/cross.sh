#!/bin/sh
# Build dmamap for another architecture with Debian's cross compiler and
# check that build: warning-free (-Werror), the architecture's own barriers
# in the object (tests/sh/barriers.sh), the layering, and the test binary
# run under qemu-user (i686 natively, when the kernel runs 32-bit programs).
# libfdt for the target comes from Debian's libfdt-dev for that
# architecture, unpacked into a sysroot beside the build directory (not
# installed): the static library is linked in. Where there is none (riscv64:
# bookworm has no packages for it; the 32-bit targets, below) or it cannot
# be fetched, the build is NO_FDT=1 and the device tree tests skip.
# Installs the cross compiler and qemu-user when root; else says what is
# missing and stops without failing.
# usage: cross.sh TRIPLET [TEST-PREFIX...]   (none: every test of the binary)
set -eu
triplet=$1
shift
# debarch: where Debian's libfdt-dev comes from. Not yet for the 32-bit
# targets: with device trees they build the 1 GiB rpi4-like board, more
# RAM than a 32-bit process maps until simulated RAM is mapped on demand.
case $triplet in
aarch64-linux-gnu) qemu=qemu-aarch64 debarch=arm64 ;;
arm-linux-gnueabihf) qemu=qemu-arm debarch= ;;
riscv64-linux-gnu) qemu=qemu-riscv64 debarch= ;;
i686-linux-gnu) qemu=qemu-i386 debarch= ;;
*) echo "cross.sh: no rule for $triplet" >&2; exit 2 ;;
esac
root=false
[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && root=true
need=
command -v "$triplet-gcc" >/dev/null 2>&1 || need="$need gcc-$triplet"
command -v "$qemu" >/dev/null 2>&1 || need="$need qemu-user"
if [ -n "$need" ]; then
	if $root; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y $need >/dev/null 2>&1 ||
			{ apt-get update >/dev/null 2>&1 &&
			  DEBIAN_FRONTEND=noninteractive apt-get install -y $need >/dev/null; }
	else
		echo "cross.sh: $triplet skipped: missing$need (sudo apt-get install -y$need)"
		exit 0
	fi
fi
# The target's libfdt.a, fetched once into build-x-TRIPLET-sysroot.
sysroot=build-x-$triplet-sysroot
lib=$(find "$sysroot" -name libfdt.a 2>/dev/null | head -n 1)
if [ -z "$lib" ] && [ -n "$debarch" ] && $root; then
	dpkg --print-foreign-architectures | grep -qx "$debarch" ||
		{ dpkg --add-architecture "$debarch" && { apt-get update >/dev/null 2>&1 || true; }; }
	tmp=$(mktemp -d)
	if (cd "$tmp" && { apt-get download "libfdt-dev:$debarch" >/dev/null 2>&1 ||
			   { apt-get update >/dev/null 2>&1 || true; apt-get download "libfdt-dev:$debarch" >/dev/null 2>&1; }; }); then
		mkdir -p "$sysroot"
		dpkg -x "$tmp"/libfdt-dev_*.deb "$sysroot"
		# The shared library is not there (libfdt1 is not fetched): the archive links.
		find "$sysroot" -name 'libfdt.so*' -exec rm -f {} +
		lib=$(find "$sysroot" -name libfdt.a | head -n 1)
	fi
	rm -rf "$tmp"
fi
if [ -n "$lib" ]; then
	build=build-x-$triplet
	make -s -j"$(nproc 2>/dev/null || echo 2)" --no-print-directory NO_FDT=0 BUILD="$build" CC="$triplet-gcc" \
		CFLAGS="-isystem $sysroot/usr/include -L$(dirname "$lib")" "$build/dmamap-tests"
else
	build=build-x-$triplet-nofdt
	echo "cross.sh: no libfdt for $triplet: NO_FDT=1, the device tree tests skip"
	make -s -j"$(nproc 2>/dev/null || echo 2)" --no-print-directory NO_FDT=1 BUILD="$build" CC="$triplet-gcc" \
		"$build/dmamap-tests"
fi
OBJDUMP=$triplet-objdump sh tests/sh/barriers.sh "$build"
sh tests/sh/layers.sh "$build"
run="$qemu -L /usr/$triplet"
if [ "$triplet" = i686-linux-gnu ] &&
	echo 'int main(void){return 0;}' | "$triplet-gcc" -x c - -o "$build/probe" 2>/dev/null &&
	"$build/probe" 2>/dev/null; then
	run=
fi
if [ $# = 0 ]; then
	$run "$build/dmamap-tests"
else
	out=$build/tests.log
	for prefix in "$@"; do
		st=0
		$run "$build/dmamap-tests" "$prefix" >"$out" 2>&1 || st=$?
		echo "$prefix: $(tail -n 1 "$out")"
		[ "$st" = 0 ] || { grep -v '^ok' "$out"; exit 1; }
	done
fi
