# Sourced by the shell tests (after cli= is set): simulated BOARD answers
# whether this host simulates the built-in BOARD. A 32-bit host refuses a
# board whose linear map its address space cannot hold, and says so; the
# tests then say which checks they leave out.
simulated() {
	if "$cli" info "$1" 2>&1 >/dev/null | grep -q 'RAM to simulate on a 32-bit host\|cannot reserve RAM bank'; then
		echo "$(basename "$0"): $1 not simulated on this 32-bit host: its checks left out"
		return 1
	fi
	return 0
}
