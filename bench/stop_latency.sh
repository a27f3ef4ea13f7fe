#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How fast does membench stop? For each scenario, starts a run, sends SIGINT after
# each of several delays (so the signal lands in different phases: allocation and
# first touch, kernel passes over gigabyte buffers, chain building, STREAM
# iterations, team start-up) and measures the time from the signal to the exit of
# the process; for -t runs, the time past the limit. Prints the median and the
# worst per scenario. Goal: under 1 s everywhere.
# Usage: bench/stop_latency.sh [BINARY] [ROUNDS]; SKIP_MANY_THREADS=1 leaves out
# the 4096-thread run (before the fix it took over ten minutes).
# Needs some 18 GiB of memory available (the largest scenario uses 16 GiB).
set -eu
BIN=${1:-./membench}
ROUNDS=${2:-2}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

now_ms() { date +%s%3N; }

# sigint_after DELAY CMD...: ms from SIGINT to exit (or "ended" if it ended first)
sigint_after() {
    local delay=$1 pid t0 t1
    shift
    "$@" >"$OUT/out" 2>"$OUT/err" &
    pid=$!
    sleep "$delay"
    if ! kill -0 $pid 2>/dev/null; then
        wait $pid || true
        echo ended
        return
    fi
    t0=$(now_ms)
    kill -INT $pid
    wait $pid || true
    t1=$(now_ms)
    echo $((t1 - t0))
}

# overrun LIMIT CMD...: ms the run lasted beyond its -t LIMIT (negative: ended before)
overrun() {
    local limit=$1 t0 t1
    shift
    t0=$(now_ms)
    "$@" >"$OUT/out" 2>"$OUT/err" || true
    t1=$(now_ms)
    echo $((t1 - t0 - limit * 1000))
}

report() {
    python3 -c "
import statistics, sys
name, vals = sys.argv[1], [int(x) for x in sys.argv[2].split() if x != 'ended']
ended = sys.argv[2].split().count('ended')
if not vals:
    print('%-58s all runs ended before the signal' % name)
else:
    print('%-58s median %6d ms  worst %6d ms  (%d stops%s)' % (name, statistics.median(vals), max(vals), len(vals),
          ', %d ended first' % ended if ended else ''))" "$1" "$2"
}

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs; $BIN; $ROUNDS round(s)"
declare -A res
SCEN=(
    "sweep -s 4194304 -o read -o copy|-s 4194304 -o read -o copy -r 2"
    "sweep -R -s 2097152 -o copy|-R -s 2097152 -o copy -r 3"
    "stream -n 300000000|stream -n 300000000"
    "latency --min 1G --max 2G|latency --min 1G --max 2G"
)
for ((r = 0; r < ROUNDS; r++)); do
    for s in "${SCEN[@]}"; do
        name=${s%%|*}
        read -ra args <<<"${s#*|}"
        for d in 0.5 1.5 3 5; do
            res[$name]+="$(flock /tmp/bench.lock bash -c "$(declare -f sigint_after now_ms); OUT=$OUT; sigint_after $d $BIN ${args[*]}") "
        done
    done
    res["-t 6 -f (past the limit)"]+="$(flock /tmp/bench.lock bash -c "$(declare -f overrun now_ms); OUT=$OUT; overrun 6 $BIN -t 6 -f") "
    [ -n "${SKIP_MANY_THREADS:-}" ] ||
        res["-p 4096 --oversubscribe -s 4 -o read -r 1 -t 5 (past)"]+="$(flock /tmp/bench.lock bash -c "$(declare -f overrun now_ms); OUT=$OUT; overrun 5 $BIN -p 4096 --oversubscribe -s 4 -o read -r 1 -t 5") "
done
for s in "${SCEN[@]}"; do
    report "SIGINT: ${s%%|*}" "${res[${s%%|*}]}"
done
report "-t 6 -f (past the limit)" "${res["-t 6 -f (past the limit)"]}"
[ -n "${SKIP_MANY_THREADS:-}" ] ||
    report "-p 4096 --oversubscribe -s 4 -o read -r 1 -t 5 (past)" "${res["-p 4096 --oversubscribe -s 4 -o read -r 1 -t 5 (past)"]}"
