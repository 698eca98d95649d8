# Sourced by the checks that build a program against "$build/libdmamap.a":
# sets san (the library's instrumentation, by build directory) and fdt
# (-lfdt when the library uses libfdt), and gives build_and_run.
case "$(basename "$build")" in
build-asan) san="-fsanitize=address,undefined" ;;
build-tsan) san="-fsanitize=thread" ;;
build-cov) san="--coverage" ;;
*) san="" ;;
esac
fdt=""
if nm "$build/libdmamap.a" 2>/dev/null | grep -q ' U fdt_'; then fdt=-lfdt; fi

# build_and_run SOURCE PROGRAM: compile SOURCE against the library, warnings as errors, and run it.
build_and_run() {
	${CC:-cc} -std=gnu11 -Wall -Wextra -Werror $san -Iinclude -o "$2" "$1" \
		"$build/libdmamap.a" -pthread -lm -ldl $fdt
	"$2"
}
