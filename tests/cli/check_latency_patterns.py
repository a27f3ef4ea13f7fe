#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Command-line checks of the two named latencies (issue 34): the headline chased in
multichase's order (random within 256 KiB groups, one line of every 256 bytes a
pass: no page walks) and, beside the DRAM point, the full random chase (page walks
included), in the table, CSV and JSON of latency, the sweep and latency-matrix.
What each record says it chased, never a timing. Prints TAP lines for
run_cli_tests.sh.

  check_latency_patterns.py MEMBENCH TMPDIR"""
import csv
import io
import json
import os
import re
import subprocess
import sys

from round_records import check, results, run_json

BIN, TMP = sys.argv[1:3]
GROUP, SPREAD = 256 * 1024, 4
QUICK = ["--sample-ms", "1", "--rounds", "1"]


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def random_of(r):
    return r.get("random_chase") or {}


# --- membench latency: the curve TLB-local, the largest point also fully random ------
p, d = run_json([BIN, "latency", "--min", "128K", "--max", "1M", "--points-per-octave", "1"] + QUICK, TMP, "lat")
recs = d["results"] if d else []
check("latency exits 0 with a record per size (128K, 256K, 512K, 1M)",
      p.returncode == 0 and [r["size_bytes"] for r in recs] == [128 << 10, 256 << 10, 512 << 10, 1 << 20], p.stderr)
check("latency: every size chased TLB-locally, groups of 256 KiB (the buffer when smaller), spread 4",
      recs and all(r["params"].get("chase_order") == "tlb-local" and r["params"].get("chase_spread") == SPREAD and
                   r["params"].get("chase_group_bytes") == min(GROUP, r["size_bytes"]) for r in recs),
      [(r["size_bytes"], r["params"].get("chase_order"), r["params"].get("chase_group_bytes")) for r in recs])
check("latency: the plan names the order", d and "TLB-local" in d["plan"].get("method", ""), d and d["plan"])
last = recs[-1] if recs else {}
rc = random_of(last)
check("latency: the largest size's full random chase is measured, its chain linked, its own samples",
      rc.get("state") == "measured" and last["params"].get("random_chain_builds", 0) >= 1 and
      last["params"].get("random_chase_order") == "random" and
      len(rc.get("samples", [])) >= 7 and rc["samples"] != last["samples"] and
      rc["summary"]["n"] == len(rc["samples"]), rc)
check("latency: only the largest size has a random_chase (the DRAM point)",
      recs and all("random_chase" not in r for r in recs[:-1]), [r.get("random_chase") for r in recs])

p, d = run_json([BIN, "latency", "--min", "512K", "--max", "1M", "--points-per-octave", "1", "--sample-ms", "1",
                 "--rounds", "3"], TMP, "latkept")
last = d["results"][-1] if d and d["results"] else {}
check("latency: over 3 rounds the chains stay linked (both of the largest size's): one build each",
      p.returncode == 0 and last.get("params", {}).get("rounds", 0) >= 3 and last["params"].get("chain_builds") == 1 and
      last["params"].get("random_chain_builds") == 1 and all(row.get("chain_kept") for row in d["plan"]["sizes"]),
      last.get("params"))

# --- latency's time budget: the default sample shortened to fit, a given one kept ---
FIT = [BIN, "latency", "--min", "64K", "--max", "2M", "--points-per-octave", "1"]
fits = {}
for name, extra in (("fit", ["--time-budget", "1"]), ("floor", ["--time-budget", "0.01"]),
                    ("given", ["--time-budget", "0.01", "--sample-ms", "20"]), ("nobudget", ["--time-budget", "0"])):
    p, d = run_json(FIT + extra, TMP, "lat" + name)
    plan = d["plan"] if d else {}
    ms = [r["params"].get("sample_ms") for r in (d["results"] if d else [])]
    fits[name] = (p.returncode, plan, ms)
rc, plan, ms = fits["fit"]
asked = float(re.match(r"[0-9.]+", plan.get("timing", "x") or "x").group(0)) if re.match(r"[0-9.]+", plan.get("timing", "")) else 0
check("latency --time-budget 1: the 20 ms default shortened so the plan's estimate fits, each size sampled that long",
      rc == 0 and plan.get("sample_ms_default") == 20 and "sample_fit" in plan and 5 < asked < 20 and
      plan.get("estimate_s", 99) <= 1 + 1e-6 and len(ms) == 6 and all(abs(m - asked) < 1e-3 for m in ms),
      (rc, plan.get("sample_fit"), plan.get("estimate_s"), asked, ms))
rc, plan, ms = fits["floor"]
check("latency --time-budget 0.01: the default sample no shorter than 5 ms",
      rc == 0 and "sample_fit" in plan and ms and all(m == 5 for m in ms), (rc, plan.get("sample_fit"), ms))
for name, what in (("given", "--sample-ms 20 given"), ("nobudget", "--time-budget 0")):
    rc, plan, ms = fits[name]
    check("latency, %s: the sample stays 20 ms" % what,
          rc == 0 and "sample_fit" not in plan and ms and all(m == 20 for m in ms), (rc, plan.get("sample_fit"), ms))

csv_json = os.path.join(TMP, "latcsv.json")
p = subprocess.run([BIN, "latency", "--min", "256K", "--max", "512K", "--points-per-octave", "1", "--csv",
                    "--json", csv_json] + QUICK, capture_output=True, text=True)
rows = csv_rows(p.stdout)
check("latency --csv: random_latency_ns after the other columns, filled at the largest size only",
      p.returncode == 0 and
      p.stdout.splitlines()[0].endswith(",huge_coverage,random_latency_ns,latency_best_ns,random_latency_best_ns") and
      len(rows) == 2 and rows[0]["random_latency_ns"] == "" and float(rows[1]["random_latency_ns"] or 0) > 0,
      p.stdout + p.stderr)
# the statistics named: latency_ns the median, latency_best_ns the lowest sample
# (multichase's statistic), each chase's own, as the JSON's summaries have them
recs = json.load(open(csv_json))["results"] if p.returncode == 0 else []


def close(text, value):
    return text != "" and abs(float(text) - value) <= 0.0005 + 1e-9 * value


check("latency --csv: latency_ns the median, latency_best_ns the lowest sample, random_latency_best_ns the full "
      "random chase's lowest (the JSON's summaries)",
      len(recs) == len(rows) == 2 and
      all(close(row["latency_ns"], r["summary"]["median"]) and close(row["latency_best_ns"], min(r["samples"]))
          for row, r in zip(rows, recs)) and
      rows[0]["random_latency_best_ns"] == "" and "random_chase" in recs[1] and
      close(rows[1]["random_latency_best_ns"], min(recs[1]["random_chase"]["samples"])) and
      close(rows[1]["random_latency_ns"], recs[1]["random_chase"]["summary"]["median"]),
      (rows, [(r["summary"], r.get("random_chase", {}).get("summary")) for r in recs]))

p = subprocess.run([BIN, "latency", "--min", "512K", "--max", "512K"] + QUICK, capture_output=True, text=True)
head = p.stdout.splitlines()
table = [l for l in head if l.startswith("512 KiB")]
check("latency table: 'Median' and 'Best' columns, and a 'Full random (page walks): median, interval, best' "
      "column with the DRAM point's figures in ns",
      p.returncode == 0 and
      any(re.match(r"Size +Median +Interval \(level\) +Best +Cycles .*Full random \(page walks\): median, interval, "
                   r"best$", l.rstrip()) for l in head) and table and
      re.match(r"512 KiB +\d+\.\d\d ns +\S+ \(\d+%\) +\d+\.\d\d ns ", table[0]) and
      re.search(r" \d+\.\d\d ns \S+ \(\d+%\), best \d+\.\d\d ns$", table[0].rstrip()), p.stdout)

p, d = run_json([BIN, "latency", "--min", "512K", "--max", "1M", "--full-random", "--points-per-octave", "1"] + QUICK,
                TMP, "latfull")
recs = d["results"] if d else []
check("latency --full-random: every size chased fully random, nothing beside it",
      p.returncode == 0 and recs and all(r["params"].get("chase_order") == "random" and "random_chase" not in r
                                         for r in recs), [(r["params"].get("chase_order"), r.get("random_chase"))
                                                          for r in recs])

p, d = run_json([BIN, "latency", "--min", "64K", "--max", "128K", "--points-per-octave", "1"] + QUICK, TMP, "latsmall")
last = d["results"][-1] if d and d["results"] else {}
check("latency: a largest size of one group is random over all of it: 'same', the headline's value",
      random_of(last).get("state") == "same" and random_of(last).get("value") == last.get("value"), last)

# --- the sweep: sc-membench's CSV, latency_ns its whole-buffer chase (issue 46) ---------
SC_MEMBENCH_HEADER = ("size_kb,operation,bandwidth_mb_s,latency_ns,latency_stddev_ns,latency_samples,threads,"
                      "iterations,elapsed_s")
p, d = run_json([BIN, "-o", "latency", "-s", "1024", "-r", "1", "--latency-sample-ms", "1"], TMP, "sweep")
rows = csv_rows(p.stdout)
r = d["results"][0] if d and d["results"] else {}
rc = random_of(r)
check("sweep: the CSV header is sc-membench's nine columns, nothing after them",
      p.returncode == 0 and p.stdout.splitlines()[0] == SC_MEMBENCH_HEADER, p.stdout + p.stderr)
check("sweep: the latency row's latency_ns, stddev and samples are the whole-buffer random chase's (JSON "
      "random_chase), not the TLB-local headline's",
      rows and r and r["params"].get("chase_order") == "tlb-local" and rc.get("state") == "measured" and
      r["params"].get("random_chase_order") == "random" and
      abs(float(rows[0]["latency_ns"]) - rc["value"]) < 0.006 and
      abs(float(rows[0]["latency_stddev_ns"]) - rc["summary"]["stddev"]) < 0.006 and
      int(rows[0]["latency_samples"]) == len(rc["samples"]) == int(rows[0]["iterations"]), (rows, rc))
p, d = run_json([BIN, "-o", "latency", "-o", "read", "-s", "1024", "-r", "1", "--latency-sample-ms", "1",
                 "--csv-columns", "membench"], TMP, "sweepcols")
rows = csv_rows(p.stdout)
lat = [x for x in rows if x["operation"] == "latency"]
r = next((x for x in d["results"] if x["operation"] == "latency"), {}) if d else {}
check("sweep --csv-columns membench: sc-membench's nine, then tlb_local_latency_ns and its stddev: the "
      "headline's (JSON value), latency_ns still the random chase's; empty on bandwidth rows",
      p.returncode == 0 and p.stdout.splitlines()[0] == SC_MEMBENCH_HEADER +
      ",tlb_local_latency_ns,tlb_local_latency_stddev_ns" and lat and r and
      abs(float(lat[0]["tlb_local_latency_ns"]) - r["value"]) < 0.006 and
      abs(float(lat[0]["tlb_local_latency_stddev_ns"]) - r["summary"]["stddev"]) < 0.006 and
      abs(float(lat[0]["latency_ns"]) - random_of(r)["value"]) < 0.006 and
      all(x["tlb_local_latency_ns"] == "" for x in rows if x["operation"] == "read"), (rows, p.stderr))
p, d = run_json([BIN, "-R", "-o", "read", "-s", "64", "-r", "1", "--sample-ms", "1", "--csv-columns", "membench"],
                TMP, "sweepRcols")
check("sweep -R --csv-columns membench: one option_ignored warning naming --csv-columns, the table unchanged",
      p.returncode == 0 and d and d["warning_kinds"].count("option_ignored") == 1 and
      "--csv-columns does nothing with -R" in p.stderr and "tlb_local" not in p.stdout, p.stderr)
p, d = run_json([BIN, "-o", "latency", "-s", "64", "-r", "1", "--latency-sample-ms", "1"], TMP, "sweep64")
rows = csv_rows(p.stdout)
r = d["results"][0] if d and d["results"] else {}
check("sweep: a 64 KB chain (one group) is random over all of it: 'same', latency_ns the record's own median",
      p.returncode == 0 and rows and r and random_of(r).get("state") == "same" and
      abs(float(rows[0]["latency_ns"]) - r["value"]) < 0.006, (rows, random_of(r)))

# --- latency-matrix (and so mlc --idle_latency): TLB-local unless --full-random -------
p, d = run_json([BIN, "latency-matrix", "--buffer", "2M", "--sample-ms", "1"], TMP, "matrix")
recs = d["results"] if d else []
check("latency-matrix: every cell chased TLB-locally over 256 KiB groups; the plan says so",
      p.returncode == 0 and recs and d["plan"].get("order") == "tlb-local" and d["plan"].get("group_bytes") == GROUP
      and all(r["params"].get("chase_order") == "tlb-local" for r in recs), (p.stderr, d and d["plan"].get("order")))
p, d = run_json([BIN, "latency-matrix", "--buffer", "2M", "--sample-ms", "1", "--full-random"], TMP, "matrixfull")
recs = d["results"] if d else []
check("latency-matrix --full-random: every cell chased fully random",
      p.returncode == 0 and recs and all(r["params"].get("chase_order") == "random" for r in recs), p.stderr)
p = subprocess.run([BIN, "latency-matrix", "--full-random", "--chase-range", "4096"], capture_output=True, text=True)
check("latency-matrix: --full-random with --chase-range is refused, exit 2, naming both",
      p.returncode == 2 and "--full-random" in p.stderr and "--chase-range 4096" in p.stderr, p.stderr)
p, d = run_json([BIN, "mlc", "--idle_latency", "-b", "2M", "-t", "0.05"], TMP, "mlcidle")
step = [r for r in (d["results"] if d else []) if r["metric"] == "latency"]
check("mlc --idle_latency: its chase is the TLB-local one",
      p.returncode == 0 and step and all(r["params"].get("chase_order") == "tlb-local" for r in step), p.stderr)
# --- the curve's time budget: rounds past --rounds only within it --------------------
p, d = run_json([BIN, "latency", "--min", "4K", "--max", "64K", "--rounds", "2", "--sample-ms", "0.1",
                 "--time-budget", "1e-9"], TMP, "budget")
recs = d["results"] if d else []
missed = [r for r in recs if not r["converged"]]
check("latency --time-budget 1e-9 --rounds 2: the two rounds, 8 samples a size, and a further round only if "
      "none missed its CV (time_budget_cut says so)",
      p.returncode == 0 and recs and d["plan"].get("rounds") == 2 and d["plan"].get("time_budget_s") == 1e-9 and
      all(len(r["samples"]) == 8 for r in recs) and d["plan"].get("time_budget_cut") is bool(missed),
      d and (d["plan"].get("rounds"), d["plan"].get("time_budget_cut"), [len(r["samples"]) for r in recs]))
p, d = run_json([BIN, "latency", "--min", "4K", "--max", "8K"] + QUICK, TMP, "budget-default")
check("latency: the default time budget is 15 s; none with --target-ci",
      p.returncode == 0 and d and d["plan"].get("time_budget_s") == 15, d and d["plan"].get("time_budget_s"))

# --- the modes agree: one buffer recipe whichever mode measures it -------------------
def recipe(r):
    """What decides a latency figure besides the host: buffer, chase, CPU, node, pages, rule."""
    p = r["params"]
    return (r["size_bytes"], p.get("chase_order"), p.get("chase_group_bytes"), p.get("chase_spread"),
            p.get("chase_node_bytes"), p.get("chase_seed"),
            [(t["cpu"], t["node"], t["memory_node"]) for t in r["placement"]], r["pages"]["method"],
            r["kernel"]["isa"], r["cv_target"], len(r["samples"]) >= 7)


p1, d1 = run_json([BIN, "latency", "--min", "2M", "--max", "2M", "--cpu", "0"] + QUICK, TMP, "same-lat")
p2, d2 = run_json([BIN, "latency-matrix", "--buffer", "2M", "--cpu", "0", "--sample-ms", "1"], TMP, "same-matrix")
p3, d3 = run_json([BIN, "mlc", "--idle_latency", "-b", "2M", "-c", "0", "-t", "0.05"], TMP, "same-mlc")
recs = [d["results"][0] if d and d["results"] else {} for d in (d1, d2, d3)]
check("latency, latency-matrix --cpu 0 and mlc --idle_latency chase one recipe at one size "
      "(buffer, order, group, node size, seed, CPU, node, pages, CV rule)",
      all(p.returncode == 0 for p in (p1, p2, p3)) and all(recs) and
      recipe(recs[0]) == recipe(recs[1]) == recipe(recs[2]), [recipe(r) if r else None for r in recs])

p, d = run_json([BIN, "loaded-latency", "-b", "4M", "--samples", "2", "--delays", "0"], TMP, "loaded")
check("loaded-latency: the chaser's order is the idle latency's (TLB-local), --chase-range's when given",
      p.returncode == 0 and d and d["plan"].get("chase_order") == "tlb-local" and
      d["plan"].get("chase_bytes", 1) % GROUP == 0, (p.stderr, d and d["plan"].get("chase_order")))

sys.exit(0 if all(results) else 1)
