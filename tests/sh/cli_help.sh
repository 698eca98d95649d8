#!/bin/sh
# Help and version: on stdout with exit 0; usage errors on stderr with exit
# 2, naming the bad argument and the valid choices.
set -u
build=${1:-build}
cli="$build/dmamap"
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
fail() { echo "FAIL: $*"; cat "$out" "$err"; exit 1; }
expect() { # CODE ARGS...: exit code, stdout in $out, stderr in $err
	want=$1
	shift
	"$cli" "$@" >"$out" 2>"$err"
	got=$?
	[ "$got" -eq "$want" ] || fail "dmamap $*: exit $got, not $want"
}
for h in --help -h help; do
	expect 0 $h
	grep -q '^  explain ' "$out" || fail "$h lists no commands"
	[ ! -s "$err" ] || fail "$h wrote to stderr"
done
expect 0 --version
grep -q "^dmamap $(sed -n 's/^#define DMAMAP_VERSION "\(.*\)"/\1/p' include/dmamap/version.h) " "$out" || fail "version"
expect 0 -V
for c in demo info explain sweep run bench; do
	expect 0 "$c" --help
	grep -q "^usage: dmamap $c" "$out" || fail "$c --help: no usage line"
	expect 0 help "$c"
	grep -q "^usage: dmamap $c" "$out" || fail "help $c: no usage line"
done
expect 0 info -h
grep -q -- '--overlay FILE' "$out" || fail "info -h names no --overlay"
expect 2
grep -q '^usage: dmamap COMMAND' "$err" || fail "no arguments: no usage on stderr"
expect 2 nosuch
grep -q "unknown command 'nosuch' (commands: demo, info, explain, sweep, run, bench" "$err" || fail "unknown command"
expect 2 help nosuch
grep -q "no command 'nosuch'" "$err" || fail "help nosuch"
expect 2 info --bogus
grep -q 'unknown option --bogus (dmamap info --help)' "$err" || fail "info --bogus"
expect 2 sweep --bogus
grep -q 'unknown option --bogus' "$err" || fail "sweep --bogus"
# dmamap bench takes dma_map_benchmark's options, strictly, with its words.
expect 2 bench -t 1.9
grep -q -- "-t '1.9': invalid number of threads, must be in 1-1024" "$err" || fail "bench -t 1.9"
expect 2 bench -b 12
grep -q "invalid dma mask bit, must be in 32-64" "$err" || fail "bench -b 12"
expect 2 bench -n 0
grep -q "invalid numa node" "$err" || fail "bench -n 0"
expect 2 bench -g
grep -q -- "-g needs a value: the granule size, 1-1024" "$err" || fail "bench -g without a value"
expect 0 bench -s 1 -x 1000 -n -1 -b 64 -d 1
grep -q '^dma mapping benchmark: threads:1 seconds:1 node:-1 dir:TO_DEVICE granule: 1' "$out" || fail "bench run"
# The default mask is 32 bits, as the kernel tool's: every thread's buffer must be reachable.
expect 0 bench -s 1 -t 2 -g 4
grep -q '^average map latency(us):' "$out" || fail "bench with the default 32-bit mask"
# The ratios end with a table of every target, each marked pass or MISS
# (the marks are what this run measured; no value is asserted here). Only
# the plain build: under a sanitizer the run is slow and measures nothing.
if [ "$(basename "$build")" = build ]; then
	"$cli" bench --quick >"$out" 2>"$err" || fail "bench --quick"
	rows=$(awk '/^target  *measured  *wanted/ { on = 1; next } on && / (pass|MISS)$/ { n++ } END { print n + 0 }' "$out")
	[ "$rows" -ge 10 ] || fail "bench: $rows target rows"
	tail -n 1 "$out" | grep -q "^[0-9]* of $rows targets met in this run" || fail "bench: no count of targets met"
fi
# Usage errors name the bad value and the valid ones.
expect 2 demo --chaos
grep -q -- '--chaos needs a value' "$err" || fail "--chaos without a value"
expect 2 demo --chaos -1
grep -q -- "--chaos '-1': needs a seed from 1" "$err" || fail "--chaos -1"
expect 2 demo --scale 1001
grep -q -- "--scale '1001'" "$err" || fail "--scale 1001"
expect 2 demo --bug nosuch
grep -q "unknown bug 'nosuch' (bugs: .*missing-sync" "$err" || fail "--bug nosuch lists no bugs"
expect 1 info nosuchboard
grep -q "no built-in board named 'nosuchboard' (boards: .*rpi4-like" "$err" || fail "unknown board"
expect 2 info default rpi4-like
grep -q "one board, not 'rpi4-like' after 'default'" "$err" || fail "two boards"
expect 2 info --svg
grep -q -- '--svg needs a FILE' "$err" || fail "--svg without a file"
expect 2 sweep --seeds 0x
grep -q -- "--seeds '0x'" "$err" || fail "--seeds 0x"
if "$cli" info boards/default.dts >/dev/null 2>&1; then
	# --ram: strict numbers, K/M/G/T sizes, no silent clamp.
	expect 0 info boards/default.dts --ram 0x80000000+64M
	grep -q '^  RAM        0x80000000  *0x83ffffff  *64 MiB' "$out" || fail "--ram with M"
	expect 2 info boards/default.dts --ram 0x80000000+99999999999999999999999
	grep -q "ram '0x80000000+99999999999999999999999'" "$err" || fail "--ram overflow"
	expect 2 info boards/default.dts --ram 0x80000000+16E
	: >"$out.dtb"
	expect 1 info "$out.dtb"
	grep -q "$out.dtb: device tree" "$err" || fail "an empty .dtb is not named"
	rm -f "$out.dtb"
	# - is standard input, a .dts or a .dtb, as dtc reads it.
	"$cli" info - <boards/rpi4-like.dts >"$out" 2>"$err" || fail "info - <.dts"
	grep -q '^board dmamap rpi4-like' "$out" || fail "info - <.dts: no board"
	if command -v dtc >/dev/null; then
		dtc -q -O dtb boards/rpi4-like.dts | "$cli" info - >"$out" 2>"$err" || fail "info - <.dtb"
		grep -q '^board dmamap rpi4-like' "$out" || fail "info - <.dtb: no board"
	fi
	echo junk | "$cli" info - >"$out" 2>"$err" && fail "junk on standard input accepted"
	grep -q '^dmamap: standard input, as ' "$err" || fail "junk: not said as standard input"
	# A hostile board name is escaped in JSON like every other string.
	d=$(mktemp -d)
	mkdir -p "$d/we\"ird"
	cp boards/default.dts "$d/we\"ird/b.dts"
	"$cli" demo --board "$d/we\"ird/b.dts" --json >"$out" 2>"$err" || fail "demo on a hostile path"
	grep -q '"board":"[^"]*we\\"ird/b.dts"' "$out" || fail "board name not escaped"
	if command -v python3 >/dev/null 2>&1; then python3 -m json.tool "$out" >/dev/null || fail "invalid JSON"; fi
	# Backslash, tab, UTF-8 and a byte that is not UTF-8, through info and demo:
	# each output parses, and the name comes back (U+FFFD for the stray byte).
	hostile=$(printf 'a\\b\tc \303\251 \377')
	mkdir -p "$d/$hostile"
	cp boards/default.dts "$d/$hostile/b.dts"
	# info names a board by its model string: the same bytes, written as dtc escapes.
	sed 's/^\tmodel = "default";/\tmodel = "a\\\\b\\tc \\303\\251 \\377";/' boards/default.dts >"$d/model.dts"
	grep -q 'model = "a\\\\b' "$d/model.dts" || fail "hostile model not written"
	if command -v python3 >/dev/null 2>&1; then
		for c in info demo; do
			if [ $c = info ]; then set -- "$d/model.dts"; else set -- --board "$d/$hostile/b.dts"; fi
			"$cli" $c "$@" --json >"$out" 2>"$err" || fail "$c on a hostile name"
			python3 -c 'import json, sys
board = json.load(open(sys.argv[1], encoding="utf-8"))["board"]
assert board.endswith("a\\b\tc \u00e9 \ufffd" + ("" if sys.argv[2] == "info" else "/b.dts")), repr(board)' "$out" $c ||
				fail "$c: hostile name not carried"
		done
	fi
	rm -rf "$d"
fi
# Files: "dmamap: FILE: reason", the reason from the system, exit 1.
expect 1 info ./nosuch.dtb
grep -q '^dmamap: ./nosuch.dtb: cannot open: No such file or directory$' "$err" || fail "missing board file"
expect 1 info --svg /nonexistent/x.svg
grep -q '^dmamap: /nonexistent/x.svg: cannot write: No such file or directory$' "$err" || fail "svg not written"
expect 1 run ./nosuch.so
grep -q '^dmamap: ./nosuch.so: cannot open shared object file: No such file or directory$' "$err" ||
	fail "missing driver object"
exit 0
