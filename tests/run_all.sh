#!/usr/bin/env bash
# Runs the unit tests and the command-line tests; prints one total line.
set -u
UNIT=$1
BIN=$2
"$UNIT" | tee /tmp/membench-unit.$$ ; u=${PIPESTATUS[0]}
bash "$(dirname "$0")/cli/run_cli_tests.sh" "$BIN" | tee /tmp/membench-cli.$$; c=${PIPESTATUS[0]}
p=$(( $(grep -c '^ok - ' /tmp/membench-unit.$$) + $(grep -c '^ok - ' /tmp/membench-cli.$$) ))
f=$(( $(grep -c '^not ok - ' /tmp/membench-unit.$$) + $(grep -c '^not ok - ' /tmp/membench-cli.$$) ))
rm -f /tmp/membench-unit.$$ /tmp/membench-cli.$$
echo "$p passed, $f failed"
[ $u -eq 0 ] && [ $c -eq 0 ] && [ $f -eq 0 ]
