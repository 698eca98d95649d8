#!/bin/sh
# Install what the build needs from Debian when it is missing (as root), or
# print the apt-get line to run.
# $1: what for: "" (the build), test, fuzz, coverage; or "check", which
# installs nothing and only says what is missing (a plain `make`).
# NO_FDT=1: a build without device trees needs neither libfdt nor dtc.
need=""
command -v cc >/dev/null 2>&1 || need="$need gcc libc6-dev"
command -v make >/dev/null 2>&1 || need="$need make"
if [ "${NO_FDT:-}" != 1 ]; then
	command -v dtc >/dev/null 2>&1 || need="$need device-tree-compiler"
	# Where the compiler finds it, not only where Debian puts it.
	echo '#include <libfdt.h>' | ${CC:-cc} -E -x c - >/dev/null 2>&1 ||
		[ -f /usr/include/libfdt.h ] || need="$need libfdt-dev"
fi
if [ "$1" = check ]; then
	[ -z "$need" ] && exit 0
	echo "dmamap: missing packages:$need" >&2
	echo "dmamap: run 'make deps' (as root) or: sudo apt-get install -y$need" >&2
	[ "${NO_FDT:-}" != 1 ] && echo "dmamap: or build without device trees: make NO_FDT=1" >&2
	exit 1
fi
# `make fuzz` also needs clang's libFuzzer.
[ "$1" = fuzz ] && ! command -v clang >/dev/null 2>&1 && need="$need clang"
# `make test` builds the installed example with pkg-config, renders the SVG picture to PNG and lints the man pages;
# `make coverage` runs the same tests, and its floors count on none of them skipping.
tests=false
{ [ "$1" = test ] || [ "$1" = coverage ]; } && tests=true
$tests && ! command -v pkg-config >/dev/null 2>&1 && need="$need pkg-config"
$tests && ! command -v rsvg-convert >/dev/null 2>&1 && need="$need librsvg2-bin"
$tests && ! command -v mandoc >/dev/null 2>&1 && need="$need mandoc"
$tests && ! command -v python3 >/dev/null 2>&1 && need="$need python3"
# `make coverage` reads the counters with gcovr.
[ "$1" = coverage ] && ! command -v gcovr >/dev/null 2>&1 && need="$need gcovr"
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "dmamap: installing:$need"
	DEBIAN_FRONTEND=noninteractive apt-get install -y $need >/dev/null 2>&1 ||
		{ apt-get update >/dev/null 2>&1 &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y $need; } || exit 1
else
	echo "dmamap: missing packages; run: sudo apt-get install -y$need" >&2
	exit 1
fi
