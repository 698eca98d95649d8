# bash completion for dmamap: commands, each command's options, the
# built-in boards, the bug names and device tree files. The boards and bugs
# are asked of the dmamap being completed, so they are always its own.

_dmamap_boards()
{
	"$1" --help 2>/dev/null | sed -n 's/^boards: //p'
}

_dmamap_bugs()
{
	"$1" demo --bug list 2>/dev/null | awk '/^[a-z0-9]/ { print $1 }'
}

_dmamap_options()
{
	"$1" "$2" --help 2>/dev/null | grep -oE -- '(^|[ ,])\[?-(-[a-z][a-z-]*|[a-zA-Z])\b' | tr -d ' ,[' | sort -u
}

_dmamap()
{
	local cur prev cmd prog=${COMP_WORDS[0]}
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	cmd=${COMP_WORDS[1]}
	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "demo info explain sweep run bench nvme help --help --version" -- "$cur"))
		return
	fi
	case "$cmd" in
	help)
		[ "$COMP_CWORD" -eq 2 ] &&
			COMPREPLY=($(compgen -W "demo info explain sweep run bench nvme" -- "$cur"))
		return ;;
	esac
	case "$prev" in
	--board)
		COMPREPLY=($(compgen -W "$(_dmamap_boards "$prog")" -- "$cur"))
		[ "$cmd" = sweep ] || COMPREPLY+=($(compgen -f -X '!*.@(dts|dtb)' -- "$cur") $(compgen -d -- "$cur"))
		return ;;
	--bug)
		COMPREPLY=($(compgen -W "$(_dmamap_bugs "$prog") list" -- "$cur"))
		return ;;
	--overlay)
		COMPREPLY=($(compgen -f -X '!*.@(dtbo|dtso)' -- "$cur") $(compgen -d -- "$cur"))
		return ;;
	-I)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--svg|--junit|--trace|--trace-text)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--chaos|--scale|--seeds|--first|--jobs|-j|--timeout|--ram|--device|--test|-t|-s|-n|-b|-d|-x|-g)
		return ;;
	esac
	if [[ "$cur" == -* ]]; then
		COMPREPLY=($(compgen -W "$(_dmamap_options "$prog" "$cmd")" -- "$cur"))
		return
	fi
	# nvme: the functions bound to vfio-pci.
	if [ "$cmd" = nvme ]; then
		COMPREPLY=($(compgen -W "$(ls /sys/bus/pci/drivers/vfio-pci 2>/dev/null | grep ':')" -- "$cur"))
		return
	fi
	case "$cmd" in
	info|explain)
		# The board first (explain's second word is a device of it).
		if [ "$cmd" = info ] || [ "$COMP_CWORD" -eq 2 ]; then
			COMPREPLY=($(compgen -W "$(_dmamap_boards "$prog")" -- "$cur")
				   $(compgen -f -X '!*.@(dts|dtb)' -- "$cur") $(compgen -d -- "$cur"))
		fi ;;
	run)
		COMPREPLY=($(compgen -f -X '!*.so' -- "$cur") $(compgen -d -- "$cur")) ;;
	esac
}
shopt -s extglob 2>/dev/null
complete -F _dmamap dmamap
