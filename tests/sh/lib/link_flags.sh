# Sourced by the checks that build a program against "$build/libdmamap.a":
# sets san (the library's instrumentation, by build directory) and fdt
# (-lfdt when the library uses libfdt).
case "$(basename "$build")" in
build-asan) san="-fsanitize=address,undefined" ;;
build-tsan) san="-fsanitize=thread" ;;
build-cov) san="--coverage" ;;
*) san="" ;;
esac
fdt=""
if nm "$build/libdmamap.a" 2>/dev/null | grep -q ' U fdt_'; then fdt=-lfdt; fi
