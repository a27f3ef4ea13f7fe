#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check-slurm: membench-mpi through srun and sbatch on a one-machine Slurm
# (slurm_up.sh), Open MPI's ranks started by Slurm (--mpi=pmix), tiny sizes.
# MEMBENCH_MPI_TEST_DISTINCT_HOSTS=1 lets each rank stand for a node.
set -u
BIN=${1:-./membench-mpi}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d /tmp/membench-slurm-tests-XXXXXX)
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
not_ok() { FAIL=$((FAIL + 1)); echo "not ok - $1"; [ -n "${2:-}" ] && echo "    $2"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
for tool in munged slurmctld slurmd srun sbatch; do
    command -v $tool >/dev/null 2>&1 || { echo "not ok - $tool not found (apt-get install slurmd slurmctld slurm-client munge)"; exit 1; }
done
SLURM_CONF=$(bash "$HERE/slurm_up.sh" "$TMP/slurm") || { echo "not ok - a one-machine Slurm starts"; cat "$TMP"/slurm/log/* 2>/dev/null | tail -20; bash "$HERE/slurm_up.sh" "$TMP/slurm" down; exit 1; }
export SLURM_CONF
trap 'scancel --user="$(id -un)" 2>/dev/null; sleep 1; bash "$HERE/slurm_up.sh" "$TMP/slurm" down; rm -rf "$TMP"' EXIT
ok "a one-machine Slurm starts"
mkdir "$TMP/tmpdir"
export TMPDIR=$TMP/tmpdir
QUICK=(-r 1 --sample-ms 1 --latency-sample-ms 1)
cluster_ok() { python3 "$HERE/../mpi/check_cluster.py" "$@"; }
cd "$TMP"

timeout -k 10 120 srun -N 1 -n 2 "$BIN" -s 16 -o read "${QUICK[@]}" >"$TMP/shared.out" 2>"$TMP/shared.err"; rc=$?
check "srun, 2 tasks on one host: refused, exit 2, said once by rank 0 (rc=$rc)" bash -c "
    [ $rc -eq 2 ] && [ \$(grep -c '^membench-mpi: ' '$TMP/shared.err') -eq 1 ] && [ ! -s '$TMP/shared.out' ] &&
    grep -q 'share a host.*--share-host split' '$TMP/shared.err'"

timeout -k 10 120 srun -N 1 -n 2 "$BIN" -s 16 -o read -o latency "${QUICK[@]}" --share-host split --json "$TMP/split.json" \
    >"$TMP/split.out" 2>"$TMP/split.err"; rc=$?
check "srun --share-host split: both tasks measured on their own CPUs (rc=$rc)" bash -c "
    { [ $rc -eq 0 ] || [ $rc -eq 3 ]; } && python3 '$HERE/../mpi/check_cluster.py' '$TMP/split.json' 2 status.0=ok status.1=ok cpus_disjoint=1 exit_status=$rc"

# --overcommit: three tasks on this machine's CPUs (Slurm would otherwise wait for a third)
MEMBENCH_MPI_TEST_DISTINCT_HOSTS=1 MEMBENCH_MPI_TEST_FAIL_RANK=1 timeout -k 10 120 srun -N 1 -n 3 --overcommit "$BIN" -s 16 -o read \
    "${QUICK[@]}" --json "$TMP/fail.json" >"$TMP/fail.out" 2>"$TMP/fail.err"; rc=$?
check "srun, a task that cannot allocate: exit 3 through srun, named, the others kept (rc=$rc)" bash -c "
    [ $rc -eq 3 ] && python3 '$HERE/../mpi/check_cluster.py' '$TMP/fail.json' 3 status.0=ok status.1=failed status.2=ok \
        'error.1=the memory budget is unknown' && grep -q 'rank 1 .*failed: the memory budget' '$TMP/fail.out'"

# A silent task: rank 0 ends the step through MPI_Abort, which srun reports with its status
MEMBENCH_MPI_TEST_DISTINCT_HOSTS=1 MEMBENCH_MPI_TEST_HANG_RANK=2 timeout -k 10 120 srun -N 1 -n 3 --overcommit "$BIN" -s 16 \
    -o read "${QUICK[@]}" --rank-timeout 3 --json "$TMP/hang.json" >"$TMP/hang.out" 2>"$TMP/hang.err"; rc=$?
check "srun, a task that never answers: no hang, exit 3 through srun, named, the JSON incomplete (rc=$rc)" bash -c "
    [ $rc -eq 3 ] && python3 '$HERE/../mpi/check_cluster.py' '$TMP/hang.json' 3 status.0=ok status.1=ok \
        'status.2=no answer' complete=false exit_status=3 && grep -q 'rank 2 .*no answer' '$TMP/hang.out'"

cat >"$TMP/job.sh" <<JOB
#!/bin/bash
#SBATCH -N 1 -n 2 -o $TMP/job.out -e $TMP/job.err
export MEMBENCH_MPI_TEST_DISTINCT_HOSTS=1
srun "$BIN" stream -n 100000 --ntimes 2 --json "$TMP/job.json"
JOB
timeout -k 10 120 sbatch --wait "$TMP/job.sh" >/dev/null 2>"$TMP/sbatch.err"; rc=$?
check "sbatch: the job's exit status is membench-mpi's (rc=$rc)" bash -c "[ $rc -eq 0 ] || [ $rc -eq 3 ]"
check "sbatch: the cluster JSON and the table (Triad per node)" bash -c "
    python3 '$HERE/../mpi/check_cluster.py' '$TMP/job.json' 2 status.0=ok status.1=ok complete=true exit_status=$rc &&
    grep -q 'triad MB/s' '$TMP/job.out' && grep -Eq '^median +[0-9.]+' '$TMP/job.out'"

cat >"$TMP/long.sh" <<JOB
#!/bin/bash
#SBATCH -N 1 -n 2 -o $TMP/long.out -e $TMP/long.err
export MEMBENCH_MPI_TEST_DISTINCT_HOSTS=1
srun "$BIN" -s 16 -o read -r 500 --sample-ms 20 --json "$TMP/long.json"
JOB
job=$(sbatch --parsable "$TMP/long.sh")
for _ in $(seq 200); do [ -s "$TMP/long.json" ] && break; sleep 0.1; done
sleep 1
scancel "$job"
for _ in $(seq 200); do squeue -h -j "$job" 2>/dev/null | grep -q . || break; sleep 0.1; done
check "scancel: the cluster JSON is valid and marked incomplete" cluster_ok "$TMP/long.json" 2 complete=false
check "no task's temporary JSON is left behind" bash -c "[ -z \"\$(ls -A '$TMP/tmpdir')\" ]"

echo "slurm: $PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
