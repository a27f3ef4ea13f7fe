# membench — GNU Make build.
#   make            build ./membench
#   make run        build and run the default benchmark
#   make check      build and run every test (unit + command line)
#   make install    PREFIX=/usr/local DESTDIR=
VERSION  := 0.1.0
CC       ?= cc
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man/man1

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
DEPS     := $(OBJS:.o=.d) $(TEST_OBJS:.o=.d)

.PHONY: all run check check-unit check-cli check-asan check-cross check-numa fuzz clean install uninstall lint bench-isa

all: membench

membench: $(OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/membench: $(OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/membench-tests: $(LIB_OBJS) $(TEST_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/kernel_isa_ab: $(LIB_OBJS) $(BUILD)/bench/kernel_isa_ab.o
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bench-isa: $(BUILD)/kernel_isa_ab

run: membench
	./membench -R

check: membench $(BUILD)/membench-tests
	@bash tests/run_all.sh ./$(BUILD)/membench-tests ./membench

check-unit: $(BUILD)/membench-tests
	./$(BUILD)/membench-tests

check-cli: membench
	bash tests/cli/run_cli_tests.sh ./membench

# Every test again under AddressSanitizer and UndefinedBehaviorSanitizer; any report fails.
ASAN_FLAGS := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
check-asan:
	$(MAKE) BUILD=build-asan OPT="$(ASAN_FLAGS)" LDFLAGS="$(ASAN_FLAGS)" build-asan/membench build-asan/membench-tests
	ASAN_OPTIONS=detect_leaks=1 bash tests/run_all.sh ./build-asan/membench-tests ./build-asan/membench

# Every test again for aarch64, riscv64, ppc64le and s390x (big-endian): Debian's
# cross compilers, static binaries, run under qemu-user. CROSS_ARCHES picks a subset.
CROSS_ARCHES ?= aarch64 riscv64 ppc64le s390x
check-cross:
	@bash tests/cross/run_cross.sh $(CROSS_ARCHES)

# Boots a 3-node NUMA guest (QEMU, KVM or TCG) and checks placement, page nodes and
# hostile conditions inside it (tests/numa/).
check-numa:
	@bash tests/numa/run_numa_guest.sh

# Fuzz the text parsers with libFuzzer (clang) for FUZZ_SECONDS, starting from the
# corpus kept in fuzz/corpus (new interesting inputs are added there).
FUZZ_SECONDS ?= 60
FUZZ_SRCS := $(filter-out src/main.c,$(SRCS))
fuzz:
	@mkdir -p build-fuzz
	clang $(CSTD) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -pthread -Isrc \
	  -DMEMBENCH_VERSION='"$(VERSION)"' -o build-fuzz/fuzz_parsers fuzz/fuzz_parsers.c $(FUZZ_SRCS) -lm
	./build-fuzz/fuzz_parsers -max_total_time=$(FUZZ_SECONDS) -max_len=512 -artifact_prefix=build-fuzz/ fuzz/corpus

lint:
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
	  --inline-suppr --suppress=missingIncludeSystem -Isrc -D__GNUC__ $(SRCS)

install: membench
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)
	install -m 755 membench $(DESTDIR)$(BINDIR)/membench
	install -m 644 man/membench.1 $(DESTDIR)$(MANDIR)/membench.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/membench $(DESTDIR)$(MANDIR)/membench.1

clean:
	rm -rf $(BUILD) build-asan build-cross build-fuzz build-numa membench

-include $(DEPS)
