#!/bin/sh
# Bash completion: the commands, a command's options (from its --help),
# the built-in boards and the bug names, asked of the dmamap completed.
set -eu
build=${1:-build}
cd "$(dirname "$0")/../.."
command -v bash >/dev/null 2>&1 || { echo "completion.sh: bash not found"; exit 1; }
cli=$(cd "$build" && pwd)/dmamap
complete_words() { # the command line's words; prints COMPREPLY sorted
	bash -c '. completion/dmamap.bash
		COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
		_dmamap; printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$@"
}
check() { # WANT, then the words
	want=$1
	shift
	got=$(complete_words "$@" | tr '\n' ' ')
	case " $got" in
	*" $want "*) ;;
	*) echo "completion.sh: '$*' completes to '$got', without '$want'"; exit 1 ;;
	esac
}
check explain "$cli" ex
check bench "$cli" ""
check --chaos "$cli" demo --ch
check --overlay "$cli" info --o
check --trace-text "$cli" run --trace
check rpi4-like "$cli" demo --board rp
check arm64-server "$cli" info ar
check missing-sync-for-cpu "$cli" demo --bug missing-sync-f
check list "$cli" demo --bug l
check -x "$cli" bench -
[ -z "$(complete_words "$cli" demo --chaos "")" ] || { echo "completion.sh: --chaos completes a value"; exit 1; }
echo "completion.sh: ok"
