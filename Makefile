# dmamap — front door. `make demo`, `make test`, `make bench`, `make install`.
# SAN=1 builds everything with ASan+UBSan into build-asan/; TSAN=1 into build-tsan/.

PREFIX ?= /usr/local
# Where the libraries and dmamap.pc go; a Debian package sets its multiarch directory.
LIBDIR ?= $(PREFIX)/lib
CC ?= cc
V ?= 0

ifeq ($(SAN),1)
BUILD := build-asan
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
else ifeq ($(TSAN),1)
BUILD := build-tsan
SANFLAGS := -fsanitize=thread
else ifeq ($(COV),1)
BUILD := build-cov
# The test runner's children call libgcov's dump and reset through weak
# references, which would not pull them out of the archive on their own.
SANFLAGS := --coverage -Wl,-u,__gcov_dump,-u,__gcov_reset
else
BUILD := build
SANFLAGS :=
endif
# Without libfdt the objects differ: their own directory, never mixed with a full build's.
ifeq ($(NO_FDT),1)
BUILD := $(BUILD)-nofdt
endif

OPT ?= -O2
# 64-bit file offsets on 32-bit hosts too: simulated RAM is a memfd larger than 2 GiB.
CFLAGS_BASE := -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wno-missing-field-initializers -g $(OPT) -fPIC -D_FILE_OFFSET_BITS=64 \
	-pthread -Iinclude $(SANFLAGS)
override CFLAGS := $(CFLAGS_BASE) $(CFLAGS)
LDLIBS = -pthread -lm -ldl $(FDT_LIB)

# Every folder of src/; the device tree reader needs libfdt (below).
FDT_SRCS := $(wildcard src/of/fdt*.c)
LIB_SRCS := $(sort $(filter-out $(FDT_SRCS),$(wildcard src/*/*.c src/*/*/*.c)))
# Device trees need libfdt; NO_FDT=1 builds stubs that return -ENOSYS instead.
ifeq ($(NO_FDT),1)
LIB_SRCS += src/of/fdt_none.c
FDT_LIB :=
else
LIB_SRCS += $(filter-out src/of/fdt_none.c,$(FDT_SRCS))
FDT_LIB := -lfdt
endif
DRV_SRCS := $(sort $(wildcard drivers/*.c))
TOOL_SRCS := $(sort $(wildcard tools/*.c))
# tests/*.c and one level of folders (tests/unit/ may include private headers).
TEST_SRCS := $(sort $(wildcard tests/*.c tests/*/*.c))
BENCH_SRCS := $(sort $(wildcard bench/*.c))

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
BOARD_DTS := $(sort $(wildcard boards/*.dts))
ifneq ($(NO_FDT),1)
LIB_OBJS += $(BUILD)/boards/embedded.o
endif
DRV_OBJS := $(DRV_SRCS:%.c=$(BUILD)/%.o)
TOOL_OBJS := $(TOOL_SRCS:%.c=$(BUILD)/%.o)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/%.o)
BENCH_OBJS := $(BENCH_SRCS:%.c=$(BUILD)/%.o)

SONAME := libdmamap.so.0
STATIC := $(BUILD)/libdmamap.a
SHARED := $(BUILD)/$(SONAME)
CLI := $(BUILD)/dmamap
TESTS := $(BUILD)/dmamap-tests

.PHONY: all deps demo test bench install uninstall clean check-san fuzz
all: $(STATIC) $(SHARED) $(CLI)

# The Debian packages the build needs, installed when root (NO_FDT=1 needs neither libfdt nor dtc).
DEPS := NO_FDT=$(NO_FDT) sh mk/deps.sh
deps:
	@$(DEPS)

demo: deps
	@$(MAKE) --no-print-directory all
	$(CLI) demo

test:
	@$(DEPS) test
	@$(MAKE) --no-print-directory $(TESTS) $(CLI) $(SHARED)
	@sh tests/run.sh $(BUILD)

bench: deps
	@$(MAKE) --no-print-directory $(CLI) $(BUILD)/dmamap-bench-vfio
	$(CLI) bench
	@$(BUILD)/dmamap-bench-vfio || true
	@echo "VFIO, in a guest with an emulated IOMMU and NVMe disk (make test-vm):"
	@DMAMAP_VFIO_VM_IOMMUFD=0 sh mk/test-vm.sh $(BUILD) 2>&1 | grep -E '^(bench:|vfio-vm.sh: skipped|test-vm: FAILED)' || true

# The example NVMe driver on an emulated NVMe disk through VFIO and an
# emulated IOMMU, in a KVM guest (TCG where /dev/kvm does not work).
.PHONY: test-vm
test-vm: deps
	@$(MAKE) --no-print-directory $(CLI)
	@sh mk/test-vm.sh $(BUILD)

# The correct drivers under 10,000 seeds of cache chaos and device schedule
# on every device of the default board (and a thousand on the others).
SWEEP_SEEDS ?= 10000
.PHONY: sweep
sweep: deps
	@$(MAKE) --no-print-directory $(CLI)
	$(CLI) sweep --seeds $(SWEEP_SEEDS)
	@for b in armv5 rpi4-like arm64-server x86-like; do $(CLI) sweep --board $$b --seeds $$(( $(SWEEP_SEEDS) / 10 )) || exit 1; done

# The long runs, not for every commit: SOAK_SEEDS seeds of every example
# driver on every device of every built-in board; every failure point of
# every driver on every device; eight threads on every backend under chaos
# for SOAK_SECONDS, in this build and under TSan.
SOAK_SEEDS ?= 10000
SOAK_SECONDS ?= 300
.PHONY: soak
soak: deps
	@$(MAKE) --no-print-directory $(CLI) $(TESTS)
	@for b in $(notdir $(BOARD_DTS:.dts=)); do $(CLI) sweep --board $$b --seeds $(SOAK_SEEDS) || exit 1; done
	DMAMAP_WALK_ALL=1 $(TESTS) faults_walk_sweep
	DMAMAP_SOAK_SECONDS=$(SOAK_SECONDS) $(TESTS) cache_chaos_threads_every_backend
	@$(MAKE) --no-print-directory TSAN=1 build-tsan/dmamap-tests
	DMAMAP_SOAK_SECONDS=$(SOAK_SECONDS) TSAN_OPTIONS=halt_on_error=1 \
		build-tsan/dmamap-tests cache_chaos_threads_every_backend

# -MMD -MP: each object depends on the headers it really includes.
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC $<";) $(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

-include $(patsubst %.o,%.d,$(LIB_OBJS) $(DRV_OBJS) $(TOOL_OBJS) $(TEST_OBJS) $(BENCH_OBJS))

# A plain `make` does not install packages: without libfdt or dtc it stops
# with what to run instead of a compiler error.
.PHONY: fdt-check
fdt-check:
	@$(DEPS) check

$(filter-out $(BUILD)/src/of/fdt_none.o,$(filter $(BUILD)/src/of/fdt%,$(LIB_OBJS))): | fdt-check

# The boards/*.dts files, compiled with dtc and embedded in the library.
$(BUILD)/boards/embedded.c: $(BOARD_DTS) mk/embed.sh | fdt-check
	@mkdir -p $(dir $@)
	sh mk/embed.sh $@ $(BOARD_DTS)

$(BUILD)/boards/embedded.o: $(BUILD)/boards/embedded.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# Only the library hides its internals; programs keep their symbols for -rdynamic,
# so the checker can name the function that made a mapping.
$(LIB_OBJS): override CFLAGS += -fvisibility=hidden

$(STATIC): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(SHARED): $(LIB_OBJS) mk/dmamap.map
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=mk/dmamap.map \
		-o $@ $(LIB_OBJS) $(LDLIBS)
	ln -sf $(SONAME) $(BUILD)/libdmamap.so

# The whole library goes in, exported (-rdynamic): the drivers `dmamap run`
# loads bind to this copy, whatever library they were linked with.
$(CLI): $(TOOL_OBJS) $(DRV_OBJS) $(BENCH_OBJS) $(STATIC)
	$(CC) $(CFLAGS) $(LDFLAGS) -rdynamic -o $@ $(TOOL_OBJS) $(DRV_OBJS) $(BENCH_OBJS) \
		-Wl,--whole-archive $(STATIC) -Wl,--no-whole-archive $(LDLIBS)

# The command line's code goes in too (not its main()): tests/fuzz replays
# cli_fuzz's inputs through it.
TEST_TOOL_OBJS := $(filter-out $(BUILD)/tools/dmamap.o,$(TOOL_OBJS)) $(BENCH_OBJS)
# The native VFIO line of make bench: the library and a stand-in kernel (bench/vfio/).
$(BUILD)/dmamap-bench-vfio: $(BUILD)/bench/vfio/vfio_bench.o $(STATIC)
	$(CC) $(CFLAGS) -o $@ $< $(STATIC) $(LDLIBS)

$(TESTS): $(TEST_OBJS) $(DRV_OBJS) $(TEST_TOOL_OBJS) $(STATIC)
	$(CC) $(CFLAGS) -rdynamic -o $@ $(TEST_OBJS) $(DRV_OBJS) $(TEST_TOOL_OBJS) $(STATIC) $(LDLIBS)

# The libFuzzer targets (clang), each FUZZ_SECONDS, with a timeout per input
# and a memory limit (docs/reliability.md): fdt_fuzz (the device tree reader,
# seeded with the built-in boards), api_fuzz (programs of driver API calls),
# ring_fuzz (the device models against a hostile driver), board_fuzz (boards
# described in code, and the environment), cli_fuzz (the command line),
# dts_fuzz (.dts source through cpp and dtc) and vfio_fuzz (a PCI address
# and every answer of a kernel the input plays), each seeded from
# fuzz/corpus/NAME/. The library is compiled once for all of them. What they
# find lands in build-fuzz/ as crash-*, timeout-*, oom-*.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := fdt_fuzz api_fuzz ring_fuzz board_fuzz cli_fuzz dts_fuzz vfio_fuzz
FUZZ_FLAGS := -timeout=10 -rss_limit_mb=4096 -artifact_prefix=build-fuzz/
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer-no-link,address,undefined -Iinclude -pthread -MMD -MP \
	-Wall -Wextra -Werror -Wno-missing-field-initializers
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=build-fuzz/obj/%.o) build-fuzz/obj/embedded.o
# The command line's own code, and what it links besides the library.
FUZZ_CLI_OBJS := $(patsubst %.c,build-fuzz/obj/%.o,$(filter-out tools/dmamap.c,$(TOOL_SRCS)) \
	$(DRV_SRCS) $(BENCH_SRCS))
FUZZ_EXTRA_cli_fuzz := $(FUZZ_CLI_OBJS)
# The CLI prints; the reports go on where libFuzzer keeps its own stderr.
# Its inputs are whole jobs: the slowest stored one (`demo --scale 2`) takes
# 2.8 s instrumented on an idle core and took 21 s beside a coverage build,
# so a hang is 30 s here.
FUZZ_RUN_cli_fuzz := -close_fd_mask=3 -timeout=30
FUZZ_RUN_dts_fuzz := -max_len=8192
-include $(shell find build-fuzz -name '*.d' 2>/dev/null)
build-fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC (fuzz) $<";) clang $(FUZZ_CFLAGS) -c $< -o $@
build-fuzz/embedded.c: $(BOARD_DTS) mk/embed.sh
	@mkdir -p build-fuzz
	sh mk/embed.sh $@ $(BOARD_DTS)
build-fuzz/obj/embedded.o: build-fuzz/embedded.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -c $< -o $@
build-fuzz/%_fuzz: fuzz/%_fuzz.c $(FUZZ_LIB_OBJS)
	@echo "  LD (fuzz) $@"
	@clang $(subst fuzzer-no-link,fuzzer,$(FUZZ_CFLAGS)) -o $@ $< $(FUZZ_LIB_OBJS) \
		$(FUZZ_EXTRA_$(notdir $@)) -lfdt -ldl -lm
build-fuzz/cli_fuzz: $(FUZZ_CLI_OBJS)
.SECONDARY: $(FUZZ_LIB_OBJS) $(FUZZ_CLI_OBJS)
.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_TARGETS:%=build-fuzz/%)
fuzz:
	@$(DEPS) fuzz
	@$(MAKE) --no-print-directory $(if $(findstring j,$(filter-out --%,$(MAKEFLAGS))),,-j$$(nproc 2>/dev/null || echo 2)) fuzz-build
	@for t in $(FUZZ_TARGETS); do mkdir -p build-fuzz/corpus-$$t; \
		[ ! -d fuzz/corpus/$${t%_fuzz} ] || cp fuzz/corpus/$${t%_fuzz}/* build-fuzz/corpus-$$t/; done
	@for d in $(BOARD_DTS); do dtc -q -I dts -O dtb -o build-fuzz/corpus-fdt_fuzz/$$(basename $$d .dts).dtb $$d; done
	@for t in $(FUZZ_TARGETS); do \
		echo "== $$t, $(FUZZ_SECONDS) s"; \
		build-fuzz/$$t -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS) -max_len=4096 \
			$$(case $$t in cli_fuzz) echo "$(FUZZ_RUN_cli_fuzz)";; dts_fuzz) echo "$(FUZZ_RUN_dts_fuzz)";; esac) \
			build-fuzz/corpus-$$t >build-fuzz/$$t.log 2>&1; st=$$?; \
		tail -n 3 build-fuzz/$$t.log; \
		[ $$st = 0 ] || { tail -n 60 build-fuzz/$$t.log; exit 1; }; \
	done

# The curated mutants (mk/mutants.py), each applied to a copy of the tree in
# build-mutate/, the test binary rebuilt and the mutant's tests run: the
# score, and every mutant left alive. MUTATE_MIN=95 makes a low score fail.
.PHONY: mutate
mutate: deps
	python3 mk/mutate.py

# cppcheck and gcc -fanalyzer; any finding fails (suppressions, with their reasons, in mk/analyze.sh).
.PHONY: analyze
analyze:
	sh mk/analyze.sh

# Line and branch coverage of src/ by every test, the shell tests included
# (they drive the command line): built with --coverage into build-cov/
# (build-cov-nofdt/ with NO_FDT=1; unoptimised, so that lines map to code),
# counters reset and the notes of objects whose source is gone dropped (gcov
# would complain about them), the tests run (their log in
# build-cov/tests.log), gcovr's summary, then each folder's figures and the
# floors.
.PHONY: coverage
COV_BUILD := build-cov$(if $(filter 1,$(NO_FDT)),-nofdt)
# The floors the total must keep (percent): where it stands, a little below
# for runs that differ; the build without a device tree reader has none.
COV_MIN_LINES ?= $(if $(filter 1,$(NO_FDT)),0,95)
COV_MIN_BRANCHES ?= $(if $(filter 1,$(NO_FDT)),0,85)
coverage:
	@$(DEPS) coverage
	@$(MAKE) --no-print-directory COV=1 OPT=-O0 $(COV_BUILD)/dmamap-tests $(COV_BUILD)/dmamap \
		$(COV_BUILD)/$(SONAME)
	@find $(COV_BUILD) -name '*.gcda' -delete
	@cd $(COV_BUILD) && find . -name '*.gcno' | while read n; do \
		[ -f "../$${n%.gcno}.c" ] || [ -f "$${n%.gcno}.c" ] || rm -f "$$n"; done
	@sh tests/run.sh $(COV_BUILD) >$(COV_BUILD)/tests.log 2>&1; st=$$?; \
		tail -n 1 $(COV_BUILD)/tests.log; \
		gcovr -r . --filter 'src/' --print-summary --json-summary $(COV_BUILD)/summary.json \
			$(COV_BUILD) || st=1; \
		python3 mk/coverage_folders.py $(COV_BUILD)/summary.json $(COV_MIN_LINES) $(COV_MIN_BRANCHES) || st=1; \
		exit $$st

install: $(STATIC) $(SHARED) $(CLI)
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/include/dmamap/hw $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libdmamap.so
	install -m 644 include/dmamap/*.h $(DESTDIR)$(PREFIX)/include/dmamap/
	install -m 644 include/dmamap/hw/*.h $(DESTDIR)$(PREFIX)/include/dmamap/hw/
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 man/*.3 $(DESTDIR)$(PREFIX)/share/man/man3/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 completion/dmamap.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/dmamap
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@FDT_LIB@|$(FDT_LIB)|' -e "s|@VERSION@|$$(sed -n 's/^#define DMAMAP_VERSION "\(.*\)"/\1/p' include/dmamap/version.h)|" \
		mk/dmamap.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/dmamap.pc
	@# A system install is found by the loader only once its cache knows it (a driver .so
	@# needs libdmamap.so.0); a staged install (DESTDIR, a package) leaves that to the package.
	@if [ -n "$(DESTDIR)" ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null 2>&1; then \
		ldconfig; \
		ldconfig -p | grep -q " => $(LIBDIR)/$(SONAME)$$" || \
		echo "dmamap: $(LIBDIR) is not on the loader's path: add it to a file in /etc/ld.so.conf.d/ and run ldconfig, or run programs with LD_LIBRARY_PATH=$(LIBDIR)"; \
	else \
		echo "dmamap: not root, ldconfig not run: run 'sudo ldconfig' if $(LIBDIR) is on the loader's path, else run programs with LD_LIBRARY_PATH=$(LIBDIR)"; \
	fi

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/include/dmamap $(DESTDIR)$(LIBDIR)/libdmamap.* \
		$(DESTDIR)$(LIBDIR)/pkgconfig/dmamap.pc $(DESTDIR)$(PREFIX)/bin/dmamap \
		$(DESTDIR)$(PREFIX)/share/man/man1/dmamap*.1 $(DESTDIR)$(PREFIX)/share/man/man3/libdmamap.3 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/dmamap

clean:
	rm -rf build build-nofdt build-asan build-asan-nofdt build-tsan build-tsan-nofdt build-m32 build-deb \
		build-fuzz build-cov build-cov-nofdt build-mutate build-x-* build-vm-*
