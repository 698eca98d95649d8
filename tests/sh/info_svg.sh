#!/bin/sh
# dmamap info --svg: a picture a renderer takes (rendered to PNG when
# rsvg-convert is there), with its legend, banks to scale and the broken
# axis between them, coherency marks and each device's bus view.
set -eu
cli="$1/dmamap"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$cli" info arm64-server --svg "$out/server.svg" >/dev/null
. tests/sh/lib/boards.sh
pictures=server
if simulated rpi4-like; then
	pictures="server rpi"
	"$cli" info rpi4-like --svg "$out/rpi.svg" >/dev/null
fi
# Two banks 32 GiB apart: both drawn, the gap named, not drawn to scale.
grep -q '>RAM 256 MiB<' "$out/server.svg"
[ "$(grep -c '>RAM 256 MiB<' "$out/server.svg")" -eq 2 ]
grep -q 'gap 32512 MiB' "$out/server.svg"
grep -q 'through an IOMMU' "$out/server.svg"
grep -q '<title>CMA: the default area</title>' "$out/server.svg"
# The rpi4-like SD host sees RAM at 0 on its bus at 0xc0000000.
if [ -f "$out/rpi.svg" ]; then
	grep -q 'dma 0xc0000000 = cpu 0x0 (1 GiB)' "$out/rpi.svg"
	grep -q '<title>non-coherent</title>' "$out/rpi.svg" && grep -q '<title>coherent</title>' "$out/rpi.svg"
fi
for f in $pictures; do
	grep -q '>non-coherent</text>' "$out/$f.svg" # the legend
	if command -v python3 >/dev/null 2>&1; then
		python3 -c "import sys, xml.dom.minidom as m; m.parse(sys.argv[1])" "$out/$f.svg"
	fi
	if command -v rsvg-convert >/dev/null 2>&1; then
		rsvg-convert "$out/$f.svg" -o "$out/$f.png"
		[ "$(wc -c <"$out/$f.png")" -gt 5000 ]
	fi
done
# Nowhere to write: the reason, not only the name.
if "$cli" info --svg /nonexistent/x.svg 2>"$out/err" >/dev/null; then exit 1; fi
grep -q 'No such file or directory' "$out/err"
