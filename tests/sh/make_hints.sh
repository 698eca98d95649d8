#!/bin/sh
# The build's own messages: without libfdt or dtc a plain `make` stops with
# what to install (it installs nothing itself), and NO_FDT=1 needs neither.
set -eu
# Run from `make test` the nested makes would inherit its flags (SAN=1, a
# jobserver they cannot reach): each one here says what it builds itself.
unset MAKEFLAGS MAKELEVEL MFLAGS
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A PATH with the build tools but no dtc.
mkdir "$tmp/bin"
for t in make cc pkg-config id sh; do
	p=$(command -v "$t") || { echo "make_hints.sh: $t not found"; exit 1; }
	ln -s "$p" "$tmp/bin/$t"
done
if PATH=$tmp/bin make -C "$top" --no-print-directory fdt-check >"$tmp/out" 2>&1; then
	echo "make_hints.sh: the check passed without dtc"; exit 1
fi
grep -q "missing packages: device-tree-compiler" "$tmp/out" || { cat "$tmp/out"; exit 1; }
grep -q "run 'make deps'" "$tmp/out"
grep -q "make NO_FDT=1" "$tmp/out"
PATH=$tmp/bin make -C "$top" --no-print-directory NO_FDT=1 fdt-check
PATH=$tmp/bin NO_FDT=1 sh "$top/mk/deps.sh"
# Every device tree object waits for the check, and so does the board blob.
make -C "$top" --no-print-directory -n -B build/src/of/fdt.o | head -n 1 | grep -q 'deps.sh check'
make -C "$top" --no-print-directory -n -B build/boards/embedded.c | head -n 1 | grep -q 'deps.sh check'
# A build without device trees has its own directory.
make -C "$top" --no-print-directory -n -B NO_FDT=1 all | grep -q 'build-nofdt/src/of/fdt_none.o'
echo "make_hints.sh: ok"
