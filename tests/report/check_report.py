#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make check-report: membench report, checked in a real browser.

Runs real short membench runs (a sweep of two operations, a second sweep to
overlay, latency, stream, latency-matrix, bandwidth-matrix, loaded-latency, c2c
and a sweep stopped with Ctrl-C), builds reports of them (one run, several runs
overlaid, all of them), renders each in headless Chromium and checks the DOM it
built against the JSON the runs wrote: one series per run and operation, one
point per result record (by size and value), axis labels, legend entries, the
incomplete banner, no console errors; then decodes a PNG screenshot (zlib, no
PIL) and checks that it is not blank and shows the first series' colour. Also:
--svg files are XML with the SVG namespace, a document's text cannot inject
markup, bad files and paths are refused in one line (exit 2).

  check_report.py MEMBENCH [CHROMIUM]

Python 3 standard library only. Prints TAP-style "ok - " / "not ok - " lines."""
import json
import math
import os
import shutil
import signal
import struct
import statistics
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_dom  # noqa: E402

BIN, CHROMIUM, TMP = report_dom.setup("membench-report-")
check = report_dom.check


def path(name):
    return os.path.join(TMP, name)


def membench(args, **kw):
    return subprocess.run([BIN] + args, capture_output=True, text=True, cwd=TMP, timeout=120, **kw)


# --- the runs -------------------------------------------------------------------
CPUS = len(os.sched_getaffinity(0))
RUNS = {
    "sweep.json": ["-o", "read", "-o", "copy", "-r", "2", "--sample-ms", "1"],
    "sweep1m.json": ["-o", "read", "-o", "copy", "-s", "1024", "-r", "3", "--sample-ms", "1"],
    # the same again: --baseline judges it against sweep1m.json
    "sweep1m-b.json": ["-o", "read", "-o", "copy", "-s", "1024", "-r", "3", "--sample-ms", "1"],
    "lat.json": ["latency", "--sample-ms", "1", "--min", "4K", "--max", "256K", "--points-per-octave", "2"],
    # 40 visits of 10 ms samples: a host verdict, so its latency whisker is the host interval
    "hostlat.json": ["-o", "latency", "-o", "read", "-s", "256", "-r", "20"],
    "stream.json": ["stream", "-n", "2000000", "--ntimes", "3"],
    "lm.json": ["latency-matrix", "-b", "8M", "--sample-ms", "1"],
    "bwm.json": ["bandwidth-matrix", "-b", "4M", "--window-ms", "5", "--samples", "2"],
}
if CPUS >= 2:
    RUNS["loaded.json"] = ["loaded-latency", "--delays", "0,1000,20000", "--samples", "2", "--sample-ms", "1",
                           "-b", "4M", "--chase-buffer", "4M"]
    RUNS["c2c.json"] = ["c2c", "--matrix", "--cpus", "0,1", "--window", "16K"]
docs = {}
for name, args in RUNS.items():
    p = membench(args + ["--json", name])
    ok = p.returncode == 0 and os.path.exists(path(name))
    if check("run %s: %s" % (name, " ".join(args)), ok, p.stderr):
        docs[name] = json.load(open(path(name)))
hl = [r for r in docs.get("hostlat.json", {}).get("results", []) if r["metric"] == "latency"]
check("hostlat.json: a host verdict, so its latency record has a host interval (the whisker checked below)",
      len(hl) == 1 and hl[0]["summary"]["host_interval"] is not None, hl and hl[0]["summary"])

# A sweep stopped by Ctrl-C once it has some results: its document says complete false.
# One round (-r 1): its points finish one by one; with rounds the points all finish in
# the last round, so the stop raced the run's end (and an end with nothing cut is exit 0).
proc = subprocess.Popen([BIN, "-o", "read", "-o", "copy", "-r", "1", "--sample-ms", "50", "--json", "partial.json"],
                        cwd=TMP, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
deadline = time.time() + 60
while time.time() < deadline:
    try:
        d = json.load(open(path("partial.json")))
        if len(d["results"]) >= 2:
            break
    except (OSError, ValueError, KeyError):
        pass
    time.sleep(0.05)
proc.send_signal(signal.SIGINT)
_, err = proc.communicate(timeout=30)
d = json.load(open(path("partial.json")))
if check("a sweep stopped by Ctrl-C leaves results and complete false (exit 130)",
         proc.returncode == 130 and d["complete"] is False and len(d["results"]) >= 2, (proc.returncode, err)):
    docs["partial.json"] = d

# --- the DOM as Chromium built it (report_dom.py) -------------------------------------


def chromium_args(html_path, extra):
    return report_dom.chromium_args(CHROMIUM, path("chromium-profile"), html_path, extra)


def render(html_path):
    return report_dom.render(CHROMIUM, path("chromium-profile"), html_path)


# --- what the JSON says the page must show ----------------------------------------

LINE_OF = {("sweep", "bandwidth"): "bandwidth", ("sweep", "latency"): "latency", ("latency", "latency"): "latency",
           ("loaded-latency", "latency"): "loaded-latency"}
HEAT = {"latency-matrix", "bandwidth-matrix", "c2c"}


def label(name):
    return os.path.basename(name)


samples = {}  # (run, operation, size, value) -> the record (its raw samples and summary)


def shown(kind, r):
    """The point drawn: the median of the samples (a latency's value; a bandwidth's
    summary.median, its value being the best sample, marked apart)."""
    return r["summary"]["median"] if kind in ("bandwidth",) else r["value"]


def whisker(kind, r):
    """What the page promises: every point is a median, and its whisker is
    the record's summary.host_interval, else its summary.median_interval
    (both checked against its samples' time batches and the run's host verdict by
    tests/cli/check_schema.py), or without either the distribution-free
    95% interval of the samples, x(j)..x(n+1-j) with the largest j such that
    P(Binomial(n, 1/2) < j) <= 2.5% (at least 1). Returned with the name the point's
    tooltip gives it."""
    xs = sorted(r["samples"])
    for key in ("host_interval", "median_interval"):
        mi = r.get("summary", {}).get(key)
        if mi:
            return (mi["low"], mi["high"]), key.replace("_", " ")
    n, j, tail = len(xs), 1, 0.0
    for i in range(n // 2):
        tail += math.comb(n, i) / 2 ** n
        if tail > 0.025:
            break
        j = i + 1
    return (xs[j - 1], xs[n - j]), "median interval"


def two_levels(xs):
    """README "Uncertainty": sorted, the samples jump by 1.5x or more between two neighbours
    with 2 or more on each side (split at the largest such jump): (low n, low median,
    high n, high median), or None."""
    s = sorted(xs)
    best = None
    for i in range(2, len(s) - 1):
        if s[i - 1] > 0 and (best is None or s[i] / s[i - 1] > best[0]):
            best = (s[i] / s[i - 1], i)
    if not best or best[0] < 1.5:
        return None
    i = best[1]
    return (i, statistics.median(s[:i]), len(s) - i, statistics.median(s[i:]))


def expected(names):
    """chart -> {(run, operation): [(size, value), ...]}, heat records, stream records."""
    lines, heats, stream = {}, [], []
    for n in names:
        for r in docs[n]["results"]:
            kind = LINE_OF.get((r["mode"], r["metric"]))
            if kind:
                lines.setdefault(kind, {}).setdefault((label(n), r["operation"]), []).append(
                    (r["size_bytes"], shown(kind, r)))
                samples[(label(n), r["operation"], r["size_bytes"], shown(kind, r))] = r
            elif r["mode"] in HEAT:
                heats.append((label(n), r))
            elif r["mode"] == "stream":
                stream.append((label(n), r))
    return lines, heats, stream


def names_of(labels, names):
    return [n for n in names if label(n) in labels]


def check_page(title, names, root, rc, errors):
    names_all = list(names)
    check("%s: Chromium rendered it (exit 0), no console errors" % title, rc == 0 and not errors, errors)
    scripts = list(root.find("script"))
    check("%s: no script but the fleet table's sort (with 2 runs or more), inline; no external resource (one link: "
          "the installed docs)" % title,
          len(scripts) == (len(names) > 1) and all("src" not in s.attrs and "getElementById('fleet')" in s.all_text()
                                                   for s in scripts) and not any(
              (k in ("src", "href") and not (e.tag == "a" and v.startswith("file:///usr/share/doc/membench/"))) or (isinstance(v, str) and v.startswith(("http:", "https:")) and k != "xmlns")
              for e in root.walk() for k, v in e.attrs.items()))
    lines, heats, stream = expected(names)
    for kind, series in sorted(lines.items()):
        charts = list(root.find("svg", data_chart=kind))
        if not check("%s: one %s chart" % (title, kind), len(charts) == 1, len(charts)):
            continue
        svg = charts[0]
        drawn = {(g.attrs.get("data-run"), g.attrs.get("data-series")): g for g in svg.find("g", cls="series")}
        check("%s: %s chart: one series per run and operation %s" % (title, kind, sorted(series)),
              sorted(drawn) == sorted(series), sorted(drawn))
        for key, points in series.items():
            g = drawn.get(key)
            if g is None:
                continue
            circles = [(int(c.attrs["data-size"]), float(c.attrs["data-value"])) for c in g.find("circle", cls="point")]
            check("%s: %s chart, %s %s: one point per record (%d), by size and median" % (title, kind, key[0], key[1],
                                                                                       len(points)),
                  sorted(circles) == sorted(points), (sorted(circles), sorted(points)))
            bests = sorted(float(b.attrs["data-best"]) for b in g.find("line", cls="best"))
            want_best = sorted(samples[(key[0], key[1], size, v)]["value"] for size, v in points) \
                if kind == "bandwidth" else []
            check("%s: %s chart, %s %s: the best sample (the record's value) marked apart: %s" % (
                  title, kind, key[0], key[1], "one per point" if want_best else "none (the value is the median)"),
                  bests == want_best, (bests, want_best))
            area = next(svg.find("rect", cls="plot-area"))
            lo, hi, scale = (float(area.attrs[k]) for k in ("data-y-lo", "data-y-hi", "data-y-scale"))
            top, bottom = float(area.attrs["y"]), float(area.attrs["y"]) + float(area.attrs["height"])

            def py(v):
                v /= scale
                f = (math.log2(v) - math.log2(lo)) / (math.log2(hi) - math.log2(lo)) \
                    if area.attrs["data-y-log2"] == "true" else (v - lo) / (hi - lo)
                return bottom + min(max(f, 0), 1) * (top - bottom)
            drawn_y = [(float(c.attrs["cy"]), py(float(c.attrs["data-value"]))) for c in g.find("circle", cls="point")]
            check("%s: %s chart, %s %s: each point drawn at its value through the y axis (%s)" % (
                  title, kind, key[0], key[1], "GB/s" if scale == 1000 else "its unit"),
                  all(abs(a - b) <= 0.051 for a, b in drawn_y) and
                  (kind != "bandwidth" or (scale == 1000 and "GB/s" in "".join(
                      t.all_text() for t in svg.find("text", cls="axis-label") if t.attrs.get("data-axis") == "y"))),
                  drawn_y)
            hollow = [("two-levels" in c.classes(), c.all_text()) for c in g.find("circle", cls="point")]
            want_two = [two_levels(samples[(key[0], key[1], size, value)]["samples"]) for size, value in circles]
            check("%s: %s chart, %s %s: hollow, with both levels in the tooltip, exactly the points whose samples "
                  "fell in two levels (%d)" % (title, kind, key[0], key[1], sum(w is not None for w in want_two)),
                  [h for h, _ in hollow] == [w is not None for w in want_two] and
                  all(w is None or "fell in two levels, %d near %.4g and %d near %.4g" % w in t
                      for (_, t), w in zip(hollow, want_two)), (hollow, want_two))
            whiskers = [(float(w.attrs["data-low"]), float(w.attrs["data-high"])) for w in g.find("line", cls="whisker")]
            want = [whisker(kind, samples[(key[0], key[1], size, value)]) for size, value in circles]
            check("%s: %s chart, %s %s: a whisker per point: %s" % (
                  title, kind, key[0], key[1], "the record's host (else median) interval" if kind != "bandwidth"
                  else "the record's host (else median) interval"), whiskers == [w for w, _ in want], (whiskers, want))
            tips = [t for _, t in hollow]
            check("%s: %s chart, %s %s: each tooltip names its whisker (%s)" % (
                  title, kind, key[0], key[1], sorted({n for _, n in want})),
                  all(" (%s %.6g to %.6g)" % (n, w[0], w[1]) in t for t, (w, n) in zip(tips, want)), (tips, want))
            check("%s: %s chart, %s %s: the tooltip gives the best sample when it is marked" % (title, kind, key[0], key[1]),
                  kind != "bandwidth" or all("; best sample %.6g" % samples[(key[0], key[1], size, v)]["value"] in t
                                             for t, (size, v) in zip(tips, circles)), tips)
        labels = {t.attrs.get("data-axis"): t.all_text().strip() for t in svg.find("text", cls="axis-label")}
        check("%s: %s chart: x and y axis labels" % (title, kind), bool(labels.get("x")) and bool(labels.get("y")),
              labels)
        runs = sorted({k[0] for k in series})
        legend_runs = sorted(g.attrs.get("data-run") for g in svg.find("g", cls="legend-run"))
        legend_ops = sorted(g.attrs.get("data-series") for g in svg.find("g", cls="legend-series"))
        check("%s: %s chart: legend names each run %s and each operation" % (title, kind, runs),
              legend_runs == runs and legend_ops == sorted({k[1] for k in series}), (legend_runs, legend_ops))
        if kind in ("bandwidth", "latency"):
            xs = [p[0] for pts in series.values() for p in pts]
            lo, hi = min(xs), max(xs)
            runs_here = {k[0] for k in series}
            reported = set()
            for n in names:
                if label(n) not in runs_here:
                    continue
                for level, c in docs[n]["topology"].get("levels_used", {}).items():
                    share = docs[n]["plan"].get(level + "_share_bytes")  # a sweep's sizes are per thread
                    size = share if share and share < c["size_bytes"] else c["size_bytes"]
                    if lo / 2 < size < hi * 2:
                        reported.add(size)
            measured = {c["measured_bytes"] for n in names if label(n) in runs_here and docs[n]["mode"] == "latency"
                        for c in docs[n]["analysis"].get("cache_checks", [])
                        if c["checkable"] and c["measured_bytes"]} \
                if kind == "latency" else set()
            marks = [(int(g.attrs["data-size"]), g.attrs["data-measured"]) for g in svg.find("g", cls="cache-marker")]
            inside = lambda v: v >= 2 ** int.bit_length(int(lo) - 1) / 2 and v <= 2 ** int.bit_length(int(hi))
            check("%s: %s chart: reported cache sizes %s and measured ones %s marked" % (title, kind, sorted(reported),
                                                                                       sorted(measured)),
                  {v for v, m in marks if m == "false"} >= {v for v in reported if lo <= v <= hi} and
                  {v for v, m in marks if m == "true"} == {v for v in measured if inside(v)}, marks)
            # each reported cache's line names where its size came from, as the run's JSON says
            src_names = {"default": "default", "sysfs": "sysfs", "cpuid_leaf4": "CPUID leaf 4",
                     "cpuid_8000001d": "CPUID 0x8000001D", "cpuid_amd_legacy": "CPUID 0x80000005/6",
                     "device_tree": "device tree", "cpuinfo": "/proc/cpuinfo", "measured": "measured"}
            sources = {lv: src_names[c["source"]] for n in names_of(runs_here, names_all) for lv, c in
                       docs[n]["topology"].get("levels_used", {}).items()}
            labels_ = [g.all_text().strip() for g in svg.find("g", cls="cache-marker") if g.attrs["data-measured"] == "false"]
            check("%s: %s chart: each cache line labelled with its source %s" % (title, kind, sorted(set(sources.values()))),
                  bool(labels_) and all(l.endswith("(%s)" % sources.get(l.split()[0], "?")) for l in labels_), labels_)
        ticks = [t for t in svg.find("text", cls="tick")]
        check("%s: %s chart: tick labels on both axes" % (title, kind),
              {t.attrs.get("data-axis") for t in ticks} == {"x", "y"})
    if heats:
        drawn = []
        for svg in root.find("svg", cls="chart"):
            if svg.attrs.get("data-chart") in HEAT:
                for g in svg.find("g", cls="cells"):
                    for c in g.find("g", cls="cell"):
                        if "data-value" in c.attrs:
                            drawn.append((g.attrs.get("data-run"), float(c.attrs["data-value"])))
        want = [(n, r["value"]) for n, r in heats]
        check("%s: heatmaps: one cell per matrix record (%d), with its value" % (title, len(want)),
              sorted(drawn) == sorted(want), (sorted(drawn), sorted(want)))
        placed = []
        for svg in root.find("svg", cls="chart"):
            for g in svg.find("g", cls="cells"):
                placed += [(svg.attrs.get("data-chart"), g.attrs.get("data-run"), c.attrs["data-row"],
                            c.attrs["data-col"], float(c.attrs["data-value"]))
                           for c in g.find("g", cls="cell") if "data-value" in c.attrs]
        where = []
        for n, r in heats:
            if r["mode"] == "c2c":  # the writer's CPU is the row, the reader's the column
                row, col = "CPU %d" % r["placement"][0]["cpu"], "CPU %d" % r["placement"][1]["cpu"]
            elif r["mode"] == "latency-matrix" and docs[n]["plan"].get("every_cpu"):
                row, col = "CPU %d" % r["placement"][0]["cpu"], "node %d" % r["params"]["mem_node"]
            else:
                row, col = "node %d" % r["params"]["cpu_node"], "node %d" % r["params"]["mem_node"]
            where.append((r["mode"], n, row, col, r["value"]))
        check("%s: heatmaps: each record in the cell of its CPU (node) and memory node (reader)" % title,
              sorted(placed) == sorted(where), (sorted(placed), sorted(where)))
        shown = [t.all_text() for t in root.find("text", cls="cell-value")]
        check("%s: heatmaps: every cell shows its number" % title,
              len([s for s in shown if s.strip() not in ("", "-")]) >= len(want), shown)
    if stream:
        rows = [(tr.attrs.get("data-run"), tr.attrs.get("data-operation"), float(tr.attrs["data-value"]))
                for t in root.find("table", cls="stream") for tr in t.find("tr", cls="result")]
        want = [(n, r["operation"], r["value"]) for n, r in stream]
        check("%s: STREAM table: one row per record" % title, sorted(rows) == sorted(want), (rows, want))
        for n in names:
            rs = [r for r in docs[n]["results"] if r["mode"] == "stream"]
            best = {}
            for r in rs:
                k = (r["operation"], r["kernel"]["stores"])
                best[k] = max(best.get(k, 0), r["value"])
            both = {st for _, st in best} >= {"regular", "non-temporal"}
            bars = sorted((b.attrs["data-operation"], b.attrs["data-stores"], float(b.attrs["data-value"]))
                          for g in root.find("g", cls="bars", data_run=label(n)) for b in g.find("g", cls="bar"))
            check("%s: %s: STREAM chart %s" % (title, n, "a bar per kernel and stores, the best of each" if both else
                                              "absent (one kind of stores)"),
                  bars == sorted((o, st, v) for (o, st), v in best.items()) if both else not bars, (bars, best))
        check("%s: no 'No peak' text" % title, "No peak" not in root.all_text())
    for n in names:
        banners = list(root.find("div", cls="incomplete", data_run=label(n)))
        check("%s: %s: incomplete banner %s" % (title, n, "shown" if not docs[n]["complete"] else "absent"),
              len(banners) == (0 if docs[n]["complete"] else 1))
        host = [e for e in root.find("tr", cls="fact-host")]
        check("%s: %s: host, CPU and kernel shown" % (title, n),
              host and docs[n]["host"]["hostname"] in host[0].all_text() and
              docs[n]["host"]["kernel"] in "".join(e.all_text() for e in root.find("tr", cls="fact-kernel")) and
              docs[n]["host"]["cpu_model"] in "".join(e.all_text() for e in root.find("tr", cls="fact-CPU")))
        sec = list(root.find("section", cls="run", data_run=label(n)))
        warned = [li.all_text() for s in sec for li in s.find("li", cls="warning")]
        check("%s: %s: every warning of the run (%d)" % (title, n, len(docs[n]["warnings"])),
              sorted(warned) == sorted(docs[n]["warnings"]), (warned, docs[n]["warnings"]))
        kinds = [(int(d.attrs["data-count"]), d.all_text()) for s in sec for d in s.find("details", cls="warning-kind")]
        check("%s: %s: warnings collapsed by kind, each count its lines" % (title, n),
              sum(c for c, _ in kinds) == len(docs[n]["warnings"]) and
              all(len(list(d.find("li", cls="warning"))) == int(d.attrs["data-count"]) and
                  next(d.find("summary")).all_text().startswith(d.attrs["data-count"] + " ")
                  for s in sec for d in s.find("details", cls="warning-kind")), kinds)
        check_headline(title, n, root)
    text = root.all_text()
    check("%s: the methods said once, not under every chart" % title, text.count("How to read the charts") == 1)


MARKED = set()  # (document, headline key) whose figure must say MAY NOT BE DRAM


def want_headline(d):
    """docs/report.md, "First screen": what the headline must give for a run, from its JSON."""
    levels = {k: v for k, v in d["topology"].get("levels_used", {}).items() if v.get("size_bytes")}
    llc = max(levels) if levels else None
    dram_from = 0
    if llc:
        share = d["plan"].get(llc + "_share_bytes")
        dram_from = share if share and share < levels[llc]["size_bytes"] else levels[llc]["size_bytes"]
    want = {}
    for key, metric, op in (("dram-read", "bandwidth", "read"), ("dram-write", "bandwidth", "write"),
                            ("dram-copy", "bandwidth", "copy"), ("idle-latency", "latency", None)):
        rs = [r for r in d["results"] if r["metric"] == metric and (op is None or r["operation"] == op) and
              (r["mode"] == "sweep" or (metric == "latency" and (r["mode"] == "latency" or
                                                                 r["operation"] == "idle-latency")))]
        big = max(rs, key=lambda r: r["size_bytes"]) if rs else None
        limit = dram_from if d["mode"] == "sweep" or not llc else levels[llc]["size_bytes"]
        if big and "may_fit_cache" in big:  # planned for DRAM: shown, and marked when it may not be
            want[key] = big["value"]
            if big["may_fit_cache"] or big.get("dram_check", {}).get("verdict") == "not_dram":
                MARKED.add((id(d), key))
        else:
            want[key] = big["value"] if big and not (limit and big["size_bytes"] <= limit) else None
    triads = [r for r in d["results"] if r["mode"] == "stream" and r["operation"] == "triad"]
    if triads or d["mode"] == "stream":
        best = max(triads, key=lambda r: r["value"]) if triads else None
        want["stream-triad"] = best["value"] if best else None
        if best and best.get("may_fit_cache"):
            MARKED.add((id(d), "stream-triad"))
    return want, llc and levels[llc]


def check_headline(title, n, root):
    heads = list(root.find("section", cls="headline", data_run=label(n)))
    if not check("%s: %s: a headline block" % (title, n), len(heads) == 1, len(heads)):
        return
    want, llc = want_headline(docs[n])
    got = {dd.attrs["data-figure"]: (float(dd.attrs["data-value"]) if "data-value" in dd.attrs else None,
                                     dd.all_text()) for dd in heads[0].find("dd", cls="figure")}
    check("%s: %s: headline figures are the JSON's, a missing one says so %s" % (title, n, want),
          all(k in got and got[k][0] == v and (v is not None or "not measured" in got[k][1]) for k, v in want.items())
          and not ("stream-triad" in got and "stream-triad" not in want), got)
    marked = [k for k in want if (id(docs[n]), k) in MARKED]
    check("%s: %s: a DRAM figure below the rule, or whose check saw a cache, says it may not be DRAM's (%s)"
          % (title, n, marked), all("MAY NOT BE DRAM" in got[k][1] for k in marked) and
          all("MAY NOT BE DRAM" not in got[k][1] for k in want if k not in marked and k in got), got)
    shown_gbs = [(got[k][1], v) for k, v in want.items() if v is not None and k != "idle-latency"]
    check("%s: %s: headline bandwidths in GB/s" % (title, n),
          all(("%.3g GB/s" % (v / 1000)) in t for t, v in shown_gbs), shown_gbs)
    source = {"sysfs": "sysfs", "measured": "measured", "cpuid_leaf4": "CPUID"}.get(llc["source"], "") if llc else ""
    check("%s: %s: the LLC with its source (%s)" % (title, n, llc and llc["source"]),
          "llc" in got and (not llc or (source in got["llc"][1] and "%d MiB" % (llc["size_bytes"] >> 20) in got["llc"][1]
                                        if llc["size_bytes"] >= 1 << 20 else True)), got.get("llc"))
    hn = docs[n].get("host_noise")
    verdict = "no verdict" if not hn or hn.get("varied_pct") is None else "noisy" if hn["flagged"] else "quiet"
    check("%s: %s: the noise verdict (%s)" % (title, n, verdict), "noise" in got and got["noise"][1].startswith(verdict),
          got.get("noise"))
    first = root.all_text()
    check("%s: %s: the headline before the charts and the run table" % (title, n),
          first.find("DRAM read") < first.find("Runs") and first.find("DRAM read") >= 0)


def report(out, names, extra=()):
    return membench(["report"] + list(names) + ["-o", out] + list(extra))


def png_pixels(png):
    """(width, height, rows of RGB(A) tuples) of an 8-bit RGB/RGBA PNG."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, ihdr = 8, b"", None
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", data)
        elif kind == b"IDAT":
            idat += data
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    assert depth == 8 and ctype in (2, 6) and interlace == 0, ihdr
    bpp = 3 if ctype == 2 else 4
    raw, stride, prev, rows, i = zlib.decompress(idat), w * bpp, bytearray(w * bpp), [], 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def check_screenshot(title, html_path, png_path):
    p = subprocess.run(chromium_args(html_path, ["--screenshot=" + png_path, "--window-size=1000,1400"]),
                       capture_output=True, text=True, timeout=120)
    if not check("%s: screenshot written" % title, p.returncode == 0 and os.path.exists(png_path), p.stderr[-500:]):
        return
    w, h, bpp, rows = png_pixels(open(png_path, "rb").read())
    colours, non_white, read_blue = set(), 0, 0
    for row in rows:
        for x in range(0, w * bpp, bpp):
            px = row[x:x + 3]
            colours.add(px)
            non_white += px != b"\xff\xff\xff"
            read_blue += px == b"\x1f\x77\xb4"  # the first operation's colour (#1f77b4)
    check("%s: screenshot is not blank (%d colours, %.1f%% not white)" % (title, len(colours), 100 * non_white / (w * h)),
          len(colours) >= 16 and non_white > w * h // 50)
    check("%s: screenshot shows the first series' colour (%d pixels)" % (title, read_blue), read_blue >= 50)


# --- reports ------------------------------------------------------------------
if not CHROMIUM:
    check("chromium is installed (Debian: apt-get install chromium)", False)
else:
    pages = []
    if "sweep.json" in docs:
        pages.append(("single sweep", ["sweep.json"]))
    overlay = [n for n in ("sweep.json", "sweep1m.json", "partial.json", "lat.json") if n in docs]
    pages.append(("overlay", overlay))
    # every kind of chart, at most 8 runs (REPORT_CHART_RUNS): more are a fleet's table, without charts
    kinds = [n for n in ("sweep.json", "lat.json", "hostlat.json", "stream.json", "lm.json", "bwm.json", "loaded.json",
                         "c2c.json") if n in docs]
    pages.append(("all kinds", kinds))
    pages.append(("the rest", [n for n in sorted(docs) if n not in kinds]))
    for title, names in pages:
        out = path(title.replace(" ", "-") + ".html")
        p = report(out, names)
        if not check("%s: membench report %s exits 0" % (title, " ".join(names)), p.returncode == 0, p.stderr):
            continue
        incomplete = [n for n in names if not docs[n]["complete"]]
        check("%s: a warning names each incomplete run" % title,
              all(n in p.stderr for n in incomplete) and p.stderr.count("\n") == len(incomplete), p.stderr)
        root, rc, errors = render(out)
        check_page(title, names, root, rc, errors)
    check_screenshot("single sweep", path("single-sweep.html"), path("single-sweep.png"))

    # More than 8 runs: the fleet's table (tests/report/check_fleet.py checks it in full), no charts.
    p = report(path("fleet.html"), sorted(docs))
    if check("fleet of %d runs: membench report exits 0" % len(docs), p.returncode == 0, p.stderr):
        root, rc, errors = render(path("fleet.html"))
        rows = [tr.attrs["data-run"] for tr in root.find("tr", cls="fleet-run")]
        check("fleet of %d runs: a row per run, a note for the charts left out, no chart; no console error" % len(docs),
              rc == 0 and not errors and sorted(rows) == sorted(docs) and len(list(root.find("p", cls="fleet-note"))) == 1
              and not list(root.find("svg")), (rows, errors))

    # --svg: every chart a standalone SVG, valid XML in the SVG namespace.
    os.mkdir(path("svg"))
    p = report(path("svg.html"), kinds, ["--svg", path("svg")])
    files = sorted(os.listdir(path("svg")))
    lines, heats, _ = expected(kinds)
    want_lines = sorted(k + ".svg" for k in lines)
    groups = {(n, r["mode"], r["operation"] if r["mode"] == "bandwidth-matrix" else r["params"].get("state", ""))
              for n, r in heats}
    check("--svg: a file per line chart %s and per heatmap (%d)" % (want_lines, len(groups)),
          p.returncode == 0 and all(f in files for f in want_lines) and len(files) == len(want_lines) + len(groups),
          (files, p.stderr))
    good = True
    for f in files:
        try:
            root = ET.parse(path("svg/" + f)).getroot()
            good &= root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("data-chart") is not None
        except ET.ParseError as e:
            good = False
            print("    %s: %s" % (f, e))
    check("--svg: every file is XML with the SVG namespace", good and bool(files), files)
    if "bandwidth.svg" in files:
        circles = ET.parse(path("svg/bandwidth.svg")).getroot().iter("{http://www.w3.org/2000/svg}circle")
        n = sum(1 for _ in circles)
        check("--svg: bandwidth.svg holds the same points as the page (%d)" % n,
              n == sum(len(v) for v in lines.get("bandwidth", {}).values()))
    check("--svg: no temporary file left beside the charts or the page",
          not [f for f in os.listdir(TMP) + files if ".tmp" in f], os.listdir(TMP))

    # --baseline: each figure of the other run as B/A with compare's verdict, the same as
    # `membench compare A B --json` says, in a table and on the ratio chart.
    if "sweep1m.json" in docs and "sweep1m-b.json" in docs:
        p = report(path("baseline.html"), ["sweep1m-b.json"], ["--baseline", "sweep1m.json"])
        c = membench(["compare", "sweep1m.json", "sweep1m-b.json", "--json", "cmp.json"])
        if check("--baseline: membench report exits 0", p.returncode == 0 and os.path.exists(path("cmp.json")),
                 (p.stderr, c.stderr)):
            root, rc, errors = render(path("baseline.html"))
            check_page("baseline", ["sweep1m.json", "sweep1m-b.json"], root, rc, errors)
            figs = json.load(open(path("cmp.json")))["figures"]
            want = sorted((f["operation"], f["size_bytes"], f["verdict"], f["ratio"]) for f in figs)
            rows = sorted((tr.attrs["data-operation"], int(tr.attrs["data-size"]), tr.attrs["data-verdict"],
                           float(tr.attrs["data-ratio"]))
                          for t in root.find("table", cls="baseline", data_run="sweep1m-b.json")
                          for tr in t.find("tr", cls="verdict"))
            check("--baseline: a row per figure with compare's verdict and B/A", rows == want, (rows, want))
            pts = sorted((c.attrs["data-verdict"], float(c.attrs["data-value"]))
                         for svg in root.find("svg", data_chart="ratio") for c in svg.find("circle", cls="point"))
            told = sorted((f["verdict"], f["ratio"]) for f in figs if f["ratio_low"])
            check("--baseline: the ratio chart has a point per figure with an interval, at B/A", pts == told,
                  (pts, told))

    # Text from a document is data: a host name or warning holding markup is shown, not run.
    if "sweep1m.json" in docs:
        evil = json.loads(json.dumps(docs["sweep1m.json"]))
        evil["host"]["hostname"] = "<script>alert(1)</script>"
        evil["warnings"] = ["<img src=x onerror=alert(2)> & \"quoted\""]
        evil["results"][0]["operation"] = "re\"ad<b>"
        evil["topology"]["thp_mode"] = "<script>alert(3)</script> & co"
        evil["topology"]["cpus_usable"] = "0-1<i>"
        json.dump(evil, open(path("evil.json"), "w"))
        p = report(path("evil.html"), [path("evil.json")])
        page = open(path("evil.html")).read() if p.returncode == 0 else ""
        root, rc, errors = render(path("evil.html"))
        check("a host name, warning and operation holding markup are escaped, not markup",
              p.returncode == 0 and "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script" not in page and
              not list(root.find("script")) and not list(root.find("img")) and not list(root.find("b")) and
              "<script>alert(1)</script>" in "".join(e.all_text() for e in root.find("tr", cls="fact-host")) and
              any(g.attrs.get("data-series") == "re\"ad<b>" for g in root.find("g", cls="series")), p.stderr)
        topo = "".join(e.all_text() for e in root.find("tr", cls="fact-topology"))
        check("topology fields holding markup (THP mode, usable CPUs) are escaped, shown as text",
              "<script>alert(3)</script> & co" in topo and "(0-1<i>)" in topo and "0-1<i>" not in page and
              "&lt;script&gt;alert(3)&lt;/script&gt; &amp; co" in page, topo)

    # A latency point whose samples fell in two levels is drawn hollow (checked on every
    # point by check_page; this run makes sure there is one).
    if "lat.json" in docs:
        two = json.loads(json.dumps(docs["lat.json"]))
        r = two["results"][0]
        m = r["summary"]["median"]
        r["samples"] = [m, m * 1.01, m * 1.02, 8 * m, 8.1 * m]
        r.pop("sample_rounds", None)
        r.pop("sample_end_s", None)
        docs["two-levels.json"] = two
        json.dump(two, open(path("two-levels.json"), "w"))
        p = report(path("two-levels.html"), ["two-levels.json"])
        if check("two-levels.json: membench report exits 0", p.returncode == 0, p.stderr):
            root, rc, errors = render(path("two-levels.html"))
            check_page("two levels", ["two-levels.json"], root, rc, errors)
            hollow = [c for c in root.find("circle", cls="two-levels")]
            check("two levels: the doctored point is hollow",
                  len(hollow) >= 1 and any(int(c.attrs["data-size"]) == r["size_bytes"] for c in hollow),
                  [c.attrs for c in hollow])

# --- bad input ------------------------------------------------------------------
open(path("notjson.json"), "w").write("{\"tool\": \"membench\",")
open(path("other.json"), "w").write("{\"tool\": \"sysbench\", \"schema\": 2}")
if "sweep1m.json" in docs:
    d1 = dict(docs["sweep1m.json"], schema=1)
    json.dump(d1, open(path("schema1.json"), "w"))
    text = json.dumps(docs["sweep1m.json"])
    open(path("truncated.json"), "w").write(text[:len(text) // 2])
with open(path("huge.json"), "wb") as f:
    f.truncate(300 << 20)  # sparse: over the 256 MiB limit, refused from its size
bad = [(["notjson.json", "-o", "x.html"], "notjson.json"), (["other.json", "-o", "x.html"], "other.json"),
       (["schema1.json", "-o", "x.html"], "schema1.json"), (["truncated.json", "-o", "x.html"], "truncated.json"),
       (["huge.json", "-o", "x.html"], "huge.json"), (["missing.json", "-o", "x.html"], "missing.json"),
       (["sweep1m.json"], "-o"), (["-o", "x.html"], "run file"), (["sweep1m.json", "-o", TMP], TMP),
       (["sweep1m.json", "-o", "x.html", "--svg", "nodir"], "nodir"),
       (["sweep1m.json", "-o", "x.html", "--svg", "sweep1m.json"], "sweep1m.json"),
       (["sweep.json", "sweep1m.json", "-o", "sweep1m.json"], "overwrite"),
       (["sweep1m.json", "--baseline", "missing.json", "-o", "x.html"], "missing.json"),
       (["sweep1m.json", "-o", "x.html", "--baseline"], "--baseline"),
       (["--baseline", "-o", "x.html", "sweep1m.json"], "--baseline"),
       (["--baseline", "sweep1m.json", "-o", "x.html"], "--baseline sweep1m.json")]
for args, named in bad:
    if not os.path.exists(path(args[0])) and args[0].endswith(".json") and args[0] != "missing.json":
        continue
    p = membench(["report"] + args)
    check("report %s: exit 2, one line naming %s, no report written" % (" ".join(args), named),
          p.returncode == 2 and p.stderr.count("\n") == 1 and named in p.stderr and p.stdout == "" and
          not os.path.exists(path("x.html")), (p.returncode, p.stderr))
if "sweep1m.json" in docs:
    check("a refused -o leaves the run it named as it was", json.load(open(path("sweep1m.json"))) == docs["sweep1m.json"])

shutil.rmtree(TMP, ignore_errors=True)
print("%s: %d failed" % (os.path.basename(sys.argv[0]), report_dom.failures))
sys.exit(1 if report_dom.failures else 0)
