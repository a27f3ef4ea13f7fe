# SPDX-License-Identifier: MIT
# membench — GNU Make build.
#   make            build ./membench
#   make run        build and run the default benchmark
#   make check      build and run every test (unit + command line)
#   make check-report  membench report rendered in headless Chromium (Debian: chromium)
#   make install    PREFIX=/usr/local DESTDIR=
#   make check-deb  build the Debian package in a scratch copy, install, check, remove
#   make mpi        build ./membench-mpi with mpicc (make check-mpi tests it)
#   make static     static membench for x86-64 and arm64 (build-static/ARCH/membench)
#   make check-static  the static binary in an empty root, a few short modes, and the image
#   make image      the OCI image (Containerfile, FROM scratch) with podman
#   make dist       dist/: source tarball, both static binaries, SHA256SUMS
# The one version: --version, JSON and the Debian package's (debian/changelog, checked
# against it by make check).
VERSION  := 0.2.0
CC       ?= cc
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man/man1
# Shell completions (membench completions SHELL); Debian's zsh directory is
# vendor-completions (debian/rules says so).
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CSTD     := -std=c11 -D_GNU_SOURCE
OPT      ?= -O2
# What the build needs always comes first; CFLAGS given on the command line or in
# the environment (make CFLAGS=-march=native) is added after it, so it can add and
# override (-O3) without losing -Isrc or -std.
override CFLAGS := $(CSTD) $(OPT) $(WARN) -g -pthread -Isrc -DMEMBENCH_VERSION='"$(VERSION)"' $(CFLAGS)
override LDLIBS += -pthread -lm

BUILD    := build
# V=1 shows full compiler command lines.
Q        := $(if $(filter 1,$(V)),,@)
SRCS     := $(shell find src -name '*.c' | sort)
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
OBJS     := $(SRCS:%.c=$(BUILD)/%.o)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
TEST_SRCS := $(shell find tests/unit -name '*.c' | sort)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/%.o)
# Fuzz targets: fuzz/fuzz_NAME.c, corpus fuzz/corpus/NAME/. make check replays
# every corpus through $(BUILD)/fuzz-replay/NAME (fuzz/replay_main.c, no clang).
FUZZ_TARGETS := $(patsubst fuzz/fuzz_%.c,%,$(sort $(wildcard fuzz/fuzz_*.c)))
FUZZ_HELPER_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(filter-out fuzz/fuzz_%.c fuzz/replay_main.c,$(wildcard fuzz/*.c)))
FUZZ_OBJS := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%.o) $(FUZZ_HELPER_OBJS) $(BUILD)/fuzz/replay_main.o
REPLAYS  := $(FUZZ_TARGETS:%=$(BUILD)/fuzz-replay/%)
.SECONDARY: $(FUZZ_OBJS)
DEPS     := $(OBJS:.o=.d) $(TEST_OBJS:.o=.d) $(FUZZ_OBJS:.o=.d) $(BUILD)/faulty/kernel_registry.d \
            $(BUILD)/faulty/c2c.d $(BUILD)/tests/faulty/faulty_kernels.d

.PHONY: all run help check-deps check check-report check-unit check-cli check-fuzz-replay check-asan check-cross check-numa \
	check-mutants check-deb mpi check-mpi check-slurm fuzz clean install uninstall lint bench-isa bench-team completions \
	static check-static image dist

all: membench

membench: $(OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Objects are built again when the compiler line changes (another VERSION, OPT or
# CFLAGS): a stale object would keep the old version string or flags.
$(BUILD)/compile-flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(CPPFLAGS) $(CFLAGS)' | cmp -s - $@ || echo '$(CC) $(CPPFLAGS) $(CFLAGS)' > $@
FORCE:

$(BUILD)/%.o: %.c $(BUILD)/compile-flags
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/membench: $(OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# membench with corrupting kernels (tests/faulty/: MEMBENCH_CORRUPT=NAME), for the
# command-line tests: a run must report wrong data and fail. Never installed. Its
# c2c takes known times instead of the clock's when asked (MEMBENCH_C2C_NS).
FAULTY_OBJS := $(filter-out $(BUILD)/src/kernels/kernel_registry.o $(BUILD)/src/measure/c2c.o,$(OBJS)) \
               $(BUILD)/faulty/kernel_registry.o $(BUILD)/faulty/c2c.o $(BUILD)/tests/faulty/faulty_kernels.o
$(BUILD)/faulty/kernel_registry.o: src/kernels/kernel_registry.c $(BUILD)/compile-flags
	@mkdir -p $(dir $@)
	@echo "  CC      $< (faulty)"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -DMEMBENCH_FAULTY_KERNELS -MMD -MP -c -o $@ $<
$(BUILD)/faulty/c2c.o: src/measure/c2c.c $(BUILD)/compile-flags
	@mkdir -p $(dir $@)
	@echo "  CC      $< (faulty)"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -DMEMBENCH_FAULTY_KERNELS -MMD -MP -c -o $@ $<

$(BUILD)/membench-faulty: $(FAULTY_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/membench-tests: $(LIB_OBJS) $(TEST_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/fuzz-replay/%: $(LIB_OBJS) $(FUZZ_HELPER_OBJS) $(BUILD)/fuzz/replay_main.o $(BUILD)/fuzz/fuzz_%.o
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# libFuzzer binaries (make fuzz builds them with clang in build-fuzz).
$(BUILD)/fuzzer/%: $(LIB_OBJS) $(FUZZ_HELPER_OBJS) $(BUILD)/fuzz/fuzz_%.o
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

$(BUILD)/kernel_isa_ab: $(LIB_OBJS) $(BUILD)/bench/kernel_isa_ab.o
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bench-isa: $(BUILD)/kernel_isa_ab

$(BUILD)/team_costs: $(LIB_OBJS) $(BUILD)/bench/team_costs.o
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bench-team: $(BUILD)/team_costs

# membench-mpi (make mpi): the one file that calls MPI, compiled and linked by
# mpicc (Open MPI's or MPICH's, told to use $(CC)); the rest is the library the
# default build and make check already compile, so neither needs MPI.
MPICC    ?= mpicc
MPI_SRCS := $(sort $(wildcard mpi/*.c))
mpi: membench-mpi

membench-mpi: $(MPI_SRCS) $(LIB_OBJS)
	@echo "  MPICC   $@"
	$(Q)OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPICC) $(CFLAGS) $(LDFLAGS) -o $@ $(MPI_SRCS) $(LIB_OBJS) $(LDLIBS)

# Open MPI on this machine, several ranks (--oversubscribe), tiny sizes (tests/mpi/).
check-mpi: membench-mpi membench
	bash tests/mpi/run_mpi_tests.sh ./membench-mpi

# A one-machine Slurm (munged, slurmctld, slurmd under a temporary directory) and
# membench-mpi through srun and sbatch (tests/slurm/).
check-slurm: membench-mpi
	bash tests/slurm/run_slurm_tests.sh ./membench-mpi

# make static: one file for every Linux. Linked with glibc's libc.a (-static), not
# musl: memcpy stays glibc's, chosen by IFUNC at start as in the dynamic build, so
# the memcpy kernel measures what applications get (BENCHMARKS.md, "One static
# file"). The host's architecture links the objects of ./membench (the same code,
# only the C library linked in); the other is built with ARCH-linux-gnu-gcc, the
# cross toolchain of check-cross, in build-static/ARCH. STATIC_ARCHES picks some.
STATIC_ARCHES ?= x86_64 aarch64
HOST_ARCH     := $(shell uname -m)
STATIC_CROSS  := $(filter-out $(HOST_ARCH),$(STATIC_ARCHES))
static: $(STATIC_ARCHES:%=build-static/%/membench)
ifeq ($(filter build-static/%,$(BUILD)),)
build-static/$(HOST_ARCH)/membench: $(OBJS)
	@mkdir -p $(dir $@)
	@echo "  LD      $@ (static)"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -static -o $@ $^ $(LDLIBS)
# Always asks the sub-make (it knows what is out of date).
.PHONY: $(STATIC_CROSS:%=build-static/%/membench)
$(STATIC_CROSS:%=build-static/%/membench): build-static/%/membench:
	@command -v $*-linux-gnu-gcc >/dev/null || { echo "make static: $*-linux-gnu-gcc not found (Debian:" \
	  "apt-get install gcc-$(subst _,-,$*)-linux-gnu libc6-dev-$(subst aarch64,arm64,$(subst x86_64,amd64,$*))-cross)" >&2; exit 2; }
	$(Q)$(MAKE) --no-print-directory BUILD=build-static/$* CC=$*-linux-gnu-gcc LDFLAGS="$(LDFLAGS) -static" \
	  build-static/$*/membench
endif

# make image: the OCI image of Containerfile (FROM scratch: the static binary of this
# machine's architecture, the man page, LICENSE) as $(IMAGE), with podman (or
# PODMAN=buildah-compatible tool). IMAGE_SOURCE is the org.opencontainers.image.source
# label: where the sources are (default: the make dist tarball's name).
PODMAN       ?= podman
IMAGE        ?= localhost/membench:$(VERSION)
IMAGE_SOURCE ?= membench-$(VERSION).tar.gz
IMAGE_REVISION = $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
IMAGE_ARGS    = --build-arg ARCH=$(HOST_ARCH) --build-arg VERSION=$(VERSION) \
                --build-arg SOURCE=$(IMAGE_SOURCE) --build-arg REVISION=$(IMAGE_REVISION)
image: build-static/$(HOST_ARCH)/membench
	$(PODMAN) build -f Containerfile -t $(IMAGE) $(IMAGE_ARGS) .

# The static binary where a fleet runs it: in an empty root (only /proc and /sys),
# a few modes at small sizes, the arm64 one under qemu-user; then the image under
# podman (private config and storage in a temporary directory), with --cpuset-cpus
# and --memory checked against the plan (tests/static/).
check-static: static
	@bash tests/static/check_static.sh $(VERSION) "$(IMAGE_ARGS)"

# make dist: dist/ holds the source tarball (git archive of HEAD), the static binaries
# (membench-VERSION-ARCH-linux-static) and SHA256SUMS over them.
dist: static
	@rm -rf dist && mkdir -p dist
	git archive --format=tar.gz --prefix=membench-$(VERSION)/ -o dist/membench-$(VERSION).tar.gz HEAD
	$(foreach a,$(STATIC_ARCHES),cp build-static/$(a)/membench dist/membench-$(VERSION)-$(a)-linux-static &&) true
	cd dist && sha256sum membench-$(VERSION).tar.gz $(STATIC_ARCHES:%=membench-$(VERSION)-%-linux-static) >SHA256SUMS
	@cat dist/SHA256SUMS

run: membench
	./membench -R

# make help: every target, one line each.
help:
	@echo 'make                  build ./membench (CC=clang: with clang)'
	@echo 'make run              build, then run the default benchmark with the -R report'
	@echo 'make check            every test: unit, command line, fuzz corpora (about 10 min on 2 vCPUs)'
	@echo 'make check-deps       apt-get install what the checks need (without it some checks skip)'
	@echo 'make check-unit       the unit tests only'
	@echo 'make check-cli        the command-line tests only'
	@echo 'make check-fuzz-replay every fuzz corpus through its target'
	@echo 'make check-report     membench report rendered by headless Chromium'
	@echo 'make check-asan       every test under AddressSanitizer and UBSan'
	@echo 'make check-cross      every test for aarch64, riscv64, ppc64le, s390x under qemu-user'
	@echo 'make check-numa       a 3-node NUMA QEMU guest'
	@echo 'make check-mutants    planted bugs: each must make its suite fail'
	@echo 'make check-mpi        membench-mpi under Open MPI on this machine'
	@echo 'make check-slurm      membench-mpi under srun/sbatch on a one-machine Slurm'
	@echo 'make check-deb        build, lint, install and check the Debian package (root)'
	@echo 'make check-static     the static binaries in an empty root, under qemu-aarch64, and the image (root)'
	@echo 'make mpi              build membench-mpi (needs mpicc)'
	@echo 'make static           static membench for x86-64 and arm64 (build-static/ARCH/membench)'
	@echo 'make image            the OCI image (Containerfile, FROM scratch) with podman'
	@echo 'make dist             dist/: source tarball, both static binaries, SHA256SUMS'
	@echo 'make fuzz             every fuzz target under libFuzzer (clang), FUZZ_SECONDS each'
	@echo 'make lint             cppcheck'
	@echo 'make completions      the bash, zsh and fish completion scripts'
	@echo 'make install          binary, man page, completions (PREFIX, DESTDIR)'
	@echo 'make uninstall        remove what make install installed'
	@echo 'make bench-isa        build the kernel ISA A/B benchmark'
	@echo 'make bench-team       build the thread-team cost benchmark'
	@echo 'make clean            remove build outputs'

# What the checks need on Debian/Ubuntu; without them these checks skip, saying so:
# zsh, fish (completions), prometheus (promtool), linux-perf (perf bench numa mem
# side by side), python3-jsonschema (schema 2), strace (file safety), chromium
# (make check-report), util-linux (taskset, unshare, runuser). MPI and Slurm for
# make check-mpi and check-slurm; dpkg-dev and friends for make check-deb; the arm64
# cross compiler, qemu-user, podman and runc for make static and check-static.
CHECK_DEPS := make gcc python3 python3-jsonschema zsh fish prometheus linux-perf strace util-linux chromium
CHECK_DEPS_MORE := clang libopenmpi-dev openmpi-bin slurmctld slurmd slurm-client munge dpkg-dev debhelper lintian fakeroot \
		   gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user podman runc
check-deps:
	apt-get install -y $(CHECK_DEPS) $(if $(ALL),$(CHECK_DEPS_MORE))

check: membench $(BUILD)/membench-tests $(BUILD)/membench-faulty $(REPLAYS)
	@bash tests/run_all.sh ./$(BUILD)/membench-tests ./membench ./$(BUILD)/fuzz-replay

# membench report on real short runs, rendered by headless Chromium: the DOM
# against the runs' JSON, console errors, a screenshot that is not blank.
# Then a fleet of about 500 runs made from two: its table, CSV and sorting.
check-report: membench
	python3 tests/report/check_report.py ./membench
	python3 tests/report/check_fleet.py ./membench

check-unit: $(BUILD)/membench-tests
	./$(BUILD)/membench-tests

check-cli: membench $(BUILD)/membench-faulty
	bash tests/cli/run_cli_tests.sh ./membench

# Every fuzz corpus through its target, built with $(CC) (part of make check).
check-fuzz-replay: $(REPLAYS)
	bash fuzz/replay_corpora.sh ./$(BUILD)/fuzz-replay

# Every test again under AddressSanitizer and UndefinedBehaviorSanitizer; any report fails.
ASAN_FLAGS := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
check-asan:
	$(MAKE) BUILD=build-asan OPT="$(ASAN_FLAGS)" LDFLAGS="$(ASAN_FLAGS)" build-asan/membench build-asan/membench-tests \
	  build-asan/membench-faulty \
	  $(FUZZ_TARGETS:%=build-asan/fuzz-replay/%)
	ASAN_OPTIONS=detect_leaks=1 bash tests/run_all.sh ./build-asan/membench-tests ./build-asan/membench ./build-asan/fuzz-replay

# Every test again for aarch64, riscv64, ppc64le and s390x (big-endian): Debian's
# cross compilers, static binaries, run under qemu-user. CROSS_ARCHES picks a subset.
CROSS_ARCHES ?= aarch64 riscv64 ppc64le s390x
check-cross:
	@bash tests/cross/run_cross.sh $(CROSS_ARCHES)

# Boots a 3-node NUMA guest (QEMU, KVM or TCG) and checks placement, page nodes and
# hostile conditions inside it (tests/numa/).
check-numa:
	@bash tests/numa/run_numa_guest.sh

# Planted bugs, one at a time in a scratch copy: each must make its suite fail
# (tests/mutants/run_mutants.py lists them; MUTANTS=text picks those named so).
check-mutants:
	@python3 tests/mutants/run_mutants.py $(MUTANTS)

# Every fuzz target (fuzz/fuzz_NAME.c) under libFuzzer with ASan and UBSan (clang and
# its libFuzzer runtime, Debian's libclang-rt-NN-dev) for FUZZ_SECONDS each, FUZZ_JOBS
# at a time, starting from fuzz/corpus/NAME; new interesting inputs are added there and
# a crash stops the run with the input in build-fuzz/NAME-crash-*. FUZZ_TARGETS picks
# some; FUZZ_ARGS adds libFuzzer flags (-jobs, -dict...).
FUZZ_SECONDS ?= 60
FUZZ_ARGS ?=
# FUZZ_JOBS targets at a time (each one process: CPU time per target is the same, the
# wall time is shared out); a target's output goes to build-fuzz/NAME.log, shown whole
# when it fails (exit 255 stops xargs from starting more).
FUZZ_JOBS ?= 2
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_MAX_LEN_parsers := 512
FUZZ_MAX_LEN_json := 2048
FUZZ_MAX_LEN_sysfs := 8192
FUZZ_MAX_LEN_smaps := 4096
FUZZ_MAX_LEN_cpuid := 16384
fuzz:
	$(MAKE) BUILD=build-fuzz CC=clang OPT="$(FUZZ_FLAGS)" LDFLAGS="$(FUZZ_FLAGS)" \
	  $(FUZZ_TARGETS:%=build-fuzz/fuzzer/%)
	@printf '%s\n' $(foreach t,$(FUZZ_TARGETS),"$(t) $(or $(FUZZ_MAX_LEN_$(t)),4096)$(if $(wildcard fuzz/dict/$(t).dict), -dict=fuzz/dict/$(t).dict)") | \
	  xargs -d '\n' -P $(FUZZ_JOBS) -n 1 sh -c 'set -- $$0; mkdir -p fuzz/corpus/$$1; echo "== fuzz $$1 for $(FUZZ_SECONDS) s"; \
	    if ./build-fuzz/fuzzer/$$1 -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -max_len=$$2 $$3 \
	      -artifact_prefix=build-fuzz/$$1- $(FUZZ_ARGS) fuzz/corpus/$$1 >build-fuzz/$$1.log 2>&1; then \
	      echo "== fuzz $$1: $$(grep -o "Done [0-9]* runs in [0-9]* second(s)" build-fuzz/$$1.log)"; \
	    else cat build-fuzz/$$1.log; echo "== fuzz $$1 FAILED (build-fuzz/$$1.log)"; exit 255; fi'

lint:
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
	  --inline-suppr --suppress=missingIncludeSystem -Isrc -D__GNUC__ $(SRCS)

# The completion scripts, written by the binary just built from its option tables.
COMPLETIONS := $(BUILD)/completions/membench $(BUILD)/completions/_membench $(BUILD)/completions/membench.fish
completions: $(COMPLETIONS)
$(BUILD)/completions/membench: membench
	@mkdir -p $(dir $@)
	./membench completions bash >$@.tmp && mv $@.tmp $@
$(BUILD)/completions/_membench: membench
	@mkdir -p $(dir $@)
	./membench completions zsh >$@.tmp && mv $@.tmp $@
$(BUILD)/completions/membench.fish: membench
	@mkdir -p $(dir $@)
	./membench completions fish >$@.tmp && mv $@.tmp $@

install: membench $(COMPLETIONS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
	  $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 membench $(DESTDIR)$(BINDIR)/membench
	install -m 644 man/membench.1 $(DESTDIR)$(MANDIR)/membench.1
	install -m 644 $(BUILD)/completions/membench $(DESTDIR)$(BASHCOMPDIR)/membench
	install -m 644 $(BUILD)/completions/_membench $(DESTDIR)$(ZSHCOMPDIR)/_membench
	install -m 644 $(BUILD)/completions/membench.fish $(DESTDIR)$(FISHCOMPDIR)/membench.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/membench $(DESTDIR)$(MANDIR)/membench.1 $(DESTDIR)$(BASHCOMPDIR)/membench \
	  $(DESTDIR)$(ZSHCOMPDIR)/_membench $(DESTDIR)$(FISHCOMPDIR)/membench.fish

# Builds the .deb (dpkg-buildpackage) in a copy of the tree in a temporary directory,
# runs lintian, installs it, checks it and removes it again (root only; tests/deb/).
check-deb:
	@bash tests/deb/check_deb.sh

clean:
	rm -rf $(BUILD) build-asan build-cross build-fuzz build-numa build-static dist membench membench-mpi

-include $(DEPS)
