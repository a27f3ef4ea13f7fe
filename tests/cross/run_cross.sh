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

mkdir -p build-cross
pass=0 fail=0 failed_arches=()
for arch in "${ARCHES[@]}"; do
    if ! t=$(triplet "$arch"); then
        echo "check-cross: unknown architecture '$arch' (aarch64, riscv64, ppc64le, s390x)" >&2
        exit 2
    fi
    qemu=qemu-$arch
    for tool in "$t-gcc" "$qemu"; do
        if ! command -v "$tool" >/dev/null; then
            echo "check-cross: $tool not found (apt-get install gcc-$t qemu-user)" >&2
            exit 2
        fi
    done
    out=build-cross/$arch
    echo "# === $arch: $t-gcc, run under $qemu ==="
    if ! make -s -j"$(nproc)" BUILD="$out" CC="$t-gcc" LDFLAGS=-static "$out/membench" "$out/membench-tests" >"$out.log" 2>&1; then
        cat "$out.log"
        echo "not ok - $arch: build"
        fail=$((fail + 1)) failed_arches+=("$arch")
        continue
    fi
    # The CLI tests run "$BIN": a wrapper that execs the binary under qemu-user (signals
    # sent to the wrapper's pid reach qemu, which delivers them to the program).
    mkdir -p "$out/qemu"
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$qemu" "$PWD/$out/membench" >"$out/qemu/membench"
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$qemu" "$PWD/$out/membench-tests" >"$out/qemu/membench-tests"
    chmod +x "$out/qemu/membench" "$out/qemu/membench-tests"
    log=$out.test.log
    cli=$out/qemu/membench
    [[ " ${CROSS_UNIT_ONLY:-} " == *" $arch "* ]] && cli=-
    KERNEL_OBJDIR=$out/src/kernels OBJDUMP=$t-objdump \
        bash tests/run_all.sh "$out/qemu/membench-tests" "$cli" 2>&1 | sed "s/^/[$arch] /" | tee "$log" | grep -E '^\[[a-z0-9]+\] (not ok|    |unit:|cli:)'
    p=$(grep -cE '^\[[a-z0-9]+\] ok - ' "$log")
    f=$(grep -cE '^\[[a-z0-9]+\] not ok - ' "$log")
    total=$(tail -1 "$log")
    echo "# $arch: $total"
    pass=$((pass + p)) fail=$((fail + f))
    # A runner that died before its total line (qemu crash) is a failure too.
    if [ "$f" -gt 0 ] || ! grep -qE '\] [0-9]+ passed, 0 failed$' <<<"$total"; then
        failed_arches+=("$arch")
        [ "$f" -gt 0 ] || fail=$((fail + 1))
    fi
done
[ ${#failed_arches[@]} -eq 0 ] || echo "# failed on: ${failed_arches[*]}"
echo "cross: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
