#!/bin/sh
# The layers of src/ and the only arrows allowed between them (docs/design.md):
# every #include "..." in src/ must follow one, and two names stay where they
# belong. Fails naming the file, the include and the arrow it would add.
# $1: the build directory, whose objects show the calls (checked when built).
# With --list it only prints the folder arrows the includes make, with counts.
set -eu
build=${1:-build}
cd "$(dirname "$0")/../.."

if [ "${1:-}" = --list ]; then
	for f in $(find src -name '*.[ch]' | sort); do
		dir=$(dirname "$f")
		grep '^#include "' "$f" | sed 's/^#include "\(.*\)".*/\1/' | while read -r inc; do
			to=$(dirname "$(realpath -m --relative-to=src "$dir/$inc")")
			if [ "$to" != "${dir#src/}" ]; then echo "${dir#src/} -> $to"; fi
		done
	done | sort | uniq -c | awk '{ printf "%-16s %s %-16s %4d\n", $2, $3, $4, $1 }'
	exit 0
fi

# folder: the folders its files may include from (besides itself).
allowed() {
	case "$1" in
	core) echo "debug ops hw mm platform base lib" ;;
	debug) echo "hw mm platform base lib" ;;
	ops) echo "hw mm platform base lib" ;;
	hw) echo "hw/models platform base lib" ;;
	hw/models) echo "" ;;
	mm) echo "platform base lib" ;;
	platform) echo "platform/host platform/sim base lib" ;;
	platform/sim) echo "base lib" ;;
	platform/host) echo "base lib" ;;
	base) echo "lib" ;;
	lib) echo "" ;;
	of) echo "lib" ;;
	of/none) echo "of lib" ;;
	*) echo "UNKNOWN" ;;
	esac
}

# Backends meet only through named helpers: in ops/, a file may include
# these of its neighbours' headers (direct -> swiotlb, as dma-direct calls swiotlb_*).
ops_allowed() {
	case "$1" in
	direct.c | direct_alloc.c) echo "direct.h swiotlb.h ops_helpers.h" ;;
	swiotlb.c) echo "swiotlb.h" ;;
	dmabounce.c) echo "dmabounce.h direct.h" ;;
	iommu.c) echo "iommu.h ops_helpers.h" ;;
	ops_helpers.c) echo "ops_helpers.h" ;;
	*.h) echo "$1" ;;
	*) echo "" ;;
	esac
}

status=0
fail() {
	echo "layers.sh: $*" >&2
	status=1
}

for f in $(find src -name '*.[ch]' | sort); do
	dir=$(dirname "$f")
	from=${dir#src/}
	ok=$(allowed "$from")
	[ "$ok" = UNKNOWN ] && fail "$f: folder $from is not in the table of layers"
	grep -n '^#include "' "$f" | while IFS= read -r line; do
		inc=$(echo "$line" | sed 's/^[0-9]*:#include "\(.*\)".*/\1/')
		target=$(realpath -m --relative-to=src "$dir/$inc")
		case "$target" in
		../*) echo "$f: includes $inc, outside src/"; continue ;;
		esac
		to=$(dirname "$target")
		if [ "$to" = "$from" ]; then
			if [ "$from" = ops ]; then
				hdr=$(basename "$target")
				case " $(ops_allowed "$(basename "$f")") " in
				*" $hdr "*) ;;
				*) echo "$f: includes $inc: ops/$(basename "$f") may reach only $(ops_allowed "$(basename "$f")")" ;;
				esac
			fi
			continue
		fi
		case " $ok " in
		*" $to "*) ;;
		*) echo "$f: includes $inc: arrow $from -> $to is not allowed ($from may include: ${ok:-nothing})" ;;
		esac
	done
done >"${TMPDIR:-/tmp}/layers.$$" 2>&1
if [ -s "${TMPDIR:-/tmp}/layers.$$" ]; then
	sed 's/^/layers.sh: /' "${TMPDIR:-/tmp}/layers.$$" >&2
	status=1
fi
rm -f "${TMPDIR:-/tmp}/layers.$$"

# Calls follow the same arrows: a public function is declared in include/,
# so a call up can hide behind a public header. From the objects of a build.
if [ -d "$build/src" ] && command -v nm >/dev/null 2>&1; then
	calls=$(for o in $(cd "$build" && find src -name '*.o' | sort); do
		[ -f "${o%.o}.c" ] || continue # left over from a source that is gone
		nm "$build/$o" | awk -v o="$o" '$2 ~ /^[TDBR]$/ { print "D", $3, o }
						  $1 == "U" { print "U", $2, o }'
	done | awk '$1 == "D" { def[$2] = $3; next } { use[NR] = $3 " " $2 }
		END { for (i in use) { split(use[i], u, " "); if (u[2] in def) print u[1], def[u[2]], u[2] } }' |
	while read -r user owner sym; do
		from=$(dirname "${user#src/}")
		to=$(dirname "${owner#src/}")
		[ "$from" = "$to" ] && continue
		# Device trees and device models are clients of the public API, as drivers are.
		case "$from:$sym" in
		of:dmamap__* | of/none:dmamap__* | hw/models:dmamap__*) ;;
		of:* | of/none:* | hw/models:*) continue ;;
		esac
		case " $(allowed "$from") " in
		*" $to "*) ;;
		*) echo "$user calls $sym of $owner: arrow $from -> $to is not allowed" ;;
		esac
	done | sort -u)
	[ -n "$calls" ] && fail "$calls"
fi

# Only the port knows which machine is behind a platform.
kind=$(grep -rln 'MACHINE_HOST\|MACHINE_SIM\|mach\.kind' src --include='*.[ch]' |
	grep -v '^src/platform/' | grep -v '^src/base/device.h$' || true)
[ -n "$kind" ] && fail "the machine kind is tested outside src/platform/: $kind"
# The simulator's own names stay behind the port (port.c dispatches to them).
sim=$(grep -rln 'dmamap__sim_' src --include='*.[ch]' | grep -v '^src/platform/' || true)
[ -n "$sim" ] && fail "dmamap__sim_* used outside src/platform/: $sim"
# The API's entry points never call a bounce pool: they call the direct backend
# (the platform's setup in core/board.c and core/device.c creates the pools).
core=$(grep -ln 'dmamap__swiotlb_\|bounce_all' src/core/mapping.c src/core/alloc.c \
	src/core/mask.c || true)
[ -n "$core" ] && fail "the entry points call swiotlb: $core"

[ "$status" = 0 ] && echo "layers.sh: every include follows an allowed arrow"
exit "$status"
