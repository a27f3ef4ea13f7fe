#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check-static: the static binaries of make static where a fleet runs them.
#  1. no program interpreter (nothing to load: runs on any Linux of its architecture);
#  2. in an empty root (only the binary, /proc and /sys mounted, in a private mount
#     namespace): every sweep operation, latency and STREAM at small sizes, with the
#     run's JSON; where /proc/self/cgroup names a memory cgroup the root cannot see,
#     the run says no limit was read (never silence); with nothing mounted, one error
#     naming /proc/meminfo, no crash;
#  3. the arm64 binary under qemu-user (when there);
#  4. the image (Containerfile) built and run with podman and runc, under a private
#     containers.conf and storage in a temporary directory: -R, stream --json
#     /dev/stdout, its labels, and --cpuset-cpus/--memory against the plan.
#   tests/static/check_static.sh VERSION "IMAGE_BUILD_ARGS"   (root; make check-static)
# CHECK_STATIC_IMAGE=0 skips part 4 (no podman).
set -u
cd "$(dirname "$0")/../.." || exit 2
VERSION=$1
BUILD_ARGS=$2
ARCH=$(uname -m)
BIN=build-static/$ARCH/membench
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
WORK=$(mktemp -d /tmp/membench-static.XXXXXX)
# podman's directories outside the private ones (its blob cache, its run state):
# removed again when this check made them.
made=()
for d in /run/libpod /run/containers /var/lib/containers; do [ -e "$d" ] || made+=("$d"); done
cleanup() {
    for d in "${made[@]}"; do rm -rf "$d"; done
    [ -n "${KEEP:-}" ] && { echo "kept $WORK"; return; }
    # podman's shm and any mount of ours under WORK, deepest first, then the files
    findmnt -rno TARGET | grep "^$WORK/" | sort -r | xargs -r -n1 umount -l 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

if [ "$(id -u)" -ne 0 ]; then
    echo "check-static: needs root (unshare, chroot, podman); skipped"
    exit 0
fi

# --- 1. static
for a in x86_64 aarch64; do
    f=build-static/$a/membench
    [ -x "$f" ] || continue
    check "$a: $f has no program interpreter and no dynamic section" \
        bash -c "! readelf -lW '$f' | grep -qE 'INTERP|DYNAMIC'"
done
check "membench --version says $VERSION" bash -c "'$BIN' --version | grep -q 'membench $VERSION'"

# --- 2. empty root
R=$WORK/root
mkdir -p "$R/proc" "$R/sys"
cp "$BIN" "$R/membench"
in_root() { # in_root MOUNT(1/0) ARGS...: the binary chrooted in R, in its own mount and pid namespaces
    local m=$1; shift
    unshare --mount --pid --fork --propagation private sh -c '
        R=$1; m=$2; shift 2
        if [ "$m" = 1 ]; then mount -t proc proc "$R/proc" && mount -t sysfs sysfs "$R/sys" || exit 99; fi
        exec chroot "$R" /membench "$@"' sh "$R" "$m" "$@"
}
in_root 1 -s 64 -o read -o write -o copy -o write-nt -o copy-nt -o memcpy -o latency -r 1 \
    --sample-ms 1 --latency-sample-ms 1 --json /sweep.json >"$WORK/sweep.csv" 2>"$WORK/sweep.err"
rc=$?
check "empty root: the sweep at 64 KiB exits 0 (got $rc; $(head -c 300 "$WORK/sweep.err"))" [ $rc -eq 0 ]
check "empty root: a CSV row for each of the 7 operations" \
    bash -c "[ \"\$(cut -d, -f2 '$WORK/sweep.csv' | sed 1d | sort | tr '\n' ' ')\" = 'copy copy-nt latency memcpy read write write-nt ' ]"
# The cgroup the process is in, as the root will not see it: a v1 memory line, or a
# v2 path below the root (the v2 root is /sys/fs/cgroup, an empty directory of sysfs).
hidden=$(awk -F: '($2 ~ /(^|,)memory(,|$)/) || ($1 == "0" && $2 == "" && $3 != "/") { print $3; exit }' /proc/self/cgroup)
python3 - "$R/sweep.json" "$hidden" <<'PY' && ok "empty root: the JSON is complete, names the 7 operations and says what it could not read" || bad "empty root: the JSON"
import json, sys
doc, hidden = json.load(open(sys.argv[1])), sys.argv[2]
assert doc["complete"] is True and doc["exit_status"] == 0, (doc["complete"], doc["exit_status"])
ops = sorted({r["operation"] for r in doc["results"]})
assert ops == ["copy", "copy-nt", "latency", "memcpy", "read", "write", "write-nt"], ops
for r in doc["results"]:
    assert r["value"] > 0, r
said = [w for w in doc["warnings"] if w.startswith("no cgroup memory limit read: ")]
if hidden:
    assert len(said) == 1 and hidden in said[0] and said[0].endswith("the budget is MemAvailable alone"), (hidden, said)
else:
    assert not said, said
PY
in_root 1 stream --size 4M --ntimes 3 >"$WORK/stream.out" 2>"$WORK/stream.err"
rc=$?
check "empty root: stream --size 4M exits 0 (got $rc) and validates" \
    bash -c "[ $rc -eq 0 ] && grep -q '^Triad:' '$WORK/stream.out' && grep -qi 'Solution Validates' '$WORK/stream.out'"
in_root 0 -s 64 -o read -r 1 >"$WORK/bare.out" 2>"$WORK/bare.err"
rc=$?
check "empty root without /proc and /sys: exit 1 (got $rc), one line naming /proc/meminfo" \
    bash -c "[ $rc -eq 1 ] && [ \$(wc -l <'$WORK/bare.err') -eq 1 ] && grep -q 'cannot read /proc/meminfo' '$WORK/bare.err' && [ ! -s '$WORK/bare.out' ]"
check "no mount of the empty root is left behind" bash -c "! findmnt -rno TARGET | grep -q '^$R'"

# --- 3. arm64 under qemu-user
A=build-static/aarch64/membench
if [ -x "$A" ] && command -v qemu-aarch64 >/dev/null; then
    out=$(qemu-aarch64 "$A" -s 64 -o read -o memcpy -r 1 --sample-ms 1 2>/dev/null)
    check "aarch64: --version and a 64 KiB read and memcpy under qemu-aarch64" \
        bash -c "qemu-aarch64 '$A' --version | grep -q 'membench $VERSION' && [ \$(grep -cE '^64,(read|memcpy),[1-9]' <<<'$out') -eq 2 ]"
else
    echo "# aarch64: no binary or no qemu-aarch64, not run"
fi

# --- 4. the image
if [ "${CHECK_STATIC_IMAGE:-1}" = 0 ] || ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
    echo "# image: podman or runc missing (apt-get install podman runc), not checked"
else
    # podman 4.3 with crun stops at "cgroups in hybrid mode not supported" and at
    # setrlimit here: runc, no default ulimits; no network; storage in WORK.
    mkdir -p "$WORK/tmp"
    cat >"$WORK/containers.conf" <<CONF
[containers]
default_ulimits = []
netns = "none"
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "$WORK/libpod"
[network]
network_config_dir = "$WORK/networks"
CONF
    cat >"$WORK/storage.conf" <<CONF
[storage]
driver = "vfs"
runroot = "$WORK/run"
graphroot = "$WORK/storage"
CONF
    pm() { CONTAINERS_CONF=$WORK/containers.conf CONTAINERS_STORAGE_CONF=$WORK/storage.conf TMPDIR=$WORK/tmp \
        podman --runtime runc --cgroup-manager cgroupfs "$@"; }
    IMG=localhost/membench-check:$VERSION
    # shellcheck disable=SC2086
    pm build -q -f Containerfile -t "$IMG" $BUILD_ARGS . >"$WORK/build.log" 2>&1
    rc=$?
    check "image: podman build (exit $rc; $(tail -c 300 "$WORK/build.log"))" [ $rc -eq 0 ]
    labels=$(pm image inspect --format '{{json .Labels}}' "$IMG" 2>&1)
    check "image: labels org.opencontainers.image.version $VERSION, source, licenses MIT" \
        python3 -c 'import json,sys; l=json.loads(sys.argv[1]); p="org.opencontainers.image.";
assert l[p+"version"]==sys.argv[2] and l[p+"source"] and l[p+"licenses"]=="MIT", l' "$labels" "$VERSION"
    files=$(pm run --rm --entrypoint /usr/bin/membench "$IMG" --version 2>&1)
    check "image: entrypoint membench, --version $VERSION" grep -q "membench $VERSION" <<<"$files"
    out=$(pm run --rm --privileged "$IMG" -R -s 64 -r 1 --sample-ms 1 --latency-sample-ms 1 2>&1)
    check "image: --privileged IMAGE -R -s 64 prints the table and the scores" \
        bash -c "grep -qi 'score' <<<\"\$1\" && grep -q '64' <<<\"\$1\"" _ "$out"
    pm run --rm --privileged "$IMG" stream --size 4M --ntimes 3 --json /dev/stdout >"$WORK/stream.json" 2>"$WORK/stream-img.err"
    check "image: stream --json /dev/stdout: STREAM's table, then the JSON document with Copy, Scale, Add and Triad" \
        python3 -c 'import json,sys; t=open(sys.argv[1]).read(); assert "Triad:" in t[:t.index("{\n")], t[:400];
d=json.loads(t[t.index("{\n"):]); f={r["operation"].lower() for r in d["results"]};
assert d["mode"]=="stream" and d["complete"] and {"copy","scale","add","triad"} <= f, f' "$WORK/stream.json"
    # The container's CPUs and memory are the plan's: --cpuset-cpus 1 is one thread on
    # CPU 1; --memory 512m is a budget of the cgroup's room less the margin (10% and
    # 64 MiB: memory_budget_from), the room 512 MiB less what the container uses.
    last=$(($(nproc) - 1))
    pm run --rm --cpuset-cpus "$last" --memory 512m "$IMG" --plan -v --json /dev/stderr \
        >"$WORK/plan.txt" 2>"$WORK/plan.json"
    rc=$?
    pm run --rm "$IMG" --plan --json /dev/stderr >/dev/null 2>"$WORK/plan-free.json"
    python3 - "$WORK/plan.json" "$WORK/plan-free.json" "$last" "$WORK/plan.txt" <<'PY' && ok "image: --cpuset-cpus $last --memory 512m: one thread on CPU $last, a budget from 512 MiB, and the text says so" || bad "image: --cpuset-cpus and --memory against the plan (exit $rc)"
import json, sys
def doc(path):  # the JSON document in a file that may hold -v lines before it
    text = open(path).read()
    return json.loads(text[text.index("{\n"):])
d, free, last = doc(sys.argv[1]), doc(sys.argv[2]), sys.argv[3]
topo, plan = d["topology"], d["plan"]
assert topo["cpus_usable"] == last and topo["cpus_usable_count"] == 1, topo["cpus_usable"]
assert plan["threads"] == 1 and plan["thread_cpus"] == last, (plan["threads"], plan["thread_cpus"])
MIB = 1 << 20
def budget(avail):  # memory/memory_budget.c: 10% and a reserve of a quarter, 16 to 64 MiB
    reserve = min(max(avail // 4, 16 * MIB), 64 * MIB)
    return max(avail - avail // 100 * 10 - reserve, 0)
b = plan["memory_budget_bytes"]
assert budget(512 * MIB - 16 * MIB) <= b <= budget(512 * MIB), b
assert free["plan"]["memory_budget_bytes"] > 512 * MIB, free["plan"]["memory_budget_bytes"]
assert free["topology"]["cpus_usable_count"] == int(last) + 1
# one thread's copy (two buffers) fits the budget; the DRAM point is capped by it, and said
assert plan["max_bytes_per_thread"] == b // 2 - b // 2 % 4096, (plan["max_bytes_per_thread"], b)
assert plan["sizes"][-1]["size_kb"] * 1024 <= b and "capped by the memory budget" in plan["sizes"][-1]["reason"]
text = open(sys.argv[4]).read()
assert "Threads: 1 on CPUs %s " % last in text, text[:2000]
assert "budget %.1f MiB (MemAvailable and the cgroup limit" % (b / MIB) in text, text
PY
    pm rmi -f "$IMG" >/dev/null 2>&1
fi
echo "static: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
