#!/bin/sh
# Build dmamap for another architecture with Debian's cross compiler and
# check that build: warning-free (-Werror), the architecture's own barriers
# in the object (tests/sh/barriers.sh), the layering, and the test binary
# run under qemu-user (i686 natively, when the kernel runs 32-bit programs).
# Without libfdt for the target (NO_FDT=1): the device tree tests skip.
# Installs the cross compiler and qemu-user when root; else says what is
# missing and stops without failing.
# usage: cross.sh TRIPLET [TEST-PREFIX...]   (none: every test of the binary)
set -eu
triplet=$1
shift
case $triplet in
aarch64-linux-gnu) qemu=qemu-aarch64 ;;
arm-linux-gnueabihf) qemu=qemu-arm ;;
riscv64-linux-gnu) qemu=qemu-riscv64 ;;
i686-linux-gnu) qemu=qemu-i386 ;;
*) echo "cross.sh: no rule for $triplet" >&2; exit 2 ;;
esac
need=
command -v "$triplet-gcc" >/dev/null 2>&1 || need="$need gcc-$triplet"
command -v "$qemu" >/dev/null 2>&1 || need="$need qemu-user"
if [ -n "$need" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y $need >/dev/null 2>&1 ||
			{ apt-get update >/dev/null 2>&1 &&
			  DEBIAN_FRONTEND=noninteractive apt-get install -y $need >/dev/null; }
	else
		echo "cross.sh: $triplet skipped: missing$need (sudo apt-get install -y$need)"
		exit 0
	fi
fi
build=build-x-$triplet
make -j"$(nproc 2>/dev/null || echo 2)" --no-print-directory NO_FDT=1 BUILD="$build" CC="$triplet-gcc" \
	"$build/dmamap-tests"
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
