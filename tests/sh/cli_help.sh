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
. tests/sh/lib/boards.sh
# The board read from standard input below: one this host simulates.
stdin_board=rpi4-like
simulated rpi4-like || stdin_board=arm64-server
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
expect 2 --nosuch
grep -q "unknown option '--nosuch'" "$err" || fail "--nosuch is not called an option"
expect 0 -h demo
grep -q '^usage: dmamap demo' "$out" || fail "-h demo is not demo's help"
# Output that does not reach its reader is a failure, said on stderr.
if [ -w /dev/full ]; then
	for args in "info" "--help" "demo --json --scale 1"; do
		# shellcheck disable=SC2086
		"$cli" $args >/dev/full 2>"$err" && fail "dmamap $args >/dev/full: exit 0"
		grep -q '^dmamap: standard output: No space left on device$' "$err" ||
			fail "dmamap $args >/dev/full: not said"
	done
fi
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
# Values as getopt takes them, and nothing strtol would skip.
expect 2 bench -t +5
grep -q -- "-t '+5': invalid number of threads" "$err" || fail "bench -t +5 accepted"
expect 2 bench -t ' 5'
expect 0 bench -t2 -s1 -d2
grep -q '^dma mapping benchmark: threads:2 seconds:1 node:-1 dir:FROM_DEVICE' "$out" || fail "bench -t2 -s1"
expect 2 bench --quick -t 2
grep -q -- "--quick is for the speed ratios" "$err" || fail "bench --quick with -t"
# The default mask is 32 bits, as the kernel tool's: every thread's buffer must be reachable.
expect 0 bench -s 1 -t 16 -g 4
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
# A board that is not there is a usage error, as a bad option is: exit 2, with the names.
expect 2 info nosuchboard
grep -q "no built-in board named 'nosuchboard' (boards: .*rpi4-like" "$err" || fail "unknown board"
expect 2 sweep --board nosuchboard
expect 2 info --ram 0x80000000+64M
grep -q "apply to a device tree file, not the built-in board default" "$err" || fail "--ram on a built-in board"
# The bug list in JSON when asked, whichever option comes first.
expect 0 demo --bug list --json
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json, sys
bugs = json.load(open(sys.argv[1]))
assert len(bugs) >= 10 and all(b["name"] and b["fix"] and b["drivers"] for b in bugs), bugs' "$out" ||
		fail "demo --bug list --json"
fi
# Numbers are decimal or 0x hex, never octal.
expect 0 demo --chaos 010 --scale 1
grep -q 'chaos seed 10$' "$out" || fail "--chaos 010 is not ten"
expect 2 demo --chaos 0x
expect 2 sweep --seeds
grep -q -- "--seeds needs a value: how many seeds, 1 to 2^40" "$err" || fail "sweep --seeds without a value"
expect 2 explain default
grep -q "which NODE of default?" "$err" || fail "explain without a node"
expect 1 info /
grep -q '^dmamap: /: cannot read: Is a directory$' "$err" || fail "a directory as a board"
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
	"$cli" info - <"boards/$stdin_board.dts" >"$out" 2>"$err" || fail "info - <.dts"
	grep -q "^board dmamap $stdin_board" "$out" || fail "info - <.dts: no board"
	if command -v dtc >/dev/null; then
		dtc -q -O dtb "boards/$stdin_board.dts" | "$cli" info - >"$out" 2>"$err" || fail "info - <.dtb"
		grep -q "^board dmamap $stdin_board" "$out" || fail "info - <.dtb: no board"
	fi
	# sweep reads standard input once and boards it for every seed.
	"$cli" sweep --board - --seeds 2 <"boards/$stdin_board.dts" >"$out" 2>"$err" || fail "sweep --board -"
	grep -q '^sweep: board -, 2 seeds from 1, 4 drivers each' "$out" || fail "sweep --board -: not two seeds"
	# A source on standard input finds its relative includes from here, as dtc's would.
	inc=$(mktemp -d)
	{ cat "boards/$stdin_board.dts"; echo '/include/ "body.dtsi"'; } >"$inc/main.dts"
	printf '/ { model = "from an include"; };\n' >"$inc/body.dtsi"
	abs=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
	(cd "$inc" && "$abs" info - <main.dts) >"$out" 2>"$err" || fail "info - with a relative /include/"
	grep -q '^board from an include:' "$out" || fail "info -: the include was not read"
	rm -rf "$inc"
	"$cli" info - </dev/null >"$out" 2>"$err" && fail "empty standard input accepted"
	grep -q '^dmamap: standard input: empty: no device tree$' "$err" || fail "empty standard input: not said"
	echo junk | "$cli" info - >"$out" 2>"$err" && fail "junk on standard input accepted"
	grep -q '^dmamap: standard input, as ' "$err" || fail "junk: not said as standard input"
	# Source on standard input needs a temporary copy: where there is no room, said.
	TMPDIR=/nonexistent/dir "$cli" info - <"boards/$stdin_board.dts" >"$out" 2>"$err" && fail "no TMPDIR accepted"
	grep -q '^dmamap: standard input: cannot make a temporary file: No such file or directory$' "$err" ||
		fail "no room for standard input's copy: not said"
	# A file too large to be a tree is refused before it is read whole.
	truncate -s 65M "$out.dtb"
	expect 1 info "$out.dtb"
	grep -q "^dmamap: $out.dtb: larger than 64 MiB: not a device tree$" "$err" || fail "a 65 MiB .dtb: not said"
	rm -f "$out.dtb"
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
	# A long path comes back whole, not cut at some buffer's end.
	long=$d
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
		long=$long/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
	done
	mkdir -p "$long"
	cp boards/default.dts "$long/b.dts"
	"$cli" demo --board "$long/b.dts" --json >"$out" 2>"$err" || fail "demo on a long path"
	grep -q "\"board\":\"$long/b.dts\"" "$out" || fail "a long board path is cut"
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
