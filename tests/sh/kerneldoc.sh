#!/bin/sh
# Every public function is documented in its header: a kernel-doc block
# naming it, one @line per parameter, and a Return: section unless it
# returns nothing (tests/sh/kerneldoc.py says what is missing where).
# $1: the build directory (not used).
set -eu
cd "$(dirname "$0")/../.."
if ! command -v python3 >/dev/null 2>&1; then
	echo "kerneldoc.sh: no python3: not checked"
	exit 0
fi
python3 tests/sh/kerneldoc.py include/dmamap/*.h include/dmamap/hw/*.h
