#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check's fuzz corpus replay: every corpus fuzz/corpus/NAME/ through its
# target built without libFuzzer (DIR/NAME, from fuzz/replay_main.c), one
# "ok - " or "not ok - " line per target. A corpus without its target fails.
set -u
DIR=${1:?usage: replay_corpora.sh DIR}
CORPORA=$(dirname "$0")/corpus
PASS=0
FAIL=0
for corpus in "$CORPORA"/*/; do
    name=$(basename "$corpus")
    n=$(find "$corpus" -maxdepth 1 -type f ! -name '.*' | wc -l)
    if [ ! -x "$DIR/$name" ]; then
        FAIL=$((FAIL + 1)); echo "not ok - fuzz corpus $name: no replay binary $DIR/$name"
        continue
    fi
    out=$("$DIR/$name" "$corpus" 2>&1); rc=$?
    if [ $rc -eq 0 ] && [ "$out" = "$n inputs replayed" ]; then
        PASS=$((PASS + 1)); echo "ok - fuzz corpus $name: $n inputs replayed"
    else
        FAIL=$((FAIL + 1)); echo "not ok - fuzz corpus $name (exit $rc)"
        printf '%s\n' "$out" | tail -n 30 | sed 's/^/    /'
        # A sanitizer that stops the run may not say on which input: find them.
        bad=0
        for f in "$corpus"*; do
            [ -f "$f" ] || continue
            "$DIR/$name" "$f" >/dev/null 2>&1 && continue
            echo "    fails on $f"
            bad=$((bad + 1))
            [ $bad -lt 5 ] || break
        done
    fi
done
echo "fuzz: $PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
