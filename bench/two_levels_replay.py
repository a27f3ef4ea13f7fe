#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Replays kept calibration runs (CALIB_DIR of bench/calibration.sh) under the
two-level rule of README "Uncertainty" (util/stats.c): which records split, and
whether widening a split point's host interval to its two levels' medians would
hold the reference median more often. Also the what-if of widening DRAM points
(past the L3 share) by the spread of their own round medians.

  bench/two_levels_replay.py CALIB_DIR [CALIB_DIR ...]"""
import glob
import json
import os
import statistics
import sys


def split(xs):
    s = sorted(xs)
    best = None
    for i in range(2, len(s) - 1):
        if s[i - 1] > 0 and (best is None or s[i] / s[i - 1] > best[0]):
            best = (s[i] / s[i - 1], i)
    if not best or best[0] < 1.5:
        return None
    i = best[1]
    return i, statistics.median(s[:i]), len(s) - i, statistics.median(s[i:])


def q(xs, f):
    s = sorted(xs)
    p = f * (len(s) - 1)
    i = int(p)
    return s[i] + (p - i) * (s[i + 1] - s[i]) if i + 1 < len(s) else s[-1]


def round_movement(doc):
    """Half the 10th-90th percentile range, in %, of DRAM points' round medians over their medians."""
    xs = []
    for r in doc["results"]:
        if r["size_bytes"] <= doc["plan"]["L3_share_bytes"]:
            continue
        by = {}
        for v, rd in zip(r["samples"], r.get("sample_rounds") or []):
            by.setdefault(rd, []).append(v)
        if len(by) < 2:
            continue
        m = r["summary"]["median"]
        xs += [statistics.median(v) / m if r["metric"] == "latency" else m / statistics.median(v) for v in by.values()]
    return 100 * (q(xs, 0.9) - q(xs, 0.1)) / 2 if len(xs) >= 5 else 0


for out in sys.argv[1:]:
    files = sorted(glob.glob(os.path.join(out, "default-*.json")) + glob.glob(os.path.join(out, "reference-*.json")))
    splits, records = {}, 0
    for f in files:
        for r in json.load(open(f))["results"]:
            records += 1
            sp = split(r["samples"])
            if sp:
                splits.setdefault((r["operation"], r["size_kb"]), []).append(sp)
    print("%s: %d records, %d split" % (out, records, sum(len(v) for v in splits.values())))
    for k in sorted(splits):
        print("  %-9s %8d KiB: %d" % (k[0], k[1], len(splits[k])))
    pooled = {}
    for f in glob.glob(os.path.join(out, "reference-*.json")):
        for r in json.load(open(f))["results"]:
            pooled.setdefault((r["operation"], r["size_kb"]), []).extend(r["samples"])
    ref = {k: statistics.median(v) for k, v in pooled.items()}
    held = held_levels = held_rounds = n = split_n = split_held = split_held_levels = 0
    for f in sorted(glob.glob(os.path.join(out, "default-*.json"))):
        doc = json.load(open(f))
        cpu = doc["host_noise"]["varied_pct"] or 0
        mem = round_movement(doc)
        for r in doc["results"]:
            k = (r["operation"], r["size_kb"])
            mi, m = r["summary"]["median_interval"], r["summary"]["median"]
            if k not in ref or not mi:
                continue
            lo, hi = mi["low"] - m * cpu / 100, mi["high"] + m * cpu / 100
            inside = lo <= ref[k] <= hi
            sp = split(r["samples"])
            levels = inside if not sp else min(lo, sp[1]) <= ref[k] <= max(hi, sp[3])
            w = max(cpu, mem) if r["size_bytes"] > doc["plan"]["L3_share_bytes"] else cpu
            rounds = mi["low"] - m * w / 100 <= ref[k] <= mi["high"] + m * w / 100
            n += 1
            held += inside
            held_levels += levels
            held_rounds += rounds
            if sp:
                split_n += 1
                split_held += inside
                split_held_levels += levels
    print("  default runs: host intervals held the reference %d of %d (%.1f%%); split points %d of %d, widened to "
          "their levels %d; DRAM points widened by their round medians' movement: %d (%.1f%%)" % (
              held, n, 100 * held / max(n, 1), split_held, split_n, split_held_levels, held_rounds,
              100 * held_rounds / max(n, 1)))
