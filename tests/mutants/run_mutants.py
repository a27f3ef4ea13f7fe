#!/usr/bin/env python3
"""make check-mutants: plants one bug at a time in a scratch copy of the tree and
expects the named suite to fail on it. A planted bug that the suite lets through
("survived") means a promise no test holds; the run fails then, and also when a
mutation no longer applies (the code it plants into changed: update the list).

  run_mutants.py [NAME-SUBSTRING]     all mutants, or those whose name contains it

Each mutant: (name, file, the exact text replaced, its replacement, suite). Suites:
  unit    the unit tests (build/membench-tests)
  schema  a small sweep, latency and stream run checked by tests/cli/check_schema.py
Prints one line per mutant and the kill count; exit 0 only when every one is killed."""
import os
import shutil
import subprocess
import sys
import tempfile

MUTANTS = [
    ("sweep bandwidth over the fastest thread's time, not the sample's span",
     "src/measure/bandwidth.c", "return n > 0 ? last - first : 0;", "return n > 0 ? lo : 0;", "unit"),
    ("STREAM rate from the fastest thread of each iteration",
     "src/measure/stream_run.c", "if (c.times[i][f][k] > slowest)", "if (c.times[i][f][k] < slowest || !i)", "unit"),
    ("latency reported as the mean, not the median",
     "src/core/result.c", "r->metric == METRIC_LATENCY ? r->summary.median", "r->metric == METRIC_LATENCY ? r->summary.mean",
     "schema"),
    ("median interval one order statistic too narrow",
     "src/util/stats.c", "s->median_low = sorted[j - 1];", "s->median_low = sorted[j];", "unit"),
    ("median interval coverage without the factor 2",
     "src/util/stats.c", "s->median_level = 1 - 2 * below;", "s->median_level = 1 - below;", "unit"),
    ("host noise: the full 10th-90th range instead of half of it",
     "src/measure/noise_probe.c", "/ (2 * v.median_s);", "/ v.median_s;", "unit"),
    ("steal read from the wrong /proc/stat column",
     "src/measure/host_load.c", "*steal = v[7];", "*steal = v[6];", "unit"),
    ("latency step accepted although the intervals overlap",
     "src/measure/cache_estimate.c", "bool apart = p[i].low > p[base].high;", "bool apart = true;", "unit"),
    ("copy kernel stores one vector twice",
     "src/kernels/kernel_body.h", "KB_STORE(d + i + 2, v2);", "KB_STORE(d + i + 2, v1); (void)v2;", "unit"),
    ("an error message quoting a document keeps its newlines",
     "src/util/one_line.c", "*p = '?';", "(void)p;", "unit"),
    ("bandwidth verification skipped",
     "src/measure/bandwidth.c", "team_run(t, job_verify, &c);", "(void)job_verify;", "unit"),
    ("sweep rounds done point by point (each round visits only the first point still wanting samples)",
     "src/plan/round_schedule.c", "            visit[k++] = i;", "            { visit[k++] = i; break; }", "unit"),
    ("--target-ci check inverted (points within the target measured again, wide ones left)",
     "src/plan/round_schedule.c", "return target > 0 && !round_point_within(p, target);",
     "return target > 0 && round_point_within(p, target);", "unit"),
    ("sample end times reversed (ends measured from the wrong side of the origin)",
     "src/core/result.c", "r->sample_times[i] = ends[i] - origin;", "r->sample_times[i] = origin - ends[i];", "schema"),
]

SCHEMA_RUNS = [
    ["-s", "128", "-o", "read", "-o", "latency", "-r", "3", "--sample-ms", "1", "--latency-sample-ms", "1"],
    ["latency", "--min", "4K", "--max", "64K", "--sample-ms", "1"],
    ["stream", "-n", "200000", "--ntimes", "3"],
]


def run(cmd, cwd, **kw):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def suite_fails(suite, tree):
    """True when the suite fails (the planted bug is caught)."""
    if suite == "unit":
        return run(["./build/membench-tests"], tree).returncode != 0
    if suite == "schema":
        docs = []
        for i, args in enumerate(SCHEMA_RUNS):
            doc = os.path.join(tree, "mutant-%d.json" % i)
            run(["./membench"] + args + ["--json", doc], tree)
            docs.append(doc)
        check = run([sys.executable, "tests/cli/check_schema.py", "schema/membench-run.schema.json", "run"] + docs,
                    tree)
        return check.returncode != 0
    raise SystemExit("unknown suite " + suite)


def main():
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tree = tempfile.mkdtemp(prefix="membench-mutants-")
    try:
        files = run(["git", "ls-files"], src).stdout.split()
        for f in files:
            os.makedirs(os.path.join(tree, os.path.dirname(f)), exist_ok=True)
            shutil.copy2(os.path.join(src, f), os.path.join(tree, f))
        build = run(["make", "-s", "-j2", "membench", "build/membench-tests"], tree)
        if build.returncode != 0:
            print(build.stdout)
            raise SystemExit("check-mutants: the unmutated tree does not build")
        for suite in ("unit", "schema"):
            if suite_fails(suite, tree):
                raise SystemExit("check-mutants: the %s suite fails without any mutation" % suite)
        killed, survived, stale = 0, [], []
        chosen = [m for m in MUTANTS if only in m[0]]
        for name, path, old, new, suite in chosen:
            full = os.path.join(tree, path)
            original = open(full).read()
            if original.count(old) != 1:
                stale.append(name)
                print("STALE    %s (%s: the text to replace is not there once)" % (name, path))
                continue
            open(full, "w").write(original.replace(old, new))
            try:
                built = run(["make", "-s", "-j2", "membench", "build/membench-tests"], tree).returncode == 0
                caught = not built or suite_fails(suite, tree)  # a mutant that does not build is no test
            finally:
                open(full, "w").write(original)
                os.utime(full)  # newer than the mutant's objects: rebuilt next time
            if not built:
                stale.append(name)
                print("STALE    %s (does not build)" % name)
            elif caught:
                killed += 1
                print("killed   %s [%s]" % (name, suite))
            else:
                survived.append(name)
                print("SURVIVED %s [%s]" % (name, suite))
        print("check-mutants: %d of %d planted bugs killed%s%s" % (
            killed, len(chosen), ", %d survived" % len(survived) if survived else "",
            ", %d stale" % len(stale) if stale else ""))
        return 0 if killed == len(chosen) else 1
    finally:
        shutil.rmtree(tree, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
