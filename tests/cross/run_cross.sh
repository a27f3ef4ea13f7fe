#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check-cross: builds membench and its tests with Debian's cross compilers
# (static, so no target libraries are needed at run time) and runs the whole test
# suite under qemu-user, once per architecture. Prints one total line at the end.
#   tests/cross/run_cross.sh [ARCH...]   (default: aarch64 riscv64 ppc64le s390x)
# CROSS_UNIT_ONLY="ARCH..." runs only the unit tests on those (CI's time budget: a
# whole CLI suite under qemu-user takes minutes per architecture).
set -u
cd "$(dirname "$0")/../.."
ARCHES=("$@")
[ ${#ARCHES[@]} -gt 0 ] || ARCHES=(aarch64 riscv64 ppc64le s390x)

triplet() {
    case $1 in
    aarch64) echo aarch64-linux-gnu ;;
    riscv64) echo riscv64-linux-gnu ;;
    ppc64le) echo powerpc64le-linux-gnu ;;
    s390x) echo s390x-linux-gnu ;;
    *) return 1 ;;
    esac
}

# CROSS_JOBS architectures at a time (default 2): a run under qemu-user waits on its
# timed runs and signals much of the time, so two share 2 CPUs well. Each one's
# output is held in build-cross/ARCH.report and printed when it ends.
JOBS=${CROSS_JOBS:-2}
mkdir -p build-cross
for arch in "${ARCHES[@]}"; do
    if ! t=$(triplet "$arch"); then
        echo "check-cross: unknown architecture '$arch' (aarch64, riscv64, ppc64le, s390x)" >&2
        exit 2
    fi
    for tool in "$t-gcc" "qemu-$arch"; do
        if ! command -v "$tool" >/dev/null; then
            echo "check-cross: $tool not found (apt-get install gcc-$t qemu-user)" >&2
            exit 2
        fi
    done
done

# cross_arch ARCH: builds and runs the suite for one architecture; its last line in
# build-cross/ARCH.result is "PASSED FAILED" (no such line: it died, a failure).
cross_arch() {
    local arch=$1 t out=build-cross/$1 qemu=qemu-$1
    t=$(triplet "$arch")
    rm -f "$out.result"
    echo "# === $arch: $t-gcc, run under $qemu ==="
    if ! make -s -j"$(nproc)" BUILD="$out" CC="$t-gcc" LDFLAGS=-static "$out/membench" "$out/membench-tests" >"$out.log" 2>&1; then
        cat "$out.log"
        echo "not ok - $arch: build"
        echo "0 1" >"$out.result"
        return
    fi
    # The CLI tests run "$BIN": a wrapper that execs the binary under qemu-user (signals
    # sent to the wrapper's pid reach qemu, which delivers them to the program).
    mkdir -p "$out/qemu"
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$qemu" "$PWD/$out/membench" >"$out/qemu/membench"
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$qemu" "$PWD/$out/membench-tests" >"$out/qemu/membench-tests"
    chmod +x "$out/qemu/membench" "$out/qemu/membench-tests"
    local log=$out.test.log cli=$out/qemu/membench start=$SECONDS p f total rc
    [[ " ${CROSS_UNIT_ONLY:-} " == *" $arch "* ]] && cli=-
    # a host that hides its caches gets a sysfs cache hierarchy for these runs
    # (with_cache_sysfs.sh says why)
    # (and run every 4th case of the hostile-input table: run_cli_tests.sh says why)
    CLI_HOSTILE_STRIDE=${CLI_HOSTILE_STRIDE:-4} KERNEL_OBJDIR=$out/src/kernels OBJDUMP=$t-objdump \
        tests/cross/with_cache_sysfs.sh \
        bash tests/run_all.sh "$out/qemu/membench-tests" "$cli" 2>&1 | sed "s/^/[$arch] /" >"$log"
    rc=${PIPESTATUS[0]}
    grep -E '^\[[a-z0-9]+\] (not ok|    |unit:|cli:)' "$log"
    p=$(grep -cE '^\[[a-z0-9]+\] ok - ' "$log")
    f=$(grep -cE '^\[[a-z0-9]+\] not ok - ' "$log")
    total=$(tail -1 "$log")
    echo "# $arch: $total ($((SECONDS - start)) s)"
    # A runner that died before its total line (qemu crash), or stopped short with a
    # total of its own (a shell error in a suite), is a failure too.
    if [ "$f" -eq 0 ] && { [ "$rc" -ne 0 ] || ! grep -qE '\] [0-9]+ passed, 0 failed$' <<<"$total"; }; then
        echo "not ok - $arch: the suite exited $rc"
        tail -n 5 "$log"
        f=1
    fi
    echo "$p $f" >"$out.result"
}

running=()
for arch in "${ARCHES[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    echo "# $arch: started (its output follows when all have ended)"
    cross_arch "$arch" >"build-cross/$arch.report" 2>&1 &
    running+=($!)
done
wait "${running[@]}"
pass=0 fail=0 failed_arches=()
for arch in "${ARCHES[@]}"; do
    cat "build-cross/$arch.report"
    read -r p f < <(tail -1 "build-cross/$arch.result" 2>/dev/null) || { p=0 f=1; echo "not ok - $arch: its runner died"; }
    pass=$((pass + p)) fail=$((fail + f))
    [ "$f" -eq 0 ] || failed_arches+=("$arch")
done
[ ${#failed_arches[@]} -eq 0 ] || echo "# failed on: ${failed_arches[*]}"
echo "cross: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
