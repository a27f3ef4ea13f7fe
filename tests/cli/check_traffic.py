#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Command-line checks of the traffic modes (peak-bandwidth, loaded-latency) on this
machine: what each record says it measured (which mix, which CPUs, which bytes,
which delay) and how the numbers relate. Prints TAP lines ("ok - ...") for
run_cli_tests.sh to count; never asserts a timing.

  check_traffic.py MEMBENCH TMPDIR"""
import json
import os
import statistics
import subprocess
import sys

from round_records import check, results

BIN, TMP = sys.argv[1:3]
QUICK = ["-b", "4M", "--window-ms", "5", "--samples", "2"]


def run(args, name, env=None):
    path = os.path.join(TMP, name + ".json")
    p = subprocess.run([BIN] + args + ["--json", path], capture_output=True, text=True, env=env)
    doc = json.load(open(path)) if os.path.exists(path) else None
    return p, doc


def usable_cpus():
    return sorted(os.sched_getaffinity(0))


cpus = usable_cpus()

# --- peak-bandwidth ---------------------------------------------------------------
p, d = run(["peak-bandwidth", "--traffic", "R,W5,W11", "--per-thread"] + QUICK, "peak")
check("peak-bandwidth exits 0 and writes one record per traffic type, in order",
      p.returncode == 0 and d and [r["operation"] for r in d["results"]] == ["R", "W5", "W11"], p.stderr)
if d and len(d["results"]) == 3:
    R, W5, W11 = d["results"]
    check("peak-bandwidth: every usable CPU makes traffic, each pinned and its own buffers on its node",
          all([t["cpu"] for t in r["placement"]] == cpus and all(t["memory_node"] == t["node"] for t in r["placement"])
              and r["threads"] == len(cpus) and
              r["params"]["traffic_threads"] == len(cpus) and r["pins_verified"] == len(cpus)
              for r in d["results"]), [r["placement"] for r in d["results"]])
    check("peak-bandwidth: DRAM bytes add one write-allocate read per regular store (R x1, W5 x1.5, W11 x4/3)",
          abs(R["params"]["dram_mb_s"] / R["value"] - 1) < 1e-9 and
          abs(W5["params"]["dram_mb_s"] / W5["value"] - 1.5) < 1e-9 and
          abs(W11["params"]["dram_mb_s"] / W11["value"] - 4 / 3) < 1e-9,
          [(r["operation"], r["value"], r["params"]["dram_mb_s"]) for r in d["results"]])
    check("peak-bandwidth: the value is the median window (not the best), 2 windows each, MB/s",
          all(r["metric"] == "bandwidth" and r["statistic"] == "median" and len(r["samples"]) == 2 and
              abs(r["value"] - statistics.median(r["samples"])) <= 1e-9 * r["value"] and
              r["summary"]["max"] == max(r["samples"]) for r in d["results"]))
    # bytes_per_sample is bytes: a typical window's, the run's MB/s over the window's
    # seconds (MB would be 10^6 too small, KiB 10^3).
    check("peak-bandwidth: bytes_per_sample in bytes, a window's worth at the run's rate",
          all(0.2 < r["bytes_per_sample"] / (r["value"] * 1e6 * r["params"]["window_s"]) < 5
              and r["bytes_per_sample"] == round(r["bytes_per_sample"]) for r in d["results"]),
          [(r["bytes_per_sample"], r["params"]["window_mb_s"], r["params"]["window_s"]) for r in d["results"]])
    check("peak-bandwidth: each record names its kernel and stores (R loads, W5 regular)",
          R["kernel"]["stores"] == "loads" and W5["kernel"]["stores"] == "regular" and
          W11["kernel"]["stores"] == "regular" and all(r["kernel"]["isa"] not in ("", "none") for r in d["results"]))
    shares = [sum(v for k, v in r["params"].items() if k.startswith("thread_") and k.endswith("_mb_s"))
              for r in d["results"]]
    check("peak-bandwidth --per-thread: one share per thread, adding up to the window's bandwidth",
          all(len([k for k in r["params"] if k.startswith("thread_")]) == len(cpus) for r in d["results"]) and
          all(abs(s - r["params"]["window_mb_s"]) <= 1e-6 * r["params"]["window_mb_s"]
              for s, r in zip(shares, d["results"])), shares)
    check("peak-bandwidth: delay 0 spun as 0 iterations per step",
          all(r["params"]["spins_per_step"] == 0 for r in d["results"]), [r["params"] for r in d["results"]])
    check("peak-bandwidth: delay 0, buffers of -b 4M, plan says how many threads",
          all(r["params"]["delay"] == 0 and r["params"]["buffer_bytes"] == 4 << 20 for r in d["results"]) and
          d["plan"]["traffic_threads"] == len(cpus))

if len(cpus) >= 2:
    p, d = run(["peak-bandwidth", "--traffic", "R", "--cpus", str(cpus[-1])] + QUICK, "peak_cpus")
    check("peak-bandwidth --cpus: traffic only on that CPU",
          p.returncode == 0 and d and [t["cpu"] for t in d["results"][0]["placement"]] == [cpus[-1]], p.stderr)

# Each record's stores are its writing kernel's, not the mix's name. A CPU whose
# kernels have no non-temporal store (the portable C ones) refuses W10 and W7, naming it.
p, d = run(["peak-bandwidth", "--traffic", "W5"] + QUICK, "peak_regular")
check("peak-bandwidth: W5's record says regular stores",
      p.returncode == 0 and d and [(r["operation"], r["kernel"]["stores"]) for r in d["results"]] ==
      [("W5", "regular")], (p.stderr, d and [r["kernel"] for r in d["results"]]))
p, d = run(["peak-bandwidth", "--traffic", "W10,W7"] + QUICK, "peak_nt")
check("peak-bandwidth: W10 (the triad) and W7 say non-temporal stores, or are refused for want of them",
      (p.returncode == 0 and d and [(r["operation"], r["kernel"]["stores"]) for r in d["results"]] ==
       [("W10", "non-temporal"), ("W7", "non-temporal")]) or
      (p.returncode == 2 and "non-temporal stores" in p.stderr and not (d and d["results"])),
      (p.returncode, p.stderr[-300:], d and [(r["operation"], r["kernel"]) for r in d["results"]]))
p, d = run(["peak-bandwidth", "--traffic", "W2", "-d", "300"] + QUICK, "peak_delay")
check("peak-bandwidth -d: the delay and its ns on this CPU are in the record, paced in 256-byte units",
      p.returncode == 0 and d and d["results"][0]["params"]["delay"] == 300 and
      abs(d["results"][0]["params"]["delay_ns"] - 300 * d["plan"]["spin_ns_per_iteration"]) < 1e-6 and
      d["results"][0]["params"]["unit_bytes"] == 256, p.stderr)
check("peak-bandwidth -d 300: 300 iterations spun after every step (the delay applied, not only named)",
      p.returncode == 0 and d and d["results"][0]["params"]["spins_per_step"] == 300, p.stderr)

p, d = run(["peak-bandwidth", "--traffic", "R", "--max"] + QUICK, "peak_max")
if p.returncode == 0 and d:
    r = d["results"][0]
    tried = [tuple(map(float, t.split(":"))) for t in r["params"]["delays_tried"].split(",")]
    best = max(tried, key=lambda t: t[1])
    check("peak-bandwidth --max: the record is the best delay tried, starting from 0",
          tried[0][0] == 0 and r["params"]["delay"] == best[0] and abs(r["value"] - best[1]) < 0.06, tried)
else:
    check("peak-bandwidth --max runs", False, p.stderr)

p = subprocess.run([BIN, "peak-bandwidth", "--traffic", "R,W5", "--csv"] + QUICK, capture_output=True, text=True)
rows = p.stdout.splitlines()
check("peak-bandwidth --csv: header and one row per type",
      p.returncode == 0 and rows[0] == "traffic,ratio,stores,delay,delay_ns,threads,mb_s,dram_mb_s,best_window_mb_s,cv,samples"
      and [r.split(",")[0] for r in rows[1:]] == ["R", "W5"], p.stdout + p.stderr)
# mb_s is the median window, best_window_mb_s the fastest: with --samples 2 the
# median is the mean of the two, never above the best.
cols = [r.split(",") for r in rows[1:]]
check("peak-bandwidth --csv: mb_s is the median window, best_window_mb_s the best, DRAM from the median",
      p.returncode == 0 and cols and all(float(c[6]) <= float(c[8]) for c in cols) and
      abs(float(cols[1][7]) / float(cols[1][6]) - 1.5) < 0.01, p.stdout)

# --- bandwidth-matrix ------------------------------------------------------------
nodes = sorted(int(n[4:]) for n in os.listdir("/sys/devices/system/node") if n.startswith("node") and n[4:].isdigit()) \
    if os.path.isdir("/sys/devices/system/node") else [0]
p, d = run(["bandwidth-matrix", "--traffic", "W5"] + QUICK, "bwm")
ok = p.returncode == 0 and d is not None
check("bandwidth-matrix exits 0 with a cell per (node, memory node) measured", ok and len(d["results"]) >= 1, p.stderr)
if ok and d["results"]:
    r = d["results"][0]
    row_cpus = [t["cpu"] for t in r["placement"]]
    check("bandwidth-matrix: a cell names its nodes; its threads are its node's CPUs, memory bound to the column",
          r["params"]["cpu_node"] == r["placement"][0]["node"] and
          all(t["node"] == r["params"]["cpu_node"] and t["memory_node"] == r["params"]["mem_node"]
              for t in r["placement"]) and set(row_cpus) <= set(cpus) and
          (r["node_local_fraction"] is None or r["node_local_fraction"] >= 0.9), r["placement"])
    check("bandwidth-matrix: W5 application and DRAM MB/s (x1.5), the plan's bind policy",
          r["operation"] == "W5" and abs(r["params"]["dram_mb_s"] / r["value"] - 1.5) < 1e-9 and
          d["plan"]["memory_policy"] == "bind")
    p, d2 = run(["bandwidth-matrix", "--cpus", str(cpus[-1]), "--per-thread"] + QUICK, "bwm_cpus")
    r2 = d2["results"][0] if p.returncode == 0 and d2 and d2["results"] else None
    check("bandwidth-matrix --cpus --per-thread: the cell's one thread is on that CPU and has its share",
          r2 and [t["cpu"] for t in r2["placement"]] == [cpus[-1]] and
          abs(r2["params"]["thread_0_mb_s"] - r2["params"]["window_mb_s"]) <= 1e-6 * r2["params"]["window_mb_s"],
          p.stderr)
    # The local cell and peak-bandwidth's ALL Reads are one recipe (issue 34): on a
    # one-node host the same threads, CPUs, nodes, buffers, unit, access, kernel and pages.
    def traffic_recipe(r):
        q = r["params"]
        return (r["operation"], [(t["cpu"], t["node"], t["memory_node"]) for t in r["placement"]],
                q.get("buffer_bytes"), q.get("unit_bytes"), q.get("access"), q.get("delay"), q.get("traffic_threads"),
                r["kernel"]["isa"], r["kernel"]["stores"], r["pages"]["method"], r["statistic"])
    if len(nodes) == 1:
        pm, dm = run(["bandwidth-matrix", "--traffic", "R"] + QUICK, "bwm_r")
        pp, dp = run(["peak-bandwidth", "--traffic", "R"] + QUICK, "peak_r")
        rm = dm["results"][0] if pm.returncode == 0 and dm and dm["results"] else None
        rp = dp["results"][0] if pp.returncode == 0 and dp and dp["results"] else None
        check("bandwidth-matrix's local cell and peak-bandwidth's ALL Reads measure one recipe",
              rm and rp and traffic_recipe(rm) == traffic_recipe(rp),
              (rm and traffic_recipe(rm), rp and traffic_recipe(rp)))
    p = subprocess.run([BIN, "bandwidth-matrix"] + QUICK, capture_output=True, text=True)
    lines = p.stdout.splitlines()
    check("bandwidth-matrix table: MLC's MB/s line, the Numa node header naming each memory node, a row per node",
          p.returncode == 0 and "Bandwidths are in MB/sec (1 MB/sec = 1,000,000 Bytes/sec)" in lines and
          any(l.startswith("Numa node\t") for l in lines), p.stdout)
    p = subprocess.run([BIN, "bandwidth-matrix", "--csv"] + QUICK, capture_output=True, text=True)
    rows = p.stdout.splitlines()
    check("bandwidth-matrix --csv: header and one line per measured cell",
          p.returncode == 0 and rows[0] == "cpu_node,mem_node,threads,traffic,mb_s,dram_mb_s,best_window_mb_s,cv,samples,"
          "page_node_fraction" and len(rows) == 1 + len(d["results"]), p.stdout)

# --- loaded-latency --------------------------------------------------------------
LL = ["loaded-latency", "--delays", "0,1000", "--samples", "2", "--sample-ms", "1", "-b", "4M",
      "--chase-buffer", "4M"]
if len(cpus) >= 2:
    p, d = run(LL, "loaded")
    ok = p.returncode == 0 and d is not None
    check("loaded-latency exits 0: the idle row, then one per delay in order", ok and
          [(r["operation"], r["params"]["delay"]) for r in d["results"]] ==
          [("idle-latency", 0), ("loaded-latency", 0), ("loaded-latency", 1000)], p.stderr)
    if ok and len(d["results"]) == 3:
        idle, d0, d1 = d["results"]
        check("loaded-latency: the chaser is thread 0 on the first usable CPU, traffic on the others",
              all([t["cpu"] for t in r["placement"]] == cpus and r["params"]["traffic_threads"] in (0, len(cpus) - 1)
                  for r in d["results"]) and d["plan"]["latency_cpu"] == cpus[0], [r["placement"] for r in d["results"]])
        check("loaded-latency: latency is the median of the samples in ns; bandwidth in params",
              all(r["metric"] == "latency" and r["statistic"] == "median" and len(r["samples"]) == 2 and
                  r["kernel"]["isa"] == "chase" for r in d["results"]))
        check("loaded-latency: no traffic when idle, traffic at each delay",
              idle["params"]["bandwidth_mb_s"] == 0 and idle["params"]["traffic"] == "none" and
              max(d0["params"]["bandwidth_mb_s"], d1["params"]["bandwidth_mb_s"]) > 0 and
              d0["params"]["traffic"] == d1["params"]["traffic"] == "R",
              [(r["params"]["traffic"], r["params"]["bandwidth_mb_s"]) for r in d["results"]])
        check("loaded-latency: each delay was spun, its number of iterations after every traffic step",
              d0["params"]["spins_per_step"] == 0 and d1["params"]["spins_per_step"] == 1000 and
              "spins_per_step" not in idle["params"], [r["params"].get("spins_per_step") for r in d["results"]])
        check("loaded-latency: the first delay after idle settles at least 0.5 s before its window (its traffic "
              "threads slept through idle), the next at least 0.05 s",
              d0["params"]["settle_s"] >= 0.5 and d1["params"]["settle_s"] >= 0.05,
              [r["params"].get("settle_s") for r in d["results"]])
        check("loaded-latency: each delay also in ns, from the plan's calibration",
              abs(d1["params"]["delay_ns"] - 1000 * d["plan"]["spin_ns_per_iteration"]) < 1e-6)
        a = d["analysis"]
        check("loaded-latency: analysis has the idle latency and the peak of the rows",
              a["idle_latency_ns"] == idle["value"] and
              a["peak_bandwidth_mb_s"] == max(d0["params"]["bandwidth_mb_s"], d1["params"]["bandwidth_mb_s"]), a)
        # The curve's checks, from the records' own intervals (docs/mlc-class.md).
        iv = lambda r: (r["summary"]["median_interval"]["low"], r["summary"]["median_interval"]["high"])
        # back at idle: the intervals meet and the median is within 10% of idle's
        back = iv(d1)[0] <= iv(idle)[1] and iv(d1)[1] >= iv(idle)[0] and abs(d1["value"] / idle["value"] - 1) <= 0.10
        below = ["%.0f:%.1f" % (r["params"]["delay"], r["value"]) for r in (d0, d1)
                 if r["value"] < idle["value"] * 0.9]
        bw_up = d1["params"]["bandwidth_mb_s"] > 1.1 * d0["params"]["bandwidth_mb_s"]
        lat_up = iv(d1)[0] > iv(d0)[1]
        want = "1000:" + ("bandwidth+latency" if bw_up and lat_up else "bandwidth" if bw_up else "latency") \
            if bw_up or lat_up else ""
        check("loaded-latency: back_to_idle and out_of_order_delays are the rules' on the records' intervals",
              a["largest_delay"] == 1000 and a["back_to_idle"] == back and
              a["largest_delay_latency_ns"] == d1["value"] and a["out_of_order_delays"] == want and
              a["out_of_order_count"] == (1 if want else 0), (a, iv(idle), iv(d0), iv(d1)))
        check("loaded-latency: below_idle_delays lists each delay whose median is more than 10%% under idle's (%s)"
              % (",".join(below) or "none"),
              a["idle_tolerance"] == 0.1 and a["below_idle_count"] == len(below) and
              a["below_idle_delays"] == ",".join(below) and
              any("below idle (" in w for w in d["warnings"]) == bool(below), (a, d["warnings"]))

    p, d = run(["loaded-latency", "-c", str(cpus[-1])] + LL[1:], "loaded_c")
    check("loaded-latency -c: the chaser on that CPU, no traffic thread there",
          p.returncode == 0 and d and d["results"][0]["placement"][0]["cpu"] == cpus[-1] and
          all(t["cpu"] != cpus[-1] for t in d["results"][1]["placement"][1:]), p.stderr)

    p = subprocess.run([BIN] + LL + ["--csv"], capture_output=True, text=True)
    rows = p.stdout.splitlines()
    check("loaded-latency --csv: header, idle row with an empty delay, one row per delay",
          p.returncode == 0 and rows[0].startswith("traffic,delay,delay_ns,latency_ns,") and len(rows) == 4 and
          rows[1].startswith("none,,") and rows[2].startswith("R,0,") and rows[3].startswith("R,1000,"),
          p.stdout + p.stderr)

    # -t: the rows measured by then, in a valid document that says why it ended
    p, d = run(["loaded-latency", "-t", "0.5", "-b", "4M", "--chase-buffer", "4M", "--sample-ms", "50"],
               "loaded_t")
    check("loaded-latency -t 0.5 (samples of 50 ms): exit 0, stopped by the time limit, fewer rows than 19 delays + idle",
          p.returncode == 0 and d and d["stopped_by"] == "time limit" and d["complete"] is False and
          len(d["results"]) < 20, p.stderr)

# One usable CPU: nothing is left for traffic once the chaser has it.
p = subprocess.run(["taskset", "-c", str(cpus[0]), BIN] + LL, capture_output=True, text=True)
check("loaded-latency on one CPU: exit 2, one line saying there is no CPU left for traffic",
      p.returncode == 2 and len(p.stderr.splitlines()) == 1 and "no CPU is left for traffic" in p.stderr and
      not p.stdout, p.stderr)

# The plan says one traffic thread in the singular ("1 thread makes"), more in the plural.
path = os.path.join(TMP, "ll-grammar.json")
p = subprocess.run([BIN, "loaded-latency", "--cpus", "0,1", "--plan", "--json", path], capture_output=True, text=True)
method = json.load(open(path))["plan"]["method"] if os.path.exists(path) else ""
check("loaded-latency --plan with one traffic thread: '1 thread makes', not '1 thread make'",
      p.returncode == 0 and " 1 thread makes " in method and "thread make " not in method, method or p.stderr)

sys.exit(0 if all(results) else 1)
