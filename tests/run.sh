#!/bin/sh
# Run every test of a build directory: the unit/scenario binary, then the
# install and export checks. The last line is the total:
# "N passed, N failed, N skipped" (the binary's own last line has that form).
set -u
build=${1:-build}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$build/dmamap-tests" | tee "$out"
p=$(tail -n 1 "$out" | awk '{print $1}')
f=$(tail -n 1 "$out" | awk '{print $3}')
s=$(tail -n 1 "$out" | awk '{print $5 + 0}')
# Each shell test says its time: under an emulator they are a good part of the run.
for t in tests/sh/*.sh; do
	t0=$(date +%s)
	if sh "$t" "$build" >"$out" 2>&1; then
		echo "ok - $t ($(($(date +%s) - t0)) s)"; p=$((p + 1))
	else
		cat "$out"; echo "not ok - $t ($(($(date +%s) - t0)) s)"; f=$((f + 1))
	fi
done
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
