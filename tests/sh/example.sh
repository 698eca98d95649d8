#!/bin/sh
# The out-of-tree example, as a user meets it (README, examples/acme-dma):
# `make install` into a scratch prefix, a copy of examples/acme-dma built
# with pkg-config and run with `make check` (its JUnit file read by
# Python's XML parser); then each bug variant of the driver, which must
# fail with the report that names the bug and a replay line that, run,
# fails the same way on its one device and seed.
# $1: the build directory (only "build" is installable).
set -eu
build=${1:-build}
if [ "$(basename "$build")" != build ]; then
	echo "example.sh: skipped: '$build' is not the plain build (make install only installs build/)"
	exit 0
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
make -C "$top" --no-print-directory install PREFIX="$prefix" >"$tmp/install.log" 2>&1 || {
	cat "$tmp/install.log" >&2
	echo "example.sh: make install failed" >&2
	exit 1
}
export PATH="$prefix/bin:$PATH" PKG_CONFIG_PATH="$prefix/lib/pkgconfig" LD_LIBRARY_PATH="$prefix/lib"
cp -r "$top/examples/acme-dma" "$tmp/acme-dma"
cd "$tmp/acme-dma"

fail() {
	echo "example.sh: $*" >&2
	exit 1
}

make -s SEEDS=1-10 check >"$tmp/check.log" 2>&1 || { cat "$tmp/check.log" >&2; fail "make check failed"; }
grep -q "PASS: 0 of 60 runs failed" "$tmp/check.log" || { cat "$tmp/check.log"; fail "the default board: not 60 runs passed"; }
grep -q "PASS: 0 of 30 runs failed" "$tmp/check.log" || { cat "$tmp/check.log"; fail "acme-soc.dts: not 30 runs passed"; }
python3 - junit.xml <<'PY' || fail "junit.xml is not what a JUnit reader expects"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == 'testsuites'
suites = root.findall('testsuite')
assert sorted(s.get('name') for s in suites) == sorted(
    ['dma-coh (coherent)', 'dma-nc (non-coherent)', 'dma-32 (non-coherent)',
     'dma-24 (bounced)', 'ixp-pci (bounced)', 'dma-iommu (IOMMU)']), [s.get('name') for s in suites]
for s in suites:
    assert len(s.findall('testcase')) == int(s.get('tests')) == 30, s.attrib
    assert s.get('failures') == s.get('errors') == '0', s.attrib
PY
# A report file that cannot be written: named with the system's reason, exit 1.
status=0
dmamap run ./acme_dma.so --board default --seeds 1 --junit /nonexistent/j.xml >/dev/null 2>"$tmp/junit.err" || status=$?
[ "$status" = 1 ] || fail "unwritable --junit: exit $status, not 1"
grep -q '^dmamap: /nonexistent/j.xml: cannot write: No such file or directory$' "$tmp/junit.err" ||
	{ cat "$tmp/junit.err"; fail "unwritable --junit: not named with its reason"; }
# A misspelt board: a usage error that lists the built-in boards.
status=0
dmamap run ./acme_dma.so --board nosuch --seeds 1 >/dev/null 2>"$tmp/board.err" || status=$?
[ "$status" = 2 ] || fail "unknown board: exit $status, not 2"
grep -q "^dmamap: no built-in board named 'nosuch' (boards: .*default.*rpi4-like" "$tmp/board.err" ||
	{ cat "$tmp/board.err"; fail "unknown board: the boards are not listed"; }

# Each bug, and the report kinds any of which names it (drivers/gallery.c's table).
while read -r bug kinds; do
	make -s clean
	make -s BUG="$bug" >/dev/null 2>&1 || fail "$bug: does not build"
	status=0
	dmamap run ./acme_dma.so --board default --seeds 1-3 --json >"$tmp/$bug.json" 2>"$tmp/$bug.err" || status=$?
	[ "$status" = 1 ] || { cat "$tmp/$bug.err"; fail "$bug: dmamap run exited $status, not 1"; }
	replay=$(python3 - "$tmp/$bug.json" "$kinds" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
kinds = sys.argv[2].split(',')
# A checker report of one of the kinds, or (a kind ending in ':') a test's
# assertion at that place: stale bytes the CPU read, which no report names.
hits = [f for f in doc['failures'] if any(f['message'].startswith('checker: ' + k + ' ') or
        (k.endswith(':') and f['message'].startswith(k)) for k in kinds)]
assert hits, 'no failure names %s: %s' % (kinds, [f['message'][:120] for f in doc['failures']])
f = hits[0]
want = 'dmamap run ./acme_dma.so --board default --device %s --seeds %d --trace %s-%d.json' % (
    f['device'], f['seed'], f['device'], f['seed'])
assert f['replay'] == want, (f['replay'], want)
print(f['replay'])
PY
) || fail "$bug: not the report that names it"
	status=0
	$replay >"$tmp/$bug.replay" 2>&1 || status=$?
	[ "$status" = 1 ] || { cat "$tmp/$bug.replay"; fail "$bug: the replay line exited $status, not 1"; }
	grep -q "^FAIL: 1 of 1 runs failed" "$tmp/$bug.replay" || { cat "$tmp/$bug.replay"; fail "$bug: the replay is not one failed run"; }
	# The replay's trace: the run's API calls, its interrupts, and the report that failed it.
	python3 - "${replay##* }" "$kinds" <<'PY' || fail "$bug: the replay's trace is not what it should be"
import json, sys
ev = json.load(open(sys.argv[1]))['traceEvents']
names = set(e['name'] for e in ev)
for want in ('dma_map_phys', 'dma_alloc', 'irq_handler_entry', 'dmamap_device_read'):
    assert want in names, want
kinds = [k for k in sys.argv[2].split(',') if not k.endswith(':')]
if kinds:
    assert any('report: ' + k in names for k in kinds), sorted(n for n in names if n.startswith('report'))
assert any(e['ph'] == 'X' and e['name'] == 'device owns' for e in ev)
PY
	echo "ok: $bug fails as it should ($replay)"
done <<'BUGS'
missing-sync-for-cpu acme_dma_test.c:
missing-sync-for-device missing-sync-for-device,cpu-write-while-device-owns
missing-sync missing-sync-for-device,cpu-write-while-device-owns
wrong-direction device-write-readonly
cpu-write-while-mapped cpu-write-while-device-owns
shared-cacheline map-unaligned,cacheline-overlap,device-data-lost
unmap-before-done device-access-unmapped
map-error-unchecked map-error-not-checked,device-access-unmapped
no-dma-api device-access-unmapped,device-fault
leak-at-remove leak
BUGS
echo "example.sh: the example passes, and each of its 10 bug variants fails with its report"
