#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check-mpi: membench-mpi under Open MPI on this one machine, several ranks
# (--oversubscribe), tiny sizes. MEMBENCH_MPI_TEST_DISTINCT_HOSTS=1 lets each rank
# stand for its own node; without it the ranks share this host (refused, or
# --share-host split). Timings are never asserted: whether a measured node is an
# outlier is checked for consistency (table, JSON, exit status), and the outlier
# rule itself is unit tested on synthetic nodes (tests/unit/test_cluster.c).
set -u
BIN=${1:-./membench-mpi}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d /tmp/membench-mpi-tests-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/tmpdir"
export TMPDIR=$TMP/tmpdir # where the ranks put their own JSON for a moment
# Open MPI refuses root unless told; --quiet drops its own notices from stderr.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN=(mpirun --quiet --oversubscribe --bind-to none)
QUICK=(-r 1 --sample-ms 1 --latency-sample-ms 1)
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
not_ok() { FAIL=$((FAIL + 1)); echo "not ok - $1"; [ -n "${2:-}" ] && echo "    $2"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
if ! command -v mpirun >/dev/null 2>&1; then
    echo "not ok - mpirun not found (apt-get install openmpi-bin libopenmpi-dev)"
    exit 1
fi

# run NAME NP [ENV=...] -- ARGS...: membench-mpi on NP ranks; rc in $rc, output in $TMP/NAME.{out,err}.
# Watched by run_watched.py (137: a process of the job still alive at 120 s); a run
# whose mpirun crashed or hung after every rank had ended (254, an Open MPI defect)
# is run once more, and said.
run() {
    local name=$1 np=$2
    shift 2
    local envs=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("-x" "$1"); shift; done
    shift
    local try
    # up to three tries: mpirun's own teardown race (BENCHMARKS) failed both of two
    # tries in 2 of 5 runs of this suite on the Xeon guest (2026-12-02); a hang of
    # membench-mpi's is not 254 and is never tried again
    for try in 1 2 3; do
        python3 "$HERE/run_watched.py" "$TMP/$name.out" "$TMP/$name.err" "${MPIRUN[@]}" "${envs[@]}" -np "$np" "$BIN" "$@"
        rc=$?
        [ $rc = 254 ] && [ $try != 3 ] || break
        echo "# $name: mpirun itself crashed or hung after every rank had ended (Open MPI's teardown); run once more"
    done
}
cluster_ok() { python3 "$HERE/check_cluster.py" "$@"; }
D=MEMBENCH_MPI_TEST_DISTINCT_HOSTS=1

# --- gathering, the table, the JSON ------------------------------------------------
run gather 4 $D -- -s 16 -o read -o latency "${QUICK[@]}" --json "$TMP/gather.json"
check "4 ranks: exit 0 or 3 (an outlier), nothing else (rc=$rc)" bash -c "[ $rc -eq 0 ] || [ $rc -eq 3 ]"
check "4 ranks: the cluster JSON holds every rank's valid document and figures that match it" \
    cluster_ok "$TMP/gather.json" 4 status.0=ok status.1=ok status.2=ok status.3=ok complete=true \
    exit_status=$rc one_at_a_time=false share_host=refuse
check "4 ranks: exit 3 exactly when the JSON names outliers" python3 -c "
import json,sys; d=json.load(open('$TMP/gather.json')); sys.exit(0 if bool(d['outliers']) == ($rc == 3) else 1)"
check "4 ranks: the table has a row per rank, the figures, median, min and max" bash -c "
    grep -q '^rank .*host .*status .*read MB/s .*latency ns .*outlier' '$TMP/gather.out' &&
    for r in 0 1 2 3; do grep -Eq \"^\$r +[^ ]+#\$r +ok +[0-9.]+ +[0-9.]+\" '$TMP/gather.out' || exit 1; done &&
    grep -Eq '^median +[0-9.]+ +[0-9.]+\$' '$TMP/gather.out' && grep -Eq '^min +[0-9.]+' '$TMP/gather.out' &&
    grep -Eq '^max +[0-9.]+' '$TMP/gather.out' && grep -q 'measured together' '$TMP/gather.out'"
check "4 ranks: the table's median is the JSON's" python3 -c "
import json,re,sys; d=json.load(open('$TMP/gather.json'))
row=[l for l in open('$TMP/gather.out') if l.startswith('median')][0].split()[1:]
sys.exit(0 if [float(x) for x in row] == [round(f['median'],1) for f in d['figures']] else 1)"
# A node's steps are its points' visits (params.rounds): read once, latency once or,
# while its CV is 5% or more, in further rounds; a node with fewer steps joins the
# others' barriers with none of its own, so the table counts the most any node had.
check "4 ranks: each node's steps (read, latency: one a visit) started with the others', said in the table" python3 -c "
import json,re,sys; d=json.load(open('$TMP/gather.json'))
steps = [sum(r['params']['rounds'] for r in n['document']['results']) for n in d['nodes']]
said = re.findall(r'^Every measured step started on every node at once \((\d+) steps, a barrier before each\)\$',
                  open('$TMP/gather.out').read(), re.M)
sys.exit(0 if said == [str(max(steps))] and min(steps) >= 2 and
         all(n['steps_started_together'] == k and len(n['document']['results']) == 2 and
             n['steps_together_lost_at'] is None for n, k in zip(d['nodes'], steps)) else 1)"
check "4 ranks: the gather says how many records and bytes came to rank 0, and how long it took" python3 -c "
import json,sys; d=json.load(open('$TMP/gather.json')); g=d['gather']
docs=sum(len(json.dumps(n['document'])) for n in d['nodes'][1:])
sys.exit(0 if g['records'] == 3 and g['bytes'] > 0.5 * docs and g['seconds'] >= 0 and 0 <= g['json_write_seconds'] else 1)"
check "4 ranks: no rank's temporary JSON is left behind" bash -c "[ -z \"\$(ls -A '$TMP/tmpdir')\" ]"

run om 2 $D -- -s 16 -o read "${QUICK[@]}" --openmetrics "$TMP/om-%h-r%r.prom"
check "--openmetrics with %h and %r: one file per rank, named after its host and rank, each its own node's" bash -c "
    [ $rc -eq 0 ] || [ $rc -eq 3 ] || exit 1
    for r in 0 1; do f=\$(ls '$TMP'/om-*#\$r-r\$r.prom) && grep -q '^membench_' \"\$f\" || exit 1; done
    [ \$(ls '$TMP'/om-*.prom | wc -l) -eq 2 ]"

run single 1 -- stream -n 100000 --ntimes 2 --json "$TMP/single.json"
check "1 rank: a node alone is its own median, exit 0 (rc=$rc)" bash -c "[ $rc -eq 0 ]"
check "1 rank (stream): the headline figure is Triad alone" bash -c "
    cluster_ok() { python3 '$HERE/check_cluster.py' \"\$@\"; }
    cluster_ok '$TMP/single.json' 1 status.0=ok exit_status=0 &&
    python3 -c \"import json,sys; d=json.load(open('$TMP/single.json')); sys.exit(0 if [f['name'] for f in d['figures']] == ['triad MB/s'] else 1)\""

# --- ranks that share a host -------------------------------------------------------
run shared 2 -- -s 16 -o read "${QUICK[@]}" --json "$TMP/shared.json"
check "2 ranks on one host: refused, exit 2, one line naming the ranks and the way out (rc=$rc)" bash -c "
    [ $rc -eq 2 ] && [ \$(wc -l <'$TMP/shared.err') -eq 1 ] && [ ! -s '$TMP/shared.out' ] &&
    grep -q 'ranks 0,1 on .* share a host.*--share-host split' '$TMP/shared.err' && [ ! -e '$TMP/shared.json' ]"
run split 2 -- -s 16 -o read -o latency "${QUICK[@]}" --share-host split --json "$TMP/split.json"
check "--share-host split: both ranks measured (rc=$rc)" bash -c "[ $rc -eq 0 ] || [ $rc -eq 3 ]"
check "--share-host split: each rank on its own CPUs, valid documents" \
    cluster_ok "$TMP/split.json" 2 status.0=ok status.1=ok share_host=split cpus_disjoint=1

# --- a rank that fails, a rank that never answers ----------------------------------
run fail 3 $D MEMBENCH_MPI_TEST_FAIL_RANK=1 -- -s 16 -o read -o write "${QUICK[@]}" --json "$TMP/fail.json" \
    --rank-timeout 60
check "a rank that cannot allocate: exit 3 (rc=$rc)" bash -c "[ $rc -eq 3 ]"
check "a rank that cannot allocate: named with its error in the JSON, the others kept" \
    cluster_ok "$TMP/fail.json" 3 status.0=ok status.1=failed status.2=ok "error.1=the memory budget is unknown" \
    exit_status=3 complete=true
check "a rank that cannot allocate: the others' steps still start together (it joins them with none of its own)" \
    python3 -c "
import json,sys; d=json.load(open('$TMP/fail.json')); n=d['nodes']
sys.exit(0 if [x['steps_started_together'] for x in n] == [2, 0, 2] and
         all(x['steps_together_lost_at'] is None for x in n) else 1)"
check "a rank that cannot allocate: named with its error in the table" bash -c "
    grep -Eq '^1 +[^ ]+#1 +failed +- +- +yes' '$TMP/fail.out' &&
    grep -q '  rank 1 .*#1: failed: the memory budget is unknown' '$TMP/fail.out'"

run hang 3 $D MEMBENCH_MPI_TEST_HANG_RANK=2 -- -s 16 -o read "${QUICK[@]}" --rank-timeout 3 --json "$TMP/hang.json"
check "a rank that never answers: no hang, exit 3 (rc=$rc)" bash -c "[ $rc -eq 3 ]"
check "a rank that never answers: reported silent, the others kept, the JSON incomplete" \
    cluster_ok "$TMP/hang.json" 3 status.0=ok status.1=ok "status.2=no answer" "error.2=--rank-timeout 3 s" \
    complete=false exit_status=3
check "a rank that never answers: in the table" grep -q '  rank 2 .*#2: no answer: no record within --rank-timeout 3 s' \
    "$TMP/hang.out"
check "a rank that never answers: the others say their steps started alone, from the first" bash -c "
    grep -q '  rank 0 .*#0: 0 steps together, then alone from step 1' '$TMP/hang.out' &&
    grep -q '  rank 1 .*#1: 0 steps together, then alone from step 1' '$TMP/hang.out'"

# --- one at a time ------------------------------------------------------------------
run turn 3 $D -- -s 16 -o read "${QUICK[@]}" --one-at-a-time --json "$TMP/turn.json"
check "--one-at-a-time: the ranks measured in turn, in rank order (rc=$rc)" \
    cluster_ok "$TMP/turn.json" 3 status.0=ok status.1=ok status.2=ok one_at_a_time=true in_turn=1
check "--one-at-a-time: said in the table" grep -q 'measured one at a time' "$TMP/turn.out"

# --- Ctrl-C ---------------------------------------------------------------------------
timeout -k 10 120 "${MPIRUN[@]}" -x $D -np 2 "$BIN" -s 16 -o read -r 500 --sample-ms 20 --json "$TMP/int.json" \
    >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
for _ in $(seq 100); do [ -s "$TMP/int.json" ] && break; sleep 0.1; done
sleep 1
kill -INT $pid
wait $pid
check "Ctrl-C: the cluster JSON is valid, marked incomplete, every rank accounted for" \
    cluster_ok "$TMP/int.json" 2 complete=false

# --- bad input: one line, exit 2, on rank 0 only ----------------------------------
bad() {
    local name=$1 needle=$2; shift 2
    run bad 3 $D -- "$@"
    if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/bad.err")" -eq 1 ] && [ ! -s "$TMP/bad.out" ] &&
        grep -qF -- "$needle" "$TMP/bad.err"; then
        ok "bad input: $name"
    else
        not_ok "bad input: $name" "rc=$rc stderr=$(head -c 300 "$TMP/bad.err")"
    fi
}
bad "--outlier-threshold 0" "--outlier-threshold '0'" -s 16 --outlier-threshold 0
bad "--rank-timeout abc" "--rank-timeout 'abc'" -s 16 --rank-timeout abc
bad "--share-host maybe" "--share-host 'maybe'" -s 16 --share-host maybe
bad "a mode's unknown flag, said once" "membench latency: unknown or ambiguous option '--bogus'" latency --bogus
bad "compare measures nothing" "compare measures nothing" compare a.json b.json
bad "--json into a missing directory" "--json /nonexistent/dir/c.json: cannot write" -s 16 --json /nonexistent/dir/c.json

run help 2 -- --help
check "--help: exit 0, every cluster flag, said once" bash -c "[ $rc -eq 0 ] &&
    for f in --json --outlier-threshold --one-at-a-time --share-host --rank-timeout; do grep -q -- \"\$f\" '$TMP/help.out' || exit 1; done &&
    [ \$(grep -c '^Usage' '$TMP/help.out') -eq 1 ]"

echo "mpi: $PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
