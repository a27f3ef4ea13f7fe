#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# membench-mpi with a silent rank under Open MPI's mpirun: how often mpirun itself
# fails to end the job after rank 0 has written everything and ended it (MPI_Abort).
# Three ranks, rank 2 silent (MEMBENCH_MPI_TEST_HANG_RANK=2), --rank-timeout 3, with
# both CPUs kept busy by two spinning shells (the failures are a race in mpirun's
# teardown that load makes more likely). tests/mpi/run_watched.py tells these apart
# from a hang of membench-mpi's, and make check-mpi runs such a case once more.
#
#   bench/mpi_silent_rank.sh [RUNS]      (default 40)
#
# A run is "ok" when mpirun exits 3 within 40 s; "hung" when it is still there at
# 40 s with every rank ended (killed then); otherwise "rc=N" (139: mpirun crashed).
set -uo pipefail
RUNS=${1:-40}
cd "$(dirname "$0")/.."
make -s mpi >/dev/null
OUT=$(mktemp -d)
spin=()
trap 'kill "${spin[@]}" 2>/dev/null; rm -rf "$OUT"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 TMPDIR=$OUT
for _ in 1 2; do
    sh -c 'while :; do :; done' &
    spin+=($!)
done
ok=0
bad=""
for i in $(seq 1 "$RUNS"); do
    mpirun --quiet --oversubscribe --bind-to none -x MEMBENCH_MPI_TEST_DISTINCT_HOSTS=1 \
        -x MEMBENCH_MPI_TEST_HANG_RANK=2 -np 3 ./membench-mpi -s 16 -o read -r 1 \
        --sample-ms 1 --rank-timeout 3 --json "$OUT/h.json" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 400); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
    if kill -0 $pid 2>/dev/null; then
        live=$(ps -o stat= --ppid $pid | grep -vc '^Z')
        pkill -KILL -P $pid 2>/dev/null
        kill -KILL $pid 2>/dev/null
        wait $pid 2>/dev/null
        [ "$live" -eq 0 ] && what=hung || what="hung with $live ranks alive"
    else
        wait $pid 2>/dev/null
        rc=$?
        [ $rc -eq 3 ] && what=ok || what="rc=$rc"
    fi
    if [ "$what" = ok ]; then ok=$((ok + 1)); else bad+=" run $i: $what;"; fi
done
echo "$ok of $RUNS ended with exit 3;${bad:- no failures}"
