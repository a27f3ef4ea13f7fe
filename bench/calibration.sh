#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Are membench's intervals honest, and is it steadier than its peers on this host?
#
#   bench/calibration.sh [ROUNDS]        (default 20)
#   CALIB_ARGS="-r 7" bench/calibration.sh   the runs judged take these options too
#
# ROUNDS rounds, each: one default run (`membench --json`) and one slice of the
# reference (`membench -r 2 --json`: the same points, two more samples each; the
# slices of all rounds pooled are the reference, spread over the whole period like
# the default runs and about 13x their samples), `likwid-bench -t load_avx` over the
# default run's threads, as much per thread as its largest read, and a plain pointer
# chase (bench/plain_chase.c) over its largest latency size (sizes from the first
# default run: the peers measure what membench's compared figures measure), its
# first loads also timed on their own, as many as membench chased at that size (the
# chase at membench's measuring time: the full one chases about 100x longer); the four
# in an order that changes every round.
# Then, per point of the sweep (operation x size):
#   coverage   how often a default run's median interval (summary.median_interval,
#              at its stated level) holds the reference median: the interval is
#              honest when this is at least its level;
#   host cov   the same for summary.host_interval (the median interval widened by
#              the run's host variation), which claims no level: this is its record;
#   compare    membench compare of each default run with the next (one build, one
#              host: every faster or slower is a false one), from the runs' own
#              batches (--within-run) and widened by their hosts (the default);
#   spread     the run-to-run spread of the default runs' headline value (CSV's
#              value: best of -r; and the median), (max - min) / median of ROUNDS runs,
#              next to likwid's DRAM read and the plain chase's, measured in the
#              same rounds (membench's largest read and latency points are theirs).
set -euo pipefail
ROUNDS=${1:-20}
cd "$(dirname "$0")/.."
make -s membench >/dev/null
mkdir -p build
cc -std=c11 -O2 -o build/plain_chase bench/plain_chase.c
# CALIB_DIR=DIR keeps every run's JSON there for a later look (else a temporary directory).
if [ -n "${CALIB_DIR:-}" ]; then
    OUT=$CALIB_DIR
    mkdir -p "$OUT"
else
    OUT=$(mktemp -d)
    trap 'rm -rf "$OUT"' EXIT
fi
have_likwid=$(command -v likwid-bench >/dev/null && echo 1 || echo 0)
# CALIB_ANALYSE_ONLY=1 with CALIB_DIR: only the analysis, of the runs kept there.
[ -n "${CALIB_ANALYSE_ONLY:-}" ] && ROUNDS_TO_RUN=0 || ROUNDS_TO_RUN=$ROUNDS
judged() {
    # shellcheck disable=SC2086 # CALIB_ARGS: options, split on purpose
    ./membench ${CALIB_ARGS:-} --json "$OUT/default-$1.json" >/dev/null 2>&1
}
reference() {
    ./membench -r 2 --json "$OUT/reference-$1.json" >/dev/null 2>&1
}
peer_sizes() { # of a default run: the largest read (MiB per thread, threads), the largest
    # latency size (MiB) and the loads membench chased there (its samples x their length)
    [ -n "${chase_mib:-}" ] && return
    read -r read_mib threads chase_mib chase_loads < <(python3 -c "
import json, re, statistics, sys
doc = json.load(open(sys.argv[1]))
rs = doc['results']
rd = max((r for r in rs if r['operation'] == 'read'), key=lambda r: r['size_bytes'])
lat = max((r for r in rs if r['operation'] == 'latency'), key=lambda r: r['size_bytes'])
ends, rounds = lat['sample_end_s'], lat['sample_rounds']
gaps = [b - a for a, b, ra, rb in zip(ends, ends[1:], rounds, rounds[1:]) if ra == rb] # within a round
# one sample a visit (-r 7): the plan's sample length
sample_s = statistics.median(gaps) if gaps else float(re.search(r'([0-9.]+) ms per sample', doc['plan']['latency'])[1]) / 1e3
loads = len(ends) * sample_s / (lat['summary']['median'] * 1e-9)
print(rd['size_bytes'] >> 20, rd['threads'], lat['size_bytes'] >> 20, int(loads))" "$OUT/default-$1.json")
    echo "peers: likwid-bench load_avx on $((read_mib * threads)) MiB over $threads threads, plain chase on $chase_mib MiB" \
        "(its first $chase_loads loads also on their own: membench's time there)" >&2
}
likwid() {
    [ "$have_likwid" = 1 ] || return 0
    likwid-bench -t load_avx -w "S0:$((read_mib * threads))MB:$threads" 2>/dev/null |
        awk -v r="$1" '/^MByte\/s/ {print r, $2}' >>"$OUT/likwid"
}
chase() {
    local full first
    read -r full first < <(build/plain_chase "$chase_mib" "$chase_loads")
    echo "$1 $full" >>"$OUT/chase"
    echo "$1 $first" >>"$OUT/chase_matched"
}
# The order changes every round, all four steps alike: on a guest whose host backs
# freed pages anew, a process's DRAM figures depend on what ran just before it
# (BENCHMARKS "Calibration": 5-12% at 1 GiB), so each step follows each other one in
# turn, peers included (a peer always in the same place looks steadier than it is).
# A rotation would keep the neighbours (the judged run after the chase, 3 rounds in
# 4); these four orders (a Williams square) put every step after every other once
# within a round. Round 1 starts with the judged run: the peers' sizes come from it.
steps=(judged reference likwid chase)
williams=("0 1 3 2" "1 2 0 3" "2 3 1 0" "3 0 2 1")
for round in $(seq 1 "$ROUNDS_TO_RUN"); do
    order=()
    for k in ${williams[$(((round - 1) % 4))]}; do order+=("${steps[$k]}"); done
    echo "$round ${order[*]}" >>"$OUT/order"
    for step in "${order[@]}"; do
        "$step" "$round"
        [ "$step" = judged ] && peer_sizes "$round"
    done
done
python3 - "$OUT" "$ROUNDS" <<'PY'
import json, os, statistics, sys
sys.path.insert(0, 'bench')
from calib_reference import load, points, pooled_reference
out, rounds = sys.argv[1], int(sys.argv[2])

default_docs = [load(out, 'default', i) for i in range(1, rounds + 1)]
defaults = [points(doc) for doc in default_docs]
pooled = pooled_reference(out, rounds)

def largest(op):
    """The (operation, size_kb) key of op's largest size, or None."""
    keys = [k for k in pooled if k[0] == op]
    return max(keys) if keys else None

def peer_values(step):
    """{round: value} of a peer's file (likwid, chase); {} when it did not run."""
    path = os.path.join(out, step)
    return {int(l.split()[0]): float(l.split()[1]) for l in open(path)} if os.path.exists(path) else {}

def spread(xs):
    return (max(xs) - min(xs)) / statistics.median(xs) * 100 if xs else float('nan')

def holds(interval, ref):
    return interval is not None and interval['low'] <= ref <= interval['high']

print('%-9s %8s %6s %9s %9s %8s %11s %12s' % ('op', 'size_kb', 'level', 'coverage', 'host cov', 'runs',
                                                'spread(val)', 'spread(median)'))
covered_total = runs_total = host_total = 0
held_by_run = [[0, 0] for _ in defaults] # per run: intervals that held the reference median, intervals
for key in sorted(pooled, key=lambda k: (k[0], k[1])):
    ref = statistics.median(pooled[key])
    runs = [i for i, d in enumerate(defaults) if key in d]
    rs = [defaults[i][key] for i in runs]
    if not rs:
        continue
    inside = [holds(r['summary']['median_interval'], ref) for r in rs]
    # the median interval widened by the run's host variation (summary.host_interval; absent before it existed)
    host_inside = [holds(r['summary'].get('host_interval'), ref) for r in rs]
    for i, held in zip(runs, inside):
        held_by_run[i][0] += held
        held_by_run[i][1] += 1
    level = statistics.median(r['summary']['median_interval']['level'] for r in rs)
    covered_total += sum(inside)
    host_total += sum(host_inside)
    runs_total += len(inside)
    print('%-9s %8d %5.0f%% %8.0f%% %8.0f%% %8d %10.1f%% %13.1f%%' % (key[0], key[1], level * 100,
          100 * sum(inside) / len(inside), 100 * sum(host_inside) / len(inside), len(rs),
          spread([r['value'] for r in rs]), spread([r['summary']['median'] for r in rs])))
print('all points: %d of %d intervals held the reference median (%.0f%%); host intervals: %d (%.0f%%)' % (
      covered_total, runs_total, 100 * covered_total / max(runs_total, 1), host_total,
      100 * host_total / max(runs_total, 1)))

# Does the run's own host-noise verdict tell the runs whose intervals miss? Per run: its
# verdict and how many of its intervals held the reference median.
print('run  host varied  probes  intervals holding the reference')
for i, (doc, (held, n)) in enumerate(zip(default_docs, held_by_run), 1):
    noise = doc['host_noise']
    varied = '%5.1f%%' % noise['varied_pct'] if noise['varied_pct'] is not None else '    -'
    print('%3d  %11s  %6d  %d of %d' % (i, varied, noise['probes'], held, n))

# A/A: consecutive default runs compared; a 95% interval should call about 5% different.
import subprocess
for label, extra in (('own batches (--within-run)', ['--within-run']), ('widened by the hosts', [])):
    verdicts = {}
    for i in range(1, rounds):
        cmp_path = os.path.join(out, 'compare.json')
        subprocess.run(['./membench', 'compare', os.path.join(out, 'default-%d.json' % i),
                        os.path.join(out, 'default-%d.json' % (i + 1)), '--json', cmp_path] + extra,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for f in json.load(open(cmp_path))['figures']:
            verdicts[f['verdict']] = verdicts.get(f['verdict'], 0) + 1
    n = sum(verdicts.values())
    wrong = verdicts.get('faster', 0) + verdicts.get('slower', 0)
    print('compare A/A, %s: %d of %d figures called different (%.1f%%: %d faster, %d slower) in %d pairs' % (
          label, wrong, n, 100 * wrong / max(n, 1), verdicts.get('faster', 0), verdicts.get('slower', 0), rounds - 1))

bw = [r for d in defaults for r in d.values() if r['metric'] == 'bandwidth']
print('bandwidth records: %d, %d restarted their series, %d with every sample from one round' % (
    len(bw), sum(r['params'].get('series_restarts', 0) > 0 for r in bw),
    sum(len(set(r.get('sample_rounds') or [0])) == 1 for r in bw)))

def peer(name, step):
    xs = list(peer_values(step).values())
    if not xs:
        print('%s: not run' % name)
        return
    print('%-28s median %10.2f  spread (max-min)/median %5.1f%%  (n=%d)' % (name, statistics.median(xs), spread(xs),
          len(xs)))
peer('likwid-bench load_avx MB/s', 'likwid')
peer('plain chase ns', 'chase')
peer('plain chase ns, membench\'s time', 'chase_matched')
# The same spreads by what ran just before (the last step of the round before, for a
# round's first step): a figure that moves with its predecessor is not host noise alone.
order_path = os.path.join(out, 'order')
if os.path.exists(order_path):
    orders = {int(l.split()[0]): l.split()[1:] for l in open(order_path)}
    def before(rnd, step):
        o = orders.get(rnd, [])
        if step not in o:
            return None
        k = o.index(step)
        return o[k - 1] if k > 0 else (orders.get(rnd - 1, [None])[-1] if rnd > 1 else 'nothing')
    def values(step):
        if step in ('likwid', 'chase'):
            return peer_values(step)
        key = largest('read' if step == 'judged read' else 'latency')
        return {i: d[key]['value'] for i, d in enumerate(defaults, 1) if key in d}
    print('by what ran just before: median and spread (max-min)/median')
    for step, who in (('judged read', 'judged'), ('judged latency', 'judged'), ('likwid', 'likwid'), ('chase', 'chase')):
        groups = {}
        for rnd, v in values(step).items():
            groups.setdefault(before(rnd, who), []).append(v)
        print('  %-15s ' % step + '  '.join('after %s: %.1f %.1f%% (n=%d)' % (b, statistics.median(v), spread(v), len(v))
                                         for b, v in sorted(groups.items(), key=lambda kv: str(kv[0]))))
for op, label in (('read', 'membench read, largest size'), ('latency', 'membench latency, largest size')):
    key = largest(op)
    if key:
        xs = [d[key]['value'] for d in defaults if key in d]
        print('%-28s median %10.2f  spread (max-min)/median %5.1f%%  (n=%d, %d KiB)' % (label, statistics.median(xs),
              spread(xs), len(xs), key[1]))
PY
