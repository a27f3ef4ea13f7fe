#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# with_cache_sysfs.sh CMD...: runs CMD where /sys/devices/system/cpu shows a cache
# hierarchy, when this machine's shows none (a guest that hides its caches).
#
# Why: qemu-user runs read the host's sysfs, and an emulated binary has no CPUID of
# the host's to read. On a host that hides its caches every emulated DRAM mode then
# takes the DRAM rule's 1 GiB floor and its plateau check (docs/cache-sizes.md):
# a default stream run took 58 s under qemu-ppc64le, and the suite's signal and poll
# checks never saw a first result in time. The cross stage checks architectures
# (endianness, page and line sizes, kernels), not cache discovery, which the native
# suite checks on the real sysfs. So, as root, in a private mount namespace, a copy of
# /sys/devices/system/cpu gets per CPU an L1d of 32 KiB, an L2 of 1 MiB and an L3 of
# 16 MiB shared by every CPU, mounted over the real one; elsewhere (caches shown, not
# root, no unshare) CMD runs as it is.
set -u
cpus=/sys/devices/system/cpu
if [ -d "$cpus/cpu0/cache" ] || [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null 2>&1; then
    exec "$@"
fi
exec unshare -m bash -c '
    set -u
    cmd=("$@")
    cpus=/sys/devices/system/cpu
    tree=$(mktemp -d /tmp/membench-cache-sysfs.XXXXXX) || exit 1
    trap "rm -rf \"$tree\"" EXIT
    cp -r "$cpus/." "$tree/" 2>/dev/null
    all=$(cat "$cpus/online")
    for d in "$tree"/cpu[0-9]*; do
        n=${d##*/cpu}
        for spec in "0 1 Data 32K $n" "1 2 Unified 1024K $n" "2 3 Unified 16384K $all"; do
            set -- $spec
            mkdir -p "$d/cache/index$1"
            echo "$2" >"$d/cache/index$1/level"
            echo "$3" >"$d/cache/index$1/type"
            echo "$4" >"$d/cache/index$1/size"
            echo 64 >"$d/cache/index$1/coherency_line_size"
            echo "$5" >"$d/cache/index$1/shared_cpu_list"
        done
    done
    mount --bind "$tree" "$cpus" || exit 1
    "${cmd[@]}"
' with_cache_sysfs "$@"
