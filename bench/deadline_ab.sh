#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Does -t cost bandwidth at L1 sizes? Alternates, round by round, two binaries (an
# old one that read the clock after every kernel pass inside the timed region, and
# this one) on the same L1-resident read, with and without -t, and prints the
# median and spread of each. Usage: bench/deadline_ab.sh OLD_BINARY [NEW_BINARY] [ROUNDS]
set -eu
OLD=$1
NEW=${2:-./membench}
ROUNDS=${3:-10}
ARGS=(-s 16 -o read -r 20 -p 1)
declare -A vals
for ((i = 0; i < ROUNDS; i++)); do
    for bin in old new; do
        b=$OLD; [ $bin = new ] && b=$NEW
        for t in no-t t100; do
            extra=(); [ $t = t100 ] && extra=(-t 100)
            v=$(flock /tmp/bench.lock "$b" "${ARGS[@]}" "${extra[@]}" 2>/dev/null | awk -F, 'NR==2 {print $3}')
            vals[$bin.$t]+="$v "
        done
    done
done
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "membench ${ARGS[*]} [-t 100], $ROUNDS rounds, MB/s"
for k in old.no-t old.t100 new.no-t new.t100; do
    python3 -c "
import statistics, sys
v = sorted(float(x) for x in sys.argv[2].split())
print('%-9s median %9.0f  min %9.0f  max %9.0f  spread %3.0f%%' % (sys.argv[1], statistics.median(v), v[0], v[-1],
      100 * (v[-1] - v[0]) / statistics.median(v)))" "$k" "${vals[$k]}"
done
