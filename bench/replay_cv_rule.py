#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Replays the latency points of kept calibration runs under the CV rule's stop at a
shifted round (chase_last_round_shifted), to see what it changes before running it.

usage: bench/replay_cv_rule.py CALIB_DIR [CALIB_DIR ...]   (CALIB_DIR= of bench/calibration.sh)

For every default run's latency point, the samples are cut where the
rule would have stopped the rounds: at the first round after which the point had its
minimum of samples (7) and that round's samples (2 or more) all lay above every
earlier sample. A run recorded by a build with the rule is unchanged by
it. Printed per size, against the reference median (the pooled reference slices'):
the run-to-run spread (max - min) / median of the points' medians, their median and
largest error, and the mean sample count, as recorded and as replayed."""
import glob
import json
import os
import statistics
import sys

MIN_SAMPLES = 7


def rounds_of(r):
    by = {}
    for v, k in zip(r["samples"], r["sample_rounds"]):
        by.setdefault(k, []).append(v)
    return [by[k] for k in sorted(by)]


def shifted(rounds):
    last, earlier = rounds[-1], [x for rr in rounds[:-1] for x in rr]
    return len(last) >= 2 and bool(earlier) and min(last) > max(earlier)


def replayed(r):
    rounds = rounds_of(r)
    for k in range(1, len(rounds)):
        if sum(len(x) for x in rounds[:k]) >= MIN_SAMPLES and shifted(rounds[:k]):
            return [x for rr in rounds[:k] for x in rr]
    return list(r["samples"])


def figures(medians, ref):
    errors = [abs(m / ref - 1) * 100 for m in medians]
    spread = (max(medians) - min(medians)) / statistics.median(medians) * 100
    return "spread %5.1f%%  error median %4.1f%% max %5.1f%%" % (spread, statistics.median(errors), max(errors))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[2])
    for d in sys.argv[1:]:
        ref, runs = {}, {}
        for f in glob.glob(os.path.join(d, "reference-*.json")):
            for r in json.load(open(f))["results"]:
                if r["operation"] == "latency":
                    ref.setdefault(r["size_bytes"], []).extend(r["samples"])
        for f in glob.glob(os.path.join(d, "default-*.json")):
            for r in json.load(open(f))["results"]:
                if r["operation"] == "latency" and r["size_bytes"] in ref:
                    runs.setdefault(r["size_bytes"], []).append((r["samples"], replayed(r)))
        print(d)
        for size in sorted(runs):
            m = statistics.median(ref[size])
            now = [statistics.median(a) for a, _ in runs[size]]
            then = [statistics.median(b) for _, b in runs[size]]
            print("  %8d KiB ref %6.1f ns  recorded: %s  samples %4.1f | replayed: %s  samples %4.1f  (n=%d)" % (
                size >> 10, m, figures(now, m), statistics.mean(len(a) for a, _ in runs[size]), figures(then, m),
                statistics.mean(len(b) for _, b in runs[size]), len(runs[size])))


main()
