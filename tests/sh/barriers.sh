#!/bin/sh
# mb(), rmb(), wmb(), dma_*mb() and cpu_relax() are the architecture's own
# instructions, as Linux's asm/barrier.h defines them, and the host's cache
# maintenance for a device that does not snoop is the real one: read off
# the built objects (dmamap_barrier, dmamap_cpu_relax, readl/writel,
# src/platform/host/cache.o). OBJDUMP names a cross objdump for another
# architecture's build.
# $1: the build directory.
set -eu
build=${1:-build}
obj=$build/src/hw/io.o
objdump=${OBJDUMP:-objdump}
fail() {
	echo "barriers.sh: $*" >&2
	exit 1
}
command -v "$objdump" >/dev/null 2>&1 || { echo "barriers.sh: skipped: no $objdump"; exit 0; }
case "$build" in
*tsan*) echo "barriers.sh: skipped: under TSan an atomic operation stands in for each fence"; exit 0 ;;
esac
[ -f "$obj" ] || fail "$obj: not built"
arch=$("$objdump" -f "$obj" | sed -n 's/^architecture: \([^,]*\),.*/\1/p')
body() {
	# To the next function: local labels (<.L12>:) and the blank lines before them stay inside.
	"$objdump" -d --no-show-raw-insn "$obj" |
		awk -v f="<$1>:" 'index($0, f) { on = 1; next } on && /^[0-9a-f]+ <[^.]/ { exit } on'
}
# FUNCTION PATTERN...: each extended regular expression matches an instruction of FUNCTION.
want() {
	fn=$1
	shift
	text=$(body "$fn")
	[ -n "$text" ] || fail "$arch: no $fn in $obj"
	for p in "$@"; do
		printf '%s\n' "$text" | grep -Eq "$p" || fail "$arch: $fn has no '$p':
$text"
	done
}
# OBJECT PATTERN...: each extended regular expression matches an instruction somewhere in OBJECT.
want_in() {
	o=$build/$1
	shift
	[ -f "$o" ] || fail "$o: not built"
	text=$("$objdump" -d --no-show-raw-insn "$o")
	for p in "$@"; do
		printf '%s\n' "$text" | grep -Eq "$p" || fail "$arch: $o has no '$p'"
	done
}
# The host's real cache maintenance for a device that does not snoop (src/platform/host/cache.c).
host_cache=src/platform/host/cache.o
case "$arch" in
i386:x86-64)
	want_in "$host_cache" '\sclflush\s' '\scpuid'
	want_in "$host_cache" '\smfence'
	want dmamap_barrier '\smfence' '\slfence' '\ssfence'
	want dmamap_cpu_relax '\spause' ;;
aarch64)
	want dmamap_barrier '\sdsb\s+sy' '\sdsb\s+ld' '\sdsb\s+st' '\sdmb\s+osh$' '\sdmb\s+oshld' '\sdmb\s+oshst'
	want_in "$host_cache" '\sdc\s+cvac,' '\sdc\s+civac,' '\smrs\s+x[0-9]+, ctr_el0' '\sdsb\s+sy'
	# readl: the DMB and the never-taken branch on the value read.
	want dmamap_io_read '\sdmb\s+oshld' '\seor\s+x[0-9]+, (x[0-9]+), \1$' '\scbnz'
	want dmamap_cpu_relax '\syield' ;;
arm | armv7*)
	want dmamap_barrier '\sdsb\s+(sy|$)' '\sdsb\s+st' '\sdmb\s+osh$' '\sdmb\s+oshst'
	want dmamap_cpu_relax '\syield' ;;
riscv:rv64)
	want dmamap_barrier '\sfence(\s+iorw,iorw)?$' '\sfence\s+ir,ir' '\sfence\s+ow,ow'
	want dmamap_io_read '\sfence\s+i,ir'
	want dmamap_io_write '\sfence\s+w,o'
	want dmamap_cpu_relax '\s(pause|fence\s+w,0|\.word\s+0x0?100000f)' ;;
i386)
	want_in "$host_cache" '\sclflush\s'
	want dmamap_barrier '\s(mfence|lock)'
	want dmamap_cpu_relax '\spause' ;;
*)
	echo "barriers.sh: skipped: no expectation for $arch (the C11 fences stand in)" ;;
esac
