#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Which of a latency run's intervals hold the other runs' medians (issue 45 item 4)?

  bench/latency_intervals.py RUN.json RUN.json ...   (two or more membench latency
  --json documents of one command on one host, each from its own process)

For the DRAM point (the largest size) of each run, its headline (TLB-local) figure and
its full random one: how many of the other runs' medians lie within the run's
median interval (summary.median_interval: this run's median, 75% from 3 round
batches), within its samples' whole range, and within its host interval
(summary.host_interval: the median interval widened by the host probe's variation).
Prints, per figure, the median and the lowest share over the runs, and the runs'
medians. Made with:

  for i in $(seq 1 10); do flock -x /tmp/bench.lock ./membench latency --json /tmp/li$i.json >/dev/null 2>&1; done
  bench/latency_intervals.py /tmp/li*.json
"""
import json
import statistics
import sys


def dram_point(doc):
    """The record of the largest size."""
    return max(doc["results"], key=lambda r: r["size_bytes"])


def figures(path):
    """{"headline": (summary, samples), "full random": (summary, samples)} of one run."""
    r = dram_point(json.load(open(path)))
    out = {"headline": (r["summary"], r["samples"])}
    rc = r.get("random_chase") or {}
    if rc.get("samples"):
        out["full random"] = (rc["summary"], rc["samples"])
    return out


def holds(lo, hi, medians):
    return sum(lo <= m <= hi for m in medians) / len(medians)


def main(paths):
    if len(paths) < 2:
        sys.exit("usage: latency_intervals.py RUN.json RUN.json ...")
    runs = [figures(p) for p in paths]
    for name in ("headline", "full random"):
        have = [r[name] for r in runs if name in r]
        if len(have) < 2:
            continue
        medians = [s["median"] for s, _ in have]
        shares = {"median interval": [], "sample range": [], "host interval": []}
        for k, (s, samples) in enumerate(have):
            others = medians[:k] + medians[k + 1:]
            mi = s.get("median_interval") or {}
            hi = s.get("host_interval") or {}
            if "low" in mi:
                shares["median interval"].append(holds(mi["low"], mi["high"], others))
            shares["sample range"].append(holds(min(samples), max(samples), others))
            if hi.get("low") is not None:
                shares["host interval"].append(holds(hi["low"], hi["high"], others))
        print("%s, %d runs; medians %s" % (name, len(have), " ".join("%.1f" % m for m in medians)))
        for kind, got in shares.items():
            if got:
                print("  %-16s holds the other runs' medians: median %.0f%%, lowest %.0f%%, >= 80%% in %d of %d runs"
                      % (kind, 100 * statistics.median(got), 100 * min(got), sum(g >= 0.8 for g in got), len(got)))


if __name__ == "__main__":
    main(sys.argv[1:])
