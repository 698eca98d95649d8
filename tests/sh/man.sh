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
		case "$text" in
		*"$opt"*) ;;
		*) echo "man.sh: $page does not describe $opt"; exit 1 ;;
		esac
	done
done
# Every command dmamap --help lists has its page.
for c in $("$cli" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'); do
	[ -f "man/dmamap-$c.1" ] || { echo "man.sh: command $c has no page"; exit 1; }
done
echo "man.sh: ok"
