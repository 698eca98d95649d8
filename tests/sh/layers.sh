#!/bin/sh
# The layers of src/ and the only arrows allowed between them (docs/design.md).
# Every include in src/ must follow an arrow of the table; so must every call
# between folders, read from the built objects, since a call up can hide
# behind a public header; and a few names stay where they belong. Fails
# naming the file and the arrow it would add.
# $1: the build directory whose objects show the calls (default build/).
# With --list it only prints the folder arrows the includes make, with counts.
set -eu
build=${1:-build}
cd "$(dirname "$0")/../.."
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT INT TERM

# The include lines of a file, however spaced: "path" or <path>.
includes() {
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p' "$1"
}

# The folder (under src/) a quoted include of file $1 lands in: "a/../b"
# folded by hand, since a realpath per include made this check slow.
target_dir() {
	printf '%s/%s\n' "$(dirname "$1")" "$2" | awk -F/ '{
		n = 0
		for (i = 1; i <= NF; i++) {
			if ($i == "." || $i == "") continue
			if ($i == ".." && n > 0 && part[n] != "..") { n--; continue }
			part[++n] = $i
		}
		out = ""
		for (i = 2; i < n; i++) out = out (i > 2 ? "/" : "") part[i]
		if (part[1] != "src") out = ".." (out == "" ? "" : "/" out)
		print out == "" ? "." : out
	}'
}

if [ "${1:-}" = --list ]; then
	for f in $(find src -name '*.[ch]' | sort); do
		includes "$f" | sed -n 's/^"\(.*\)"$/\1/p' | while read -r inc; do
			to=$(target_dir "$f" "$inc")
			from=$(dirname "${f#src/}")
			if [ "$to" != "$from" ]; then echo "$from -> $to"; fi
		done
	done | sort | uniq -c | awk '{ printf "%-16s %s %-16s %4d\n", $2, $3, $4, $1 }'
	exit 0
fi

# folder: the folders its files may include from (besides itself).
allowed() {
	case "$1" in
	run) echo "driver of lib" ;;
	driver) echo "base of lib" ;;
	core) echo "debug ops hw mm platform base lib" ;;
	debug) echo "hw mm platform base lib" ;;
	ops) echo "hw mm platform base lib" ;;
	hw) echo "hw/models platform base lib" ;;
	hw/models) echo "" ;;
	mm) echo "platform base lib" ;;
	platform) echo "platform/host platform/sim platform/vfio base lib" ;;
	platform/sim) echo "base lib" ;;
	platform/host) echo "base lib" ;;
	platform/vfio) echo "base lib" ;;
	base) echo "lib" ;;
	lib) echo "" ;;
	of) echo "lib" ;;
	*) echo "UNKNOWN" ;;
	esac
}

# Backends meet only through named helpers: in ops/, a file may include
# these of its neighbours' headers (direct -> swiotlb, as dma-direct calls swiotlb_*).
ops_allowed() {
	case "$1" in
	direct.c | direct_alloc.c | direct_limits.c | direct.h) echo "direct.h swiotlb.h ops_helpers.h" ;;
	swiotlb.c) echo "swiotlb.h" ;;
	dmabounce.c) echo "dmabounce.h direct.h" ;;
	iommu.c) echo "iommu.h iommu_int.h ops_helpers.h" ;;
	iommu_link.c) echo "iommu.h iommu_int.h" ;;
	vfio.c) echo "vfio.h ops_helpers.h" ;;
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

# A file's code without its comments, for the name rules below. awk, not
# the compiler: nothing to fail and fall back from, and no process per rule.
code_of() {
	awk '{
		line = $0; out = ""
		while (line != "") {
			if (incomment) {
				e = index(line, "*/")
				if (!e) { line = ""; break }
				line = substr(line, e + 2); incomment = 0; continue
			}
			b = index(line, "/*"); l = index(line, "//")
			if (l && (!b || l < b)) { out = out substr(line, 1, l - 1); line = ""; break }
			if (!b) { out = out line; line = ""; break }
			out = out substr(line, 1, b - 1); line = substr(line, b + 2); incomment = 1
		}
		print out
	}' "$1"
}

# The tables above as text awk reads ("folder:allowed folders" a line), so
# that each check below is one awk pass, not a process per include or call.
dirs="run driver core debug ops hw hw/models mm platform platform/sim platform/host platform/vfio base lib of"
table=$(for d in $dirs; do echo "$d:$(allowed "$d")"; done)
opsfiles=$(cd src/ops && ls)
opstable=$(for f in $opsfiles; do echo "$f:$(ops_allowed "$f")"; done)

# Shared by both passes: the tables, and a file's folder under src/.
awk_lib='
function load(text, into,    n, rows, i, c) {
	n = split(text, rows, "\n")
	for (i = 1; i <= n; i++) {
		c = index(rows[i], ":")
		if (c) into[substr(rows[i], 1, c - 1)] = " " substr(rows[i], c + 1) " "
	}
}
function folder(path,    d) {
	d = path; sub(/^src\//, "", d); sub(/\/[^\/]*$/, "", d)
	return d
}'

# 1. Includes.
files=$(find src -name '*.[ch]' | sort)
{
	for f in $files; do echo "FILE $f"; done
	# shellcheck disable=SC2086
	grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' $files
} | awk -v table="$table" -v opstable="$opstable" "$awk_lib"'
BEGIN { load(table, ok); load(opstable, opsok) }
$1 == "FILE" { f = $2; from = folder(f); if (!(from in ok)) print f ": folder " from " is not in the table of layers"; next }
{
	c = index($0, ":"); f = substr($0, 1, c - 1); line = substr($0, c + 1)
	match(line, /[<"][^>"]*[>"]/); inc = substr(line, RSTART, RLENGTH)
	from = folder(f)
	if (inc ~ /^<dmamap\//) next
	if (inc ~ /^</) {
		if (inc ~ /\.\./ || inc ~ /src\// || inc ~ /\/.*\/.*\//) print f ": includes " inc ": src/ is reached with \"...\" only"
		next
	}
	inc = substr(inc, 2, length(inc) - 2)
	# "a/../b" folded: where under src/ the include lands.
	n = split(f "/../" inc, part, "/"); m = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "." || part[i] == "") continue
		if (part[i] == ".." && m > 0 && keep[m] != "..") { m--; continue }
		keep[++m] = part[i]
	}
	to = ""
	for (i = 2; i < m; i++) to = to (i > 2 ? "/" : "") keep[i]
	if (keep[1] != "src") to = ".." (to == "" ? "" : "/" to)
	if (to == "") to = "."
	if (to ~ /^\.\./) { print f ": includes \"" inc "\", outside src/"; next }
	if (to == from) {
		b = f; sub(/.*\//, "", b); h = inc; sub(/.*\//, "", h)
		if (from == "ops" && index(opsok[b], " " h " ") == 0)
			print f ": includes \"" inc "\": ops/" b " may reach only" opsok[b]
		next
	}
	if (index(ok[from], " " to " ") == 0)
		print f ": includes \"" inc "\": arrow " from " -> " to " is not allowed (" from " may include:" (ok[from] ~ /^ *$/ ? " nothing" : ok[from]) ")"
}' >"$tmp"
[ -s "$tmp" ] && fail "$(cat "$tmp")"

# 2. Calls, from the objects of a build: a public function is declared in
# include/, so a call up could hide behind a public header.
objs=$( (cd "$build" 2>/dev/null && find src -name '*.o' | sort) || true)
if [ -z "$objs" ] || ! command -v nm >/dev/null 2>&1; then
	echo "layers.sh: no objects in $build (or no nm): calls not checked"
else
	for o in $objs; do
		[ -f "${o%.o}.c" ] || continue # left over from a source that is gone
		nm "$build/$o" | awk -v o="$o" '$2 ~ /^[TDBRWV]$/ { print "D", $3, o }
						  $1 == "U" { print "U", $2, o }'
	done | awk -v table="$table" "$awk_lib"'
	BEGIN { load(table, ok) }
	$1 == "D" { def[$2] = $3; next }
	{ use[NR] = $3 " " $2 }
	END {
		for (i in use) {
			split(use[i], u, " ")
			if (!(u[2] in def)) continue
			user = u[1]; owner = def[u[2]]; sym = u[2]
			from = folder(user); to = folder(owner)
			if (from == to) continue
			# Device trees, device models, the driver model and the runner are
			# clients of the public API, as drivers are.
			if (from ~ /^(of|hw\/models|driver|run)$/ && sym !~ /^dmamap__/) continue
			if (index(ok[from], " " to " ") == 0)
				print user " calls " sym " of " owner ": arrow " from " -> " to " is not allowed"
		}
	}' | sort -u >"$tmp"
	[ -s "$tmp" ] && fail "$(cat "$tmp")"
fi

# 3. Names. Only the port knows which machine is behind a platform: no kind,
# no simulator state, no public kind query elsewhere.
for f in $(find src -name '*.[ch]' ! -path 'src/platform/*' | sort); do
	pat='MACHINE_HOST|MACHINE_SIM|mach\.kind|->sim\b|dmamap_platform_is_sim'
	[ "$f" = src/base/device.h ] && pat='mach\.kind|->sim\b|dmamap_platform_is_sim'
	hit=$(code_of "$f" | grep -Eo "$pat" | head -1)
	[ -n "$hit" ] && fail "$f asks which machine it runs on ($hit)"
done
# The simulator's own names stay behind the port; port.c dispatches to them.
for f in $(grep -rl 'dmamap__sim_' src --include='*.[ch]' || true); do
	case "$f" in
	src/platform/sim/* | src/platform/port.c) ;;
	*) fail "$f names the simulator (dmamap__sim_*)" ;;
	esac
done
# The API's entry points never reach a bounce pool: they call the direct
# backend (core/board.c and core/device.c set the pools up, as arch code does).
for f in src/core/mapping.c src/core/alloc.c src/core/mask.c src/core/fault.c; do
	hit=$(code_of "$f" | grep -Eo 'swiotlb[a-z_]*|io_tlb[a-z_]*|->bounce_all' | head -1)
	[ -n "$hit" ] && fail "$f reaches a bounce pool ($hit)"
done

[ "$status" = 0 ] && echo "layers.sh: every include and call follows an allowed arrow"
exit "$status"
