#!/bin/sh
# Build dmamap for another architecture with Debian's cross compiler and
# check that build: warning-free (-Werror), the architecture's own barriers
# in the object (tests/sh/barriers.sh), the layering, and the tests: with
# no prefix every one make test runs (the binary, then the shell tests,
# which run the build's programs through binfmt_misc and qemu-user; i686
# natively, when the kernel runs 32-bit programs), else the binary's tests
# starting with each prefix.
# libfdt for the target comes from Debian's libfdt-dev for that
# architecture, unpacked into a sysroot beside the build directory (not
# installed): the static library is linked in. Where it cannot be fetched
# the build is NO_FDT=1 and the device tree tests skip.
# Installs the cross compiler and qemu-user when root; else says what is
# missing and stops without failing.
# usage: cross.sh TRIPLET [TEST-PREFIX... | --prepare]   (none: every test, binary and shell)
set -eu
triplet=$1
shift
# debarch and suite: where Debian's libfdt-dev for the target comes from
# (bookworm has no riscv64 port; trixie has, with the same library).
case $triplet in
aarch64-linux-gnu) qemu=qemu-aarch64 debarch=arm64 suite=bookworm ;;
arm-linux-gnueabihf) qemu=qemu-arm debarch=armhf suite=bookworm ;;
riscv64-linux-gnu) qemu=qemu-riscv64 debarch=riscv64 suite=trixie ;;
i686-linux-gnu) qemu=qemu-i386 debarch=i386 suite=bookworm ;;
*) echo "cross.sh: no rule for $triplet" >&2; exit 2 ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)
# DMAMAP_CROSS_STRICT=1 (CI): what would be skipped for want of a package,
# libfdt or binfmt_misc fails instead.
strict=false
[ "${DMAMAP_CROSS_STRICT:-0}" = 1 ] && strict=true
root=false
[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && root=true
# PROGRAM PACKAGE: install PACKAGE when PROGRAM is missing (root), else say so and stop.
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	if $root; then
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y "$2" >/dev/null 2>&1 ||
			{ apt-get update >/dev/null 2>&1 &&
			  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y "$2" >/dev/null; }
	else
		echo "cross.sh: $triplet skipped: no $1 (sudo apt-get install -y $2)"
		$strict && exit 1
		exit 0
	fi
}
need "$triplet-gcc" "gcc-$triplet"
mkdir -p "build-x-$triplet-sysroot"
probe=build-x-$triplet-sysroot/probe
run="$qemu -L /usr/$triplet"
# i686 runs natively where the kernel runs 32-bit programs: no qemu then.
if [ "$triplet" = i686-linux-gnu ] &&
	echo 'int main(void){return 0;}' | "$triplet-gcc" -x c - -o "$probe" 2>/dev/null &&
	"./$probe" 2>/dev/null; then
	run=
else
	need "$qemu" qemu-user
fi
# The target's libfdt.a, fetched once into build-x-TRIPLET-sysroot with an
# apt of its own (lists, cache, no dpkg state): nothing on the system
# changes, no foreign architecture is added, no root is needed.
sysroot=build-x-$triplet-sysroot
apt=$PWD/$sysroot/apt
target_apt() {
	apt-get -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/parts" \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o Dir::State::status=/dev/null -o APT::Architectures::="$debarch" \
		-o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)" "$@"
}
lib=$(find "$sysroot" -name libfdt.a 2>/dev/null | head -n 1)
if [ -z "$lib" ] && command -v apt-get >/dev/null 2>&1; then
	mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache/archives/partial"
	printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nArchitectures: %s\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$suite" "$debarch" >"$apt/parts/target.sources"
	if target_apt update >"$apt/log" 2>&1 &&
		(cd "$apt" && target_apt download "libfdt-dev:$debarch" >>"$apt/log" 2>&1); then
		dpkg -x "$apt"/libfdt-dev_*.deb "$sysroot"
		# Only the archive links: libfdt1 (the shared library) is not fetched.
		find "$sysroot" -name 'libfdt.so*' -exec rm -f {} +
		lib=$(find "$sysroot" -name libfdt.a | head -n 1)
	else
		echo "cross.sh: libfdt-dev:$debarch from $suite could not be fetched (see $apt/log)"
		$strict && exit 1
	fi
fi
# The shell tests run the build's programs by name: the kernel must hand a
# foreign one to qemu (binfmt_misc, from Debian's qemu-user-binfmt rules,
# registered here when root), and qemu must find the target's C library.
binfmt=false
if [ -z "$run" ]; then
	binfmt=true
else
	reg=/proc/sys/fs/binfmt_misc
	if [ ! -f "/usr/lib/binfmt.d/$qemu.conf" ] && $root; then
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y qemu-user-binfmt \
			>/dev/null 2>&1 || true
	fi
	if [ ! -e "$reg/register" ] && [ "$(id -u)" = 0 ]; then
		mount -t binfmt_misc binfmt_misc "$reg" 2>/dev/null || true
	fi
	if [ ! -e "$reg/$qemu" ] && [ -w "$reg/register" ] && [ -f "/usr/lib/binfmt.d/$qemu.conf" ]; then
		cat "/usr/lib/binfmt.d/$qemu.conf" >"$reg/register" 2>/dev/null || true
	fi
	[ -e "$reg/$qemu" ] && grep -q '^enabled' "$reg/$qemu" && binfmt=true
	QEMU_LD_PREFIX=/usr/$triplet
	export QEMU_LD_PREFIX
fi
# Under the emulator the seed sweeps, failure-point walks and corrupted-blob
# rounds take one case in ten (every test still runs); natively, every case.
if [ -n "$run" ]; then
	DMAMAP_TEST_SAMPLE=${DMAMAP_TEST_SAMPLE:-10}
	export DMAMAP_TEST_SAMPLE
fi
if [ "${1:-}" = --prepare ]; then
	echo "cross.sh: $triplet prepared (libfdt: ${lib:-none}, binfmt: $binfmt)"
	exit 0
fi
# The test binary, and for the shell tests the CLI and the shared library.
if [ -n "$lib" ]; then
	build=build-x-$triplet
	make -s -j"$jobs" --no-print-directory NO_FDT=0 BUILD="$build" CC="$triplet-gcc" \
		CFLAGS="-isystem $sysroot/usr/include -L$(dirname "$lib")" \
		"$build/dmamap-tests" "$build/dmamap" "$build/libdmamap.so.0"
	# Programs the shell tests build against the library find the target's libfdt
	# (a cross compiler ignores LIBRARY_PATH).
	test_cc="$triplet-gcc -L$PWD/$(dirname "$lib")"
else
	build=build-x-$triplet-nofdt
	test_cc=$triplet-gcc
	echo "cross.sh: no libfdt for $triplet: NO_FDT=1, the device tree tests skip"
	make -s -j"$jobs" --no-print-directory NO_FDT=1 BUILD="$build" CC="$triplet-gcc" \
		"$build/dmamap-tests" "$build/dmamap" "$build/libdmamap.so.0"
fi
if [ $# = 0 ] && $binfmt; then
	# Everything make test runs: the binary, then every shell test, on this
	# build (the barriers and the layering among them).
	CC=$test_cc OBJDUMP=$triplet-objdump sh tests/run.sh "$build"
	exit
fi
OBJDUMP=$triplet-objdump sh tests/sh/barriers.sh "$build"
sh tests/sh/layers.sh "$build"
if [ $# = 0 ]; then
	echo "cross.sh: the kernel does not run $triplet programs by itself (no binfmt_misc): the shell tests skip"
	$strict && exit 1
	$run "$build/dmamap-tests"
else
	out=$build/tests.log
	for prefix in "$@"; do
		st=0
		$run "$build/dmamap-tests" "$prefix" >"$out" 2>&1 || st=$?
		echo "$prefix: $(tail -n 1 "$out")"
		[ "$st" = 0 ] || { grep -v '^ok' "$out"; exit 1; }
		# A prefix that names no test is a mistake in the caller, not a pass.
		grep -q '^ok' "$out" || { echo "cross.sh: no test starts with $prefix" >&2; exit 1; }
	done
fi
