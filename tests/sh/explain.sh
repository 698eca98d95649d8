#!/bin/sh
# dmamap explain: a device's derivation by name or path, with what the
# board made of it; usage errors exit 2, unknown devices 1.
set -eu
cli="$1/dmamap"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$cli" info boards/default.dts >/dev/null 2>&1 || { echo "no libfdt: skipped"; exit 0; }
. tests/sh/lib/boards.sh
if simulated rpi4-like; then
	"$cli" explain rpi4-like mmc@7e340000 >"$out"
	grep -q '^/soc/mmc@7e340000 on ' "$out"
	grep -q 'entry 1: bus 0xc0000000 = CPU 0x0, size 0x40000000' "$out"
	grep -q 'bounces: nothing' "$out"
fi
"$cli" explain default /isa-bus/dma-24 >"$out"
grep -q 'bounces: buffers from CPU 0x81000000 on' "$out"
"$cli" explain default dma-iommu | grep -q 'iommus has 1 id on smmu0'
set +e
"$cli" explain default >/dev/null 2>&1; [ $? -eq 2 ] || exit 1
"$cli" explain default nosuch >/dev/null 2>"$out"; [ $? -eq 1 ] || exit 1
grep -q 'no device nosuch' "$out"
