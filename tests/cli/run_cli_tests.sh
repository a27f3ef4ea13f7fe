#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Command-line tests: exit codes, one-line errors, output formats, JSON validity,
# signals and the time limit. Timings are never asserted; every run is small.
set -u
BIN=${1:-./membench}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
TMP=$(mktemp -d /tmp/membench-cli-XXXXXX)
trap '[ -z "${HELPERS_PID:-}" ] || kill "$HELPERS_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
PASS=0
FAIL=0
NCPU=$(nproc)
HEADER='size_kb,operation,bandwidth_mb_s,latency_ns,latency_stddev_ns,latency_samples,threads,iterations,elapsed_s'
# Small, fast settings for runs that measure something.
QUICK=(-r 1 --sample-ms 1 --latency-sample-ms 1)

# The helper scripts this file runs with tap_from (below) start now, one after the
# other in one background job beside the checks of this file (much of either is
# waiting on timed runs and signals), each in a directory of its own under
# $TMP/helpers; tap_from waits for its helper and says its lines where it stands.
# Those whose checks need work done within a wall-clock time (rounds until
# --max-time, Ctrl-C after some rounds) run alone, in their place, once the
# background job has ended: beside it on a loaded machine they measured too few
# rounds. CLI_HELPERS_SERIAL=1 runs each in its place.
HELPERS_ALONE="check_rounds.py check_latency_rounds.py check_warnings.py"
HELPERS=$(sed -n 's/^tap_from \([a-z_]*\.\(py\|sh\)\)$/\1/p' "$0" | grep -vxF -e "${HELPERS_ALONE// /$'\n'}" | tr '\n' ' ')
HELPERS_DIR=$TMP/helpers
run_helper() { # NAME DIR: the helper's output in DIR/NAME.out, its status in DIR/NAME.rc
    mkdir -p "$2/$1.tmp"
    case $1 in
    *.sh) bash "$(dirname "$0")/$1" "$BIN" "$2/$1.tmp" ;;
    *) python3 "$(dirname "$0")/$1" "$BIN" "$2/$1.tmp" ;;
    esac >"$2/$1.out" 2>&1
    echo $? >"$2/$1.rc"
}
if [ "${CLI_HELPERS_SERIAL:-}" != 1 ]; then
    mkdir -p "$HELPERS_DIR"
    (for h in $HELPERS; do run_helper "$h" "$HELPERS_DIR"; done) &
    HELPERS_PID=$!
fi

ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
not_ok() { FAIL=$((FAIL + 1)); echo "not ok - $1"; [ -n "${2:-}" ] && echo "    $2"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }

json_valid() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }

# bad_input NAME NEEDLE ARGS...: exit 2, nothing on stdout, exactly one stderr line naming NEEDLE
# BAD_ENV (array) is put in the environment of that run.
BAD_ENV=()
# (bash builtins only besides the run itself: the 800-odd cases of the table spent
# three quarters of their time in env, wc and grep)
bad_input() {
    local name=$1 needle=$2 rc err="" newlines; shift 2
    if [ ${#BAD_ENV[@]} -gt 0 ]; then
        env "${BAD_ENV[@]}" "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
    else
        "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
    fi
    rc=$?
    IFS= read -r -d '' err <"$TMP/err"
    newlines=${err//[!$'\n']/}
    if [ $rc -eq 2 ] && [ ${#newlines} -eq 1 ] && [[ $err == *$'\n' ]] && [ ! -s "$TMP/out" ] &&
        [[ $err == *"$needle"* ]]; then
        ok "bad input: $name"
    else
        not_ok "bad input: $name" "rc=$rc lines=${#newlines} stderr=${err:0:300}"
    fi
}

# What this binary says it runs on (checked against the build target in the unit
# tests); the expectations below that differ by architecture key on it.
THIS_CPU=$("$BIN" topology | grep '^This CPU: ')
# Every mode: the sweep, then the modes `membench --help` lists.
ALL_MODES="sweep $("$BIN" --help | sed -n '/^Modes (/,$s/^  \([a-z0-9-]*\)  .*/\1/p' | tr '\n' ' ')"
check "membench --help lists the modes ($ALL_MODES)" bash -c "[[ ' $ALL_MODES ' == *' latency '* && ' $ALL_MODES ' == *' topology '* ]]"
ARCH=$(sed -n 's/^This CPU: \([a-z0-9_]*\),.*/\1/p' <<<"$THIS_CPU")
ISAS=$(sed -n 's/^This CPU: [a-z0-9_]*, kernels \([a-z0-9,]*\),.*/\1/p' <<<"$THIS_CPU")
HAVE_NT=false
[ "$ARCH" = x86_64 ] && HAVE_NT=true
check "topology names this CPU's architecture and kernels ($ARCH: $ISAS)" \
    bash -c "[ -n '$ARCH' ] && [[ ',$ISAS,' == *,c,* ]]"

# --- help and version -------------------------------------------------------
"$BIN" --help >"$TMP/out" 2>&1; rc=$?
check "--help exits 0 and documents the flags" bash -c "[ $rc -eq 0 ] && grep -q -- '-s SIZE_KB' '$TMP/out' && grep -q -- '--json FILE' '$TMP/out'"
"$BIN" -h >"$TMP/out" 2>"$TMP/err"; rc=$?
check "-h exits 0 with the help on stdout and nothing on stderr (README: sc-membench differs)" \
    bash -c "[ $rc -eq 0 ] && grep -q -- '-s SIZE_KB' '$TMP/out' && [ ! -s '$TMP/err' ]"
out=$("$BIN" --version); check "--version prints the version" bash -c "[[ '$out' =~ ^membench\ [0-9]+\.[0-9]+\.[0-9]+$ ]]"
out=$("$BIN" -V); check "-V prints the version" bash -c "[[ '$out' =~ ^membench\ [0-9] ]]"
# One version: the Debian package's (debian/changelog) is --version's (the Makefile's).
deb_version=$(sed -n '1s/^membench (\([^)]*\)).*/\1/p' "$(dirname "$0")/../../debian/changelog")
check "debian/changelog's version ($deb_version) is --version's" test "$out" = "membench $deb_version"

# --- bad input: the table in hostile_inputs.txt, plus cases that depend on this machine
bad_input "-p more than CPUs" "--oversubscribe" -p $((NCPU + 1))
bad_input "size beyond memory (2^40 KB)" "'1099511627777'" -s 1099511627777

# A leading blank (the table splits on spaces): refused by numa mem's sizes and --thp
# as by every other mode's numbers.
for flag in -G -P -T -L -H; do
    bad_input "numa-mem $flag ' 5'" "$flag ' 5'" numa-mem "$flag" " 5"
done
bad_input "numa-mem --mb_proc ' 512' (perf's suite's own spelling)" "-P ' 512'" numa-mem --mb_proc " 512"

TABLE=$(dirname "$0")/hostile_inputs.txt
declare -A covered=()
# CLI_HOSTILE_STRIDE=N runs every Nth case of the table (check-cross: the parsers are
# the same C on every architecture, and each case under qemu-user costs an emulator's
# start; the native and ASan runs take every case). The coverage check counts all.
stride=${CLI_HOSTILE_STRIDE:-1} case_no=0
# Under check-asan, LeakSanitizer's scan at every exit made each case 1.6-2x as dear
# (10.3 against 6.4 ms on the Xeon guest; the table took about 250 s on the Zen 5 one);
# the cases are refusals, and the fuzz targets keep it on for the parsers. ASan and
# UBSan still watch every case.
asan_options_saved=${ASAN_OPTIONS-}
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
while IFS='|' read -r mode args needle; do
    mode=${mode// /}
    [[ -z $mode || $mode == \#* ]] && continue
    case_no=$((case_no + 1))
    needle=${needle# }
    needle=${needle%"${needle##*[! ]}"}
    read -ra words <<<"$args"
    envs=() argv=()
    [ "$mode" = sweep ] || argv+=("$mode")
    for w in "${words[@]}"; do
        if [[ ${#argv[@]} -le 1 && $w =~ ^[A-Z_]+= ]]; then
            envs+=("$w")
        else
            [ "$w" = "''" ] && w=""
            argv+=("$w")
            [[ $w == -* ]] && covered["$mode ${w%%=*}"]=1
        fi
    done
    BAD_ENV=("${envs[@]}")
    [ $((case_no % stride)) -eq 0 ] || continue
    bad_input "(table) $mode: ${words[*]}" "$needle" "${argv[@]}"
done <"$TABLE"
BAD_ENV=()
if [ -n "$asan_options_saved" ]; then export ASAN_OPTIONS=$asan_options_saved; else unset ASAN_OPTIONS; fi

# -s takes K/M/G like every other mode's sizes; a plain number stays KB (sc-membench's).
"$BIN" -s 64M --plan --json "$TMP/s64m.json" >"$TMP/s64m.out" 2>&1; rc1=$?
"$BIN" -s 65536 --plan --json "$TMP/s65536.json" >"$TMP/s65536.out" 2>&1; rc2=$?
# The two plans come a moment apart: what follows the free memory (the budget, its
# per-thread maximum, each node's free bytes) may move between them (other processes,
# a second emulated suite beside this one); everything else must be equal.
check "sweep -s 64M plans what -s 65536 plans (64 MiB a thread, options single_size_kb 65536)" \
    python3 -c "
import json,sys
MOVES=('max_bytes_per_thread','memory_budget_bytes','free_bytes','budget_bytes')
def fixed(x):
    if isinstance(x, dict): return {k: fixed(v) for k, v in x.items() if k not in MOVES}
    if isinstance(x, list): return [fixed(v) for v in x]
    return x
a=json.load(open('$TMP/s64m.json')); b=json.load(open('$TMP/s65536.json'))
ok=$rc1==0 and $rc2==0 and fixed(a['plan'])==fixed(b['plan']) and [p['size_kb'] for p in a['plan']['sizes']]==[65536] and a['options']['single_size_kb']==b['options']['single_size_kb']==65536
sys.exit(0 if ok else 1)"
check "sweep -s 64M and -s 65536 print the same plan (but for the free memory's lines)" \
    bash -c "diff <(grep -vE 'free|budget|max_bytes_per_thread' '$TMP/s64m.out') <(grep -vE 'free|budget|max_bytes_per_thread' '$TMP/s65536.out') >/dev/null"

# Every flag in every mode's --help has at least one case in the table.
for mode in $ALL_MODES; do
    if [ $mode = sweep ]; then "$BIN" --help >"$TMP/help"; else "$BIN" $mode --help >"$TMP/help"; fi
    missing=""
    for flag in $(grep -oE '^ +(-[a-zA-Z0-9]|--[a-z][a-z_-]+)|\[(-[a-zA-Z0-9]|--[a-z][a-z_-]+)' "$TMP/help" | tr -d ' [' | sort -u); do
        case "$mode $flag" in
        "sweep --version" | "sweep --help" | *" -h" | *" -V" | *" -vv") continue ;; # exit 0 by design
        esac
        [ -n "${covered["$mode $flag"]:-}" ] || missing="$missing $flag"
    done
    check "hostile-input table covers every flag of '$mode' in its --help${missing:+ (missing:$missing)}" test -z "$missing"
done

# --- CSV ---------------------------------------------------------------------
"$BIN" -s 64 -o read -o write -o copy -o latency "${QUICK[@]}" >"$TMP/csv" 2>"$TMP/err"; rc=$?
check "CSV run exits 0" test $rc -eq 0
check "CSV header is byte-for-byte sc-membench's" bash -c "[ \"\$(head -1 '$TMP/csv')\" = '$HEADER' ]"
check "CSV has one row per operation in sc-membench order" \
    bash -c "[ \"\$(tail -n +2 '$TMP/csv' | cut -d, -f1,2 | tr '\n' ' ')\" = '64,read 64,write 64,copy 64,latency ' ]"
check "CSV rows have sc-membench's 9 fields" bash -c "awk -F, 'NF != 9 {bad=1} END {exit bad}' '$TMP/csv'"
check "CSV bandwidth rows have zero latency fields" \
    bash -c "grep -E '^64,(read|write|copy),' '$TMP/csv' | awk -F, '\$3 <= 0 || \$4 != 0 || \$5 != 0 || \$6 != 0 {bad=1} END {exit bad}'"
check "CSV latency row: bandwidth 0, 1 thread, 7..21 samples" \
    bash -c "grep '^64,latency,' '$TMP/csv' | awk -F, '\$3 != 0 || \$4 <= 0 || \$7 != 1 || \$6 < 7 || \$6 > 21 {bad=1} END {exit bad}'"
check "CSV uses all usable CPUs by default" bash -c "grep '^64,read,' '$TMP/csv' | awk -F, -v n=$NCPU '\$7 != n {bad=1} END {exit bad}'"
# stderr may carry this machine's warnings and ends with the headline (its first line,
# then lines indented two spaces), never progress lines.
check "stdout is clean CSV and stderr has no progress when stderr is not a terminal" \
    bash -c "! grep -q \$'\\e' '$TMP/csv' '$TMP/err' && ! grep -qvE '^(membench: warning: |membench: headline \(|  )' '$TMP/err' && tail -1 '$TMP/err' | grep -q '^  host '"

if $HAVE_NT; then
    "$BIN" -s 64 -o write-nt -o copy-nt -o memcpy "${QUICK[@]}" >"$TMP/csv2" 2>/dev/null
    check "extra operations write-nt, copy-nt, memcpy" \
        bash -c "[ \"\$(tail -n +2 '$TMP/csv2' | cut -d, -f2 | tr '\n' ' ')\" = 'write-nt copy-nt memcpy ' ]"
else
    bad_input "-o write-nt without non-temporal stores ($ARCH)" "no non-temporal store kernel" -s 64 -o write-nt
    "$BIN" -s 64 -o memcpy "${QUICK[@]}" >"$TMP/csv2" 2>/dev/null
    check "extra operation memcpy" bash -c "[ \"\$(tail -n +2 '$TMP/csv2' | cut -d, -f2)\" = memcpy ]"
fi

"$BIN" -s 64 -o read -p 1 "${QUICK[@]}" >"$TMP/p1" 2>&1
check "-p 1 runs one thread" bash -c "grep -q '^64,read,[0-9.]*,0,0,0,1,' '$TMP/p1'"
OMP_NUM_THREADS=1 "$BIN" -s 64 -o read "${QUICK[@]}" >"$TMP/omp" 2>&1
check "OMP_NUM_THREADS=1 runs one thread" bash -c "grep -q '^64,read,[0-9.]*,0,0,0,1,' '$TMP/omp'"
"$BIN" -s 64 -o read --cpus 0 "${QUICK[@]}" >"$TMP/cpus" 2>&1
check "--cpus 0 runs one thread" bash -c "grep -q '^64,read,[0-9.]*,0,0,0,1,' '$TMP/cpus'"
"$BIN" -s 64 -o read -p $((NCPU * 2)) --oversubscribe "${QUICK[@]}" >"$TMP/over" 2>&1
check "--oversubscribe allows more threads than CPUs" bash -c "grep -q '^64,read,[0-9.]*,0,0,0,$((NCPU * 2)),' '$TMP/over'"
"$BIN" -s 64 -o read -a "${QUICK[@]}" >"$TMP/auto" 2>&1
check "-a reports one best row per size" bash -c "[ \$(grep -c '^64,read,' '$TMP/auto') -eq 1 ]"

for isa in avx512 avx2 sse2 neon c; do
    if [[ ",$ISAS," == *,$isa,* ]]; then
        "$BIN" -s 64 -o read -o copy --kernel $isa "${QUICK[@]}" --json "$TMP/k.json" >"$TMP/k.csv" 2>"$TMP/k.err"
        check "--kernel $isa is used and named in JSON" \
            bash -c "[ \"\$(python3 -c 'import json; print(\",\".join(r[\"kernel\"][\"isa\"] for r in json.load(open(\"$TMP/k.json\"))[\"results\"]))')\" = '$isa,$isa' ]"
    else
        bad_input "--kernel $isa on a CPU without it" "this CPU cannot run it" -s 64 -o read --kernel $isa
    fi
done

# --- progress on a terminal ----------------------------------------------------
if command -v script >/dev/null; then
    script -qec "'$BIN' -s 64 -o read -o write -r 1 --sample-ms 1 >'$TMP/tty.csv'" "$TMP/tty.log" >/dev/null 2>&1
    check "progress goes to the terminal's stderr" grep -q '\[2/2\] 64 KB write' "$TMP/tty.log"
    check "stdout stays clean CSV while progress is shown" \
        bash -c "[ \$(wc -l <'$TMP/tty.csv') -eq 3 ] && ! grep -q \$'\\e' '$TMP/tty.csv'"
fi

# --- -R ----------------------------------------------------------------------
"$BIN" -R -s 64 -o read -o write -o copy -o latency "${QUICK[@]}" >"$TMP/r.out" 2>"$TMP/r.err"; rc=$?
check "-R exits 0" test $rc -eq 0
check "-R table header on stdout" grep -q '^Size       Op          Bandwidth      Latency  Threads       Median  Interval (level)$' "$TMP/r.out"
check "-R rows on stdout" bash -c "grep -qE '^64 KB      read +[0-9.]+ [MGT]B/s +- +[0-9]+ +[0-9.]+ [MGT]B/s  (-|±[0-9]+%\\*?)$' '$TMP/r.out'"
check "-R summary on stderr" grep -q 'BENCHMARK SUMMARY' "$TMP/r.err"
check "-R scores" bash -c "grep -q 'Bandwidth Score:' '$TMP/r.err' && grep -q 'Latency Score:' '$TMP/r.err' && grep -q '>> COMBINED SCORE:' '$TMP/r.err'"
check "-R comparability warning for -s" grep -q -- '- Single buffer size (-s 64 KB) instead of full sweep' "$TMP/r.err"
check "-R shows the largest size's bandwidth" grep -q 'Largest size (64 KB per thread): read' "$TMP/r.err"
check "-R says how the host moved: a verdict or too short to judge, then steal and pressure" \
    bash -c "grep -A2 '^HOST DURING THIS RUN:$' '$TMP/r.err' | grep -qE '^  (varied ±[0-9.]+% \(fixed CPU and memory probes timed [0-9]+ times\)|too short to judge)' && grep -qE '^  steal ([0-9.]+%|unknown), CPU pressure ([0-9.]+%|unknown), memory pressure ([0-9.]+%|unknown)$' '$TMP/r.err'"

# --- JSON --------------------------------------------------------------------
"$BIN" -s 128 -o read -o latency "${QUICK[@]}" --json "$TMP/run.json" >"$TMP/j.csv" 2>"$TMP/j.err"
check "--json writes valid JSON" json_valid "$TMP/run.json"
check "JSON marks a finished run complete" \
    python3 -c "import json,sys; d=json.load(open('$TMP/run.json')); sys.exit(0 if d['complete'] is True and d['stopped_by'] is None else 1)"
check "JSON has one result per CSV row" \
    bash -c "[ \$(python3 -c 'import json; print(len(json.load(open(\"$TMP/run.json\"))[\"results\"]))') -eq \$((\$(wc -l <'$TMP/j.csv') - 1)) ]"
check "JSON carries host, topology, options, placement and plan" \
    python3 -c "import json,sys; d=json.load(open('$TMP/run.json')); sys.exit(0 if all(k in d for k in ('host','topology','options','placement','plan','command_line','started_at','version')) else 1)"
check "JSON (schema 2) results name kernel, pages and statistic, with every raw sample" \
    python3 -c "import json,sys; d=json.load(open('$TMP/run.json')); r=d['results'][0]; sys.exit(0 if d['schema']==2 and r['kernel']['isa'] and 'huge_coverage' in r['pages'] and r['statistic']=='best' and len(r['samples'])==r['summary']['n']==1 and r['value']==max(r['samples'])==r['summary']['max'] else 1)"
check "JSON bandwidth value is the CSV's bandwidth_mb_s" \
    python3 -c "import json,sys; r=json.load(open('$TMP/run.json'))['results'][0]; row=open('$TMP/j.csv').read().splitlines()[1].split(','); sys.exit(0 if '%.2f' % r['value'] == row[2] else 1)"
check "JSON latency result: median of its samples, CV target and whether it was met" \
    python3 -c "import json,sys,statistics as st; r=json.load(open('$TMP/run.json'))['results'][1]; sys.exit(0 if r['metric']=='latency' and isinstance(r['converged'], bool) and r['cv_target']==0.05 and 7<=len(r['samples'])<=21 and abs(r['value']-st.median(r['samples']))<1e-6*r['value'] else 1)"
check "stderr says the JSON's warnings grouped by kind (tests/cli/check_warnings.py)" \
    python3 "$(dirname "$0")/check_warnings.py" --grouped "$TMP/run.json" "$TMP/j.err"
# Each record says what else the host did while it was measured, where the kernel tells.
# /proc/stat counts in ticks of 10 ms: a record shorter than a tick has no steal figure
# (omitted, not 0), so this run's records each last at least 3 samples of 30 ms, and
# the seconds the figures are over (host_load_s) hold all of them.
"$BIN" -s 128 -o read -o latency -r 3 --sample-ms 30 --latency-sample-ms 30 --json "$TMP/hl.json" >/dev/null 2>&1
check "JSON records carry the host's steal and pressure over their own interval (where /proc has them)" \
    python3 -c "
import json, os, sys
d = json.load(open('$TMP/hl.json'))
want = [k for k, f in (('host_steal_pct', '/proc/stat'), ('host_cpu_pressure_pct', '/proc/pressure/cpu'),
                       ('host_memory_pressure_pct', '/proc/pressure/memory')) if os.access(f, os.R_OK)]
ok = all(0 <= r['params'][k] <= 100 for r in d['results'] for k in want) and d['host_noise']['probes'] >= 1
ok = ok and all(r['params']['host_load_s'] >= 0.03 * r['summary']['n'] for r in d['results'])
sys.exit(0 if ok and want else 1)"
check "no temporary JSON files left behind" bash -c "! ls '$TMP'/.membench-*.tmp >/dev/null 2>&1"
# README: every bandwidth sample lasts at least --sample-ms (10 ms by default), also
# at cache sizes where the warm-up ran slower than the samples (the best one was 5 ms).
"$BIN" -o read -o write -o copy -s 16 -r 5 --json "$TMP/len.json" >/dev/null 2>&1
check "bandwidth samples last at least --sample-ms (10 ms): the best sample's elapsed_s, from the record" \
    python3 -c "import json,sys; rs=json.load(open('$TMP/len.json'))['results']; sys.exit(0 if len(rs)==3 and all(r['params']['min_sample_s']==0.01 and (r['elapsed_s']>=0.01 or r['params']['series_restarts']==5) for r in rs) else 1)"
# README: a copy's destination starts 2 KiB into its page, its source at the page's
# start (no 4K aliasing between them); read and write buffers start at the page.
check "copy's destination 2 KiB off its source within the page (params src/dst_page_offset); read's at 0" \
    python3 -c "import json,sys; rs={r['operation']: r['params'] for r in json.load(open('$TMP/len.json'))['results']}; sys.exit(0 if rs['copy'].get('src_page_offset')==0 and rs['copy'].get('dst_page_offset')==2048 and rs['read'].get('src_page_offset')==0 and 'dst_page_offset' not in rs['read'] and rs['write'].get('dst_page_offset')==0 else 1)"
# A valid file name of 250 characters is taken (the temporary name is short and its
# own), and a name that is not UTF-8 still gives a document every parser reads.
long=$(printf 'j%.0s' $(seq 1 245)).json
"$BIN" -s 16 -o read "${QUICK[@]}" --json "$TMP/$long" >/dev/null 2>&1; rc=$?
check "--json with a 250-character file name works" bash -c "[ $rc -eq 0 ] && python3 -c \"import json; json.load(open('$TMP/$long'))\""
rm -f "$TMP/$long"
"$BIN" -s 16 -o read "${QUICK[@]}" --json "$TMP/x"$'\xff'".json" >/dev/null 2>&1; rc=$?
check "--json with a non-UTF-8 name: the command line in the JSON is valid UTF-8" \
    python3 -c "import json,sys,glob; p=[f for f in glob.glob('$TMP/x*.json')][0]; d=json.loads(open(p,'rb').read().decode('utf-8')); sys.exit(0 if $rc == 0 and any('\ufffd' in a for a in d['command_line']) else 1)"
rm -f "$TMP"/x*.json
bad_input "--json into a missing directory" "--json /nonexistent/dir/x.json: cannot write" -s 64 -o read --json /nonexistent/dir/x.json

"$BIN" -H -s 8192 -o read "${QUICK[@]}" --json "$TMP/h.json" >/dev/null 2>&1
check "-H records page method and coverage" \
    python3 -c "import json,sys; p=json.load(open('$TMP/h.json'))['results'][0]['pages']; sys.exit(0 if p['method'] in ('hugetlb','thp','normal') and (p['huge_coverage'] is None or 0<=p['huge_coverage']<=1) else 1)"

# The one page policy serves stream too: what was asked for is verified (coverage
# in JSON, a warning when short) or refused up front in one line, even where the
# plan had something to warn about (warnings are said once the run starts).
if [ "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null | grep -o '\[never\]')" != "[never]" ] &&
    [ -r /sys/kernel/mm/transparent_hugepage/enabled ]; then
    "$BIN" stream -n 2000000 --ntimes 2 --pages thp --json "$TMP/sp.json" >/dev/null 2>"$TMP/sp.err"; rc=$?
    check "stream --pages thp: every result says thp and how much was huge, or warns" \
        python3 -c "
import json, sys
d = json.load(open('$TMP/sp.json')); r = d['results']
ok = $rc == 0 and len(r) >= 4 and d['plan']['pages'] == 'thp' and d['options']['pages'] == 'thp'
ok = ok and all(x['pages']['method'] == 'thp' for x in r)
ok = ok and all(x['pages']['huge_coverage'] >= 0.9 for x in r) or any('huge pages' in w for w in d['warnings'])
sys.exit(0 if ok else 1)"
fi
"$BIN" stream -H -n 2000000 --ntimes 2 --json "$TMP/sh.json" >/dev/null 2>"$TMP/sh.err"; rc=$?
check "stream -H: pages recorded per result (auto), coverage in [0,1]" \
    python3 -c "
import json, sys
d = json.load(open('$TMP/sh.json')); r = d['results']
sys.exit(0 if $rc == 0 and d['options']['pages'] == 'auto' and r and all(0 <= x['pages']['huge_coverage'] <= 1 for x in r) else 1)"
pool1g=$(cat /sys/kernel/mm/hugepages/hugepages-1048576kB/free_hugepages 2>/dev/null || echo 0)
if [ "$pool1g" -lt 3 ]; then
    bad_input "stream --pages 1g without a pool: refused in one line though the plan warns" \
        "--pages 1g: needs 3 free 1 GiB huge pages" stream -n 2000000 --pages 1g
fi

# Unpinned threads (OMP_PROC_BIND=false): every measuring mode runs, says the threads
# are not pinned, and records CPU -1 (under check-asan this also catches the
# team's copy of a CPU list that unpinned places do not have).
OMP_PROC_BIND=false "$BIN" -s 64 -o read -o latency "${QUICK[@]}" --json "$TMP/unp.json" >/dev/null 2>"$TMP/unp.err"; rc=$?
check "OMP_PROC_BIND=false: the sweep runs unpinned and says so" \
    python3 -c "import json,sys; d=json.load(open('$TMP/unp.json')); sys.exit(0 if $rc == 0 and d['placement']['pinned'] is False and all(p['cpu'] == -1 for r in d['results'] if r['operation'] == 'read' for p in r['placement']) and any('not pinned' in w for w in d['warnings']) else 1)"
OMP_PROC_BIND=false "$BIN" stream --size 1M --ntimes 2 >/dev/null 2>&1
check "OMP_PROC_BIND=false: stream runs unpinned" test $? -eq 0

# Lost output is a failed run: stdout on a full device (/dev/full) is said on stderr
# and the exit status is not 0, in every mode and for --help.
if [ -w /dev/full ]; then
    for args in "-s 16 -o read ${QUICK[*]}" "--help" "topology" "latency --max 8K --sample-ms 1" \
        "stream --size 64K --ntimes 2"; do
        # shellcheck disable=SC2086
        "$BIN" $args >/dev/full 2>"$TMP/full.err"; rc=$?
        check "membench $args >/dev/full: exit 1 and says the output was lost" \
            bash -c "[ $rc -eq 1 ] && grep -q 'error: could not write the output' '$TMP/full.err'"
    done
fi

# --json never replaces what is not a regular file it may write: a device (a private
# copy of /dev/null, so a bug cannot harm the machine's), a FIFO and a link to stdout
# get the document written into them; a link to a file writes the file and stays a
# link, keeping the file's mode and owner; a read-only file is refused.
J=$TMP/jt; mkdir -p "$J"
if [ "$(id -u)" = 0 ] && mknod "$J/null" c 1 3 2>/dev/null; then
    "$BIN" -s 16 -o read "${QUICK[@]}" --json "$J/null" >/dev/null 2>&1; rc=$?
    check "--json onto a character device: exit 0, still the same device" \
        bash -c "[ $rc -eq 0 ] && [ -c '$J/null' ] && [ \"\$(stat -c %t:%T '$J/null')\" = 1:3 ]"
fi
mkfifo "$J/fifo"
timeout 60 cat "$J/fifo" >"$J/fifo.out" &
reader=$!
"$BIN" -s 16 -o read "${QUICK[@]}" --json "$J/fifo" >/dev/null 2>&1; rc=$?
wait $reader
check "--json into a FIFO: one whole document through it, still a FIFO" \
    bash -c "[ $rc -eq 0 ] && [ -p '$J/fifo' ] && python3 -c \"import json; json.load(open('$J/fifo.out'))\""
mkfifo "$J/lonely"
"$BIN" -s 16 -o read "${QUICK[@]}" --json "$J/lonely" >/dev/null 2>"$J/lonely.err"; rc=$?
check "--json into a FIFO nobody reads: no hang, exit 1, said" \
    bash -c "[ $rc -eq 1 ] && grep -q 'could not write .*lonely' '$J/lonely.err' && [ -p '$J/lonely' ]"
# Inputs are regular files only: a FIFO nobody writes to is refused at once (not
# waited on for ever), one line naming it, exit 2, in every reader of a named file.
mkfifo "$J/in.fifo"
for args in "compare $J/in.fifo $J/in.fifo" "report -o $J/r.html $J/in.fifo" "mlc --loaded_latency -g $J/in.fifo" \
    "topology --cpuid $J/in.fifo"; do
    # shellcheck disable=SC2086
    timeout 20 "$BIN" $args >"$J/in.out" 2>"$J/in.err"; rc=$?
    check "membench $args: a FIFO without a writer is refused at once (exit 2, one line naming it)" \
        bash -c "[ $rc -eq 2 ] && [ ! -s '$J/in.out' ] && [ \$(wc -l <'$J/in.err') -eq 1 ] && grep -qF '$J/in.fifo' '$J/in.err' && grep -q 'not a regular file' '$J/in.err'"
done
echo old >"$J/real.json"; chmod 640 "$J/real.json"; ln -s real.json "$J/link.json"
"$BIN" -s 16 -o read "${QUICK[@]}" --json "$J/link.json" >/dev/null 2>&1; rc=$?
check "--json through a link: the link stays, the file gets the document and keeps mode 640" \
    bash -c "[ $rc -eq 0 ] && [ -L '$J/link.json' ] && [ \"\$(stat -c %a '$J/real.json')\" = 640 ] && python3 -c \"import json; json.load(open('$J/real.json'))\""
ln -s /dev/stdout "$J/out"
"$BIN" -s 16 -o read "${QUICK[@]}" --json "$J/out" >"$J/both" 2>/dev/null; rc=$?
check "--json onto a link to stdout: CSV first, then the document, the link untouched" \
    bash -c "[ $rc -eq 0 ] && [ -L '$J/out' ] && head -1 '$J/both' | grep -q '^size_kb,' && python3 -c \"import json; t=open('$J/both').read(); json.loads(t[t.index('{'):])\""
echo '{}' >"$J/ro.json"; chmod 444 "$J/ro.json"
bad_input "--json onto a read-only file" "the file is read-only" -s 16 -o read --json "$J/ro.json"
check "a refused read-only --json file is left as it was" bash -c "[ \"\$(cat '$J/ro.json')\" = '{}' ] && [ \"\$(stat -c %a '$J/ro.json')\" = 444 ]"
ln -s nowhere "$J/dangling"
bad_input "--json onto a link to nothing" "symbolic link to a file that does not exist" -s 16 -o read --json "$J/dangling"
rm -rf "$J"

# A bad OMP_NUM_THREADS does not stop --help, and -p takes precedence over it.
OMP_NUM_THREADS=abc "$BIN" --help >"$TMP/out" 2>&1; rc=$?
check "OMP_NUM_THREADS=abc: --help still works" bash -c "[ $rc -eq 0 ] && grep -q -- '--json FILE' '$TMP/out'"
OMP_NUM_THREADS=abc "$BIN" -p 1 -s 16 -o read "${QUICK[@]}" >"$TMP/out" 2>/dev/null; rc=$?
check "OMP_NUM_THREADS=abc with -p 1: -p wins, the run measures with 1 thread" \
    bash -c "[ $rc -eq 0 ] && grep -q '^16,read,[0-9.]*,0,0,0,1,' '$TMP/out'"

# stream --kernel c: the ISA, not the CPU, lacks non-temporal stores, and only
# regular stores are shown (no column of zeros).
"$BIN" stream --kernel c -n 100000 --ntimes 2 >"$TMP/kc.out" 2>"$TMP/kc.err"; rc=$?
check "stream --kernel c: says --kernel c has no NT kernels, one table, no NT column" \
    bash -c "[ $rc -eq 0 ] && grep -q -- '--kernel c has no non-temporal store kernels' '$TMP/kc.err' && [ \$(grep -c '^Function    Best' '$TMP/kc.out') -eq 1 ] && ! grep -q 'nt MB/s' '$TMP/kc.out'"

# A place that names a CPU twice pins to that CPU, and the pin is verified as a set.
OMP_PLACES='{0,0,0}' OMP_NUM_THREADS=2 "$BIN" -s 16 -o read "${QUICK[@]}" --json "$TMP/pl.json" >/dev/null 2>"$TMP/pl.err"; rc=$?
check "OMP_PLACES='{0,0,0}': both threads on CPU 0, pins verified, no warning" \
    bash -c "[ $rc -eq 0 ] && ! grep -q 'could not be pinned' '$TMP/pl.err' && python3 -c \"import json,sys; r=json.load(open('$TMP/pl.json'))['results'][0]; sys.exit(0 if r['pins_verified'] == 2 and [p['cpu'] for p in r['placement']] == [0, 0] else 1)\""

# The OMP_* spellings libgomp accepts run with its meaning: blanks around a count,
# a list of bind kinds (the first applies) in any case, an interval of places.
if [ "$NCPU" -ge 2 ]; then
    OMP_NUM_THREADS=' 2 ' OMP_PROC_BIND='CLOSE, spread' OMP_PLACES='{1}:2:-1' \
        "$BIN" -s 16 -o read "${QUICK[@]}" --json "$TMP/pl2.json" >/dev/null 2>"$TMP/pl2.err"; rc=$?
    check "OMP_NUM_THREADS=' 2 ' OMP_PROC_BIND='CLOSE, spread' OMP_PLACES='{1}:2:-1': 2 threads, close, on CPUs 1 then 0" \
        python3 -c "import json,sys; d=json.load(open('$TMP/pl2.json')); r=d['results'][0]; sys.exit(0 if $rc == 0 and r['threads'] == 2 and [p['cpu'] for p in r['placement']] == [1, 0] and d['placement']['policy'].endswith(', close') else 1)"
fi

# Observed, not planned: each thread's CPU seen from inside it after the measurement
# lies in its place, each buffer's pages (move_pages) are on the planned memory node,
# every pin verified, nothing "could not be pinned" (tests/cli/check_observed.py;
# --cpus in reverse order, so a thread on another thread's CPU shows).
OBS_CPUS=0; [ "$NCPU" -ge 2 ] && OBS_CPUS=1,0
# qemu-user (make check-cross runs $BIN through a wrapper naming it) cannot say where
# a page is: there an unknown node is accepted, a known one must still match.
OBS=(); [ "$(head -c2 "$BIN")" = '#!' ] && grep -qs 'qemu-' "$BIN" && OBS=(--nodes-may-be-unknown)
"$BIN" -s 64 -o read -o copy -o latency --cpus $OBS_CPUS "${QUICK[@]}" --json "$TMP/obs.json" >/dev/null 2>"$TMP/obs.err"; rc=$?
check "sweep --cpus $OBS_CPUS: observed CPUs in their places, buffers on the planned node, pins verified" \
    bash -c "[ $rc -eq 0 ] && python3 '$(dirname "$0")/check_observed.py' '$TMP/obs.json' --stderr '$TMP/obs.err' ${OBS[*]}"
# Points beyond the keep limit borrow the sweep's pool (README "Rounds"): the
# records still name the bytes, pages, nodes and CPUs of the part each one used.
"$BIN" -s 163840 -o read -o write -o copy -o latency --cpus $OBS_CPUS -r 2 --sample-ms 1 --latency-sample-ms 1 --json "$TMP/pool.json" >/dev/null 2>"$TMP/pool.err"; rc=$?
check "sweep's pool: 160 MiB read, write, copy and latency pooled, each record naming its own part (bytes, page offsets), the chain linked once" \
    bash -c "[ $rc -eq 0 ] && python3 '$(dirname "$0")/check_pool.py' '$TMP/pool.json' '$TMP/obs.json'"
check "sweep's pool --cpus $OBS_CPUS: observed CPUs in their places, pooled buffers on the planned node" \
    bash -c "[ $rc -eq 0 ] && python3 '$(dirname "$0")/check_observed.py' '$TMP/pool.json' --stderr '$TMP/pool.err' ${OBS[*]}"
"$BIN" stream -n 100000 --ntimes 2 --json "$TMP/obs_s.json" >/dev/null 2>"$TMP/obs_s.err"; rc=$?
check "stream: each thread's CPU and its chunk of every array observed where planned" \
    bash -c "[ $rc -eq 0 ] && python3 '$(dirname "$0")/check_observed.py' '$TMP/obs_s.json' --stderr '$TMP/obs_s.err' ${OBS[*]}"
"$BIN" latency --mem-node 0 --min 4K --max 16K --sample-ms 1 --json "$TMP/obs_l.json" >/dev/null 2>"$TMP/obs_l.err"; rc=$?
check "latency --mem-node 0: the chain's pages observed on node 0" \
    bash -c "[ $rc -eq 0 ] && python3 '$(dirname "$0")/check_observed.py' '$TMP/obs_l.json' --mem-node 0 --stderr '$TMP/obs_l.err' ${OBS[*]}"

# A corrupting kernel (build/membench-faulty: MEMBENCH_CORRUPT=NAME spoils what the
# kernels of that name write) goes through the checks the user's runs go through:
# the sweep reports no figure for it and fails, STREAM says "Failed Validation"
# (never "Solution Validates") and fails; the same binary uncorrupted passes.
FAULTY=$(dirname "$BIN")/membench-faulty; [ -x "$FAULTY" ] || FAULTY=$(dirname "$BIN")/build/membench-faulty
if [ -x "$FAULTY" ]; then
    "$FAULTY" -s 64 -o read -o copy "${QUICK[@]}" >"$TMP/fk0.out" 2>"$TMP/fk0.err"; rc=$?
    check "membench-faulty without MEMBENCH_CORRUPT: a clean run (exit 0)" bash -c "[ $rc -eq 0 ] && ! grep -q error: '$TMP/fk0.err'"
    for op in copy read write; do
        MEMBENCH_CORRUPT=$op "$FAULTY" -s 64 -o read -o $op "${QUICK[@]}" --json "$TMP/fk.json" >"$TMP/fk.out" 2>"$TMP/fk.err"; rc=$?
        check "sweep with a corrupting $op kernel: 'produced wrong data', no $op figure in CSV or JSON, exit 1" \
            bash -c "[ $rc -eq 1 ] && grep -q '$op kernel (.*) produced wrong data at 64 KB' '$TMP/fk.err' && ! grep -q '^64,$op,' '$TMP/fk.out' && python3 -c \"import json,sys; d=json.load(open('$TMP/fk.json')); sys.exit(0 if '$op' not in [r['operation'] for r in d['results']] and d['exit_status'] == 1 else 1)\""
    done
    for f in copy triad; do
        MEMBENCH_CORRUPT=$f "$FAULTY" stream -n 100000 --ntimes 3 --stores regular --json "$TMP/fks.json" >"$TMP/fks.out" 2>"$TMP/fks.err"; rc=$?
        check "stream with a corrupting $f kernel: 'Failed Validation', never 'Solution Validates', validated false, exit 1" \
            bash -c "[ $rc -eq 1 ] && grep -q 'Failed Validation' '$TMP/fks.out' && ! grep -q 'Solution Validates' '$TMP/fks.out' && grep -q 'error: .*Failed Validation' '$TMP/fks.err' && python3 -c \"import json,sys; rs=json.load(open('$TMP/fks.json'))['results']; sys.exit(0 if rs and all(r['params']['validated'] is False for r in rs) else 1)\""
    done
    # A kernel that stops writing after its first pass (MEMBENCH_LAZY) on a pooled
    # point: its second visit must not find the first visit's output waiting in the
    # pool (at 128 MiB read, kept, comes first, so write and copy are beyond the keep
    # limit).
    # The same at a cache size, whose buffers are kept between rounds.
    for op in write copy; do
        for kb in 131072 64; do
            MEMBENCH_LAZY=$op:1 "$FAULTY" -p 1 -s $kb -o read -o $op -r 2 --sample-ms 1 --latency-sample-ms 1 >"$TMP/lz.out" 2>"$TMP/lz.err"; rc=$?
            check "sweep ($kb KB: $([ $kb = 64 ] && echo kept buffers || echo the pool)) with a $op kernel that stops writing: 'produced wrong data', exit 1" \
                bash -c "[ $rc -eq 1 ] && grep -q '$op kernel (.*) produced wrong data at $kb KB' '$TMP/lz.err' && ! grep -q '^$kb,$op,' '$TMP/lz.out'"
        done
    done
    # A restart at a known visit (MEMBENCH_SLOW): read's dropped sample is taken
    # again a round later and its record still comes out first (tests/cli/check_restart.py).
    check "sweep restart at visit 2: the retake in a later round, CSV and JSON in plan order" \
        python3 "$(dirname "$0")/check_restart.py" "$FAULTY" "$TMP"
else
    echo "# skipped: no membench-faulty next to $BIN (make build/membench-faulty)"
fi

# A reader polling --json while a run of a few seconds rewrites it never sees a
# partial document (the file is replaced by rename; written in place, a reader saw
# hundreds of empty or cut reads).
python3 "$(dirname "$0")/poll_json.py" "$TMP/poll.json" "$BIN" -o read -o write -o copy -r 2 --sample-ms 2 -t 4 >"$TMP/poll.out" 2>&1; rc=$?
check "--json polled while a 4 s run rewrites it: every read a valid document ($(tail -1 "$TMP/poll.out"))" test $rc -eq 0

# A time limit that ends the run before anything was measured says so.
"$BIN" -t 0.0000001 >"$TMP/t0.out" 2>"$TMP/t0.err"; rc=$?
check "-t 0.0000001: the CSV header alone, and a warning that -t ended the run before its first result" \
    bash -c "[ $rc -eq 0 ] && [ \$(wc -l <'$TMP/t0.out') -eq 1 ] && grep -q 'time limit (-t 1e-07) ended the run before its first result' '$TMP/t0.err'"

# topology's warnings go to stderr like every mode's, naming where the CPU list came from.
"$BIN" topology --usable 4095 >"$TMP/tu.out" 2>"$TMP/tu.err"; rc=$?
check "topology --usable naming no online CPU: warning on stderr naming --usable, none on stdout" \
    bash -c "[ $rc -eq 0 ] && grep -q '^membench topology: warning: .*--usable) name no online CPU' '$TMP/tu.err' && ! grep -q 'warning' '$TMP/tu.out'"

# --- time limit and signals ---------------------------------------------------
# stop_with SIG PID: sends SIG and waits up to 10 s for the process to end (a guard
# against hangs, not a timing assertion: the time taken is printed as a comment).
# Sets STOP_RC to its exit status, or to "hung" after a SIGKILL.
stop_with() {
    local sig=$1 pid=$2 t0
    t0=$(date +%s%N)
    kill -"$sig" "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        kill -9 "$pid"
        wait "$pid" 2>/dev/null
        STOP_RC=hung
        return
    fi
    wait "$pid"
    STOP_RC=$?
    echo "# SIG$sig: process gone $(( ($(date +%s%N) - t0) / 1000000 )) ms after the signal"
}

# wait_started FILE: up to 10 s for a run's JSON document (written once measuring
# starts, the stop handlers armed): a fixed sleep alone sometimes came before that
# under qemu-user on a loaded host, and the default action left no document.
wait_started() { for _ in $(seq 1 100); do [ -s "$1" ] && return; sleep 0.1; done; }

# -r 1000 would take minutes; -t 1 must stop it early and keep what was measured.
timeout 120 "$BIN" -r 1000 -t 1 --json "$TMP/t.json" >"$TMP/t.csv" 2>"$TMP/t.err"; rc=$?
check "-t stops a long run with exit 0" test $rc -eq 0
check "-t leaves valid CSV" bash -c "[ \"\$(head -1 '$TMP/t.csv')\" = '$HEADER' ] && awk -F, 'NF != 9 {bad=1} END {exit bad}' '$TMP/t.csv'"
check "-t leaves JSON marked incomplete by the time limit" \
    python3 -c "import json,sys; d=json.load(open('$TMP/t.json')); sys.exit(0 if d['complete'] is False and d['stopped_by']=='time limit' else 1)"

for sig in INT TERM HUP; do
    # the last signal's files go first: the shell truncates s.csv only in the child,
    # and a wait that read the old rows signalled a membench not yet started (exit
    # 143 by the default action, no output: seen once in CI)
    # One size and every operation, given (a default-sized run first touches the DRAM
    # rule's gigabytes, 20-30 s on a slow host, and its size is not the point here):
    # -r 1000 writes no row before the stop; the signal goes once the JSON document
    # (written when measuring starts) is there and a second more has given every
    # point its first samples.
    rm -f "$TMP/s.csv" "$TMP/s.json"
    "$BIN" -s 4096 -r 1000 --sample-ms 1 --latency-sample-ms 1 --json "$TMP/s.json" >"$TMP/s.csv" 2>"$TMP/s.err" &
    pid=$!
    for _ in $(seq 1 100); do [ -s "$TMP/s.json" ] && break; sleep 0.1; done
    sleep 1
    stop_with $sig $pid
    want=$(case $sig in INT) echo 130 ;; TERM) echo 143 ;; HUP) echo 129 ;; esac)
    check "SIG$sig stops the run with exit $want" test "$STOP_RC" = $want
    check "SIG$sig leaves valid CSV with the rows measured" \
        bash -c "[ \"\$(head -1 '$TMP/s.csv')\" = '$HEADER' ] && [ \$(wc -l <'$TMP/s.csv') -ge 2 ] && awk -F, 'NF != 9 {bad=1} END {exit bad}' '$TMP/s.csv'"
    check "SIG$sig leaves valid JSON marked incomplete" \
        python3 -c "import json,sys; d=json.load(open('$TMP/s.json')); rows=len(open('$TMP/s.csv').read().splitlines())-1; sys.exit(0 if d['complete'] is False and d['stopped_by']=='SIG$sig' and d['exit_status']==$want and len(d['results'])==rows>=1 else 1)"
    check "SIG$sig leaves no temporary JSON file" bash -c "! ls '$TMP'/.membench-*.tmp >/dev/null 2>&1"
done
# stdout's reader going away (| head) stops the run like a signal and says so. Rows
# come in the last of the -r rounds, point by point, each after its point's visit:
# with --sample-ms 300 the next row is written 0.3 s after head has read its two
# lines and gone.
"$BIN" -s 4096 -o read -o write -o copy -o memcpy -r 2 --sample-ms 300 --json "$TMP/pipe.json" 2>"$TMP/pipe.err" |
    head -2 >/dev/null; rc=${PIPESTATUS[0]}
check "SIGPIPE (| head -2): exit 141, JSON valid and incomplete, stopped_by SIGPIPE" \
    python3 -c "import json,sys; d=json.load(open('$TMP/pipe.json')); sys.exit(0 if $rc == 141 and d['complete'] is False and d['stopped_by']=='SIGPIPE' and len(d['results'])>=1 else 1)"
# A reader gone before the next write is noticed between samples (and in first
# touch and chain building), not at that write: a matrix writes its rows at its
# end, a latency run of rounds after the last round. Each run below would take well
# over 20 s; timeout makes a hang fail (exit 124, or 143 with stopped_by SIGTERM).
pipe_stop() { # NAME ARGS...: `membench ARGS | head -1`
    local name=$1 json="$TMP/pipe-$1.json"; shift
    timeout 20 "$BIN" "$@" --json "$json" 2>"$TMP/pipe-$name.err" | head -1 >/dev/null
    local rc=${PIPESTATUS[0]}
    check "$name | head -1: exit 141 (rc=$rc), JSON stopped_by SIGPIPE with exit_status 141, no error said" \
        python3 -c "import json,sys; d=json.load(open('$json')); sys.exit(0 if $rc == 141 and d['complete'] is False and d['stopped_by']=='SIGPIPE' and d['exit_status']==141 and not d['errors'] and 'error' not in open('$TMP/pipe-$name.err').read() else 1)"
}
pipe_stop latency-matrix latency-matrix --buffer 64M --sample-ms 3000
pipe_stop bandwidth-matrix bandwidth-matrix --buffer 16M --window-ms 3000 --samples 9
pipe_stop latency latency --min 4K --max 64K --sample-ms 300

# --- topology -----------------------------------------------------------------
"$BIN" topology >"$TMP/topo.txt" 2>&1; rc=$?
check "topology exits 0 and lists caches" bash -c "[ $rc -eq 0 ] && grep -q '^Caches' '$TMP/topo.txt' && grep -q '^THP:' '$TMP/topo.txt'"
"$BIN" topology --json >"$TMP/topo.json"
check "topology --json is valid JSON with CPUs, nodes and caches" \
    python3 -c "import json,sys; d=json.load(open('$TMP/topo.json')); sys.exit(0 if d['cpus_online']>=1 and d['numa_nodes'] and 'levels_used' in d and d['thp_mode'] else 1)"
# A cloud guest without cache sysfs, recorded: its CPUID (the Zen 5 microVM's legacy
# leaves) is the only source. Sizes, sources and what DRAM buffers are sized from.
guest_tree() { # DIR: 2 CPUs, 1 node, no cache directory
    local d=$1 c
    mkdir -p "$d/devices/system/node/node0" "$d/devices/system/cpu"
    echo 0-1 >"$d/devices/system/cpu/online"
    for c in 0 1; do
        mkdir -p "$d/devices/system/cpu/cpu$c/topology"
        echo $c >"$d/devices/system/cpu/cpu$c/topology/core_id"
        echo 0 >"$d/devices/system/cpu/cpu$c/topology/physical_package_id"
        echo $c >"$d/devices/system/cpu/cpu$c/topology/thread_siblings_list"
    done
    echo 0-1 >"$d/devices/system/node/node0/cpulist"
    echo "Node 0 MemTotal: 4194304 kB" >"$d/devices/system/node/node0/meminfo"
}
guest_tree "$TMP/guest"
ZEN5=$(dirname "$0")/../fixtures/cpuid/zen5-microvm.txt
"$BIN" topology --sysfs "$TMP/guest" >"$TMP/guest.out" 2>"$TMP/guest.err"; rc=$?
check "topology on a guest with no cache source: one warning naming the three defaults" \
    bash -c "[ $rc -eq 0 ] && [ \$(grep -c 'cache sizes:' '$TMP/guest.err') -eq 1 ] && grep -q 'no source reports L1, L2, L3 per instance .*L3 8 MiB (default)' '$TMP/guest.err' && grep -q '^DRAM buffers sized from: no source describes L3' '$TMP/guest.out' && grep -q '^DRAM rule: .* at least no source describes L3: the 1 GiB floor' '$TMP/guest.out'"
"$BIN" topology --sysfs "$TMP/guest" --cpuid "$ZEN5" --json >"$TMP/topo-guest.json" 2>"$TMP/guest.err"; rc=$?
check "topology --cpuid (Zen 5 microVM): L1d 48 KiB and L2 1 MiB from the legacy leaves, L3 508 MiB per package, KVM" \
    python3 -c "import json,sys; d=json.load(open('$TMP/topo-guest.json')); u=d['levels_used']; b=d['dram_basis']; ok=$rc==0 and (u['L1']['size_bytes'],u['L1']['source'])==(48<<10,'cpuid_amd_legacy') and (u['L2']['size_bytes'],u['L2']['source'])==(1<<20,'cpuid_amd_legacy') and (u['L3']['size_bytes'],u['L3']['source'],u['L3']['per_package'])==(508<<20,'cpuid_amd_legacy',True) and (b['size_bytes'],b['per_package'],b['text'])==(508<<20,True,'L3 508 MiB per package (CPUID 0x80000005/6)') and {(c['level'],c['source']) for c in d['caches']}=={(1,'cpuid_amd_legacy'),(2,'cpuid_amd_legacy')} and d['cpu_vendor']=='AuthenticAMD' and d['hypervisor']=='KVMKVMKVM' and [w for w in d['warnings'] if w.startswith('cache sizes:')]==['cache sizes: no source reports L3 per instance (sysfs, CPUID, device tree): using L3 508 MiB for a whole package (CPUID 0x80000005/6), not one instance\'s']; sys.exit(0 if ok else 1)"
if [ "$ARCH" = x86_64 ]; then
    "$BIN" topology --dump-cpuid >"$TMP/dump.txt"
    "$BIN" topology --cpuid "$TMP/dump.txt" --json >"$TMP/topo-dump.json" 2>/dev/null
    check "topology --dump-cpuid reads back through --cpuid to this machine's vendor and CPUID views" \
        python3 -c "import json,sys; a=json.load(open('$TMP/topo-dump.json')); b=json.load(open('$TMP/topo.json')); sys.exit(0 if a['cpu_vendor'] and a['cpu_vendor']==b['cpu_vendor'] and [c for c in a['cache_sources'] if c['source']!='sysfs']==[c for c in b['cache_sources'] if c['source']!='sysfs'] else 1)"
fi
"$BIN" -v -s 64 -o read "${QUICK[@]}" >/dev/null 2>"$TMP/v.err"
check "-v prints topology, placement, kernels and sizes with reasons" \
    bash -c "grep -q '^Caches' '$TMP/v.err' && grep -q '^Threads:' '$TMP/v.err' && grep -qE '^ +read \| [a-z0-9]+ \| loads \|' '$TMP/v.err' && grep -qE '^ +64 \| -s 64 \| user$' '$TMP/v.err' && grep -qE '^  64 KB read: .*pins verified' '$TMP/v.err'"
"$BIN" -v -o read "${QUICK[@]}" -t 0.2 >/dev/null 2>"$TMP/v2.err"
check "-v explains each default size" bash -c "grep -q 'L1/2: inside L1' '$TMP/v2.err' && grep -q 'DRAM: all threads together at least 4x L3' '$TMP/v2.err'"

# The DRAM rule (issue 44) on the Zen 5 guest without cache sysfs: every mode's plan,
# whatever it measures, has a footprint of at least 4x the package's 508 MiB
# (2032 MiB), all threads together; may_fit_cache false and no warning. Then the same
# modes below the rule by the command line: may_fit_cache true and one warning.
guest_tree "$TMP/guest24" # the same guest with 24 GiB, 23 GiB of it free
printf 'Node 0 MemTotal: 25165824 kB\nNode 0 MemFree: 24117248 kB\n' >"$TMP/guest24/devices/system/node/node0/meminfo"
rule_plans() { # MODE ARGS...: --plan --json on that guest with the Zen 5 CPUID
    "$BIN" "$@" --plan --sysfs "$TMP/guest24" --cpuid "$ZEN5" --json "$TMP/rule.json" >/dev/null 2>"$TMP/rule.err"
}
for m in sweep stream latency latency-matrix bandwidth-matrix peak-bandwidth loaded-latency; do
    args=(); [ "$m" = sweep ] || args=("$m")
    rule_plans "${args[@]}"; rc=$?
    check "DRAM rule, $m --plan on the Zen 5 guest: footprint >= 4 x 508 MiB all threads together, basis the package total" \
        python3 -c "import json,sys; d=json.load(open('$TMP/rule.json')); p=d['plan']; ok=$rc==0 and p['dram_rule_bytes']==2032<<20 and p['dram_footprint_bytes']>=p['dram_rule_bytes'] and p['may_fit_cache'] is False and p['size_basis']=='L3 508 MiB per package (CPUID 0x80000005/6)' and not [w for w in d['warnings'] if 'DRAM rule' in w or 'STREAM' in w]; sys.exit(0 if ok else 1)"
done
rule_plans stream -n 1000000; rc=$?
check "DRAM rule both ways: stream -n 1000000 (8 MB arrays) on the Zen 5 guest: may_fit_cache, one warning naming the rule" \
    python3 -c "import json,sys; d=json.load(open('$TMP/rule.json')); p=d['plan']; w=[x for x in d['warnings'] if 'STREAM' in x or 'DRAM rule' in x]; ok=$rc==0 and p['may_fit_cache'] is True and len(w)==1 and '4x L3 508 MiB per package (CPUID 0x80000005/6) = 2032 MiB' in w[0] and d['warning_kinds'][d['warnings'].index(w[0])]=='stream_rule'; sys.exit(0 if ok else 1)"
rule_plans peak-bandwidth -b 512M; rc=$?
check "DRAM rule both ways: peak-bandwidth -b 512M (2 threads: 1 GiB) on the Zen 5 guest: may_fit_cache, one may_fit_cache warning" \
    python3 -c "import json,sys; d=json.load(open('$TMP/rule.json')); p=d['plan']; w=[x for x in d['warnings'] if 'below the DRAM rule' in x]; ok=$rc==0 and p['may_fit_cache'] is True and p['dram_footprint_bytes']==1<<30 and len(w)==1 and d['warning_kinds'][d['warnings'].index(w[0])]=='may_fit_cache'; sys.exit(0 if ok else 1)"
"$BIN" latency-matrix --plan --sysfs "$TMP/guest24" --json "$TMP/rule.json" >/dev/null 2>&1; rc=$?
check "DRAM rule with no cache source at all: the 1 GiB floor, said as such, and a DRAM check planned" \
    python3 -c "import json,sys; d=json.load(open('$TMP/rule.json')); p=d['plan']; ok=$rc==0 and p['dram_rule_bytes']==1<<30 and p['buffer_bytes']>=1<<30 and p['size_basis']=='no source describes L3' and 'dram_check' in p; sys.exit(0 if ok else 1)"
# This machine: five plans of each mode give the same sizes (no measurement sizes anything).
same_sizes=0
for m in sweep stream latency latency-matrix peak-bandwidth loaded-latency; do
    args=(); [ "$m" = sweep ] || args=("$m")
    for i in 1 2 3 4 5; do
        "$BIN" "${args[@]}" --plan --json "$TMP/five-$i.json" >/dev/null 2>&1
    done
    python3 -c "
import json,sys
keys=('dram_rule_bytes','dram_footprint_bytes','array_elements','max_bytes','buffer_bytes','chase_bytes')
def sizes(i):
    p=json.load(open('$TMP/five-%d.json' % i))['plan']
    return [p.get(k) for k in keys] + [r.get('size_kb') for r in p.get('sizes', [])]
s=[sizes(i) for i in range(1, 6)]
sys.exit(0 if s[0][0] and all(x == s[0] for x in s) else 1)" || { same_sizes=1; echo "# $m: sizes differ between plans"; }
done
check "five plans of each DRAM mode on this machine give the same sizes" test $same_sizes -eq 0

# --- membench latency ----------------------------------------------------------
bad_input "latency --min 2K" "'2K'" latency --min 2K
bad_input "latency --max below --min" "smaller than --min" latency --min 1M --max 64K
bad_input "latency --pages 64k" "'64k'" latency --pages 64k
bad_input "latency --stride 12" "'12'" latency --stride 12
bad_input "latency --stride with --page-local" "conflict" latency --stride 64 --page-local
bad_input "latency --cpu unavailable" "--cpu 4095: not available" latency --cpu 4095
bad_input "latency --max beyond memory" "more than can be allocated safely" latency --max 900G
bad_input "latency stray argument" "'oops'" latency oops
LQ=(--sample-ms 1 --min 4K --max 64K)
"$BIN" latency "${LQ[@]}" --points-per-octave 1 >"$TMP/lat.txt" 2>"$TMP/lat-txt.err"; rc=$? # warnings: at stderr's end
check "latency exits 0 and prints a row per size" bash -c "[ $rc -eq 0 ] && [ \$(grep -cE '^[0-9]+ KiB +[0-9.]+ ns' '$TMP/lat.txt') -eq 5 ]"
check "latency reports steps and reported-vs-measured sizes" \
    bash -c "grep -q '^Latency steps' '$TMP/lat.txt' && grep -q '^Cache sizes, reported vs measured' '$TMP/lat.txt'"
check "latency ends with how the host moved (as -R): a verdict or too short to judge, then steal and pressure" \
    bash -c "tail -5 '$TMP/lat.txt' | grep -A3 '^HOST DURING THIS RUN:$' | grep -qE '^  (varied ±[0-9.]+% \(fixed CPU and memory probes timed [0-9]+ times\)|too short to judge)' && tail -2 '$TMP/lat.txt' | grep -qE '^  steal ([0-9.]+%|unknown), CPU pressure ([0-9.]+%|unknown), memory pressure ([0-9.]+%|unknown)$'"
"$BIN" latency "${LQ[@]}" --points-per-octave 2 --csv --json "$TMP/lat.json" >"$TMP/lat.csv" 2>"$TMP/lat.err"
check "latency --csv header and rows" \
    bash -c "[ \"\$(head -1 '$TMP/lat.csv')\" = 'size_kb,latency_ns,latency_ref_cycles,latency_stddev_ns,latency_samples,cv_target_met,page_method,huge_coverage,random_latency_ns,latency_best_ns,random_latency_best_ns' ] && [ \$(wc -l <'$TMP/lat.csv') -ge 6 ] && awk -F, 'NR > 1 && (NF != 11 || \$2 <= 0 || \$5 < 7 || \$5 > 21 || \$10 <= 0 || \$10 > \$2) {bad=1} END {exit bad}' '$TMP/lat.csv'"
check "latency --json is valid, complete, with results and checks" \
    python3 -c "import json,sys; d=json.load(open('$TMP/lat.json')); n=sum(1 for _ in open('$TMP/lat.csv'))-1; sys.exit(0 if d['mode']=='latency' and d['complete'] and len(d['results'])==n and 'cache_checks' in d['analysis'] and 'steps' in d['analysis'] and d['elapsed_s']>0 else 1)"
# Cache sizes are read only off converged points: every step edge is a converged
# record's size, and the counts add up (a noisy point cannot fake or hide a step).
check "latency steps come from converged points only, each with where the rise starts" \
    python3 -c "
import json, sys
d = json.load(open('$TMP/lat.json')); a = d['analysis']; rs = d['results']
conv = [r['size_bytes'] for r in rs if r['converged']]
edges = all(s['last_size_before_bytes'] in conv and s['first_size_above_bytes'] in conv and
            s['last_size_before_bytes'] < s['first_size_above_bytes'] <= s['first_size_after_bytes'] for s in a['steps'])
sys.exit(0 if edges and a['points_converged'] == len(conv) and a['points_not_converged'] == len(rs) - len(conv) else 1)"
for order in "--page-local" "--stride 256"; do
    "$BIN" latency "${LQ[@]}" --points-per-octave 1 $order --csv >"$TMP/lat2.csv" 2>/dev/null
    check "latency $order measures every size" bash -c "[ \$(wc -l <'$TMP/lat2.csv') -eq 6 ]"
done
"$BIN" latency --sample-ms 1 --min 4K --max 4M --points-per-octave 1 --pages thp --csv >"$TMP/thp.csv" 2>"$TMP/thp.err"
if grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
    check "latency --pages thp refused when THP is never" grep -q "'never'" "$TMP/thp.err"
else
    check "latency --pages thp records the coverage obtained" \
        bash -c "awk -F, 'NR > 1 && (\$7 != \"thp\" || \$8 == \"\") {bad=1} END {exit bad}' '$TMP/thp.csv'"
fi
rm -f "$TMP/li.json"
"$BIN" latency --sample-ms 1 --min 4K --max 64M --json "$TMP/li.json" >/dev/null 2>&1 &
pid=$!
wait_started "$TMP/li.json"
sleep 1
stop_with INT $pid
check "latency SIGINT exits 130 with valid, incomplete JSON" \
    bash -c "[ '$STOP_RC' = 130 ] && python3 -c \"import json,sys; d=json.load(open('$TMP/li.json')); sys.exit(0 if d['complete'] is False and d['stopped_by']=='SIGINT' else 1)\""

# --- membench latency-matrix ---------------------------------------------------
# On this machine's nodes: a row per node with a usable CPU, a column per node with
# memory; each cell names its chaser CPU (checked in the thread) and the node its
# pages are on. MQ keeps the cells small and short.
MQ=(-b 8M --sample-ms 1)
# Which node a page is on, where this system can say (move_pages): 1 here, None under
# qemu-user, which does not pass the query on; the expectations below follow it.
"$BIN" latency --min 64K --max 64K --mem-node 0 --sample-ms 1 --json "$TMP/pagenode.json" >/dev/null 2>&1
NLF=$(python3 -c "import json; print(json.load(open('$TMP/pagenode.json'))['results'][0]['node_local_fraction'])" 2>/dev/null)
check "latency --mem-node 0 says its pages are on node 0, or that it cannot tell ($NLF)" test "$NLF" = 1 -o "$NLF" = None
FIRST_CPU=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
NNODES=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
"$BIN" latency-matrix "${MQ[@]}" --json "$TMP/lm.json" >"$TMP/lm.txt" 2>"$TMP/lm.err"; rc=$?
if [ "$NNODES" -le 1 ]; then
    check "latency-matrix on one node: a 1x1 matrix, 'Numa node' header, the cell in ns with one decimal, its CPU" \
        bash -c "[ $rc -eq 0 ] && grep -qE '^Numa node +0 +chaser$' '$TMP/lm.txt' && [ \$(grep -cE '^ +[0-9]+ ' '$TMP/lm.txt') -eq 1 ] &&
            grep -qE '^ +0 +[0-9]+\.[0-9] +CPU $FIRST_CPU$' '$TMP/lm.txt'"
    check "latency-matrix JSON: one latency-matrix record naming CPU $FIRST_CPU, node 0, memory node 0, pages on node 0, the pin verified" \
        python3 -c "import json,sys; d=json.load(open('$TMP/lm.json')); r=d['results']; p=r[0]['placement'][0]; q=r[0]['params']
sys.exit(0 if d['mode']=='latency-matrix' and d['complete'] and len(r)==1 and r[0]['operation']=='latency' and (p['cpu'],p['node'],p['memory_node'])==($FIRST_CPU,0,0)
    and q['observed_cpu']==$FIRST_CPU and (q['cpu_node'],q['mem_node'],q['row'],q['column'])==(0,0,0,0) and r[0]['node_local_fraction']==$NLF and r[0]['pins_verified']==1
    and r[0]['size_bytes']==8<<20 and d['plan']['cells']==[{'row':0,'column':0,'cpu_node':0,'cpu':$FIRST_CPU,'mem_node':0}]
    and d['analysis']['local_min_ns']==r[0]['value'] and d['analysis']['cells_unavailable']==0 and 'remote_min_ns' not in d['analysis'] else 1)"
fi
"$BIN" latency-matrix "${MQ[@]}" --csv --json "$TMP/lmc.json" >"$TMP/lm.csv" 2>/dev/null; rc=$?
check "latency-matrix --csv: the header, a line per cell with its nodes, CPU, latency, samples, page node share, pages, buffer" \
    bash -c "[ $rc -eq 0 ] && [ \"\$(head -1 '$TMP/lm.csv')\" = 'cpu_node,mem_node,cpu,latency_ns,latency_stddev_ns,latency_samples,cv_target_met,page_node_fraction,page_method,huge_coverage,buffer_bytes' ] &&
        python3 -c \"import json,sys; d=json.load(open('$TMP/lmc.json')); rows=[l.rstrip().split(',') for l in open('$TMP/lm.csv')][1:]
sys.exit(0 if len(rows)==len(d['plan']['cells']) and all(len(x)==11 and [int(x[0]),int(x[1]),int(x[2])]==[c['cpu_node'],c['mem_node'],c['cpu']] and float(x[3])>0 and 7<=int(x[5])<=21 and x[7]==('1.000' if $NLF==1 else '') and x[8] and x[10]=='8388608' for x,c in zip(rows,d['plan']['cells'])) else 1)\""
# --every-cpu: a row per usable CPU, each on its own CPU (taskset decides which).
every_cpu_rows() { # json cpus...
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); want=[int(c) for c in sys.argv[2:]]
r=d['results']; sys.exit(0 if [x['placement'][0]['cpu'] for x in r]==want and all(x['params']['observed_cpu']==x['placement'][0]['cpu'] and x['pins_verified']==1 and x['node_local_fraction']==$NLF for x in r) and d['analysis']['slowest_cpu'] in want else 1)" "$@"
}
ALL_CPUS=$(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))')
"$BIN" latency-matrix --every-cpu "${MQ[@]}" --json "$TMP/lme.json" >"$TMP/lme.txt" 2>/dev/null; rc=$?
# shellcheck disable=SC2086
check "latency-matrix --every-cpu: one row and one record per usable CPU ($ALL_CPUS), each chased on that CPU" \
    bash -c "[ $rc -eq 0 ] && [ \$(grep -cE '^ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ ' '$TMP/lme.txt') -eq $(wc -w <<<"$ALL_CPUS") ] && grep -q '^Slowest: CPU ' '$TMP/lme.txt'" &&
    check "latency-matrix --every-cpu JSON: CPUs $ALL_CPUS in order" every_cpu_rows "$TMP/lme.json" $ALL_CPUS
LAST_CPU=${ALL_CPUS##* }
if command -v taskset >/dev/null; then
    taskset -c "$LAST_CPU" "$BIN" latency-matrix --every-cpu "${MQ[@]}" --json "$TMP/lmt.json" >"$TMP/lmt.txt" 2>/dev/null; rc=$?
    check "taskset -c $LAST_CPU latency-matrix --every-cpu: one row, CPU $LAST_CPU" \
        bash -c "[ $rc -eq 0 ] && grep -qE '^ +$LAST_CPU +[0-9]+ +[0-9]+ +[0-9.]+ ' '$TMP/lmt.txt' && [ \$(grep -cE '^ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ ' '$TMP/lmt.txt') -eq 1 ]" &&
        check "taskset -c $LAST_CPU latency-matrix --every-cpu JSON: the one record is on CPU $LAST_CPU" every_cpu_rows "$TMP/lmt.json" "$LAST_CPU"
fi
# -v explains the placement: the chaser CPU per cell, the node, the policy and the buffer
# (a given one: the default first-touches the DRAM rule's GiBs per cell, 25-57 s on a guest
# that backs pages at 0.2-0.6 GB/s); the default buffer and its reason from the plan.
"$BIN" latency-matrix --sample-ms 1 -b 8M -v >/dev/null 2>"$TMP/lmv.err"; rc=$?
check "latency-matrix -v: the cells (CPU, nodes), MPOL_BIND, the buffer given and why" \
    bash -c "[ $rc -eq 0 ] && grep -q '^memory_policy: bind$' '$TMP/lmv.err' && grep -qx 'buffer_reason: --buffer' '$TMP/lmv.err' &&
        grep -qx 'buffer_bytes: 8388608' '$TMP/lmv.err' &&
        grep -q '^    row | column | cpu_node | cpu | mem_node$' '$TMP/lmv.err' && grep -q '^    0 | 0 | [0-9]* | $FIRST_CPU | ' '$TMP/lmv.err' &&
        grep -q '^Threads: [0-9]*, one chasing thread per node with CPUs' '$TMP/lmv.err'"
"$BIN" latency-matrix --plan --json "$TMP/lmp.json" >/dev/null 2>&1; rc=$?
check "latency-matrix's default buffer: the DRAM rule from the LLC, and the reason says so" \
    python3 -c "import json,re,sys; p=json.load(open('$TMP/lmp.json'))['plan']; sys.exit(0 if $rc == 0 and p['buffer_bytes'] >= 67108864 and p['buffer_bytes'] == p['dram_rule_bytes'] and re.fullmatch(r'(4x L[0-9] [0-9]+ [KMG]iB.* = [0-9]+ [KMG]iB|no source describes L[0-9]: the 1 GiB floor)', p['buffer_reason']) and p['buffer_reason'] == p['dram_rule'] else 1)"
rm -f "$TMP/lmi.json"
"$BIN" latency-matrix --every-cpu -b 8M --sample-ms 500 --json "$TMP/lmi.json" >"$TMP/lmi.txt" 2>/dev/null &
pid=$!
wait_started "$TMP/lmi.json"
sleep 1
stop_with INT $pid
check "latency-matrix SIGINT exits 130 with valid, incomplete JSON and says which cells were not measured" \
    bash -c "[ '$STOP_RC' = 130 ] && python3 -c \"import json,sys; d=json.load(open('$TMP/lmi.json')); sys.exit(0 if d['complete'] is False and d['stopped_by']=='SIGINT' else 1)\" &&
        grep -q '^# stopped: [0-9]* of [0-9]* cells not measured$' '$TMP/lmi.txt'"
# --- membench c2c -------------------------------------------------------------
# This machine: every pair is CPU 0 and CPU 1 when there are two; small windows.
if [ "$NCPU" -ge 2 ]; then
    C2C=(--window 16K)
    "$BIN" c2c --writer 0 --reader 1 "${C2C[@]}" --json "$TMP/c2c.json" >"$TMP/c2c.txt" 2>"$TMP/c2c.err"; rc=$?
    check "c2c --writer 0 --reader 1: JSON names writer CPU 0, reader CPU 1, home node 0, HITM, pins verified" \
        python3 -c "import json,sys; d=json.load(open('$TMP/c2c.json')); r=d['results']; p=r[0]['placement']; q=r[0]['params']; sys.exit(0 if $rc==0 and d['mode']=='c2c' and d['complete'] and len(r)==1 and [t['cpu'] for t in p]==[0,1] and [t['memory_node'] for t in p]==[0,0] and q['home_node']==0 and q['state']=='HITM' and q['window_bytes']==16384 and q['lines']==256 and r[0]['pins_verified']==2 and 10<=len(r[0]['samples'])<=24 and q['home_verified'] in (None, 1) else 1)"
    # The second visit (c2c_add_visit): 3 more samples after the first visit's 7-21;
    # each visit's median is the median of its own samples, and the split verdict is
    # the rule's on them (apart ranges, medians 1.25x apart).
    check "c2c: each visit's median from its own samples (the last 3 are the second visit), the split verdict the rule's" \
        python3 -c "
import json, statistics, sys
r = json.load(open('$TMP/c2c.json'))['results'][0]; q = r['params']; s = r['samples']
a, b = s[:-3], s[-3:]
ma, mb = statistics.median(a), statistics.median(b)
split = (max(a) < min(b) or max(b) < min(a)) and max(ma, mb) / min(ma, mb) >= 1.25
sys.exit(0 if abs(q['first_visit_ns'] - ma) < 1e-6 * ma and abs(q['second_visit_ns'] - mb) < 1e-6 * mb
         and q['visits_split'] == split and abs(r['summary']['median'] - statistics.median(s)) < 1e-6 * ma else 1)"
    check "c2c table says HITM, the home node and where lines may come from" \
        bash -c "grep -qE '^pair +CPU 0 \(node 0\) +CPU 1 \(node 0\) +HITM +node 0 ' '$TMP/c2c.txt' && grep -q 'another CCX or socket' '$TMP/c2c.txt' && ! grep -q 'L2->L2' '$TMP/c2c.txt'"
    "$BIN" c2c --writer 1 --reader 0 --clean "${C2C[@]}" --csv --json "$TMP/c2c-clean.json" >"$TMP/c2c.csv" 2>"$TMP/c2c.err"; rc=$?
    check "c2c --clean: HIT, writer CPU 1, reader CPU 0, in CSV and JSON" \
        bash -c "[ $rc -eq 0 ] && [ \"\$(head -1 '$TMP/c2c.csv')\" = 'kind,writer_cpu,writer_node,reader_cpu,reader_node,state,home_node,home_of,home_verified,window_bytes,latency_ns,latency_stddev_ns,samples,cv_target_met,reader_own_ns,first_visit_ns,second_visit_ns,visits_split' ] && [ \$(wc -l <'$TMP/c2c.csv') -eq 2 ] && tail -1 '$TMP/c2c.csv' | grep -qE '^pair,1,0,0,0,HIT,0,writer,[0-9.]*,16384,.*,[0-9.]+,[0-9.]+,[01]$' && python3 -c \"import json,sys; r=json.load(open('$TMP/c2c-clean.json'))['results'][0]; sys.exit(0 if r['params']['state']=='HIT' and r['params']['hit_method'] in ('clflush','eviction by reading') else 1)\""
    "$BIN" c2c --matrix --cpus 0,1 "${C2C[@]}" --json "$TMP/c2c-matrix.json" >"$TMP/c2c-m.txt" 2>"$TMP/c2c.err"; rc=$?
    check "c2c --matrix on 2 CPUs: 2 cells, '-' on the diagonal" \
        bash -c "[ $rc -eq 0 ] && grep -qE '^0 +- +[0-9]+\.[0-9]\*?$' '$TMP/c2c-m.txt' && grep -qE '^1 +[0-9]+\.[0-9]\*? +-$' '$TMP/c2c-m.txt' && python3 -c \"import json,sys; r=json.load(open('$TMP/c2c-matrix.json'))['results']; sys.exit(0 if [(x['placement'][0]['cpu'],x['placement'][1]['cpu']) for x in r]==[(0,1),(1,0)] and all(len(x['samples'])==8 for x in r) else 1)\""
    "$BIN" c2c "${C2C[@]}" --json "$TMP/c2c-default.json" >"$TMP/c2c-d.txt" 2>"$TMP/c2c.err"; rc=$?
    check "c2c default: the local pair, HIT then HITM (MLC's order)" \
        python3 -c "import json,sys; r=json.load(open('$TMP/c2c-default.json'))['results']; sys.exit(0 if $rc==0 and [x['params']['state'] for x in r[:2]]==['HIT','HITM'] and all(x['params']['kind']=='local' for x in r[:2]) else 1)"
    taskset -c 0 "$BIN" c2c >"$TMP/out" 2>"$TMP/err"; rc=$?
    check "c2c on one CPU (taskset -c 0): exit 2, one line saying it needs two CPUs" \
        bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q 'needs two CPUs' '$TMP/err' && [ ! -s '$TMP/out' ]"
    # 32 MiB windows: about 2.5 s here, long past the signal even on a fast idle machine
    # The signal goes once the JSON document is there (written when measuring starts,
    # the stop handlers armed): a fixed 0.3 s came before that under qemu-s390x in
    # check-cross, and the default action left no document.
    rm -f "$TMP/c2c-int.json"
    "$BIN" c2c --matrix --window 32M --json "$TMP/c2c-int.json" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 100); do [ -s "$TMP/c2c-int.json" ] && break; sleep 0.1; done
    sleep 0.3
    kill -INT $pid; wait $pid; rc=$?
    check "c2c SIGINT exits 130 with valid, incomplete JSON" \
        python3 -c "import json,sys; d=json.load(open('$TMP/c2c-int.json')); sys.exit(0 if $rc==130 and d['mode']=='c2c' and not d['complete'] else 1)"
else
    echo "# skipped: c2c runs need two CPUs"
fi

# --- membench stream -----------------------------------------------------------
bad_input "stream -n 10" "'10'" stream -n 10
bad_input "stream --ntimes 1" "'1'" stream --ntimes 1
bad_input "stream --stores fast" "'fast'" stream --stores fast
bad_input "stream -n beyond memory" "can be allocated safely" stream -n 1000000000000
bad_input "stream -p more than CPUs" "--oversubscribe" stream -p $((NCPU + 1))
bad_input "stream --scan with -p" "--scan" stream --scan -p 1
bad_input "stream stray argument" "'x'" stream x
"$BIN" stream -n 2000000 --ntimes 4 --json "$TMP/st.json" >"$TMP/st.out" 2>"$TMP/st.err"; rc=$?
if $HAVE_NT; then KINDS=2 STORES="['regular','non-temporal']"; else KINDS=1 STORES="['regular']"; fi
check "stream exits 0 and validates each store kind ($KINDS)" \
    bash -c "[ $rc -eq 0 ] && [ \$(grep -c '^Solution Validates: avg error less than 1.000000e-13 on all three arrays$' '$TMP/st.out') -eq $KINDS ]"
check "stream prints STREAM's table" \
    bash -c "grep -q '^Function    Best Rate MB/s  Avg time     Min time     Max time$' '$TMP/st.out' && grep -qE '^Triad: +[0-9]+\.[0-9] +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6}$' '$TMP/st.out'"
if $HAVE_NT; then
    check "stream shows stores side by side and says whether the peak is known" \
        bash -c "grep -q 'regular MB/s *nt MB/s' '$TMP/st.out' && grep -q '^Theoretical peak: ' '$TMP/st.out'"
else
    check "stream without non-temporal stores says so and runs regular stores ($ARCH)" \
        bash -c "grep -q 'no non-temporal store kernel for this CPU ($ARCH): regular stores only' '$TMP/st.err' && grep -q '^Theoretical peak: ' '$TMP/st.out'"
    bad_input "stream --stores nt without non-temporal stores" "--stores nt: no non-temporal kernel" stream --stores nt
fi
check "stream --json is valid with each store kind" \
    python3 -c "import json,sys; d=json.load(open('$TMP/st.json')); r=d['results']; kinds=[x['kernel']['stores'] for x in r[::4]]; sys.exit(0 if d['mode']=='stream' and d['complete'] and [x['operation'] for x in r]==['copy','scale','add','triad']*$KINDS and kinds==$STORES and all(x['params']['validated'] for x in r) and d['elapsed_s']>0 else 1)"
check "stream JSON: each function's samples are iterations 2..ntimes, best rate = STREAM bytes / min time" \
    python3 -c "import json,sys; d=json.load(open('$TMP/st.json')); n=d['plan']['array_elements']; ok=all(len(x['samples'])==3 and x['value']==max(x['samples']) and abs(x['bytes_per_sample']-{'copy':16,'scale':16,'add':24,'triad':24}[x['operation']]*n)<1 for x in d['results']); sys.exit(0 if ok else 1)"
"$BIN" stream --ntimes 2 --stores regular --json "$TMP/st4.json" >"$TMP/st4.out" 2>&1
check "stream's default arrays: the text says why their size (STREAM's rule, the plan's dram_rule)" \
    python3 -c "import json,sys; d=json.load(open('$TMP/st4.json')); sys.exit(0 if ('Why this size: STREAM\'s rule, each array at least ' + d['plan']['dram_rule'] + '.') in open('$TMP/st4.out').read() else 1)"
check "stream's default arrays are at least 4x the total last-level cache" \
    python3 -c "import json,sys; d=json.load(open('$TMP/st4.json')); t=d['topology']; top=max(c['level'] for c in t['caches']) if t['caches'] else 0; llc=sum(c['size_bytes'] for c in t['caches'] if c['level']==top) if top else t['levels_used']['L3']['size_bytes']; sys.exit(0 if d['plan']['array_elements']*8 >= 4*llc else 1)"
# A stop during the cache probe (it runs before the plan, for seconds) ends the run
# as a stop during the measurement does: exit 143, a valid JSON marked incomplete.
"$BIN" -o read --cache-probe always -r 1 --json "$TMP/probe-stop.json" >"$TMP/probe-stop.out" 2>&1 &
pstop=$!
sleep 1
kill -TERM $pstop
wait $pstop; rc=$?
check "SIGTERM during the cache probe: exit 143, JSON valid, incomplete, stopped by SIGTERM" \
    python3 -c "import json,sys; d=json.load(open('$TMP/probe-stop.json')); sys.exit(0 if $rc == 143 and d['complete'] is False and d['stopped_by']=='SIGTERM' and d['exit_status']==143 else 1)"
check "stream's records name the basis of their size (the topology's dram_basis) and whether it may fit a cache" \
    python3 -c "import json,sys; d=json.load(open('$TMP/st4.json')); b=d['topology']['dram_basis']; sys.exit(0 if d['results'] and all(x['size_basis']==b['source'] and x['may_fit_cache'] is (b['source']=='default') for x in d['results']) and d['plan']['size_basis']==b['text'] else 1)"
"$BIN" stream -n 2000000 --ntimes 2 --stores regular --json "$TMP/st5.json" >/dev/null 2>&1
check "stream -n: records say the size was the user's" \
    python3 -c "import json,sys; d=json.load(open('$TMP/st5.json')); sys.exit(0 if d['results'] and all(x['size_basis']=='user' for x in d['results']) and d['plan']['size_basis']=='given on the command line' else 1)"
"$BIN" stream -n 2000000 --ntimes 3 --stores regular --peak-gbs 100 >"$TMP/st2.out" 2>&1
check "stream --stores regular --peak-gbs shows one table and % of peak" \
    bash -c "[ \$(grep -c '^Function    Best' '$TMP/st2.out') -eq 1 ] && grep -q 'reg %peak' '$TMP/st2.out' && grep -q 'Theoretical peak: 100.0 GB/s (--peak-gbs)' '$TMP/st2.out'"
"$BIN" stream -n 2000000 --ntimes 3 --scan --json "$TMP/st3.json" >"$TMP/st3.out" 2>&1
check "stream --scan tries thread counts and names the best" \
    bash -c "grep -q '^Number of Threads counted = 1 ' '$TMP/st3.out' && grep -q '^Best configuration: ' '$TMP/st3.out'"

# --- limits and privileges on this machine (skipped, saying why, where impossible) ---
# A memory cgroup of 256 MiB (v2, or v1's memory hierarchy): what the budget allows.
CG=""
if [ "$(id -u)" = 0 ]; then
    v2=$(awk '$9 == "cgroup2" {print $5; exit}' /proc/self/mountinfo)
    v1=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ {print $5; exit}' /proc/self/mountinfo)
    if [ -n "$v2" ] && grep -qw memory "$v2/cgroup.controllers" 2>/dev/null && mkdir "$v2/membench-cli-$$" 2>/dev/null; then
        CG=$v2/membench-cli-$$
        echo 256M >"$CG/memory.max" 2>/dev/null || { rmdir "$CG"; CG=""; }
    elif [ -n "$v1" ] && mkdir "$v1/membench-cli-$$" 2>/dev/null; then
        CG=$v1/membench-cli-$$
        echo $((256 << 20)) >"$CG/memory.limit_in_bytes" 2>/dev/null || { rmdir "$CG"; CG=""; }
    fi
fi
if [ -n "$CG" ]; then
    in_cg() { sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG" "$@"; }
    in_cg "$BIN" -s 262144 -p 1 -o read >"$TMP/cg.out" 2>"$TMP/cg.err"; rc=$?
    check "256 MiB cgroup ($CG): -s 256 MiB refused, budget named below the limit" \
        bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/cg.err') -eq 1 ] && n=\$(sed -n 's/.*only \([0-9]*\) KiB can be allocated safely.*/\1/p' '$TMP/cg.err') && [ -n \"\$n\" ] && [ \$n -gt 0 ] && [ \$n -lt 262144 ]"
    in_cg "$BIN" stream -n 20000000 >"$TMP/cg.out" 2>"$TMP/cg.err"; rc=$?
    check "256 MiB cgroup: stream's 458 MiB of arrays refused" bash -c "[ $rc -eq 2 ] && grep -q 'can be allocated safely' '$TMP/cg.err'"
    in_cg "$BIN" c2c --window 64M >"$TMP/cg.out" 2>"$TMP/cg.err"; rc=$?
    check "256 MiB cgroup: c2c --window 64M (22 windows) refused" bash -c "[ $rc -eq 2 ] && grep -q 'can be allocated safely' '$TMP/cg.err'"
    in_cg "$BIN" latency --max 512M >"$TMP/cg.out" 2>"$TMP/cg.err"; rc=$?
    check "256 MiB cgroup: latency --max 512M refused" bash -c "[ $rc -eq 2 ] && grep -q 'can be allocated safely' '$TMP/cg.err'"
    in_cg "$BIN" -f -p 1 -o read -r 1 --sample-ms 1 --json "$TMP/cg.json" >"$TMP/cg.out" 2>"$TMP/cg.err"; rc=$?
    check "256 MiB cgroup: -f says it adds nothing under this budget" grep -q -- '-f adds nothing: the memory budget allows' "$TMP/cg.err"
    check "256 MiB cgroup: -f runs and its largest buffer stays inside the limit" \
        python3 -c "import json,sys; r=json.load(open('$TMP/cg.json'))['results']; m=max(x['size_kb'] for x in r); sys.exit(0 if $rc == 0 and 0 < m * 1024 <= 256 << 20 else 1)"
    # 64 MiB: small runs, not refusals ("needs 0 MiB ... only 0 MiB"); 16 MiB: nothing
    # fits, and a run that would measure nothing is an error with real numbers, exit 1.
    limit_file=memory.max; [ -f "$CG/memory.max" ] || limit_file=memory.limit_in_bytes
    echo $((64 << 20)) >"$CG/$limit_file"
    in_cg "$BIN" -o read -r 1 --sample-ms 1 --json "$TMP/cg64.json" >"$TMP/cg.out" 2>"$TMP/cg.err"; rc=$?
    check "64 MiB cgroup: the default sweep measures small sizes, exit 0" \
        python3 -c "import json,sys; r=json.load(open('$TMP/cg64.json'))['results']; sys.exit(0 if $rc == 0 and len(r) >= 3 else 1)"
    in_cg "$BIN" -s 64 -o read -r 1 --sample-ms 1 >"$TMP/cg.out" 2>"$TMP/cg.err"; rc=$?
    check "64 MiB cgroup: -s 64 runs" test $rc -eq 0
    in_cg "$BIN" -s 65536 -o read -p 1 >"$TMP/cg.out" 2>"$TMP/cg.err"; rc=$?
    check "64 MiB cgroup: -s 65536 refused with the real figures (needs 64 MiB, a non-zero budget below)" \
        bash -c "[ $rc -eq 2 ] && grep -qE -- '-s 65536: needs 64 MiB \(1 thread\(s\) x 1 buffer\(s\)\) but only [1-9][0-9]* KiB can be' '$TMP/cg.err'"
    echo $((16 << 20)) >"$CG/$limit_file"
    for args in "-o read" "-f -o read"; do
        # (an ASan build's leak check at exit needs more than 16 MiB: killed, 137; the
        # leak check runs in every other run of the suite)
        # shellcheck disable=SC2086
        in_cg env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$BIN" $args >"$TMP/cg.out" 2>"$TMP/cg.err"; rc=$?
        check "16 MiB cgroup: membench $args fits no size: one error line with the budget, exit 1 (never 0 with nothing measured)" \
            bash -c "[ $rc -eq 1 ] && [ \$(wc -l <'$TMP/cg.err') -eq 1 ] && grep -q 'error: no size fits the memory budget: [0-9]* KiB can be allocated safely' '$TMP/cg.err'"
    done
    rmdir "$CG" 2>/dev/null
else
    echo "# skipped: cgroup memory-limit tests need root and a writable memory cgroup hierarchy"
fi

# A restricted cpuset (taskset): every thread stays inside it, and the default thread
# count is the number of CPUs in it.
if command -v taskset >/dev/null && [ "$NCPU" -ge 2 ]; then
    last=$((NCPU - 1))
    taskset -c $last "$BIN" -s 64 -o read "${QUICK[@]}" --json "$TMP/ts.json" >/dev/null 2>&1; rc=$?
    check "taskset -c $last: one thread, on CPU $last" \
        python3 -c "import json,sys; d=json.load(open('$TMP/ts.json')); t=d['placement']['threads']; sys.exit(0 if $rc == 0 and [x['cpus'] for x in t] == ['$last'] and d['results'][0]['threads'] == 1 else 1)"
    taskset -c $last "$BIN" -s 64 -o read --cpus 0 >/dev/null 2>"$TMP/err"; rc=$?
    check "taskset -c $last with --cpus 0: refused, CPU 0 named" bash -c "[ $rc -eq 2 ] && grep -q 'CPU 0 is not available' '$TMP/err'"
else
    echo "# skipped: taskset tests need taskset and two CPUs"
fi

# No privileges: the same binary as user nobody (node queries, pinning, JSON all work).
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null && runuser -u nobody -- test -x "$BIN" 2>/dev/null; then
    mkdir -p "$TMP/nobody" && chmod 777 "$TMP/nobody" && chmod 711 "$TMP"
    runuser -u nobody -- "$BIN" -s 1024 -o read -o latency "${QUICK[@]}" --json "$TMP/nobody/r.json" >"$TMP/nobody/out" 2>"$TMP/nobody/err"; rc=$?
    check "as user nobody: runs, measures, writes JSON" \
        python3 -c "import json,sys; d=json.load(open('$TMP/nobody/r.json')); sys.exit(0 if $rc == 0 and d['complete'] and [r['operation'] for r in d['results']] == ['read','latency'] else 1)"
    runuser -u nobody -- "$BIN" latency --max 64K --sample-ms 1 >"$TMP/nobody/lat" 2>&1; rc=$?
    check "as user nobody: latency mode runs" test $rc -eq 0
    runuser -u nobody -- "$BIN" -s 64 -o read --json /root/membench-forbidden.json >"$TMP/out" 2>"$TMP/err"; rc=$?
    check "as user nobody: an unwritable --json path is one line, exit 2" \
        bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q 'cannot write (Permission denied)' '$TMP/err'"
    # No worker thread can be created (user nobody limited to one process, ulimit -u 1):
    # every measuring mode says so in one error line with the reason, exits 1, and
    # its JSON records the error and a run ended by it. (No leak check there: it needs
    # a thread of its own.) Where the binary cannot even start under that limit (run
    # by qemu-user, which needs a thread of its own), there is nothing to test.
    if ! runuser -u nobody -- bash -c 'ulimit -u 1 && exec "$@"' _ "$BIN" --version >/dev/null 2>&1; then
        echo "# skipped: under ulimit -u 1 this binary does not start at all (an emulator needing threads?)"
    else for args in "-s 64 -o read" "-s 64 -o latency" "latency --max 64K" "latency-matrix -b 8M" "stream -n 100000" \
        "peak-bandwidth -b 4M" "loaded-latency -b 4M --chase-buffer 4M" "bandwidth-matrix -b 4M" "c2c" "mlc -b 4M" \
        "numa mem -p 1 -t 2 -P 8 -l 1"; do
        runuser -u nobody -- env ASAN_OPTIONS=detect_leaks=0 bash -c 'ulimit -u 1 && exec "$@"' _ \
            "$BIN" $args --json "$TMP/nobody/thr.json" >"$TMP/nobody/thr.out" 2>"$TMP/nobody/thr.err"; rc=$?
        check "as user nobody with ulimit -u 1: membench $args: exit 1, one line says the threads cannot be created and why, JSON records it" \
            bash -c "[ $rc -eq 1 ] && [ \$(grep -vc ': warning: ' '$TMP/nobody/thr.err') -eq 1 ] &&
                grep -qE '^membench( [a-z0-9-]+)*: error: cannot create the worker (threads?|processes)[ :].*Resource temporarily unavailable \(a limit on processes, ulimit -u' '$TMP/nobody/thr.err' &&
                python3 -c \"import json,sys; d=json.load(open('$TMP/nobody/thr.json')); e=[l.split(': error: ',1)[1].rstrip() for l in open('$TMP/nobody/thr.err') if ': error: ' in l]; sys.exit(0 if d['errors'] == e and d['exit_status'] == 1 and d['complete'] is False and d['stopped_by'] == 'error' and d['results'] == [] else 1)\""
    done; fi
else
    echo "# skipped: unprivileged tests need root, runuser and a binary user nobody can run"
fi

# /proc/self/smaps unreadable (empty: /dev/null bound over it in a private mount
# namespace; exec keeps the pid): huge pages asked for are said to be unverified,
# once, and JSON gives no share rather than a made-up one.
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
    no_smaps() { unshare -m sh -c 'mount --bind /dev/null /proc/$$/smaps && exec "$@"' sh "$@"; }
    no_smaps "$BIN" -H -s 8192 -o read -o copy "${QUICK[@]}" --json "$TMP/nosmaps.json" >"$TMP/out" 2>"$TMP/err"; rc=$?
    check "smaps unreadable: -H says once that huge pages could not be verified" \
        bash -c "[ $rc -eq 0 ] && [ \$(grep -c 'could not be verified (/proc/self/smaps unreadable)' '$TMP/err') -eq 1 ]"
    check "smaps unreadable: JSON huge_coverage is null for the result and every buffer" \
        python3 -c "import json,sys; r=json.load(open('$TMP/nosmaps.json'))['results']; sys.exit(0 if len(r) == 2 and all(x['pages']['huge_coverage'] is None and all(g['huge_coverage'] is None for g in x['pages']['buffers']) for x in r) else 1)"
    no_smaps "$BIN" stream -n 2000000 --ntimes 2 -H >"$TMP/out" 2>"$TMP/err"; rc=$?
    check "smaps unreadable: stream -H says so too" \
        bash -c "[ $rc -eq 0 ] && grep -q 'could not be verified (/proc/self/smaps unreadable)' '$TMP/err'"
    no_smaps "$BIN" -s 8192 -o read "${QUICK[@]}" >"$TMP/out" 2>"$TMP/err"
    check "smaps unreadable: nothing said when huge pages were not asked for" \
        bash -c "! grep -q 'smaps' '$TMP/err'"
else
    echo "# skipped: unreadable-smaps tests need root and unshare -m"
fi

# A small stack (ulimit -s 64: the main thread's and, by glibc's default, each
# worker's): the memory budget kept about 60 KiB of paths on the stack and every
# measuring mode died of SIGSEGV; now each measures and exits 0.
for args in "-s 16 -o read -o latency ${QUICK[*]}" "stream -n 100000 --ntimes 2" "latency --min 4K --max 64K --sample-ms 1"; do
    # shellcheck disable=SC2086
    bash -c 'ulimit -s 64 && exec "$@"' _ "$BIN" $args >"$TMP/stack.out" 2>"$TMP/stack.err"; rc=$?
    check "ulimit -s 64: membench $args measures, exit 0 (rc=$rc)" \
        bash -c "[ $rc -eq 0 ] && [ -s '$TMP/stack.out' ]"
done

# A memory budget that cannot be read (ulimit -n 3 with a static build, a hidden
# /proc/meminfo) is one error line naming the file and why, exit 1, in every mode:
# never "needs 0 MiB ... only 0 MiB can be allocated". A private mount namespace puts
# an empty file (no MemAvailable line) or, for user nobody, an unreadable one there.
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
    : >"$TMP/meminfo-empty"
    : >"$TMP/meminfo-000" && chmod 000 "$TMP/meminfo-000"
    over_meminfo() { unshare -m sh -c 'mount --bind "$0" /proc/meminfo && exec "$@"' "$@"; }
    budget_error() { # rc file needle
        [ "$1" -eq 1 ] && [ ! -s "$TMP/mi.out" ] && [ "$(wc -l <"$2")" -eq 1 ] &&
            grep -qE "^membench( [a-z0-9-]+)?: error: the memory budget is unknown, so nothing is allocated: $3\$" "$2"
    }
    for args in "-s 64 -o read" "-o read" "latency" "latency-matrix" "stream"; do
        # shellcheck disable=SC2086
        over_meminfo "$TMP/meminfo-empty" "$BIN" $args >"$TMP/mi.out" 2>"$TMP/mi.err"; rc=$?
        check "/proc/meminfo without MemAvailable: membench $args says so in one line, exit 1" \
            budget_error $rc "$TMP/mi.err" '/proc/meminfo has no MemAvailable line \(Linux 3\.14 or later has it\)'
    done
    if command -v runuser >/dev/null && runuser -u nobody -- test -x "$BIN" 2>/dev/null; then
        over_meminfo "$TMP/meminfo-000" runuser -u nobody -- "$BIN" -s 64 -o read >"$TMP/mi.out" 2>"$TMP/mi.err"; rc=$?
        check "/proc/meminfo unreadable (user nobody): one line naming the file and the reason, exit 1" \
            budget_error $rc "$TMP/mi.err" 'cannot read /proc/meminfo \(Permission denied\)'
    fi
    # An absurd MemAvailable is clamped to MemTotal with a warning: 2^64-1 kB made -f
    # plan sizes without end (100% CPU, -t ignored); 2^55 kB wrapped the budget to 0.
    for kb in 18446744073709551615 36028797018963968; do
        printf 'MemTotal:        1048576 kB\nMemFree:          524288 kB\nMemAvailable:   %s kB\n' $kb >"$TMP/meminfo-absurd"
        over_meminfo "$TMP/meminfo-absurd" timeout 120 "$BIN" -f -o read -r 1 --sample-ms 1 -t 5 --json "$TMP/mi.json" \
            >"$TMP/mi.out" 2>"$TMP/mi.err"; rc=$?
        # (a warning of kind memory_budget: in JSON and -v, not on a newcomer's terminal)
        check "/proc/meminfo with MemAvailable $kb kB: -f measures within -t, exit 0, one warning clamping it to MemTotal" \
            bash -c "[ $rc -eq 0 ] && ! grep -q 'MemAvailable is more' '$TMP/mi.err' &&
                python3 -c \"import json,sys; d=json.load(open('$TMP/mi.json')); w=[w for w, k in zip(d['warnings'], d['warning_kinds']) if k == 'memory_budget']; sys.exit(0 if d['results'] and max(r['size_kb'] for r in d['results']) <= 1024 * 1024 and len(w) == 1 and 'MemAvailable is more than the machine has: taken as 1024 MiB (its MemTotal)' in w[0] else 1)\""
    done
    # where the cgroup limits are cannot be read: the limits are unknown, so is the budget
    # (setpriv keeps the process whose /proc/PID/cgroup is hidden)
    if command -v setpriv >/dev/null && setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$BIN" 2>/dev/null; then
        unshare -m sh -c 'mount --bind "$0" /proc/$$/cgroup && exec setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"' \
            "$TMP/meminfo-000" "$BIN" stream >"$TMP/mi.out" 2>"$TMP/mi.err"; rc=$?
        check "/proc/self/cgroup unreadable (user nobody): one line naming the file and the reason, exit 1" \
            budget_error $rc "$TMP/mi.err" 'cannot read /proc/self/cgroup \(Permission denied\)'
    fi
else
    echo "# skipped: hiding /proc/meminfo needs root and unshare -m"
fi

# SIGTERM in the middle of a long STREAM run: the table so far and JSON marked incomplete.
rm -f "$TMP/sts.json"
"$BIN" stream -n 4000000 --ntimes 1000 --json "$TMP/sts.json" >"$TMP/sts.out" 2>"$TMP/sts.err" &
pid=$!
wait_started "$TMP/sts.json"
sleep 1.5
stop_with TERM $pid
check "stream SIGTERM exits 143 with valid, incomplete JSON" \
    bash -c "[ '$STOP_RC' = 143 ] && python3 -c \"import json,sys; d=json.load(open('$TMP/sts.json')); sys.exit(0 if d['complete'] is False and d['stopped_by']=='SIGTERM' else 1)\""

# Each mode's stderr says its JSON's warnings grouped by kind (stream and latency once
# wrote "warnings": [] whatever they printed).
warnings_match() {
    python3 "$(dirname "$0")/check_warnings.py" --grouped "$1" "$2"
}
check "stream: stderr says the JSON's warnings by kind" warnings_match "$TMP/st.json" "$TMP/st.err"
check "latency: stderr says the JSON's warnings by kind" warnings_match "$TMP/lat.json" "$TMP/lat.err"
check "latency-matrix: stderr says the JSON's warnings by kind" warnings_match "$TMP/lm.json" "$TMP/lm.err"

# Every mode loads the topology through the same session, CPUID cross-check
# included (stream once skipped it): the same topology warnings in each JSON, and
# each in the run's own warnings.
check "sweep, latency and stream see the same topology and its warnings" \
    python3 -c "
import json, sys
docs = [json.load(open('$TMP/' + f)) for f in ('run.json', 'lat.json', 'st.json')]
tw = [d['topology']['warnings'] for d in docs]
sys.exit(0 if tw[0] == tw[1] == tw[2] and all(set(t) <= set(d['warnings']) for t, d in zip(tw, docs))
         and docs[0]['topology']['levels_used'] == docs[2]['topology']['levels_used'] else 1)"

# --- kernels come from the tables ---------------------------------------------------
# The ISAs --kernel names in its refusal, in each mode's --help and in --list-kernels
# are one list; every row --list-kernels prints names a usable ISA or says "no".
"$BIN" --list-kernels >"$TMP/kl.out" 2>&1; rc=$?
refused=$("$BIN" --kernel bogus 2>&1 | sed -n "s/.*(use \(.*\))$/\1/p")
check "--list-kernels exits 0 with a row per kernel and the ISA table" \
    bash -c "[ $rc -eq 0 ] && grep -qE '^sweep +read +c +loads +1 +0 +8 ' '$TMP/kl.out' && grep -qE '^stream +triad +c +regular +2 +1 +24 ' '$TMP/kl.out' && grep -q '^ISAs, best first' '$TMP/kl.out'"
for mode in "" stream; do
    helped=$("$BIN" $mode --help | sed -n 's/^ *(\(.*\); see --list-kernels)$/\1/p')
    check "${mode:-sweep} --help lists the ISAs --kernel accepts ($helped)" test -n "$helped" -a "$helped" = "$refused"
done
listed=$(sed -n '/^ISAs, best first/,$p' "$TMP/kl.out" | awk 'NR>1 && !/not forcible/ {print $1}' | paste -sd, | sed 's/,/, /g')
check "--list-kernels lists the same forcible ISAs ($listed)" test "$listed" = "$refused"
usable=$(sed -n '/^ISAs, best first/,$p' "$TMP/kl.out" | awk 'NR>1 && $2=="yes" && !/not forcible/ {print $1}' | paste -sd,)
check "--list-kernels says this CPU runs what topology says ($usable)" bash -c "[ '$usable' = '$ISAS' ]"

# Every ISA the sweep's --kernel forces also runs STREAM (stream once refused sse2).
for isa in ${ISAS//,/ }; do
    "$BIN" stream -n 20000 --ntimes 2 --stores regular --kernel "$isa" --json "$TMP/sk.json" >/dev/null 2>&1; rc=$?
    check "stream --kernel $isa runs and validates with $isa kernels" \
        python3 -c "import json,sys; d=json.load(open('$TMP/sk.json')); r=d['results']; sys.exit(0 if $rc == 0 and len(r) == 4 and all(x['kernel']['isa'] == '$isa' and x['params']['validated'] for x in r) else 1)"
done
rm -f "$TMP/sk.json"

# --- build ------------------------------------------------------------------------
# A CFLAGS of the user's is added to the build's own flags, never replaces them.
if command -v make >/dev/null; then
    line=$(make -s -n -B -C "$(dirname "$0")/../.." BUILD=build-flags-test CFLAGS=-march=native \
        build-flags-test/src/main.o 2>/dev/null | grep -- ' -c ')
    has_flags() { for f in -std=c11 -Isrc -Werror "-march=native -MMD"; do [[ "$line" == *" $f "* ]] || return 1; done; }
    check "make CFLAGS=-march=native keeps -std=c11, -Isrc and the warnings, and adds it last" has_flags
fi

# --- traffic modes: peak-bandwidth, loaded-latency ----------------------------------
# A helper script's TAP lines, counted as this script's; a helper that stops short
# (a traceback) fails too.
tap_from() {
    local dir=$HELPERS_DIR
    if [ -z "${HELPERS_PID:-}" ] || [[ " $HELPERS " != *" $1 "* ]]; then
        [ -z "${HELPERS_PID:-}" ] || wait "$HELPERS_PID" 2>/dev/null # alone: the job's helpers ended
        dir=$TMP/helpers-serial
        run_helper "$1" "$dir"
    fi
    # the background job ends after its last helper: no status file then is a died job
    while [ ! -e "$dir/$1.rc" ] && kill -0 "$HELPERS_PID" 2>/dev/null; do sleep 0.2; done
    local rc
    rc=$(cat "$dir/$1.rc" 2>/dev/null) || rc="none (its runner died)"
    while IFS= read -r line; do
        case "$line" in
        "ok - "*) ok "${line#ok - }" ;;
        "not ok - "*) not_ok "${line#not ok - }" ;;
        *) echo "$line" ;;
        esac
    done <"$dir/$1.out"
    check "$1 ran every check and all passed (exit $rc)" test "$rc" = 0
}
tap_from check_traffic.py

# --- --plan on recorded large machines and on this one (issue 38) --------------------
tap_from check_plan.py

# --- the sweep's rounds, --target-ci and --max-time (issue 14) ----------------------
tap_from check_rounds.py

# --- membench latency's rounds, --target-ci and --max-time (issue 14) ----------------
tap_from check_latency_rounds.py

# --- the two named latencies: TLB-local headline, full random beside it (issue 34) ----
tap_from check_latency_patterns.py

# --- the headline every text run ends with, against its JSON (issue 46) -------------
tap_from check_headline.py

# --- c2c: the reader gets the writer's modified lines, the figure is the transfer ----
if [ "$NCPU" -ge 2 ]; then
    tap_from check_c2c.py
fi

# --- warnings grouped by kind on the terminal, -v and JSON each; the progress line ---
tap_from check_warnings.py

# --- mlc: MLC's command line and layout on the native modes -------------------------
tap_from check_mlc.py

# --- numa mem: perf bench numa mem, its layouts, faults, suite, and perf itself ---------
tap_from check_numa_mem.py

# --- a root run never writes a file another user chose: planted links, sticky and group directories
tap_from check_file_safety.sh

# --- compare: two runs' JSON figure by figure, the CI gate, bad files -----------------
tap_from check_compare.py
# --- --openmetrics: promtool, the JSON's values in base units, escaping, Ctrl-C, bad paths
tap_from check_openmetrics.py
# --- completions: the bash, zsh and fish scripts against every mode's --help, and completing
tap_from check_completions.py
# --- a newcomer: README.md's Common tasks table, each command in a short form ---------
tap_from check_newcomer.py

# --- documentation ----------------------------------------------------------------
# README.md is short and task-first; docs/ has a page per mode or topic. Every relative
# link (and #anchor) must resolve, every mode --help lists must have a page the README's
# mode table links to, and --help is generated from each mode's option table: every
# flag it shows must be in README.md + docs/*.md and in the man page.
ROOT=$(dirname "$0")/../..
# docs_check KIND TEXT: one check_docs.py check as one TAP line, its problems below it.
docs_check() {
    local out rc
    out=$(python3 "$(dirname "$0")/check_docs.py" --check "$1" "$BIN" "$ROOT/README.md" "$ROOT/docs" "$ROOT/man/membench.1" 2>&1)
    rc=$?
    check "$2" test $rc -eq 0
    echo "$out" | grep -v '^#' | head -10 | sed 's/^/    /'
}
docs_check links "every relative link of README.md, docs/*.md and BENCHMARKS.md names a file and heading that exist"
docs_check modes "every mode of --help has a row in README.md's mode table linking to its docs/ page"
docs_check flags "every flag of every mode's --help is in README.md + docs/ and the man page"
docs_check licence "every source file says SPDX-License-Identifier: MIT (LICENSE's licence) in its first lines"
# The navigation check itself, on a copy: a page without its link back to README.md,
# and one README.md does not link, must each be named.
nav=$(mktemp -d)
cp -r "$ROOT/README.md" "$ROOT/docs" "$nav/"
sed -i '/^Back to the \[README\](..\/README.md)/d' "$nav/docs/kernels.md"
printf '# Orphan\n\nBack to the [README](../README.md).\n' >"$nav/docs/orphan.md"
nav_out=$(python3 "$(dirname "$0")/check_docs.py" --check links "$BIN" "$nav/README.md" "$nav/docs" "$ROOT/man/membench.1" 2>&1)
check "the docs check names a page with no link back to README.md and one README.md never links" \
    bash -c 'grep -qx "docs/kernels.md: no link back to README.md" <<<"$1" && grep -qx "docs/orphan.md: README.md never links to it" <<<"$1"' _ "$nav_out"
rm -rf "$nav"

layers_out=$(python3 "$(dirname "$0")/check_layers.py" "$ROOT/src" 2>&1)
check "includes point down the layers README draws (modes > cli, output > measure > core ...), no files call each other round a circle" test $? -eq 0
echo "$layers_out" | head -10 | sed 's/^/    /'
circle=$(mktemp -d)
mkdir -p "$circle/src/topology"
printf 'void a_one(void)\n{\n    b_two();\n}\n' >"$circle/src/topology/a.c"
printf 'void b_two(void)\n{\n    a_one();\n}\n' >"$circle/src/topology/b.c"
circle_out=$(python3 "$(dirname "$0")/check_layers.py" "$circle/src" 2>&1)
check "the layer check names two files that call each other" \
    bash -c 'grep -qx "files that call each other round a circle: topology/a.c <-> topology/b.c" <<<"$1"' _ "$circle_out"
rm -rf "$circle"

# --- schema 2 -------------------------------------------------------------------
# Every JSON document written above (each mode; complete, interrupted, time-limited)
# against schema/membench-run.schema.json and what it promises beyond the schema.
SCHEMA=$(dirname "$0")/../../schema/membench-run.schema.json
CHECK_SCHEMA=$(dirname "$0")/check_schema.py
python3 "$CHECK_SCHEMA" "$SCHEMA" run /dev/null >/dev/null 2>&1
if [ $? -ne 3 ]; then
    mapfile -t docs < <(find "$TMP" -name '*.json' ! -name 'topo*.json' | sort)
    doc_modes=$(python3 -c "import json,sys; print('\n'.join(str(json.load(open(f)).get('mode')) for f in sys.argv[1:]))" "${docs[@]}")
    for mode in $ALL_MODES; do
        [ "$mode" = topology ] && continue # its --json is the topology object, checked below
        [ "$mode" = compare ] && continue  # measures nothing; its --json is no run (check_compare.py)
        [ "$mode" = completions ] && continue # writes shell scripts, no JSON
        [ "$mode" = report ] && continue   # measures nothing and writes no JSON (make check-report)
        n=$(grep -cx "$mode" <<<"$doc_modes")
        check "schema 2: the tests above wrote $mode documents ($n)" test "$n" -ge 2
    done
    # one checker for every document (one each took minutes under load): its lines
    # start with the file's name, and each file's own check says them
    all_out=$(python3 "$CHECK_SCHEMA" "$SCHEMA" run "${docs[@]}" 2>&1); all_rc=$?
    named=0
    for f in "${docs[@]}"; do
        out=$(awk -v p="$f: " 'index($0, p) == 1' <<<"$all_out")
        check "schema 2: ${f#$TMP/} is valid" test -z "$out"
        [ -n "$out" ] && named=1 && echo "$out" | head -5 | sed 's/^/    /'
    done
    # a checker that failed naming no file (a traceback) fails too
    check "schema 2: the checker of all ${#docs[@]} documents exits 0, or names the file of each problem" \
        test $all_rc -eq 0 -o $named -eq 1
    [ $all_rc -eq 0 ] || [ $named -eq 1 ] || echo "$all_out" | tail -5 | sed 's/^/    /'
    check "schema 2: topology --json is the schema's topology object" \
        python3 "$CHECK_SCHEMA" "$SCHEMA" topology "$TMP/topo.json"
    check "schema 2: planted defects in a valid document are refused" \
        python3 "$CHECK_SCHEMA" "$SCHEMA" self-test "$TMP/run.json"
elif [ "${CI:-}" = true ]; then
    not_ok "schema 2: python3-jsonschema is not installed (.ci/run installs it)"
else
    echo "# skipped: schema checks need python3-jsonschema (apt-get install python3-jsonschema)"
fi

# --- kernels are explicit -----------------------------------------------------
# Any relocation against memcpy/memset/memmove in a kernel object is a call into libc
# (only the libc kernel may have one). KERNEL_OBJDIR and OBJDUMP are set for cross builds.
# ./membench keeps its objects in build/; make check-asan's build-asan/membench in build-asan/.
OBJDIR=${KERNEL_OBJDIR:-$(dirname "$BIN")/build/src/kernels}
[ -d "$OBJDIR" ] || OBJDIR=$(dirname "$BIN")/src/kernels
OBJDUMP=${OBJDUMP:-objdump}
if [ -d "$OBJDIR" ] && command -v "$OBJDUMP" >/dev/null; then
    # The objects holding kernel loops: kernels_<arch>.o (the sweep's and STREAM's)
    # and chase.o. The registry and stream_kernels.o (sets, arguments) hold no loops
    # and may copy structs with memcpy.
    objs=$(ls "$OBJDIR"/kernels_*.o "$OBJDIR"/chase.o | grep -v kernels_libc.o)
    calls=$("$OBJDUMP" -r $objs | grep -cE '\b(memcpy|memset|memmove)\b')
    check "no kernel except memcpy calls libc memcpy/memset ($(echo $objs | wc -w) objects)" test "$calls" -eq 0
else
    echo "# skipped: kernel objects not found in $OBJDIR (set KERNEL_OBJDIR)"
fi

echo "cli: $PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
