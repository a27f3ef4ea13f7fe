#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Command-line checks of `membench mlc` on this machine: MLC's text layout, read
with the regexes scripts written for MLC use; every printed number is the one the
JSON record holds for that line (the right mix, delay, cell, CPU); and each MLC
option reaches the native mode it means (the plan's commands, the records'
placement). Prints TAP lines for run_cli_tests.sh; never asserts a timing.

  check_mlc.py MEMBENCH TMPDIR"""
import json
import os
import re
import signal
import subprocess
import sys

from round_records import wait_for_doc

BIN, TMP = sys.argv[1:3]
QUICK = ["-b", "4M", "-t", "0.05"]
MLC_DELAYS = [0, 2, 8, 15, 50, 100, 200, 300, 400, 500, 700, 1000, 1300, 1700, 2500, 3500, 5000, 9000, 20000]
results = []


def check(name, cond, detail=""):
    results.append(bool(cond))
    print(("ok - " if cond else "not ok - ") + name)
    if not cond and detail:
        print("    " + str(detail)[:400].replace("\n", "\\n"))


def run(args, name):
    path = os.path.join(TMP, "mlc-" + name + ".json")
    p = subprocess.run([BIN, "mlc"] + args + ["--json", path], capture_output=True, text=True)
    doc = json.load(open(path)) if os.path.exists(path) else None
    return p, doc


def commands(d):
    return [c["command"] for c in d["plan"]["commands"]] if d else []


def f1(x):
    return "%.1f" % x


cpus = sorted(os.sched_getaffinity(0))
LAST = cpus[-1]
this_cpu = subprocess.run([BIN, "topology"], capture_output=True, text=True).stdout
isas = re.search(r"^This CPU: \w+, kernels ([a-z0-9,]+)", this_cpu, re.M)
isas = isas.group(1).split(",") if isas else []
nt = "x86_64" in this_cpu.split("\n", 1)[0] or "This CPU: x86_64" in this_cpu

# --- MLC's default sequence -------------------------------------------------------
p, d = run(QUICK, "default")
out = p.stdout
check("mlc with no test exits 0 and runs MLC's five tests as five steps, in MLC's order",
      p.returncode == 0 and d and [c["mode"] for c in d["plan"]["commands"]] ==
      ["latency-matrix", "peak-bandwidth", "bandwidth-matrix", "loaded-latency", "c2c"], p.stderr)
heads = ["Measuring idle latencies for random access (in ns)...",
         "Measuring Peak Injection Memory Bandwidths for the system",
         "Measuring Memory Bandwidths between nodes within system",
         "Measuring Loaded Latencies for the system",
         "Measuring cache-to-cache transfer latency (in ns)..."]
at = [out.find("\n" + h + "\n") for h in heads]
check("the five blocks come in MLC's order, each after a blank line", all(a >= 0 for a in at) and at == sorted(at),
      at)
check("the banner says membench, the command line, and in one line what replaces MLC's prefetcher MSRs",
      out.startswith("membench ") and "Command line parameters: -b 4M -t 0.05 --json" in out and
      out.count("*** membench never changes the prefetchers") == 1 and "random chase" in out)
check("MLC's default sequence prints no 'Using buffer size' line (MLC's prints none)",
      "Using buffer size" not in out, out[:300])
recs = d["results"] if d else []
by_mode = {}
for r in recs:
    by_mode.setdefault(r["mode"], []).append(r)
check("the JSON is one run of mode mlc holding every step's records, complete",
      d and d["mode"] == "mlc" and d["complete"] and set(by_mode) ==
      {"latency-matrix", "peak-bandwidth", "bandwidth-matrix", "loaded-latency", "c2c"} and
      [s["mode"] for s in d["plan"]["steps"]] == [c["mode"] for c in d["plan"]["commands"]], list(by_mode))


def matrix(text, after):
    """MLC's node matrix after the line `after`: columns and {row node: [cells]}."""
    lines = text[text.find(after):].split("\n")
    i = [k for k, line in enumerate(lines) if line.startswith("Numa node\t")][0]
    cols = [int(c) for c in re.findall(r"\t\s*(\d+)", lines[i])]
    rows = {}
    for line in lines[i + 1:]:
        m = re.match(r"^\s+(\d+)((?:\t\s*(?:[0-9.]+|-))+)$", line)
        if not m:
            break
        rows[int(m.group(1))] = [c.strip() for c in m.group(2).split("\t")[1:]]
    return cols, rows


try:
    cols, rows = matrix(out, heads[0])
    cells = {(r["placement"][0]["node"], r["placement"][0]["memory_node"]): r for r in by_mode["latency-matrix"]}
    ok = cols == [c["mem_node"] for c in d["plan"]["latency-matrix/columns"]] and rows and all(
        v == ("-" if (n, cols[j]) not in cells else f1(cells[(n, cols[j])]["value"]))
        for n, vals in rows.items() for j, v in enumerate(vals))
    check("latency matrix: a 'Numa node' column per node with memory, each cell the record's median (ns, %.1f)", ok,
          (cols, rows))
except (ValueError, IndexError, KeyError) as e:
    check("latency matrix: a 'Numa node' column per node with memory, each cell the record's median (ns, %.1f)",
          False, repr(e))

labels = {"ALL Reads": "R", "3:1 Reads-Writes": "W3", "2:1 Reads-Writes": "W2", "1:1 Reads-Writes": "W5",
          "Stream-triad like": "W10" if nt else "W11"}
peak = {r["operation"]: r for r in by_mode.get("peak-bandwidth", [])}
order = [m.group(1) for m in re.finditer(r"^(ALL Reads|\d:1 Reads-Writes|Stream-triad like)\s*:\t", out, re.M)]
check("peak injection: MLC's lines in MLC's order (ALL Reads, 3:1, 2:1, 1:1, Stream-triad like)",
      order == list(labels), order)
got = {lab: re.search(r"^" + re.escape(lab) + r"\s*:\t([0-9.]+)$", out, re.M) for lab in labels}
check("peak injection: MLC's five lines ('ALL Reads        :<TAB>MB/s' ...), each the best window of its mix",
      all(got[lab] and peak.get(mix) and got[lab].group(1) == f1(peak[mix]["value"]) for lab, mix in labels.items()),
      {lab: (got[lab].group(1) if got[lab] else None, f1(peak[m]["value"]) if m in peak else None)
       for lab, m in labels.items()})
try:
    cols, rows = matrix(out, heads[2])
    cells = {(r["params"]["cpu_node"], r["params"]["mem_node"]): r for r in by_mode["bandwidth-matrix"]}
    check("bandwidth matrix: read-only traffic, each cell the record's best MB/s",
          "Using Read-only traffic type" in out and rows and all(
              v == f1(cells[(n, cols[j])]["value"]) and cells[(n, cols[j])]["operation"] == "R"
              for n, vals in rows.items() for j, v in enumerate(vals)), (cols, rows))
except (ValueError, IndexError, KeyError) as e:
    check("bandwidth matrix: read-only traffic, each cell the record's best MB/s", False, repr(e))

loaded = [r for r in by_mode.get("loaded-latency", []) if r["operation"] == "loaded-latency"]
rows = re.findall(r"^ (\d{5})\t([ 0-9.]+)\t([ 0-9.]+)$", out, re.M)
check("loaded latency: a row per MLC delay, ' 00000<TAB>latency<TAB>bandwidth', the records' median ns and MB/s",
      [int(r[0]) for r in rows] == MLC_DELAYS and len(loaded) == len(rows) and all(
          row[1].strip() == "%.2f" % r["value"] and row[2].strip() == f1(r["params"]["bandwidth_mb_s"]) and
          r["params"]["delay"] == int(row[0]) for row, r in zip(rows, loaded)), (rows[:3], len(loaded)))
c2c = {r["params"]["state"]: r for r in by_mode.get("c2c", []) if r["params"]["kind"] == "local"}
hitm = re.search(r"^Local Socket L2->L2 HITM latency\t([0-9.]+)$", out, re.M)
hit = re.search(r"^Local Socket L2->L2 HIT  latency\t([0-9.]+)$", out, re.M)
if len(cpus) >= 2:
    check("c2c: MLC's local HITM and HIT lines, each the record's median",
          hitm and hit and "HITM" in c2c and "HIT" in c2c and hitm.group(1) == f1(c2c["HITM"]["value"]) and
          hit.group(1) == f1(c2c["HIT"]["value"]), (hitm, hit, list(c2c)))
    check("c2c: MLC's order, the HIT line before the HITM line",
          hitm and hit and hit.start() < hitm.start() and
          out[hit.end():hitm.start()].strip("\n") == "", (hit and hit.start(), hitm and hitm.start()))

# --- --idle_latency ---------------------------------------------------------------
p, d = run(["--idle_latency", "-c", str(LAST), "-j", "0"] + QUICK, "idle")
m = re.search(r"^Each iteration took ([0-9.]+|n/a) base frequency clocks \(\t([0-9.]+)\tns\)$", p.stdout, re.M)
r = d["results"][0] if d and d["results"] else None
check("--idle_latency -c -j -b: one step, latency-matrix on that CPU, that node, that buffer",
      p.returncode == 0 and
      commands(d) == ["membench latency-matrix --buffer 4096K --sample-ms %g --cpu %d --mem-node 0" % (50 / 7, LAST)],
      commands(d))
check("--idle_latency: the chaser ran on -c's CPU with memory on -j's node; one record",
      r and len(d["results"]) == 1 and r["placement"][0]["cpu"] == LAST and r["params"]["observed_cpu"] == LAST and
      r["placement"][0]["memory_node"] == 0 and r["size_bytes"] == 4 << 20, r and r["placement"])
hz = d["plan"]["steps"][0].get("counter_hz") if d else None
check("--idle_latency: 'Each iteration took C base frequency clocks (<TAB>N<TAB>ns)': N the median, C at the "
      "counter's rate", m and r and m.group(2) == f1(r["value"]) and
      (m.group(1) == f1(r["value"] * hz / 1e9) if hz else m.group(1) == "n/a"), (m and m.groups(), hz))
check("--idle_latency: 'Using buffer size of 4.000MiB' after the command line and a blank line, as MLC",
      "Command line parameters: --idle_latency -c %d -j 0 -b 4M -t 0.05 --json %s\n\nUsing buffer size of 4.000MiB\n"
      % (LAST, os.path.join(TMP, "mlc-idle.json")) in p.stdout, p.stdout[:400])

idle_range = d["plan"]["steps"][0].get("chase_range_bytes") if d else None
p, d = run(["--idle_latency", "-c", str(LAST), "-D", "4096"] + QUICK, "idle-range")
step = d["plan"]["steps"][0] if d else {}
check("--idle_latency -D 4096: latency-matrix --chase-range 4096, the plan's chase random within each 4096-byte "
      "range (without -D: the whole buffer, chase_range_bytes 0)",
      p.returncode == 0 and "--chase-range 4096" in commands(d)[0] and step.get("chase_range_bytes") == 4096 and
      "within each 4096-byte range" in step.get("method", "") and idle_range == 0 and len(d["results"]) == 1,
      (commands(d), step.get("method"), idle_range))

p, d = run(["--idle_latency", "-a"] + QUICK, "every")
rows = re.findall(r"^\s*(\d+)\t\s*(\d+)\t\s*(\d+)\t\s*([0-9.]+)$", p.stdout, re.M)
check("--idle_latency -a: a row per usable CPU, CPU, node, memory node and the record's median",
      p.returncode == 0 and [int(x[0]) for x in rows] == cpus and d and all(
          x[3] == f1(r["value"]) and int(x[0]) == r["placement"][0]["cpu"] for x, r in zip(rows, d["results"])) and
      "--every-cpu" in commands(d)[0], (rows, commands(d)))

# --- bandwidth tests --------------------------------------------------------------
p, d = run(["--peak_injection_bandwidth", "-W", "5", "-B", "-k", str(LAST)] + QUICK, "peak")
r = d["results"][0] if d and d["results"] else None
line = re.search(r"^1:1 Reads-Writes :\t([0-9.]+)$", p.stdout, re.M)
share = re.search(r"^\tThread 0 \(CPU (\d+)\):\t([0-9.]+)$", p.stdout, re.M)
check("--peak_injection_bandwidth -W5 -B -k: one mix, W5, on -k's CPU, with its per-thread line",
      p.returncode == 0 and len(d["results"]) == 1 and r["operation"] == "W5" and
      [t["cpu"] for t in r["placement"]] == [LAST] and line and line.group(1) == f1(r["value"]) and share and
      int(share.group(1)) == LAST and share.group(2) == f1(r["params"]["thread_0_mb_s"]),
      (commands(d), p.stdout[-300:]))
BUF_LINE = r"^Using buffer size of ([0-9]+\.[0-9]{3})MiB/thread for reads and an additional ([0-9]+\.[0-9]{3})MiB/thread for writes$"
m = re.search(BUF_LINE, p.stdout, re.M)
check("--peak_injection_bandwidth -W5: MLC's 'Using buffer size of 4.000MiB/thread for reads and an additional "
      "4.000MiB/thread for writes'", m and m.groups() == ("4.000", "4.000"), p.stdout[:400])
check("--peak_injection_bandwidth: -t sets the window, -b each buffer",
      d and "--buffer 4096K" in commands(d)[0] and "--window-ms %g" % (50 / 6) in commands(d)[0] and
      r["params"]["buffer_bytes"] == 4 << 20, commands(d))

p, d = run(["--max_bandwidth", "-R", "-b", "4099K", "-t", "0.05"], "max")
r = d["results"][0] if d and d["results"] else None
m = re.search(BUF_LINE, p.stdout, re.M)
planned = d["plan"]["steps"][0]["buffer_bytes"] if d else 0
check("--max_bandwidth -R -b 4099K: the buffer line carries the planned buffer (the JSON's, rounded by the plan; "
      "not -b's 4.003), 0 MiB for writes", planned and planned != 4099 * 1024 and m and
      m.groups() == ("%.3f" % (planned / 2 ** 20), "0.000") and m.group(1) != "4.003", (planned, p.stdout[:400]))
line = re.search(r"^ALL Reads        :\t([0-9]+\.[0-9]{2})$", p.stdout, re.M)
check("--max_bandwidth -R: 'Measuring Maximum', the best over the delays tried, two decimals",
      p.returncode == 0 and "Measuring Maximum Memory Bandwidths for the system" in p.stdout and r and
      "--max" in commands(d)[0].split() and line and line.group(1) == "%.2f" % r["value"] and
      r["params"].get("delays_tried"), (commands(d), p.stdout[-200:]))

mix = "W8" if nt else "W5"
p, d = run(["--bandwidth_matrix", "-W", mix[1:], "-U", "-X"] + QUICK, "bwm")
r = d["results"][0] if d and d["results"] else None
m = re.search(BUF_LINE, p.stdout, re.M)
check("--bandwidth_matrix -W (a write mix): MLC's buffer line, -b for reads and -b for writes",
      m and m.groups() == ("4.000", "4.000") and d and d["plan"]["steps"][0]["write_buffers_per_thread"] == 1,
      p.stdout[:400])
check("--bandwidth_matrix -W -U -X: that mix, random access, one thread per core, said in MLC's lines",
      p.returncode == 0 and r and all(x["operation"] == mix and x["params"]["access"] == "random"
                                      for x in d["results"]) and
      "--one-per-core" in commands(d)[0] and "Using only one thread from each core" in p.stdout and
      ("Using %s (" % mix) in p.stdout, (commands(d), p.stdout[-300:]))

delays = os.path.join(TMP, "delays.txt")
open(delays, "w").write("100\n0, 2500\n")
p, d = run(["--loaded_latency", "-T", "-g", delays] + QUICK, "traffic-only")
rows = re.findall(r"^ (\d{5})\t([ 0-9.]+)$", p.stdout, re.M)
m = re.search(BUF_LINE, p.stdout, re.M)
check("--loaded_latency -T (read-only): the buffer line says 0 MiB for writes (membench allocates no write buffer)",
      m and m.groups() == ("4.000", "0.000") and d and d["plan"]["steps"][0]["write_buffers_per_thread"] == 0,
      p.stdout[:400])
check("--loaded_latency -T -g FILE: bandwidth only, a row per delay of the file in its order, each the record's",
      p.returncode == 0 and "Inject\tBandwidth\n" in p.stdout and p.stdout.count("Inject\t") == 1 and
      [int(x[0]) for x in rows] == [100, 0, 2500] and d and len(d["results"]) == 3 and all(
          r["mode"] == "peak-bandwidth" and r["params"]["delay"] == int(x[0]) and x[1].strip() == f1(r["value"])
          for x, r in zip(rows, d["results"])), (rows, commands(d)))

if len(cpus) >= 2:
    p, d = run(["--loaded_latency", "-d", "50", "-c", str(cpus[0]), "-k", str(LAST), "-D", "8192"] + QUICK, "loaded")
    step = d["plan"]["steps"][0] if d else {}
    check("--loaded_latency -D 8192: loaded-latency --chase-range 8192, the chase buffer whole ranges of it",
          p.returncode == 0 and "--chase-range 8192" in commands(d)[0] and step.get("chase_range_bytes") == 8192 and
          step.get("chase_bytes", 1) % 8192 == 0, (commands(d), step.get("chase_range_bytes")))
    rs = [r for r in d["results"] if r["operation"] == "loaded-latency"] if d else []
    rows = re.findall(r"^ (\d{5})\t([ 0-9.]+)\t([ 0-9.]+)$", p.stdout, re.M)
    check("--loaded_latency -d -c -k: one delay; the chaser on -c's CPU, traffic on -k's",
          p.returncode == 0 and len(rs) == 1 and [int(x[0]) for x in rows] == [50] and
          [t["cpu"] for t in rs[0]["placement"]] == [cpus[0], LAST] and rs[0]["params"]["delay"] == 50,
          (commands(d), rs and rs[0]["placement"]))
    check("--loaded_latency: the JSON's bandwidth of the delay (params.bandwidth_mb_s, MB/s) is the table's third column",
          len(rs) == 1 and len(rows) == 1 and rs[0]["params"]["bandwidth_mb_s"] > 0 and
          rows[0][2].strip() == f1(rs[0]["params"]["bandwidth_mb_s"]), (rows, rs and rs[0]["params"]))

    p, d = run(["--c2c_latency", "-w", str(cpus[0]), "-c", str(LAST), "-H"], "c2c")
    r = d["results"][0] if d and d["results"] else None
    line = re.search(r"^Local Socket L2->L2 HIT  latency\t([0-9.]+)$", p.stdout, re.M)
    check("--c2c_latency -w -c -H: one pair, writer -w, reader -c, clean lines (HIT)",
          p.returncode == 0 and len(d["results"]) == 1 and r["params"]["state"] == "HIT" and
          [t["cpu"] for t in r["placement"]] == [cpus[0], LAST] and line and line.group(1) == f1(r["value"]),
          (commands(d), p.stdout[-200:]))

    p, d = run(["--c2c_latency", "-w", str(cpus[0]), "-c", str(LAST)], "c2c-pair")
    got = re.findall(r"^(?:Local|Remote) Socket L2->L2 (HITM|HIT ) latency.*\t([0-9.]+)$", p.stdout, re.M)
    recs = {r["params"]["state"]: r for r in d["results"]} if d else {}
    check("--c2c_latency -w -c: the pair's one HITM line (held for a HIT line that never comes, written at the end)",
          p.returncode == 0 and [g[0].strip() for g in got] == ["HITM"] and list(recs) == ["HITM"] and
          got[0][1] == f1(recs["HITM"]["value"]), (got, list(recs)))

    p, d = run(["--peak_injection_bandwidth", "-R", "-m", hex(1 << LAST)] + QUICK, "mask")
    check("-m MASK: traffic on the mask's CPUs", p.returncode == 0 and d and
          [t["cpu"] for t in d["results"][0]["placement"]] == [LAST], commands(d))

if "avx2" in isas:
    p, d = run(["--peak_injection_bandwidth", "-R", "-Y"] + QUICK, "avx2")
    check("-Y: AVX2 kernels", p.returncode == 0 and d and d["results"][0]["kernel"]["isa"] == "avx2",
          d and d["results"][0]["kernel"])

p, d = run(["--idle_latency", "-W", "5", "-U"] + QUICK, "ignored")
# (two of a kind: one line with their count on the terminal, each in JSON)
check("an option the test does not use is said to be ignored (stderr, JSON each), and the test runs",
      p.returncode == 0 and "warning: option_ignored x2: " in p.stderr and d and
      [w for w, k in zip(d["warnings"], d["warning_kinds"]) if k == "option_ignored"] ==
      ["-W5 does nothing for --idle_latency: ignored", "-U does nothing for --idle_latency: ignored"], p.stderr)

# --- Ctrl-C -----------------------------------------------------------------------
path = os.path.join(TMP, "mlc-int.json")
if os.path.exists(path):
    os.unlink(path)
proc = subprocess.Popen([BIN, "mlc", "--json", path] + QUICK, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True)
wait_for_doc(path, proc, lambda d: d.get("results"), timeout=20)
proc.send_signal(signal.SIGINT)
out, err = proc.communicate(timeout=60)
try:
    d = json.load(open(path))
except (OSError, ValueError):
    d = None
check("SIGINT during the sequence: exit 130, the JSON valid, incomplete, stopped by SIGINT, its results kept",
      proc.returncode == 130 and d and not d["complete"] and d["stopped_by"] == "SIGINT" and d["results"],
      (proc.returncode, err[-200:]))

sys.exit(0 if all(results) else 1)
