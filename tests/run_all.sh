#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the unit tests, the command-line tests and, given the directory of the
# replay binaries (make check, check-asan), every fuzz corpus; prints one total line.
# BIN "-" skips the command-line tests (make check-cross's unit-only architectures).
set -u
UNIT=$1
BIN=$2
REPLAY=${3:-}
"$UNIT" | tee /tmp/membench-unit.$$ ; u=${PIPESTATUS[0]}
if [ "$BIN" = - ]; then
    : >/tmp/membench-cli.$$; c=0
else
    bash "$(dirname "$0")/cli/run_cli_tests.sh" "$BIN" | tee /tmp/membench-cli.$$; c=${PIPESTATUS[0]}
fi
: >/tmp/membench-fuzz.$$; z=0
if [ -n "$REPLAY" ]; then
    bash "$(dirname "$0")/../fuzz/replay_corpora.sh" "$REPLAY" | tee /tmp/membench-fuzz.$$; z=${PIPESTATUS[0]}
fi
count() { cat /tmp/membench-unit.$$ /tmp/membench-cli.$$ /tmp/membench-fuzz.$$ | grep -c "^$1 - "; }
p=$(count ok)
f=$(count 'not ok')
rm -f /tmp/membench-unit.$$ /tmp/membench-cli.$$ /tmp/membench-fuzz.$$
echo "$p passed, $f failed"
[ $u -eq 0 ] && [ $c -eq 0 ] && [ $z -eq 0 ] && [ $f -eq 0 ]
