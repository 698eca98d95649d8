#!/bin/sh
# The arm64 test binary (built by mk/cross.sh aarch64-linux-gnu) on hosts
# with 16 and 64 KiB pages, as qemu-user 7.2's -p emulates them: the
# simulated PAGE_SIZE stays 4 KiB, mmap and mprotect work in the larger
# unit. Both at once, each with its time; a failure shows its log.
# usage: pagesize.sh [SIZE...]   (default: 16384 65536)
set -u
build=build-x-aarch64-linux-gnu
[ -x "$build/dmamap-tests" ] || build=build-x-aarch64-linux-gnu-nofdt
# DMAMAP_CROSS_STRICT=1 (CI): a skip is a failure.
skip() {
	echo "pagesize.sh: skipped: $*"
	[ "${DMAMAP_CROSS_STRICT:-0}" = 1 ] && exit 1
	exit 0
}
if [ ! -x "$build/dmamap-tests" ] || ! command -v qemu-aarch64 >/dev/null 2>&1; then
	skip "no arm64 build or no qemu-aarch64 (run mk/cross.sh aarch64-linux-gnu first)"
fi
# -p went away in QEMU 9.0: without it there is nothing to emulate here.
major=$(qemu-aarch64 --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -n 1)
if [ -z "$major" ] || [ "$major" -ge 9 ]; then
	skip "qemu-aarch64 ${major:-?}.x has no -p (removed in 9.0)"
fi
[ $# -gt 0 ] || set -- 16384 65536
# As mk/cross.sh runs them under qemu: the long loops take one case in ten.
DMAMAP_TEST_SAMPLE=${DMAMAP_TEST_SAMPLE:-10}
export DMAMAP_TEST_SAMPLE
mkdir -p build-x-logs
for size in "$@"; do
	( t0=$(date +%s); st=0
	  qemu-aarch64 -p "$size" -L /usr/aarch64-linux-gnu "$build/dmamap-tests" \
		>"build-x-logs/pagesize-$size.log" 2>&1 || st=$?
	  echo "$size-byte host pages: $(tail -n 1 "build-x-logs/pagesize-$size.log") ($(( $(date +%s) - t0 )) s)"
	  exit "$st" ) &
done
wait
failed=0
for size in "$@"; do
	tail -n 1 "build-x-logs/pagesize-$size.log" | grep -q ' 0 failed' ||
		{ grep -v '^ok' "build-x-logs/pagesize-$size.log"; failed=1; }
done
exit "$failed"
