#!/bin/sh
# The CLI's main job: the demo verifies every byte on every device of the
# default board; each --bug corrupts the non-coherent devices only.
set -eu
cli="$1/dmamap"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

"$cli" demo >"$out"
grep -q "all bytes verified on every device" "$out"
[ "$(grep -c '\[OK\]' "$out")" -eq 3 ]

for bug in missing-sync wrong-direction cpu-write-while-mapped shared-cacheline; do
	"$cli" demo --bug "$bug" >"$out"
	# dma-coh survives, both non-coherent devices are corrupted.
	awk '/^dma-coh/{d="coh"} /^dma-nc/{d="nc"} /^dma-32/{d="32"}
	     /data:/ { if (d == "coh" && $0 !~ /survived/) bad = 1;
	               if (d != "coh" && $0 !~ /CORRUPTED/) bad = 1 }
	     END { exit bad }' "$out" || { echo "bug $bug:"; cat "$out"; exit 1; }
done

"$cli" demo --board armv5 | grep -q "all bytes verified on every device"
"$cli" demo --chaos 42 | grep -q "all bytes verified on every device"
"$cli" demo --json >"$out"
grep -q '"device":"dma-nc"' "$out"
if command -v python3 >/dev/null 2>&1; then python3 -m json.tool "$out" >/dev/null; fi
"$cli" info | grep -q "dma-nc"
"$cli" info --json | grep -q '"name":"dma-32"'
# Bad input: a usage error, not a crash.
if "$cli" demo --bug nonsense >/dev/null 2>&1; then exit 1; fi
if "$cli" demo --board nonsense >/dev/null 2>&1; then exit 1; fi
exit 0
