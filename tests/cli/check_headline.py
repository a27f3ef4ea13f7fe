#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Command-line checks of the headline every text run ends with (issue 46): on stderr,
after the warnings, so stdout stays the peer's CSV or text; the figures the run's own
JSON holds (value, its kind, MAY NOT BE DRAM where the rule says so), the caches with
their sources, the host verdict; none for numa mem -q. The sweep's CSV is
sc-membench's alone. Never a timing. Prints TAP lines for run_cli_tests.sh.

  check_headline.py MEMBENCH TMPDIR"""
import re
import sys

from round_records import check, results, run_json

BIN, TMP = sys.argv[1:3]
HEAD = re.compile(r"^membench[a-z -]*: headline \(")


def headline(err):
    """The headline's lines (its first line on), or [] when stderr has none."""
    lines = err.splitlines()
    at = [i for i, l in enumerate(lines) if HEAD.match(l)]
    return lines[at[0]:] if at else []


def line_of(block, name):
    return next((l for l in block if l.startswith("  " + name + " ")), "")


def figure(block, name):
    """The number on a figure's line, or None ("-": not measured)."""
    m = re.match(r"^  .{26} +([0-9.]+) (GB/s|ns)  ", line_of(block, name))
    return float(m.group(1)) if m else None


def ends_with_headline(err):
    """The headline is the last thing said: no warning or other line after its block."""
    block = headline(err)
    return bool(block) and all(l.startswith("  ") for l in block[1:]) and line_of(block, "host") == block[-1]


def caches_from(d):
    return [k for k in (d["topology"].get("levels_used") or {})]


# --- the sweep, CSV: stdout sc-membench's CSV alone; the headline ends stderr ----------
p, d = run_json([BIN, "-s", "4096", "-r", "1", "--sample-ms", "1", "--latency-sample-ms", "1"], TMP, "sweep")
block = headline(p.stderr)
check("sweep (CSV): stderr ends with the headline, stdout is the CSV alone (no headline line in it)",
      p.returncode == 0 and ends_with_headline(p.stderr) and not headline(p.stdout) and
      all(l.count(",") == 8 for l in p.stdout.splitlines()), p.stderr[-600:])
check("sweep: the four figures, each 'not measured' with why when the largest buffer fits the last level "
      "(4 MiB a thread), never a number",
      all(line_of(block, n) and figure(block, n) is None and "not measured: the largest buffer, 4 MiB, fits the" in
          line_of(block, n) for n in ("DRAM read", "DRAM write", "DRAM copy (counted once)", "idle latency (TLB-local)")),
      block)
lv = caches_from(d) if d else []
check("sweep: the caches line names every level the run used with its source (JSON topology.levels_used)",
      lv and all(re.search(r"\b%s \d+ [KMG]iB \(" % k, line_of(block, "caches")) for k in lv), (lv, block))
noise = (d or {}).get("host_noise") or {}
verdict = "no verdict" if noise.get("varied_pct") is None else ("noisy" if noise.get("flagged") else "quiet")
check("sweep: the host line is the JSON's host_noise verdict (%s)" % verdict,
      line_of(block, "host").split()[1:2] in (["no"], ["noisy:"], ["quiet:"]) and
      line_of(block, "host").split()[1].rstrip(":") == verdict.split()[0], (noise, line_of(block, "host")))

# --- the sweep, -R: the table on stdout, summary and then the headline on stderr ----------
p, d = run_json([BIN, "-R", "-s", "4096", "-r", "3", "-o", "copy", "--sample-ms", "1"], TMP, "sweepR")
check("sweep -R: the table on stdout; the summary, then the headline last on stderr",
      p.returncode == 0 and "BENCHMARK SUMMARY" in p.stderr and ends_with_headline(p.stderr) and
      p.stderr.index("BENCHMARK SUMMARY") < p.stderr.index(": headline (") and not headline(p.stdout), p.stderr[-600:])
lvl = d["results"][0]["summary"]["median_interval"]["level"] if d and d["results"] else 0
row = next((l for l in p.stdout.splitlines() if l.startswith("4 MB ")), "")
check("sweep -R -r 3: the row's interval says its sides and the level it has (JSON median_interval.level), "
      "under an 'Interval (level)' header",
      "Interval (level)" in p.stdout and "95%" not in p.stdout.splitlines()[1] and
      re.search(r"(±\d+%%|-\d+/\+\d+%%) \(%.0f%%\)$" % (100 * lvl), row), (p.stdout, lvl))
check("sweep -R: copy is 'copy (counted once)' in the headline and the summary",
      line_of(headline(p.stderr), "DRAM copy (counted once)") and "Copy (counted once)" in p.stderr, p.stderr[-900:])

# --- latency: its figure, the full random beside it, MAY NOT BE DRAM below the rule -----
p, d = run_json([BIN, "latency", "--min", "4K", "--max", "4M", "--sample-ms", "1", "--points-per-octave", "1"],
                TMP, "latency")
block = headline(p.stderr)
recs = d["results"] if d else []
last = max(recs, key=lambda r: r["size_bytes"]) if recs else {}
rnd = (last.get("random_chase") or {}).get("value")
check("latency: stdout has no headline; stderr ends with it",
      p.returncode == 0 and ends_with_headline(p.stderr) and not headline(p.stdout), p.stderr[-600:])
check("latency: the idle latency is the largest size's median (JSON value), TLB-local, and MAY NOT BE DRAM "
      "(4 MiB, below the DRAM rule)",
      last and figure(block, "idle latency (TLB-local)") == round(last["value"], 1) and
      "TLB-local as multichase" in line_of(block, "idle latency (TLB-local)") and
      "MAY NOT BE DRAM" in line_of(block, "idle latency (TLB-local)") and last.get("may_fit_cache") is True,
      (block, last.get("value"), last.get("may_fit_cache")))
check("latency: the full random latency is the largest size's random chase (JSON random_chase.value)",
      rnd and figure(block, "full random latency") == round(rnd, 1), (block, rnd))
check("latency: no bandwidth line (only what the mode measured)",
      not any(line_of(block, n) for n in ("DRAM read", "DRAM write", "DRAM copy (counted once)", "STREAM Triad")),
      block)

# --- stream: its Triad, MAY NOT BE DRAM with arrays below STREAM's rule -------------------
p, d = run_json([BIN, "stream", "-n", "1000000", "--ntimes", "2", "--stores", "regular"], TMP, "stream")
block = headline(p.stderr)
triads = [r for r in (d["results"] if d else []) if r["operation"] == "triad"]
check("stream: the headline's Triad is the best Triad (JSON value / 1000, GB/s), marked MAY NOT BE DRAM "
      "(8 MB arrays), after stdout's STREAM text",
      p.returncode == 0 and triads and ends_with_headline(p.stderr) and not headline(p.stdout) and
      figure(block, "STREAM Triad") == round(max(r["value"] for r in triads) / 1000, 1) and
      "MAY NOT BE DRAM" in line_of(block, "STREAM Triad") and "Triad" in p.stdout, (block, p.stdout[-300:]))

# --- loaded-latency: its idle latency is the card's (it was "not measured") -------------
p, d = run_json([BIN, "loaded-latency", "-b", "16M", "--chase-buffer", "16M", "--delays", "0", "--samples", "3",
                 "--sample-ms", "2"], TMP, "loaded")
block = headline(p.stderr)
idle = [r for r in (d["results"] if d else []) if r["operation"] == "idle-latency"]
check("loaded-latency: the headline's idle latency is the run's idle-latency record (JSON value), marked MAY NOT "
      "BE DRAM at 16 MiB",
      p.returncode == 0 and idle and ends_with_headline(p.stderr) and
      figure(block, "idle latency (TLB-local)") == round(idle[0]["value"], 1) and
      "MAY NOT BE DRAM" in line_of(block, "idle latency (TLB-local)"), (block, idle and idle[0]["value"]))

p, d = run_json([BIN, "stream", "-n", "1000000", "--ntimes", "2", "--stores", "regular"], TMP, "streamwhy")
check("stream -n: the text says the size was given, and STREAM's rule (the plan's dram_rule)",
      p.returncode == 0 and d and ("Why this size: given on the command line (STREAM's rule: %s)." %
                                   d["plan"]["dram_rule"]) in p.stdout, p.stdout[:600])

# --- numa mem -q: perf's lines and nothing else ---------------------------------------
p, d = run_json([BIN, "numa", "mem", "-p", "1", "-t", "1", "-P", "8", "-l", "1", "-q"], TMP, "numaq")
check("numa mem -q: no headline and nothing at all on stderr (perf's -q)",
      p.returncode == 0 and not headline(p.stderr) and p.stderr == "" and "secs" in p.stdout, p.stderr)
p, d = run_json([BIN, "numa", "mem", "-p", "1", "-t", "1", "-P", "8", "-l", "1"], TMP, "numa")
check("numa mem without -q: the headline ends stderr (caches and host only: no figure of the report's card)",
      p.returncode == 0 and ends_with_headline(p.stderr) and line_of(headline(p.stderr), "caches") and
      figure(headline(p.stderr), "DRAM read") is None and not line_of(headline(p.stderr), "DRAM read"), p.stderr)

sys.exit(0 if all(results) else 1)
