#!/bin/sh
# The build's own messages: without libfdt or dtc a plain `make` stops with
# what to install (it installs nothing itself), and NO_FDT=1 needs neither.
set -eu
# Run from `make test` the nested makes would inherit its flags and the
# variables set on its command line, which make exports (SAN=1, a jobserver
# they cannot reach): each one here says what it builds itself.
unset MAKEFLAGS MAKELEVEL MFLAGS SAN TSAN COV NO_FDT BUILD OPT CFLAGS CPPFLAGS
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
# The first line make would run for a target, or the failure named.
first_line() {
	make -C "$top" --no-print-directory -n -B "$@" >"$tmp/n" 2>&1 || { cat "$tmp/n"; exit 1; }
	head -n 1 "$tmp/n"
}
# Every device tree object waits for the check, and so does the board blob.
for target in build/src/of/fdt.o build/boards/embedded.c; do
	first_line "$target" | grep -q 'deps.sh check' ||
		{ echo "make_hints.sh: $target does not wait for the check:"; head -n 3 "$tmp/n"; exit 1; }
done
# A build without device trees has its own directory.
first_line NO_FDT=1 all >/dev/null
grep -q 'build-nofdt/src/of/fdt_none.o' "$tmp/n" ||
	{ echo "make_hints.sh: NO_FDT=1 does not build into build-nofdt/:"; head -n 3 "$tmp/n"; exit 1; }
echo "make_hints.sh: ok"
