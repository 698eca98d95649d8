#!/bin/sh
# The CLI's main job: the demo verifies every byte on every device of the
# default board; each --bug corrupts the non-coherent devices only.
set -eu
cli="$1/dmamap"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
. tests/sh/lib/boards.sh

"$cli" demo >"$out"
grep -q "all bytes verified on every device" "$out"
[ "$(grep -c '\[OK\]' "$out")" -eq 14 ]
grep -A4 '^dma-iommu' "$out" | grep -q 'iommu:' 
grep -A2 '^dma-24' "$out" | grep -q 'KiB bounced'
grep -A2 '^ixp-pci' "$out" | grep -q 'dmabounce'
# Every driver on every device: NICs and block devices verified too.
grep -A4 '^nic-iommu' "$out" | grep -q 'frames'
grep -A4 '^blk-24' "$out" | grep -q 'requests'

# Which devices the cache bugs corrupt: every non-coherent one, except that
# a bounced buffer does not share its cache lines with its neighbours.
expect() {
	case "$1:$2" in
	*:dma-coh) echo survived ;;
	shared-cacheline:dma-24|shared-cacheline:ixp-pci) echo survived ;;
	*) echo "CORRUPTED\\|LOST" ;;
	esac
}
# The gallery: every bug listed runs (once: under an emulator each run
# counts), names its fix, and breaks something.
"$cli" demo --bug list >"$out"
bugs=$(awk '/^[a-z0-9]/ { print $1 }' "$out")
[ "$(echo "$bugs" | wc -l)" -eq 18 ] || { echo "gallery: $(echo "$bugs" | wc -l) bugs"; cat "$out"; exit 1; }
for bug in $bugs; do
	"$cli" demo --bug "$bug" >"$out"
	grep -q "^fix: " "$out" || { echo "bug $bug: no fix line"; exit 1; }
	grep -q " BROKE " "$out" || { echo "bug $bug broke nothing"; cat "$out"; exit 1; }
	case $bug in
	missing-sync|wrong-direction|cpu-write-while-mapped|shared-cacheline) ;;
	*) continue ;;
	esac
	for dev in dma-coh dma-nc dma-32 dma-24 ixp-pci dma-iommu; do
		want=$(expect "$bug" "$dev")
		awk -v d="$dev" '$1 == d { on = 1; next } /^[a-z]/ { on = 0 } on && /data:/ { print }' \
			"$out" | grep -q "$want" || { echo "bug $bug on $dev: want $want"; cat "$out"; exit 1; }
	done
done
for bug in missing-sync wrong-direction cpu-write-while-mapped shared-cacheline; do
	echo "$bugs" | grep -qx "$bug" || { echo "gallery: no $bug"; exit 1; }
done
"$cli" demo --bug tx-nonsense 2>&1 | grep -q "unknown bug .tx-nonsense. (bugs: .*missing-sync"
# On the device thread as well.
"$cli" demo --threaded | grep -q "all bytes verified on every device"
"$cli" demo --bug rx-no-sync-for-device --json >"$out"
if command -v python3 >/dev/null 2>&1; then python3 -m json.tool "$out" >/dev/null; fi
"$cli" sweep --seeds 3 | grep -q "0 seeds failed"
"$cli" demo --board armv5 | grep -q "all bytes verified on every device"
# Where each device sees RAM: the rpi4-like board's legacy DMA sees RAM at 0 through 0xc0000000.
if simulated rpi4-like; then
	"$cli" demo --board rpi4-like | grep -A1 '^dma@7e007000' | grep -q 'RAM 0x0 seen at 0xc0000000'
fi
# The header counts what it shows, and names the devices that have no demo driver.
"$cli" demo --board arm64-server >"$out"
head -n 1 "$out" | grep -q '5 devices, 4 with a demo driver (none for iommu@2b400000)'
[ "$(grep -c '\[OK\]' "$out")" -eq 4 ]
# Chaos says its seed and what it did to each device's cache lines.
"$cli" demo --chaos 42 >"$out"
grep -q "all bytes verified on every device" "$out"
head -n 1 "$out" | grep -q 'chaos seed 42$'
grep -A3 '^dma-nc' "$out" | grep -q 'cache: .*; chaos: [1-9][0-9]* dirty lines evicted, [0-9]* lines prefetched'
# Strict mode aborts at the first report, and what was printed before it is kept.
if DMAMAP_STRICT=1 "$cli" demo --bug missing-sync >"$out" 2>"$out.err"; then exit 1; fi
grep -q '^dmamap demo: board default' "$out"
grep -q 'strict mode: aborting' "$out.err"
# ... and comes before the report when both go to one file.
if DMAMAP_STRICT=1 "$cli" demo --bug missing-sync >"$out" 2>&1; then exit 1; fi
board=$(grep -n '^dmamap demo: board default' "$out" | cut -d: -f1)
report=$(grep -n '^DMA-API: ' "$out" | head -n 1 | cut -d: -f1)
[ -n "$board" ] && [ -n "$report" ] && [ "$board" -lt "$report" ]
rm -f "$out.err"
"$cli" demo --json >"$out"
grep -q '"device":"dma-nc"' "$out"
if command -v python3 >/dev/null 2>&1; then python3 -m json.tool "$out" >/dev/null; fi
"$cli" info >"$out"
grep -q "dma-nc" "$out"
# The board before its devices: the zones as its RAM fills them.
grep -q '^  ZONE_DMA   0x80000000  *0x83ffffff  *64 MiB' "$out"
grep -q '^  ZONE_DMA32 0x84000000  *0x87ffffff  *64 MiB' "$out"
"$cli" info --json >"$out"
grep -q '"name":"dma-32"' "$out"
grep -q '"map":\[{"cpu":"0x80000000","dma":"0x0","size":"0x8000000"}\]' "$out"
grep -q '"iommu":{"name":"smmu0","stream_ids":\[66\]}' "$out"
for board in default rpi4-like arm64-server x86-like armv5; do
	simulated "$board" >/dev/null || continue
	"$cli" info "$board" --json >"$out"
	if command -v python3 >/dev/null 2>&1; then python3 -m json.tool "$out" >/dev/null; fi
	# No sentinel values: what is absent is null.
	if grep -q '"0x0+0x0"\|"iommu":""\|"bus_dma_limit":"0x0"' "$out"; then exit 1; fi
done
if simulated rpi4-like >/dev/null; then
	"$cli" info rpi4-like --json | grep -q '"path":"/scb/dma@7e800000"'
fi
"$cli" info --svg "$out" >/dev/null
grep -q '<svg' "$out" && grep -q 'dma-iommu' "$out" && grep -q '</svg>' "$out"
if command -v python3 >/dev/null 2>&1; then python3 -c "import sys, xml.dom.minidom as m; m.parse(sys.argv[1])" "$out"; fi
# RAM the tree leaves to firmware: the demo runs in the RAM given.
"$cli" demo --board boards/default.dts --ram 0x80000000+0x10000000 >"$out"
grep -q "all bytes verified on every device" "$out"
"$cli" info boards/default.dts --ram 0x80000000+0x4000000,0x100000000+0x4000000 --json >"$out"
for bad in "" "+" "0x1000" "1+" "+1" "1+2," "x+1" "1+2,3" "0x80000000+0x1000,0x80000000+0x1000" \
	   "1+1,2+2,3+3,4+4,5+5,6+6,7+7,8+8,9+9"; do
	if "$cli" info boards/default.dts --ram "$bad" >/dev/null 2>&1; then echo "--ram '$bad' accepted"; exit 1; fi
done
if "$cli" info default --ram 0x80000000+0x1000000 >/dev/null 2>&1; then exit 1; fi
# A node name JSON cannot carry as is (a crafted blob): still valid JSON.
if command -v python3 >/dev/null 2>&1 && command -v dtc >/dev/null 2>&1; then
	printf '/dts-v1/; / { #address-cells = <1>; #size-cells = <1>;
	  memory@80000000 { device_type = "memory"; reg = <0x80000000 0x4000000>; };
	  dma@1 { compatible = "dmamap,memcpy"; reg = <1 1>; }; };' >"$out.dts"
	dtc -q -I dts -O dtb -o "$out.dtb" "$out.dts"
	python3 -c "import sys; p=sys.argv[1]; b=bytearray(open(p,'rb').read()); b[b.find(b'dma@1')+3]=34; open(p,'wb').write(b)" "$out.dtb"
	"$cli" info "$out.dtb" --json | python3 -c "import sys, json; d=json.load(sys.stdin); assert d['devices'][0]['name']=='dma\"1'"
	rm -f "$out.dts" "$out.dtb"
fi
# Bad input: a usage error, not a crash.
if "$cli" demo --bug nonsense >/dev/null 2>&1; then exit 1; fi
if "$cli" demo --board nonsense >/dev/null 2>&1; then exit 1; fi
exit 0
