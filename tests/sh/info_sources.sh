#!/bin/sh
# dmamap info on a tree laid out as the kernel's: -I finds its dt-bindings
# header, --overlay applies a fragment, and a missing header is named.
set -eu
cli="$1/dmamap"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
command -v dtc >/dev/null && command -v cpp >/dev/null || { echo "no dtc/cpp: skipped"; exit 0; }
"$cli" info default --json | grep -q '"board"' || exit 1
# A build without libfdt reads no tree: nothing more to check.
"$cli" info boards/default.dts >/dev/null 2>&1 || { echo "no libfdt: skipped"; exit 0; }

mkdir -p "$dir/include/dt-bindings/acme" "$dir/arch"
echo '#define ACME_WINDOW 0x4000000' >"$dir/include/dt-bindings/acme/window.h"
cat >"$dir/arch/board.dts" <<'DTS'
/dts-v1/;
#include <dt-bindings/acme/window.h>
/ {
	#address-cells = <1>;
	#size-cells = <1>;
	memory@80000000 { device_type = "memory"; reg = <0x80000000 0x8000000>; };
	soc: soc {
		compatible = "simple-bus";
		#address-cells = <1>;
		#size-cells = <1>;
		ranges;
		dma-ranges = <0x0 0x80000000 ACME_WINDOW>;
		dmac: dma@1000 { compatible = "dmamap,memcpy"; reg = <0x1000 0x100>; };
	};
};
DTS
cat >"$dir/coherent.dts" <<'DTS'
/dts-v1/;
/plugin/;
&dmac { dma-coherent; };
DTS
out=$("$cli" info "$dir/arch/board.dts" -I "$dir/include")
echo "$out" | grep 'dma@1000' | grep -q ' no .* 0x3ffffff  *cpu 0x80000000 -> dma 0x0 (64 MiB)'
out=$("$cli" info "$dir/arch/board.dts" -I"$dir/include" --overlay "$dir/coherent.dts")
echo "$out" | grep 'dma@1000' | grep -q ' yes '
if "$cli" info "$dir/arch/board.dts" 2>"$dir/err"; then exit 1; fi
grep -q 'dt-bindings/acme/window.h' "$dir/err"
grep -q -- '-I its include/' "$dir/err"
# -I belongs to a tree file, not a built-in board.
if "$cli" info default -I "$dir/include" 2>"$dir/err"; then exit 1; fi
grep -q 'device tree file' "$dir/err"
