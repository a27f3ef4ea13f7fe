#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make check-report, part two: membench report of a fleet (docs/report.md, "A fleet").

Makes a real short sweep and a STREAM run, then about 500 runs from them by
editing run_info (host name, CPU, vCPUs, NUMA nodes) and scaling the figures,
some without a write, a latency or a Triad, some with hostile text; reports them
and checks, against the JSON:
  - the page: a row per run, each figure in its own column (read not write), DRAM
    read per thread over the read record's threads, a missing figure an empty cell
    whose title says why (never 0), text escaped, no chart but a note;
  - the CSV (--csv): the documented columns, a row per run, plain numbers, empty
    for a missing figure, text that a spreadsheet would take for a formula led by ';
  - sorting in Chromium: a header clicked (once, twice) orders the rows by the
    column's numbers (not as text), empty cells last either way;
  - a few runs keep their charts beside the table; bad input is refused in one
    line, exit status 2, nothing written.
Timings are not asserted.

  check_fleet.py MEMBENCH [CHROMIUM]

Python 3 standard library only. Prints TAP-style "ok - " / "not ok - " lines."""
import copy
import csv
import json
import os
import random
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_dom  # noqa: E402

BIN, CHROMIUM, TMP = report_dom.setup("membench-fleet-")
check = report_dom.check
CSV_COLUMNS = ["run", "hostname", "cpu_model", "vcpus", "numa_nodes", "mode", "dram_read_gb_s", "dram_write_gb_s",
               "dram_copy_gb_s", "idle_latency_ns", "random_latency_ns", "llc_level", "llc_bytes", "llc_source", "stream_triad_gb_s",
               "dram_read_per_thread_gb_s", "dram_read_threads", "noise", "host_varied_pct"]  # docs/report.md
HOSTILE = ["<script>alert(1)</script>", "=cmd|' /C calc'!A0", "+1+2", "-3", "@SUM(A1)", "a,b\"c\nd", "x\" onmouseover=\"y"]


def path(name):
    return os.path.join(TMP, name)


def membench(args):
    return subprocess.run([BIN] + args, capture_output=True, text=True, cwd=TMP, timeout=300)


# --- the fleet ------------------------------------------------------------------------
p = membench(["-o", "read", "-o", "write", "-o", "copy", "-o", "latency", "-s", "65536", "-r", "1", "--sample-ms", "2",
              "--latency-sample-ms", "2", "--json", "sweep.json"])
q = membench(["stream", "-n", "200000", "--ntimes", "2", "--json", "stream.json"])
if not check("a real sweep and STREAM run to copy", p.returncode == 0 and q.returncode == 0, p.stderr + q.stderr):
    sys.exit(1)
sweep, stream = json.load(open(path("sweep.json"))), json.load(open(path("stream.json")))
# the 64 MiB buffers count as DRAM: an L3 of 32 MiB, 16 MiB per thread
sweep["topology"]["levels_used"]["L3"]["size_bytes"] = 32 << 20
sweep["plan"]["L3_share_bytes"] = 16 << 20
rnd = random.Random(38)
docs = {}
for i in range(500):
    base = stream if i % 25 == 3 else sweep
    d = copy.deepcopy(base)
    d["host"]["hostname"] = HOSTILE[i // 40] if i % 40 == 17 and i // 40 < len(HOSTILE) else "host-%03d" % i
    d["host"]["cpu_model"] = HOSTILE[(i // 40 + 3) % len(HOSTILE)] if i % 40 == 29 else \
        rnd.choice(["Xeon 8480", "EPYC 9654", "Graviton3", "Xeon 6980P"])
    d["topology"]["cpus_online"] = rnd.choice([2, 4, 16, 96, 192])
    d["topology"]["numa_nodes"] = d["topology"]["numa_nodes"] * rnd.choice([1, 2, 4])
    factor = rnd.uniform(0.05, 3)  # 1 to 60 GB/s: as text, "9000" would sort after "12000"
    for r in d["results"]:
        r["value"] *= factor
    if i % 7 == 0:
        d["results"] = [r for r in d["results"] if r["operation"] != "write"]
    if i % 11 == 0:
        d["results"] = [r for r in d["results"] if r["operation"] != "latency"]
    if i % 13 == 0:
        for r in d["results"]:
            r["threads"] = 1 if r["operation"] == "read" else r["threads"]
    name = "%s%03d.json" % ("s" if base is stream else "f", i)
    json.dump(d, open(path(name), "w"))
    docs[name] = d
names = sorted(docs)


def figures(d):
    """What the page and CSV must give, from the JSON (docs/report.md): DRAM figures are
    the sweep's records past the L3's per-thread share; Triad the best STREAM triad."""
    share = d["plan"].get("L3_share_bytes") or 0
    want = {}
    for key, op in (("dram-read", "read"), ("dram-write", "write"), ("dram-copy", "copy"), ("idle-latency", "latency")):
        rs = [r for r in d["results"] if r["mode"] == "sweep" and r["operation"] == op and r["size_bytes"] > share]
        want[key] = max(rs, key=lambda r: r["size_bytes"]) if rs else None
    triads = [r for r in d["results"] if r["mode"] == "stream" and r["operation"] == "triad"]
    want["stream-triad"] = max(triads, key=lambda r: r["value"]) if triads else None
    return want


def value(rec):
    return rec["value"] if rec else None


# --- the page ---------------------------------------------------------------------------
p = membench(["report"] + names + ["-o", "fleet.html", "--csv", "fleet.csv"])
check("report of %d runs -o fleet.html --csv fleet.csv: exit 0, nothing said" % len(names),
      p.returncode == 0 and p.stderr == "" and p.stdout == "", p.stderr)
page = open(path("fleet.html")).read() if os.path.exists(path("fleet.html")) else ""
parser = report_dom.DomParser()
parser.feed(page)
root = parser.root
rows = {tr.attrs.get("data-run"): {td.attrs["data-col"]: td for td in tr.find("td")}
        for tr in root.find("tr", cls="fleet-run")}
check("the page: a row per run (%d)" % len(names), sorted(rows) == names, len(rows))
bad = []
for n in names:
    d, cells = docs[n], rows.get(n, {})
    want = figures(d)
    for key, rec in want.items():
        td = cells.get(key)
        if td is None:
            bad.append((n, key, "no cell"))
        elif rec is None and not ("data-value" not in td.attrs and td.all_text() == "" and
                                  td.attrs.get("title", "").startswith("not measured")):
            bad.append((n, key, "a missing figure not empty with why", td.attrs, td.all_text()))
        elif rec is not None and float(td.attrs.get("data-value", "nan")) != rec["value"]:
            bad.append((n, key, td.attrs.get("data-value"), rec["value"]))
    read = want["dram-read"]
    per = cells.get("read-per-thread")
    if read and (per is None or abs(float(per.attrs["data-value"]) - read["value"] / read["threads"]) > 1e-9 * read["value"]
                 or cells["read-threads"].attrs.get("data-value") != str(read["threads"])):
        bad.append((n, "read-per-thread", per and per.attrs, read["value"], read["threads"]))
    for key, want_text in (("host", d["host"]["hostname"]), ("cpu", d["host"]["cpu_model"]),
                           ("vcpus", str(d["topology"]["cpus_online"])),
                           ("numa-nodes", str(len(d["topology"]["numa_nodes"])))):
        got = cells.get(key)
        if got is None or got.all_text() != want_text:
            bad.append((n, key, got and got.all_text(), want_text))
check("the page: each figure in its own column at the JSON's value (read is read, write is write), per thread "
      "over the read record's threads, a missing one empty with why, never 0; host, CPU, vCPUs, NUMA nodes as the "
      "run says", not bad, bad[:5])
check("the page: hostile host names and CPUs are text, not markup (one script: the sort)",
      page.count("<script") == 1 and "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
      and not any("onmouseover" in e.attrs for e in root.walk()), page.count("<script"))
check("the page: no chart, and it says why (more than 8 runs)",
      "<svg" not in page and len(list(root.find("p", cls="fleet-note"))) == 1 and
      "more than 8" in next(root.find("p", cls="fleet-note")).all_text())

# --- the CSV ----------------------------------------------------------------------------
table = list(csv.reader(open(path("fleet.csv"), newline=""))) if os.path.exists(path("fleet.csv")) else [[]]
check("the CSV: the documented columns, units in their names", table[0] == CSV_COLUMNS, table[0])
by_run = {r[0]: dict(zip(table[0], r)) for r in table[1:]}
check("the CSV: a row per run (%d), one line each" % len(names),
      sorted(by_run) == names and len(table) == len(names) + 1 and
      open(path("fleet.csv")).read().count("\n") == len(names) + 1, len(table))


def neutral(s):
    s = "".join(" " if ord(c) < 32 else c for c in s)
    return "'" + s if s[:1] in ("=", "+", "-", "@") else s


bad = []
for n in names:
    d, row = docs[n], by_run.get(n, {})
    want = figures(d)
    for col, key, scale, digits in (("dram_read_gb_s", "dram-read", 1000, 4), ("dram_write_gb_s", "dram-write", 1000, 4),
                                    ("dram_copy_gb_s", "dram-copy", 1000, 4), ("idle_latency_ns", "idle-latency", 1, 3),
                                    ("stream_triad_gb_s", "stream-triad", 1000, 4)):
        v = value(want[key])
        if row.get(col) != ("" if v is None else "%.*f" % (digits, v / scale)):
            bad.append((n, col, row.get(col), v))
    read = want["dram-read"]
    if row.get("dram_read_per_thread_gb_s") != ("" if not read else "%.4f" % (read["value"] / read["threads"] / 1000)):
        bad.append((n, "per thread", row.get("dram_read_per_thread_gb_s"), read and read["threads"]))
    if row.get("hostname") != neutral(d["host"]["hostname"]) or row.get("cpu_model") != neutral(d["host"]["cpu_model"]):
        bad.append((n, row.get("hostname"), row.get("cpu_model")))
    if (row.get("vcpus"), row.get("numa_nodes")) != (str(d["topology"]["cpus_online"]),
                                                     str(len(d["topology"]["numa_nodes"]))):
        bad.append((n, row.get("vcpus"), row.get("numa_nodes")))
check("the CSV: each figure in its column (GB/s, ns), empty when not measured, per thread over the read's threads; "
      "text that would be a formula led by ', quotes and commas kept", not bad, bad[:5])
check("the CSV: plain numbers (no thousands separator, no unit) in every number column",
      all(all(c == "" or c.replace(".", "", 1).isdigit() for c in (r[k] for k in CSV_COLUMNS
                                                                   if k not in ("run", "hostname", "cpu_model", "mode",
                                                                                "llc_level", "llc_source", "noise")))
          for r in by_run.values()))

# --- sorting in Chromium ----------------------------------------------------------------
def sorted_by(clicks):
    """The runs in the order the page shows after the header of each column in clicks was clicked."""
    script = "".join("document.querySelector('th[data-col=\"%s\"]').click();" % c for c in clicks)
    out = path("clicked.html")
    open(out, "w").write(page.replace("</body>", "<script>%s</script></body>" % script))
    root, rc, errors = report_dom.render(CHROMIUM, path("chromium-profile"), out)
    return [tr.attrs["data-run"] for tr in root.find("tr", cls="fleet-run")], rc, errors


def want_order(key, descending):
    have = [n for n in names if value(figures(docs[n])[key]) is not None]
    have.sort(key=lambda n: value(figures(docs[n])[key]), reverse=descending)
    return have + [n for n in names if value(figures(docs[n])[key]) is None]


if not CHROMIUM:
    check("chromium is installed (Debian: apt-get install chromium)", False)
else:
    for key, clicks in (("dram-read", 1), ("dram-write", 2), ("idle-latency", 1), ("stream-triad", 2)):
        got, rc, errors = sorted_by([key] * clicks)
        want = want_order(key, clicks == 2)
        missing = len([n for n in names if value(figures(docs[n])[key]) is None])
        # ties keep either order: compare the values shown, then where the empty cells are
        vals = [value(figures(docs[n])[key]) for n in got]
        check("sort: %s clicked %s: rows %s by its numbers, the %d runs without it last, no console error" % (
              key, "once" if clicks == 1 else "twice", "descending" if clicks == 2 else "ascending", missing),
              rc == 0 and not errors and sorted(got) == names and
              vals == [value(figures(docs[n])[key]) for n in want], (errors, got[:5], want[:5]))
    got, rc, errors = sorted_by(["run", "run"])
    check("sort: run clicked twice: names descending", got == sorted(names, reverse=True), got[:5])
    # A page 1400 px wide: the table, wider than that, scrolls in its own box; the page
    # itself never needs a sideways scroll (the table ran past the page before).
    out = path("width.html")
    open(out, "w").write(page.replace("</body>", "<script>var w=document.querySelector('div.fleet-wrap'),"
                                      "t=document.getElementById('fleet');document.body.dataset.page="
                                      "document.documentElement.scrollWidth+' '+window.innerWidth;"
                                      "document.body.dataset.wrap=w&&w.contains(t)?w.scrollWidth+' '+w.clientWidth:'none'"
                                      "</script></body>"))
    root, rc, errors = report_dom.render(CHROMIUM, path("chromium-profile"), out, ["--window-size=1400,900"])
    body = next(root.find("body"), None)
    pw = [int(x) for x in body.attrs.get("data-page", "0 1").split()] if body else [1, 0]
    ww = body.attrs.get("data-wrap", "none") if body else "none"
    check("fleet at 1400 px: the page is no wider than the window, the table inside its own scrolling box",
          rc == 0 and not errors and pw[0] <= pw[1] and ww != "none" and int(ww.split()[0]) >= int(ww.split()[1]),
          (pw, ww, errors))

# --- a few runs keep their charts -------------------------------------------------------------
p = membench(["report", "f001.json", "f002.json", "s003.json", "-o", "few.html"])
few = open(path("few.html")).read() if p.returncode == 0 else ""
check("3 runs: the table (a row each) and the overlay charts and headline blocks",
      few.count('<tr class="fleet-run"') == 3 and 'data-chart="bandwidth"' in few and few.count('class="headline"') == 3
      and 'class="fleet-note"' not in few, p.stderr)
p = membench(["report", "f001.json", "--csv", "one.csv"])
check("--csv without -o: the CSV alone, one row", p.returncode == 0 and not os.path.exists(path("x.html")) and
      len(list(csv.reader(open(path("one.csv"))))) == 2, p.stderr)

# two runs of one file name are told apart by their paths (a fleet's runs/HOST/run.json)
os.mkdir(path("a"))
os.mkdir(path("b"))
shutil.copy(path("f001.json"), path("a/f001.json"))
shutil.copy(path("f002.json"), path("b/f001.json"))
p = membench(["report", "a/f001.json", "b/f001.json", "f005.json", "--csv", "shared.csv"])
got = [r[0] for r in csv.reader(open(path("shared.csv")))][1:] if p.returncode == 0 else []
check("two runs of one file name are named by their paths, a run of its own by its name", got == [
      "a/f001.json", "b/f001.json", "f005.json"], (got, p.stderr))

# --- bad input --------------------------------------------------------------------------------
open(path("other.json"), "w").write('{"tool": "sysbench", "schema": 2}')
os.mkdir(path("adir.json"))
some = names[:20]
for args, named in ((some + ["other.json", "-o", "x.html", "--csv", "x.csv"], "other.json"),
                    (some + ["missing.json", "-o", "x.html", "--csv", "x.csv"], "missing.json"),
                    (some + ["adir.json", "-o", "x.html", "--csv", "x.csv"], "adir.json"),
                    (some + ["-o", "x.html", "--csv", some[3]], some[3]),
                    (some + ["-o", "x.html", "--csv", "x.html"], "x.html"),
                    (some + ["-o", "x.html", "--svg", TMP], "--svg"),
                    (some[:2] + ["--csv"], "--csv"),
                    (some[:2], "-o")):
    p = membench(["report"] + args)
    check("report %s: exit 2, one line naming %s, nothing written" % (" ".join(args[-5:]), named),
          p.returncode == 2 and p.stderr.count("\n") == 1 and named in p.stderr and p.stdout == "" and
          not os.path.exists(path("x.html")) and not os.path.exists(path("x.csv")), (p.returncode, p.stderr))
check("a refused --csv leaves the run it named as it was", json.load(open(path(some[3]))) == docs[some[3]])

shutil.rmtree(TMP, ignore_errors=True)
print("%s: %d failed" % (os.path.basename(sys.argv[0]), report_dom.failures))
sys.exit(1 if report_dom.failures else 0)
