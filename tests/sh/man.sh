#!/bin/sh
# The man pages: each lints clean (mandoc -Tlint, warnings included) and
# renders with man(1) without a warning; each command has its page, which
# names every option its --help names; dmamap(1) points to every page.
set -eu
build=${1:-build}
cli="$build/dmamap"
cd "$(dirname "$0")/../.."
command -v mandoc >/dev/null 2>&1 || { echo "man.sh: mandoc not found (make deps test)"; exit 1; }
for page in man/*.[1-9]; do
	mandoc -Tlint -Wwarning "$page" || { echo "man.sh: $page has lint warnings"; exit 1; }
	if command -v man >/dev/null 2>&1; then
		w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null || true)
		[ -z "$w" ] || { echo "man.sh: $page: $w"; exit 1; }
	fi
done
for c in demo info explain sweep run bench; do
	page=man/dmamap-$c.1
	[ -f "$page" ] || { echo "man.sh: no $page"; exit 1; }
	grep -q "^\.Xr dmamap-$c 1" man/dmamap.1 || { echo "man.sh: dmamap.1 does not name dmamap-$c(1)"; exit 1; }
	text=$(mandoc -Tascii "$page" | sed 's/.\x08//g')
	for opt in $("$cli" "$c" --help | grep -oE -- '(^|[ ,])\[?-(-[a-z][a-z-]*|[a-zA-Z])\b' | tr -d ' ,[' | sort -u); do
		# A whole token: -b must not pass because --board is described.
		printf '%s\n' "$text" | grep -qE -- "(^|[^a-zA-Z-])$opt([^a-zA-Z-]|\$)" ||
			{ echo "man.sh: $page does not describe $opt"; exit 1; }
	done
done
# Every command dmamap --help lists has its page.
for c in $("$cli" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'); do
	[ -f "man/dmamap-$c.1" ] || { echo "man.sh: command $c has no page"; exit 1; }
done
# The library page's example is a program that builds and runs (against
# the plain build: a sanitizer build's archive needs its runtime linked too).
if [ "$(basename "$build")" != build ]; then
	echo "man.sh: ok (libdmamap.3 example not built: '$build' is not the plain build)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mandoc -Tascii man/libdmamap.3 | sed 's/.\x08//g' |
	awk '/^EXAMPLES/ { on = 1; next } /^SEE ALSO/ { on = 0 } on && /^           / { sub(/^           /, ""); print }' >"$tmp/example.c"
grep -q 'dma_map_single' "$tmp/example.c" || { echo "man.sh: no example in libdmamap.3"; exit 1; }
${CC:-cc} -Wall -Wextra -Werror -Iinclude "$tmp/example.c" "$build/libdmamap.a" -lfdt -pthread -lm -ldl -o "$tmp/example" 2>"$tmp/cc.out" ||
	${CC:-cc} -Wall -Wextra -Werror -Iinclude "$tmp/example.c" "$build/libdmamap.a" -pthread -lm -ldl -o "$tmp/example" ||
	{ cat "$tmp/cc.out"; echo "man.sh: the libdmamap.3 example does not build"; exit 1; }
"$tmp/example" | grep -q '^mapped at 0x' || { echo "man.sh: the libdmamap.3 example does not run"; exit 1; }
echo "man.sh: ok"
