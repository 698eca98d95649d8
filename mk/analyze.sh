#!/bin/sh
# Static analysis: cppcheck over every C source, and gcc -fanalyzer over
# the library's. Any finding fails. Every suppression is in the table
# below, one per line: the tool, the check, the files, and the reason.
# Installs cppcheck when root.
set -eu
cd "$(dirname "$0")/.."

suppressions='
cppcheck shiftTooManyBits src/core/board.c DMA_BIT_MASK(64) takes the ~0ULL branch of its ternary: cppcheck evaluates the shift of the branch not taken
cppcheck shiftTooManyBits src/ops/direct_limits.c DMA_BIT_MASK(64), as above
cppcheck shiftTooManyBits bench/bench.c DMA_BIT_MASK(64), as above
cppcheck unknownMacro src/of/fdt_populate.c fdt_for_each_subnode is libfdt'"'"'s iterator, from a system header cppcheck is not given (it would parse all of /usr/include)
cppcheck arithOperationsOnVoidPointer drivers/* register offsets added to a void __iomem * cookie, as kernel drivers write them: gnu11 steps void * arithmetic by bytes
analyzer null-dereference src/core/sg.c for_each_sg over nents entries runs after the list was checked to hold them; the analyzer assumes a shorter list
analyzer null-dereference src/core/noncontig.c the walk covers the table sg_alloc_table() just made with exactly that many entries
analyzer null-dereference src/ops/iommu.c the output entry advances at most once per input entry, so it never passes the list'"'"'s end
analyzer null-dereference src/driver/devres.c every caller checks the device is a bound platform device (its state exists) first
analyzer null-dereference src/hw/irq.c deliverable() is only asked of descriptors slot() found
analyzer malloc-leak src/hw/models/nic.c the frame is kept in the wire'"'"'s ring, freed when popped or when the model is destroyed
'

if ! command -v cppcheck >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y cppcheck >/dev/null 2>&1 ||
			{ apt-get update >/dev/null 2>&1 &&
			  DEBIAN_FRONTEND=noninteractive apt-get install -y cppcheck >/dev/null; }
	else
		echo "analyze.sh: cppcheck not found (apt-get install cppcheck)" >&2
		exit 1
	fi
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "$suppressions" | awk '$1 == "cppcheck" { print $2 ":" $3 }' >"$tmp/cppcheck.supp"
status=0
cppcheck --quiet --enable=warning,portability --std=c11 -Iinclude --inline-suppr \
	--suppressions-list="$tmp/cppcheck.supp" --error-exitcode=1 -j"$(nproc 2>/dev/null || echo 2)" \
	src tools drivers bench fuzz 2>"$tmp/cppcheck.out" || status=1
if [ -s "$tmp/cppcheck.out" ] || [ "$status" != 0 ]; then
	cat "$tmp/cppcheck.out"
	echo "analyze.sh: cppcheck found the above"
	exit 1
fi
echo "analyze.sh: cppcheck: no finding ($(echo "$suppressions" | grep -c '^cppcheck') suppressions)"

# gcc -fanalyzer, file by file, with each file's suppressions as -Wno- flags.
files=$(find src -name '*.c' | sort)
found=0
for f in $files; do
	flags=$(echo "$suppressions" | awk -v f="$f" '$1 == "analyzer" && $3 == f { printf " -Wno-analyzer-%s", $2 }')
	# shellcheck disable=SC2086
	if ! gcc -std=gnu11 -O1 -fanalyzer -Wno-analyzer-too-complex $flags -Werror -Iinclude -pthread \
		-c "$f" -o /dev/null 2>"$tmp/one.out"; then
		cat "$tmp/one.out"
		found=$((found + 1))
	fi
done
if [ "$found" != 0 ]; then
	echo "analyze.sh: gcc -fanalyzer: findings in $found files (above)"
	exit 1
fi
echo "analyze.sh: gcc -fanalyzer: no finding in $(echo "$files" | wc -l) files ($(echo "$suppressions" | grep -c '^analyzer') suppressions)"
