#!/bin/sh
# Help and version: on stdout with exit 0; usage errors on stderr with exit
# 2, naming the bad argument and the valid choices.
set -u
cli="$1/dmamap"
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
exit 0
