#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# /init of the NUMA test guest (tests/numa/run_numa_guest.sh): runs membench in the
# situations the host cannot make (several NUMA nodes, a memory-less node, THP
# "never", no huge pages, parts of /sys hidden, an unprivileged user, a small cgroup)
# and prints each run between markers on the serial console. The host checks them;
# nothing is judged here.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tmpfs tmp /tmp
chmod 1777 /tmp
mkdir -p /etc
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' >/etc/passwd
printf 'root:x:0:\nnogroup:x:65534:\n' >/etc/group
M=/bin/membench
Q="-r 1 --sample-ms 2 --latency-sample-ms 2"

# run NAME CMD...: the command's exit status, stdout, stderr and JSON (if it wrote
# /tmp/NAME.json) between markers.
run() {
    name=$1
    shift
    # each node's free memory before the run: a check that fails on a node's capacity
    # shows it (outside the markers, read by check_guest.py)
    # the guest's uptime at the start of each run: the host prints the slowest runs
    echo "=== UPTIME $name $(cut -d' ' -f1 /proc/uptime)"
    echo "=== FREE $name $(cat /sys/devices/system/node/node*/meminfo 2>/dev/null | awk '/MemFree/{printf "node%s=%dMiB ", $2, $4/1024}')"
    echo "=== BEGIN $name"
    "$@" >/tmp/out 2>/tmp/err
    rc=$?
    cat /tmp/out
    echo "=== STDERR"
    cat /tmp/err
    if [ -f "/tmp/$name.json" ]; then
        echo "=== JSON"
        cat "/tmp/$name.json"
        echo
    fi
    echo "=== END $name rc=$rc"
}

echo "=== GUEST UP $(uname -r) nodes=$(ls -d /sys/devices/system/node/node* | wc -l) cpus=$(nproc)"
# The 16-CPU guest (run_numa_guest.sh's x86_64-wide) runs its own short list.
case " $(cat /proc/cmdline) " in
*" membench_guest=wide "*)
    . /wide.sh
    echo "=== UPTIME done $(cut -d' ' -f1 /proc/uptime)"
    echo "=== GUEST DONE"
    poweroff -f
    ;;
esac
run topology $M topology --json

# Placement and page placement on a real multi-node system.
run spread2 $M -s 4096 -o read -o write -p 2 $Q --json /tmp/spread2.json
run spread_all $M -s 4096 -o read $Q --json /tmp/spread_all.json
run cpus_node1 $M -s 4096 -o read -o copy --cpus 2,3 $Q --json /tmp/cpus_node1.json
run omp_close env OMP_PROC_BIND=close OMP_NUM_THREADS=2 $M -s 4096 -o read $Q --json /tmp/omp_close.json
run latency_local $M latency --cpu 0 --max 8M --sample-ms 2 --json /tmp/latency_local.json
run latency_remote $M latency --cpu 0 --mem-node 1 --max 8M --sample-ms 2 --json /tmp/latency_remote.json
run latency_memless_node $M latency --cpu 0 --mem-node 2 --max 1M
# 800 MiB fits the memory budget but not node 1 (768 MiB): bound, it is skipped and
# the run fails; preferred, it spills to other nodes and says how much did.
run latency_bind_full $M latency --cpu 0 --mem-node 1 --min 800M --max 800M --sample-ms 2
run latency_preferred_full $M latency --cpu 0 --mem-node 1 --mem-policy preferred --min 800M --max 800M --sample-ms 2 --json /tmp/latency_preferred_full.json
# 64 MiB bound to the CPU-less node 3 (128 MiB): the node keeps an eighth of itself
# (16 MiB) free, not the machine-wide 64 MiB, so this fits while node 3 has 80 MiB free.
run latency_node3_margin $M latency --cpu 0 --mem-node 3 --min 64M --max 64M --sample-ms 2 --json /tmp/latency_node3_margin.json
run stream_nodes $M stream -n 2000000 --ntimes 3 --json /tmp/stream_nodes.json

# --- latency-matrix: rows are nodes with CPUs (0, 1, and the memory-less 2), columns
# nodes with memory (0, 1, and the CPU-less 3 of 128 MiB). 120 MiB (plus the node's
# margin: 64 MiB for nodes 0 and 1, 16 MiB for node 3) fits the budget and nodes 0
# and 1, never node 3: '-' there. 16 MiB fits node 3 while it has 32 MiB free. taskset keeps
# that run to one row, so the big chains stay few under TCG.
run lm_matrix $M latency-matrix -b 16M --sample-ms 2 --json /tmp/lm_matrix.json
run lm_full taskset -c 0 $M latency-matrix -b 120M --sample-ms 2 --json /tmp/lm_full.json
run lm_every $M latency-matrix --every-cpu -b 16M --sample-ms 2 --json /tmp/lm_every.json
run lm_every_node3 $M latency-matrix --every-cpu --mem-node 3 -b 16M --sample-ms 2 --json /tmp/lm_every_node3.json
run lm_cpu_of $M latency-matrix --cpu-of 1=3 --mem-node 1 -b 16M --sample-ms 2 --json /tmp/lm_cpu_of.json
run lm_memless $M latency-matrix --mem-node 2
run lm_cpu_of_wrong $M latency-matrix --cpu-of 1=0
# --- end of latency-matrix
# --- traffic modes: peak-bandwidth, loaded-latency, bandwidth-matrix (6 vCPUs on
# whatever the host has: windows are wall time, so nothing waits on a descheduled CPU)
TQ="-b 8M --window-ms 5 --samples 2"
run tr_peak $M peak-bandwidth --traffic R,W5 $TQ --json /tmp/tr_peak.json
run tr_loaded $M loaded-latency -c 2 --delays 0,100 --samples 2 --sample-ms 2 -b 8M --chase-buffer 8M --json /tmp/tr_loaded.json
run tr_bwm $M bandwidth-matrix $TQ --json /tmp/tr_bwm.json
run tr_bwm_full $M bandwidth-matrix -b 64M --window-ms 5 --samples 2 --json /tmp/tr_bwm_full.json
# --- end of traffic modes

# THP "never" (kernel command line) and an empty hugetlb pool.
run thp_never_H $M -H -s 8192 -o read $Q --json /tmp/thp_never_H.json
run latency_pages_thp $M latency --pages thp --max 4M --sample-ms 2
run latency_pages_2m $M latency --pages 2m --max 4M --sample-ms 2
# A pool of 10 huge pages for four 8 MiB buffers (4 pages each): two threads' copy
# gets two buffers in hugetlb and two without huge pages (THP is never).
echo 10 >/proc/sys/vm/nr_hugepages
run mixed_pages $M -H -s 8192 -o copy -p 2 $Q -v --json /tmp/mixed_pages.json
echo 0 >/proc/sys/vm/nr_hugepages

# An unprivileged user in a restricted cpuset.
run nobody su -s /bin/sh -c "$M -s 1024 -o read -o latency $Q --json /tmp/nobody.json" nobody
run nobody_taskset su -s /bin/sh -c "taskset -c 3,5 $M -s 1024 -o read $Q --json /tmp/nobody_taskset.json" nobody
run nobody_id su -s /bin/sh -c "id -u" nobody

# Parts of /sys hidden (empty tmpfs over them): caches of cpu0 and the node tree.
mount -t tmpfs none /sys/devices/system/cpu/cpu0/cache
mount -t tmpfs none /sys/devices/system/node
run sys_hidden $M -s 1024 -o read -o latency $Q --json /tmp/sys_hidden.json
run sys_hidden_topology $M topology
umount /sys/devices/system/node
umount /sys/devices/system/cpu/cpu0/cache
# /sys unreadable for the user: node meminfo and the THP setting.
chmod 000 /sys/kernel/mm/transparent_hugepage /sys/devices/system/node/node1
run sys_unreadable su -s /bin/sh -c "$M -s 1024 -o read $Q --json /tmp/sys_unreadable.json" nobody
chmod 755 /sys/kernel/mm/transparent_hugepage /sys/devices/system/node/node1

# A cgroup v2 memory limit of 256 MiB: -f is capped, big sizes are refused.
mkdir -p /cg
if mount -t cgroup2 none /cg 2>/dev/null && echo +memory >/cg/cgroup.subtree_control && mkdir /cg/small &&
    echo 256M >/cg/small/memory.max; then
    run cgroup_f sh -c "echo \$\$ >/cg/small/cgroup.procs && exec $M -f -p 2 -o read $Q --json /tmp/cgroup_f.json"
    run cgroup_big_s sh -c "echo \$\$ >/cg/small/cgroup.procs && exec $M -s 262144 -o read $Q"
    run cgroup_stream sh -c "echo \$\$ >/cg/small/cgroup.procs && exec $M stream -n 20000000 --ntimes 2"
    run cgroup_latency sh -c "echo \$\$ >/cg/small/cgroup.procs && exec $M latency --max 512M"
else
    echo "=== NOTE cgroup v2 memory controller not available in the guest"
fi

# --- c2c (membench c2c, cache-to-cache latency): begin ---------------------------
# Writer and reader on different nodes, memory homed on each side and on --home,
# modified and clean lines, the node matrices and a CPU matrix; 6 vCPUs on 2 host
# CPUs under TCG: every handshake must finish (or fail) instead of hanging.
run c2c_pair $M c2c --writer 0 --reader 2 --window 16K --json /tmp/c2c_pair.json
run c2c_pair_clean $M c2c --writer 2 --reader 0 --home 0 --clean --window 16K --json /tmp/c2c_pair_clean.json
run c2c_default $M c2c --window 16K --json /tmp/c2c_default.json
run c2c_matrix $M c2c --matrix --cpus 0,2,4 --window 16K --json /tmp/c2c_matrix.json
run c2c_home_memless $M c2c --writer 0 --reader 2 --home 2
# --- c2c: end ----------------------------------------------------------------------
# --- mlc (MLC's command line on the modes above): begin ------------------------------
run mlc_lm $M mlc --latency_matrix -b 16M -t 0.015 --json /tmp/mlc_lm.json
run mlc_idle_cpuless $M mlc --idle_latency -c 3 -j 3 -b 16M -t 0.015 --json /tmp/mlc_idle_cpuless.json
run mlc_idle_i $M mlc --idle_latency -c 0 -i 2 -b 16M -t 0.015 --json /tmp/mlc_idle_i.json
run mlc_idle_i_memless $M mlc --idle_latency -c 0 -i 4 -b 16M -t 0.015 --json /tmp/mlc_idle_i_memless.json
run mlc_bwm $M mlc --bandwidth_matrix -b 8M -t 0.012 --json /tmp/mlc_bwm.json
run mlc_c2c $M mlc --c2c_latency -C 16 --json /tmp/mlc_c2c.json
run mlc_j_memless $M mlc --idle_latency -j 2
# --- mlc: end ------------------------------------------------------------------------
# --- numa mem (perf bench numa mem): begin --------------------------------------------
run nm_bind $M numa mem -p 2 -t 1 -P 16 -T 8 -l 2 -C 0,2 -M 0,1 --json /tmp/nm_bind.json
run nm_cpuless $M numa mem -p 1 -t 2 -T 8 -G 0 -l 2 -C 2x2 -M 3x2 --json /tmp/nm_cpuless.json
run nm_memless $M numa mem -p 1 -T 8 -M 2
run nm_node_full $M numa mem -p 2 -t 1 -P 40 -T 20 -G 0 -l 2 -M 3,3
run nm_conv_bound $M numa mem -p 2 -t 1 -P 16 -C 0,2 -M 0,1 -s 5 -m --json /tmp/nm_conv_bound.json
run nm_conv $M numa mem -p 2 -t 2 -P 16 -s 2 -c --json /tmp/nm_conv.json
run nm_split $M numa mem -p 1 -t 2 -P 16 -C 0,2 -M 0 -s 2 -c --json /tmp/nm_split.json
# (no pgrep in busybox: the first child is found by its parent pid in /proc/PID/stat)
run nm_killed sh -c "$M numa mem -p 2 -P 16 -s 60 --json /tmp/nm_killed.json & p=\$!; sleep 3;
    for d in /proc/[0-9]*; do read -r pid comm state ppid rest <\$d/stat; [ \"\$ppid\" = \$p ] && kill -9 \$pid && break; done;
    wait \$p"
# --- numa mem: end ----------------------------------------------------------------------

# SIGTERM in the middle of a run, on several nodes (in its measurement: this guest
# has no cache sizes, and the cache probe under TCG outlasts the 2 s; a stop during
# the probe is the command-line tests').
echo "=== BEGIN sigterm"
$M -p 4 $Q --cache-probe never --json /tmp/sigterm.json >/tmp/out 2>/tmp/err &
pid=$!
sleep 2
kill -TERM $pid
wait $pid
rc=$?
cat /tmp/out
echo "=== STDERR"
cat /tmp/err
echo "=== JSON"
cat /tmp/sigterm.json
echo
echo "=== END sigterm rc=$rc"

echo "=== UPTIME done $(cut -d' ' -f1 /proc/uptime)"
echo "=== GUEST DONE"
poweroff -f
