#!/usr/bin/env bash
# make check-numa: boots a small Linux guest with three NUMA nodes (two with memory
# and CPUs, one memory-less with CPUs) under QEMU - KVM when /dev/kvm can be opened,
# TCG otherwise - from Debian's kernel image and an initramfs holding busybox and a
# static membench, runs tests/numa/guest_init.sh in it and checks what it printed
# with tests/numa/check_guest.py. Skips (exit 0, saying why) only where no guest can
# be run at all: a host that is not x86-64, or no qemu-system-x86_64 installed.
set -u
cd "$(dirname "$0")/../.."
OUT=build-numa
mkdir -p "$OUT"

if [ "$(uname -m)" != x86_64 ]; then
    echo "# numa guest: skipped: the harness boots an x86-64 guest; this host is $(uname -m)"
    exit 0
fi
for tool in qemu-system-x86_64 busybox cpio python3; do
    if ! command -v $tool >/dev/null; then
        echo "# numa guest: skipped: $tool not installed (apt-get install qemu-system-x86 busybox-static cpio)"
        exit 0
    fi
done
if ! ldd "$(command -v busybox)" 2>&1 | grep -q 'not a dynamic'; then
    echo "numa guest: busybox is not static (apt-get install busybox-static)" >&2
    exit 1
fi

# Debian's kernel: the image the linux-image-amd64 package points at, unpacked once.
KERNEL=${NUMA_KERNEL:-}
if [ -z "$KERNEL" ]; then
    KERNEL=$(ls "$OUT"/kernel/boot/vmlinuz-* 2>/dev/null | head -1)
    if [ -z "$KERNEL" ]; then
        kernel_package() { apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -1; }
        pkg=$(kernel_package)
        if [ -z "$pkg" ] && [ "$(id -u)" = 0 ]; then
            apt-get update -qq >/dev/null 2>&1 # a fresh machine has no package lists yet
            pkg=$(kernel_package)
        fi
        if [ -z "$pkg" ]; then
            echo "numa guest: cannot find Debian's kernel package (run apt-get update, or set NUMA_KERNEL=vmlinuz)" >&2
            exit 1
        fi
        (cd "$OUT" && apt-get download "$pkg" >/dev/null 2>&1) || { echo "numa guest: apt-get download $pkg failed" >&2; exit 1; }
        dpkg-deb --fsys-tarfile "$OUT"/"$pkg"_*.deb | tar -x -C "$OUT" --one-top-level=kernel --wildcards './boot/vmlinuz-*'
        rm -f "$OUT"/"$pkg"_*.deb
        KERNEL=$(ls "$OUT"/kernel/boot/vmlinuz-* | head -1)
    fi
fi

# Static membench for the guest.
make -s BUILD="$OUT/obj" LDFLAGS=-static "$OUT/obj/membench" >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }

# Initramfs: busybox, membench, /init.
root=$OUT/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,proc,sys,dev,tmp,cg}
cp "$(command -v busybox)" "$root/bin/busybox"
cp "$OUT/obj/membench" "$root/bin/membench"
cp tests/numa/guest_init.sh "$root/init"
chmod 755 "$root/init" "$root/bin/membench"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$OUT/initramfs.gz"

# boot ACCEL CPU PROBE_SECONDS: runs the guest; with PROBE_SECONDS > 0, gives up (status
# 125) when the guest has not printed its first line by then - a KVM that opens but
# cannot run this guest (nested virtualisation often cannot) is then replaced by TCG.
boot() {
    local accel=$1 cpu=$2 probe=$3
    rm -f "$OUT/console.log"
    # In a subshell whose stderr is dropped: bash's "Aborted" notice when qemu dies
    # by a signal would otherwise land in the test output (the status says it).
    (timeout 900 qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -m 1536 -smp 6,sockets=3,cores=2,threads=1 \
        -object memory-backend-ram,id=m0,size=768M -object memory-backend-ram,id=m1,size=768M \
        -numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1 \
        -numa node,nodeid=2,cpus=4-5 \
        -kernel "$KERNEL" -initrd "$OUT/initramfs.gz" \
        -append "console=ttyS0 quiet loglevel=3 panic=-1 transparent_hugepage=never hugepages=0" \
        -display none -monitor none -serial stdio -no-reboot </dev/null >"$OUT/console.log" 2>"$OUT/qemu.err"
        exit $?) 2>/dev/null &
    local pid=$! waited=0
    while [ "$probe" -gt 0 ] && kill -0 $pid 2>/dev/null && ! grep -q '=== GUEST UP' "$OUT/console.log" 2>/dev/null; do
        if [ $waited -ge "$probe" ]; then
            kill $pid 2>/dev/null
            { wait $pid; } 2>/dev/null
            return 125
        fi
        sleep 1
        waited=$((waited + 1))
    done
    { wait $pid; } 2>/dev/null # no "Aborted" job notice: the status says it
}

start=$(date +%s)
rc=125
if [ -e /dev/kvm ] && (exec 3<>/dev/kvm) 2>/dev/null; then
    echo "# numa guest: $(basename "$KERNEL"), trying KVM: 6 CPUs in 3 nodes (node 2 memory-less)"
    boot kvm host 45
    rc=$?
    [ $rc -eq 0 ] || echo "# numa guest: KVM could not run the guest (status $rc; $(grep -m1 -iE 'error|fail' "$OUT/qemu.err" 2>/dev/null || echo 'no output')): using TCG"
else
    echo "# numa guest: /dev/kvm not usable here: using TCG"
fi
if [ $rc -ne 0 ]; then
    echo "# numa guest: $(basename "$KERNEL"), TCG: 6 CPUs in 3 nodes (node 2 memory-less)"
    boot tcg max 0
    rc=$?
fi
echo "# numa guest: qemu finished in $(($(date +%s) - start)) s with status $rc"
if [ $rc -ne 0 ]; then
    echo "numa guest: qemu failed (log: $OUT/console.log, $OUT/qemu.err)" >&2
    tail -n 20 "$OUT/qemu.err" >&2
fi
python3 tests/numa/check_guest.py "$OUT/console.log"
