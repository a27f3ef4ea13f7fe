#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# membench-mpi: what gathering the records costs rank 0 as the ranks grow. One
# machine stands for N nodes (MEMBENCH_MPI_TEST_DISTINCT_HOSTS=1, --oversubscribe),
# each rank measuring a tiny sweep point so the run is mostly the gather; the
# cluster JSON's "gather" says the records and bytes received, the seconds from the
# last common step to the last record, and the seconds spent rewriting the JSON.
#
#   bench/mpi_gather.sh [ROUNDS] [RANKS...]      (default: 3 rounds of 2 4 8 16 32 64)
#
# Prints, per rank count, the medians (and ranges) over the rounds, and the wall time
# of the whole mpirun. Needs mpirun and `make mpi`.
set -euo pipefail
ROUNDS=${1:-3}
shift || true
RANKS=("$@")
[ ${#RANKS[@]} -gt 0 ] || RANKS=(2 4 8 16 32 64)
cd "$(dirname "$0")/.."
make -s mpi >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 TMPDIR=$OUT
for round in $(seq 1 "$ROUNDS"); do
    for n in "${RANKS[@]}"; do
        rm -f "$OUT/c.json"
        start=$(date +%s.%N)
        timeout -k 10 600 mpirun --quiet --oversubscribe --bind-to none -x MEMBENCH_MPI_TEST_DISTINCT_HOSTS=1 \
            -np "$n" ./membench-mpi -s 16 -o read -r 1 --sample-ms 1 --json "$OUT/c.json" >/dev/null 2>&1 || true
        end=$(date +%s.%N)
        python3 - "$OUT/c.json" "$round" "$n" "$(echo "$end - $start" | bc)" >>"$OUT/raw" <<'PY'
import json, sys
path, r, n, wall = sys.argv[1:]
d = json.load(open(path)); g = d['gather']
assert g['records'] == int(n) - 1, (g, n)
for name, v in (('gather_ms', g['seconds'] * 1e3), ('json_write_ms', g['json_write_seconds'] * 1e3),
                ('gathered_kib', g['bytes'] / 1024), ('file_kib', len(open(path, 'rb').read()) / 1024),
                ('mpirun_wall_s', float(wall))):
    print(f"{r} {n}_ranks_{name} {v:.3f}")
PY
    done
done
python3 bench/medians.py "$OUT/raw"
