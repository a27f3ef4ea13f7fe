#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check-numa: boots small Linux guests with four NUMA nodes (two with memory
# and CPUs, one memory-less with CPUs, one with 128 MiB of memory and no CPUs: a
# CXL-style memory node), one x86-64 and one arm64, under QEMU - KVM
# when it can run the guest, TCG otherwise - from Debian's kernel image and an
# initramfs holding Debian's static busybox and a static membench, runs
# tests/numa/guest_init.sh in each and checks what it printed with
# tests/numa/check_guest.py. The kernel and busybox packages of each architecture
# come from the package registry through a private apt state under build-numa/ (the
# machine's apt configuration is not touched).
# x86_64-wide is a third guest (issue 38): 16 x86-64 vCPUs in 2 sockets and 4 nodes
# of 4 CPUs with memory, and a CPU-less node 4, on the same kernel and binary; its
# /init runs tests/numa/guest_wide.sh (the default run, mlc, numa mem, every thread
# watched from /proc) and tests/numa/check_wide.py checks it.
#   NUMA_ARCHES="x86_64 x86_64-wide aarch64" (default)   which guests to boot
#   NUMA_ACCEL=tcg                           no KVM even where it could run (to time TCG)
#   NUMA_JOBS=1                              one architecture's guests at a time (default 2)
# A guest whose QEMU or compiler is not installed is skipped, saying so (under
# CI=true it fails instead: .ci/run installs them).
set -u
cd "$(dirname "$0")/../.."
OUT=build-numa
mkdir -p "$OUT"
ARCHES=${NUMA_ARCHES:-x86_64 x86_64-wide aarch64}

for tool in cpio python3 dpkg-deb apt-get; do
    if ! command -v $tool >/dev/null; then
        echo "numa guest: $tool not installed" >&2
        exit 1
    fi
done

# fetch_guest_files ARCH DEBARCH: Debian's kernel image and busybox-static for that
# architecture into $OUT/ARCH/{vmlinuz,busybox}, once.
fetch_guest_files() {
    local arch=$1 da=$2 dir=$OUT/$1
    [ -s "$dir/vmlinuz" ] && [ -s "$dir/busybox" ] && return 0
    mkdir -p "$dir" "$OUT/apt-$da/lists/partial" "$OUT/apt-$da/cache/archives/partial"
    local apt=(-o "APT::Architecture=$da" -o "APT::Architectures=$da" -o "Dir::State::Lists=$PWD/$OUT/apt-$da/lists"
        -o "Dir::Cache=$PWD/$OUT/apt-$da/cache" -o Dir::State::status=/dev/null -o Debug::NoLocking=1)
    apt-get -qq "${apt[@]}" update >"$dir/apt.log" 2>&1 || { cat "$dir/apt.log" >&2; return 1; }
    local pkg
    pkg=$(apt-cache "${apt[@]}" depends "linux-image-$da" 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -1)
    [ -n "$pkg" ] || { echo "numa guest: no linux-image-$da package found" >&2; return 1; }
    rm -f "$dir"/*.deb
    (cd "$dir" && apt-get -qq "${apt[@]}" download "$pkg" busybox-static >>apt.log 2>&1) ||
        { cat "$dir/apt.log" >&2; return 1; }
    rm -rf "$dir/x" && mkdir "$dir/x"
    dpkg-deb --fsys-tarfile "$dir"/linux-image-*.deb | tar -x -C "$dir/x" --wildcards './boot/vmlinuz-*'
    dpkg-deb -x "$dir"/busybox-static_*.deb "$dir/x"
    mv "$dir"/x/boot/vmlinuz-* "$dir/vmlinuz" && mv "$dir/x/bin/busybox" "$dir/busybox"
    echo "$pkg" >"$dir/kernel-package"
    rm -rf "$dir/x" "$dir"/*.deb
}

# boot GUEST ACCEL PROBE_SECONDS: runs the guest; with PROBE_SECONDS > 0, gives up
# (status 125) when the guest has not printed its first line by then - a KVM that
# opens but cannot run this guest (nested virtualisation often cannot) is then
# replaced by TCG.
boot() {
    local arch=${1%-wide} accel=$2 probe=$3 dir=$OUT/$1 qemu machine console
    case $arch in
    x86_64) qemu=(qemu-system-x86_64) machine=() console=ttyS0 ;;
    aarch64) qemu=(qemu-system-aarch64) machine=(-M virt) console=ttyAMA0 ;;
    esac
    local cpu=max
    [ "$accel" = kvm ] && cpu=host
    # The 6-CPU guest: nodes 0 and 1 with CPUs and memory, 2 memory-less, 3 CPU-less.
    local smp=(-m 1664 -smp 6,sockets=3,cores=2,threads=1
        -object memory-backend-ram,id=m0,size=768M -object memory-backend-ram,id=m1,size=768M
        -object memory-backend-ram,id=m3,size=128M
        -numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1
        -numa node,nodeid=2,cpus=4-5 -numa node,nodeid=3,memdev=m3) append=
    if [ "$1" = x86_64-wide ]; then
        # 2 sockets of 8, two nodes a socket (SNC2/NPS2-like: CPUs 8-15 on nodes 2
        # and 3), and a CPU-less node 4. Under TCG QEMU's EPYC model: the guest sees
        # 8 MiB of L3 a node (2 MiB a thread), so the default run's DRAM points are
        # 4 and 8 MiB a thread (64 and 128 MiB in all) and stay short. (-cpu max,
        # l3-cache=off shows no L3, and membench then sizes from its 8 MiB default
        # per thread: 512 MiB in all.) Under KVM -cpu host, whose CPUID caches are
        # QEMU's (16 MiB of L3 a socket: 2 MiB a thread as well).
        [ "$accel" = tcg ] && cpu=EPYC
        smp=(-m 1664 -smp 16,sockets=2,cores=8,threads=1)
        local n
        for n in 0 1 2 3; do
            smp+=(-object memory-backend-ram,id=m$n,size=384M
                -numa node,nodeid=$n,cpus=$((4 * n))-$((4 * n + 3)),memdev=m$n)
        done
        smp+=(-object memory-backend-ram,id=m4,size=128M -numa node,nodeid=4,memdev=m4)
        append=" membench_guest=wide"
    fi
    # Debian's arm64 kernel signs return addresses (pointer authentication); TCG's
    # QARMA5 for it made the guest 3.4 times slower (834 s, 244 s with QEMU's cheap
    # implementation-defined algorithm: same checks, same results).
    [ "$arch" = aarch64 ] && [ "$accel" = tcg ] && cpu=max,pauth-impdef=on
    rm -f "$dir/console.log"
    # In a subshell whose stderr is dropped: bash's "Aborted" notice when qemu dies
    # by a signal would otherwise land in the test output (the status says it).
    (timeout 900 "${qemu[@]}" "${machine[@]}" -accel "$accel" -cpu $cpu "${smp[@]}" \
        -kernel "$OUT/$arch/vmlinuz" -initrd "$dir/initramfs.gz" \
        -append "console=$console quiet loglevel=3 panic=-1 transparent_hugepage=never hugepages=0$append" \
        -display none -monitor none -serial stdio -no-reboot </dev/null >"$dir/console.log" 2>"$dir/qemu.err"
        exit $?) 2>/dev/null &
    local pid=$! waited=0
    while [ "$probe" -gt 0 ] && kill -0 $pid 2>/dev/null && ! grep -q '=== GUEST UP' "$dir/console.log" 2>/dev/null; do
        if [ $waited -ge "$probe" ]; then
            # The subshell's child (timeout, which passes SIGTERM on to qemu) first:
            # killing the subshell alone left a stuck KVM qemu spinning a CPU for
            # the rest of its 900 s while the TCG guest ran beside it.
            kill $(cat /proc/$pid/task/*/children 2>/dev/null) $pid 2>/dev/null
            { wait $pid; } 2>/dev/null
            return 125
        fi
        sleep 1
        waited=$((waited + 1))
    done
    { wait $pid; } 2>/dev/null # no "Aborted" job notice: the status says it
}

# guest GUEST: everything for one guest (an architecture, or x86_64-wide); prints the
# checks, sets GUEST_PASS/GUEST_FAIL. The kernel, busybox and static build are the
# architecture's ($OUT/ARCH), the initramfs and logs the guest's ($OUT/GUEST).
guest() {
    local name=$1 arch=${1%-wide} da qemu cc dir=$OUT/$1 files=$OUT/${1%-wide}
    GUEST_PASS=0 GUEST_FAIL=0
    case $name in
    x86_64 | x86_64-wide) da=amd64 qemu=qemu-system-x86_64 cc=x86_64-linux-gnu-gcc ;;
    aarch64) da=arm64 qemu=qemu-system-aarch64 cc=aarch64-linux-gnu-gcc ;;
    *) echo "numa guest: unknown guest '$name' (x86_64, x86_64-wide, aarch64)" >&2; GUEST_FAIL=1; return ;;
    esac
    [ "$(uname -m)" = "$arch" ] && cc=${CC:-cc}
    for tool in "$qemu" "$cc"; do
        if ! command -v "$tool" >/dev/null && [ "${CI:-}" = true ]; then
            # .ci/run installs both: a missing one there is a broken CI, not a skip
            echo "not ok - numa guest ($name): $tool not installed (CI=true)"
            GUEST_FAIL=1
            return
        elif ! command -v "$tool" >/dev/null; then
            echo "# numa guest ($name): skipped: $tool not installed"
            return
        fi
    done
    if ! fetch_guest_files "$arch" "$da"; then
        echo "not ok - numa guest ($name): Debian's kernel and busybox for $da could not be fetched"
        GUEST_FAIL=1
        return
    fi
    # Static membench for the guest, and its initramfs: busybox, membench, /init.
    mkdir -p "$dir"
    if ! make -s BUILD="$files/obj" CC="$cc" LDFLAGS=-static "$files/obj/membench" >"$dir/build.log" 2>&1; then
        cat "$dir/build.log"
        echo "not ok - numa guest ($name): static build with $cc"
        GUEST_FAIL=1
        return
    fi
    local root=$dir/initramfs
    rm -rf "$root"
    mkdir -p "$root"/{bin,proc,sys,dev,tmp,cg}
    cp "$files/busybox" "$root/bin/busybox"
    cp "$files/obj/membench" "$root/bin/membench"
    cp tests/numa/guest_init.sh "$root/init"
    cp tests/numa/guest_wide.sh "$root/wide.sh"
    chmod 755 "$root/init" "$root/bin/membench" "$root/bin/busybox"
    (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$dir/initramfs.gz"

    local start rc=125 what="$(cat "$files/kernel-package"), 6 CPUs in 4 nodes (node 2 memory-less, node 3 CPU-less)"
    [ "$name" = x86_64-wide ] && what="$(cat "$files/kernel-package"), 16 CPUs in 2 sockets and 4 nodes, CPU-less node 4"
    start=$(date +%s)
    # A KVM that opens but runs no guest (nested virtualisation often cannot) costs the
    # probe's wait: once per stage, not once per guest (it cost 45 s each of the two
    # x86-64 guests in CI), and 20 s, not 45 (a KVM guest is up in a few seconds; one
    # slower still passes under TCG).
    if [ "$(uname -m)" = "$arch" ] && [ "${NUMA_ACCEL:-}" != tcg ] && [ -z "${KVM_FAILED:-}" ] && [ -e /dev/kvm ] &&
        (exec 3<>/dev/kvm) 2>/dev/null; then
        echo "# numa guest ($name): $what, trying KVM"
        boot "$name" kvm 20
        rc=$?
        if [ $rc -ne 0 ]; then
            KVM_FAILED=1
            echo "# numa guest ($name): KVM could not run the guest (status $rc; $(grep -m1 -iE 'error|fail' "$dir/qemu.err" 2>/dev/null || echo 'no output')): using TCG, and for the guests after it"
        fi
    fi
    if [ $rc -ne 0 ]; then
        echo "# numa guest ($name): $what, TCG"
        boot "$name" tcg 0
        rc=$?
    fi
    echo "# numa guest ($name): qemu finished in $(($(date +%s) - start)) s with status $rc"
    # where the guest's time went (guest_init.sh's uptime before each run)
    awk '/^=== UPTIME /{if (n) printf "%.1f %s\n", $4 - t, n; n = $3; t = $4}' "$dir/console.log" | sort -rn | head -5 |
        awk -v a="$name" 'BEGIN{printf "# numa guest (%s): slowest runs:", a} {printf " %s %s s", $2, $1} END{print ""}'
    if [ $rc -ne 0 ]; then
        echo "numa guest ($name): qemu failed (log: $dir/console.log, $dir/qemu.err)" >&2
        tail -n 20 "$dir/qemu.err" >&2
    fi
    local checker=check_guest.py
    [ "$name" = x86_64-wide ] && checker=check_wide.py
    python3 tests/numa/$checker "$dir/console.log" "$name" | tee "$dir/checks.log"
    GUEST_PASS=$(grep -c '^ok - ' "$dir/checks.log")
    GUEST_FAIL=$(grep -c '^not ok - ' "$dir/checks.log")
    tail -1 "$dir/checks.log" | grep -q ' 0 failed$' || [ "$GUEST_FAIL" -gt 0 ] || GUEST_FAIL=1
}

# The guests of one architecture share its kernel, busybox and static build, so they
# run one after the other in one lane; the architectures' lanes run side by side
# (NUMA_JOBS=1: one at a time). A TCG guest kept about one of CI's 2 CPUs busy (the
# stage: 399 s wall, 428 s CPU), so two lanes share them. Each lane's output is held
# in $OUT/lane-ARCH.out and printed, in order, when all have ended.
lane() { # ARCH GUEST...: runs them in turn; "PASSED FAILED" in $OUT/lane-ARCH.result
    local key=$1 p=0 f=0
    shift
    for name in "$@"; do
        guest "$name"
        p=$((p + GUEST_PASS)) f=$((f + GUEST_FAIL))
    done
    echo "$p $f" >"$OUT/lane-$key.result"
}
keys=()
declare -A lane_guests=()
for name in $ARCHES; do
    key=${name%-wide}
    [ -n "${lane_guests[$key]:-}" ] || keys+=("$key")
    lane_guests[$key]="${lane_guests[$key]:-} $name"
done
parallel=false
[ "${NUMA_JOBS:-2}" -gt 1 ] && [ ${#keys[@]} -gt 1 ] && parallel=true
for key in "${keys[@]}"; do
    rm -f "$OUT/lane-$key.result"
    # shellcheck disable=SC2086
    if $parallel; then
        lane "$key" ${lane_guests[$key]} >"$OUT/lane-$key.out" 2>&1 &
    else
        lane "$key" ${lane_guests[$key]} 2>&1 | tee "$OUT/lane-$key.out"
    fi
done
wait
pass=0 fail=0
for key in "${keys[@]}"; do
    ! $parallel || cat "$OUT/lane-$key.out"
    { read -r p f <"$OUT/lane-$key.result"; } 2>/dev/null || { p=0 f=1; echo "not ok - numa guests ($key): the lane died"; }
    pass=$((pass + p)) fail=$((fail + f))
done
echo "numa: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
