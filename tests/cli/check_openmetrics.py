#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Command-line checks of --openmetrics FILE: each measuring mode's file passes
`promtool check metrics` (where promtool is installed; CI installs Debian's
prometheus) and a strict reading of the text format here (families whole and once,
no two series alike, label values escaped, "# EOF" last); every JSON record of the
same run is exactly one series whose labels are the record's and whose value is
the record's in base units (bytes/s = MB/s x 1e6, s = ns x 1e-9); the run's labels
are the JSON's host and command line, escaped; Ctrl-C leaves a whole file with
membench_run_complete 0; a path that cannot be written is one line and exit 2, as
--json's. Prints TAP lines for run_cli_tests.sh; never asserts a timing.

  check_openmetrics.py MEMBENCH TMPDIR"""
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time

BIN, TMP = sys.argv[1:3]
from round_records import check, results  # noqa: E402
SCALE = {"bandwidth": 1e6, "latency": 1e-9}
HEADLINE = {"bandwidth": "membench_bandwidth_bytes_per_second", "latency": "membench_latency_seconds"}
SAMPLES = {"bandwidth": "membench_bandwidth_samples_bytes_per_second", "latency": "membench_latency_samples_seconds"}


# --- the text format, read strictly ------------------------------------------------
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
SAMPLE = re.compile(r"^(%s)(?:\{(.*)\})? (\S+)$" % NAME)
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)')


def unescape(v):
    return re.sub(r'\\(.)', lambda m: {"\\": "\\", '"': '"', "n": "\n"}[m.group(1)], v)


def parse(text):
    """{family: {"type", "unit", "help", "samples": [(name, labels, value)]}}; raises ValueError."""
    if not text.endswith("# EOF\n"):
        raise ValueError("does not end with '# EOF'")
    fams, current, closed = {}, None, set()
    seen = set()
    for n, line in enumerate(text[:-len("# EOF\n")].split("\n")[:-1], 1):
        m = re.match(r"^# (TYPE|UNIT|HELP) (%s) (.*)$" % NAME, line)
        if m:
            kind, name, rest = m.groups()
            if name != current:
                if name in fams:
                    raise ValueError("line %d: family %s again" % (n, name))
                if current:
                    closed.add(current)
                fams[name] = {"type": None, "unit": None, "help": None, "samples": []}
                current = name
            if fams[name][kind.lower()] is not None:
                raise ValueError("line %d: %s %s twice" % (n, kind, name))
            fams[name][kind.lower()] = rest
            if kind == "UNIT" and not name.endswith("_" + rest):
                raise ValueError("line %d: %s does not end in its unit %s" % (n, name, rest))
            continue
        if line.startswith("#"):
            raise ValueError("line %d: not a TYPE, UNIT or HELP line: %r" % (n, line))
        m = SAMPLE.match(line)
        if not m:
            raise ValueError("line %d: not a sample: %r" % (n, line))
        name, labeltext, value = m.groups()
        f = fams.get(current)
        suffixes = ["", "_sum", "_count"] if f and f["type"] == "summary" else [""]
        if not f or name not in [current + s for s in suffixes]:
            raise ValueError("line %d: %s outside its family (in %s)" % (n, name, current))
        labels, pos = {}, 0
        while labeltext and pos < len(labeltext):
            lm = LABEL.match(labeltext, pos)
            if not lm or lm.group(1) in labels:
                raise ValueError("line %d: bad or repeated label at %r" % (n, labeltext[pos:]))
            labels[lm.group(1)] = unescape(lm.group(2))
            pos = lm.end()
        key = (name, tuple(sorted(labels.items())))
        if key in seen:
            raise ValueError("line %d: the series %s%s twice" % (n, name, labels))
        seen.add(key)
        f["samples"].append((name, labels, float(value)))
    for name, f in fams.items():
        if f["type"] not in ("gauge", "summary") or not f["help"]:
            raise ValueError("%s: type %s, help %r" % (name, f["type"], f["help"]))
    return fams


def promtool(path):
    """(ok, detail): `promtool check metrics` on the file; ok None when promtool is missing."""
    if not shutil.which("promtool"):
        return None, "promtool is not installed"
    with open(path, "rb") as f:
        p = subprocess.run(["promtool", "check", "metrics"], stdin=f, capture_output=True, text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip()


def check_promtool(what, path):
    ok, detail = promtool(path)
    if ok is None and os.environ.get("CI") != "true":
        print("# skipped: promtool check metrics of %s (%s)" % (what, detail))
        return
    check("%s: promtool check metrics passes (no error, no lint problem)" % what, ok, detail)


# --- what the JSON says the file must hold -----------------------------------------
def compact(ids):
    """The CPU-list form of ids in their order: "0-3,8"."""
    out, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        out.append(str(ids[i]) if i == j else "%d-%d" % (ids[i], ids[j]))
        i = j + 1
    return ",".join(out)


def nodes(r, key, param):
    p = r["params"].get(param)
    ids = [p if isinstance(p, int) else t[key] for t in r["placement"]]
    return compact(sorted(set(i for i in ids if i >= 0)))


def expected_labels(r):
    """The labels README promises for a record, derived from its JSON."""
    cpus = [t["cpu"] for t in r["placement"]]
    par = r["params"]
    lab = {"mode": r["mode"], "operation": r["operation"], "size_bytes": str(r["size_bytes"]),
           "threads": str(r["threads"]), "isa": r["kernel"]["isa"] or "", "stores": r["kernel"]["stores"] or "",
           "cpus": compact(cpus) if cpus and min(cpus) >= 0 else "",
           "node": nodes(r, "node", "cpu_node"), "memory_node": nodes(r, "memory_node", "mem_node"),
           "traffic": par.get("traffic") if isinstance(par.get("traffic"), str) else "",
           "delay": str(par["delay"]) if isinstance(par.get("delay"), int) else "",
           "state": par.get("state") if isinstance(par.get("state"), str) else "",
           "home_node": str(par["home_node"]) if isinstance(par.get("home_node"), int) else ""}
    return {k: v for k, v in lab.items() if v}


def with_repeats(records):
    out, count = [], {}
    for r in records:
        lab = expected_labels(r)
        key = tuple(sorted(lab.items()))
        count[key] = count.get(key, 0) + 1
        if count[key] > 1:
            lab["repeat"] = str(count[key])
        out.append(lab)
    return out


def same(a, b, rel=0.0):
    return a == b or (rel > 0 and abs(a - b) <= rel * max(abs(a), abs(b)))


def compare(what, fams, doc, complete):
    """The file against the JSON document of the same run."""
    recs = doc["results"]
    info = fams.get("membench_run_info", {}).get("samples", [])
    host = doc["host"]
    want_info = {"mode": doc["mode"], "version": doc["version"], "host": host["hostname"], "cpu": host["cpu_model"],
                 "kernel": host["kernel"], "arch": host["arch"], "command": " ".join(doc["command_line"])}
    want_info = {k: v for k, v in want_info.items() if v}
    check("%s: membench_run_info is 1 with the JSON's mode, version, host, cpu, kernel, arch and command line" % what,
          len(info) == 1 and info[0][1] == want_info and info[0][2] == 1, (info, want_info))
    run_complete = fams.get("membench_run_complete", {}).get("samples", [])
    check("%s: membench_run_complete{mode=%s} is %d (JSON complete: %s)" % (what, doc["mode"], complete,
                                                                            doc["complete"]),
          [(s[1], s[2]) for s in run_complete] == [({"mode": doc["mode"]}, complete)] and
          doc["complete"] == bool(complete), run_complete)
    warn = fams.get("membench_run_warnings", {}).get("samples", [])
    check("%s: membench_run_warnings and _errors are the JSON's counts" % what,
          [s[2] for s in warn] == [len(doc["warnings"])] and
          [s[2] for s in fams.get("membench_run_errors", {}).get("samples", [])] == [len(doc["errors"])])
    labels = with_repeats(recs)
    bad, seen = [], {"bandwidth": 0, "latency": 0}
    for r, lab in zip(recs, labels):
        m = r["metric"]
        seen[m] += 1
        head = [s for s in fams.get(HEADLINE[m], {}).get("samples", []) if s[1] == lab]
        if len(head) != 1 or head[0][2] != r["value"] * SCALE[m]:
            bad.append(("headline", lab, head, r["value"] * SCALE[m]))
            continue
        summ = {(s[0], s[1].get("quantile")): s[2] for s in fams.get(SAMPLES[m], {}).get("samples", [])
                if {k: v for k, v in s[1].items() if k != "quantile"} == lab}
        base = SAMPLES[m]
        want = {(base, "0"): r["summary"]["min"] * SCALE[m], (base, "0.5"): r["summary"]["median"] * SCALE[m],
                (base, "1"): r["summary"]["max"] * SCALE[m], (base + "_count", None): float(len(r["samples"]))}
        total = sum(r["samples"]) * SCALE[m]
        if (set(summ) != set(want) | {(base + "_sum", None)} or any(summ[k] != v for k, v in want.items()) or
                not same(summ[(base + "_sum", None)], total, 1e-9)):
            bad.append(("summary", lab, summ, want, total))
    check("%s: each of the %d JSON records is one series with the record's labels, value x %s = the file's, "
          "and quantiles 0/0.5/1, _count, _sum of its samples" % (what, len(recs), "/".join(
              "%g" % SCALE[m] for m in SCALE if seen[m])), recs and not bad, bad[:2])
    n = {m: len(fams.get(HEADLINE[m], {}).get("samples", [])) for m in HEADLINE}
    check("%s: no series without a record (%s)" % (what, n), n == seen, (n, seen))


def run(mode_args, name, extra_env=None):
    """Runs membench with --json and --openmetrics; (process, text or None, doc or None)."""
    js, om = os.path.join(TMP, "om-%s.json" % name), os.path.join(TMP, "om-%s.prom" % name)
    env = dict(os.environ, **(extra_env or {}))
    p = subprocess.run([BIN] + mode_args + ["--json", js, "--openmetrics", om], capture_output=True, text=True,
                       timeout=300, env=env)
    text = open(om, encoding="utf-8").read() if os.path.exists(om) else None
    doc = json.load(open(js)) if os.path.exists(js) else None
    return p, text, doc, om


def check_mode(what, args, name):
    p, text, doc, path = run(args, name)
    check("%s: exit 0 and both files written" % what, p.returncode == 0 and text and doc, p.stderr[-300:])
    if not (text and doc):
        return None, None
    try:
        fams = parse(text)
        err = None
    except ValueError as e:
        fams, err = None, str(e)
    check("%s: the file reads as OpenMetrics text: families once and whole, series unique, # EOF last" % what,
          fams is not None, err)
    check_promtool(what, path)
    if fams is not None:
        compare(what, fams, doc, 1)
    return fams, doc


# --- every kind of record ------------------------------------------------------------
fams, doc = check_mode("sweep", ["-s", "64", "-o", "read", "-o", "copy", "-o", "latency", "-r", "3", "--sample-ms", "1",
                                 "--latency-sample-ms", "1"], "sweep")
if fams:
    units = {f: fams[f]["unit"] for f in fams if fams[f]["unit"]}
    check("units in the names and # UNIT lines: bytes_per_second and seconds",
          units == {"membench_run_elapsed_seconds": "seconds",
                    "membench_bandwidth_bytes_per_second": "bytes_per_second",
                    "membench_bandwidth_samples_bytes_per_second": "bytes_per_second",
                    "membench_latency_seconds": "seconds", "membench_latency_samples_seconds": "seconds"}, units)
check_mode("latency", ["latency", "--sample-ms", "1", "--min", "4K", "--max", "64K"], "latency")
fams, doc = check_mode("latency with its DRAM point's full random chase",
                       ["latency", "--sample-ms", "1", "--min", "512K", "--max", "1M", "--points-per-octave", "1"],
                       "latency-random")
if doc:
    want = {json.dumps(lab, sort_keys=True): r["random_chase"]["value"] * 1e-9
            for r, lab in zip(doc["results"], with_repeats(doc["results"])) if r.get("random_chase")}
    got = {json.dumps(s[1], sort_keys=True): s[2]
           for s in (fams or {}).get("membench_random_latency_seconds", {}).get("samples", [])}
    check("latency: membench_random_latency_seconds, the largest size's random_chase.value x 1e-9 with its labels",
          len(want) == 1 and set(got) == set(want) and all(same(got[k], want[k], 1e-12) for k in want) and
          fams["membench_random_latency_seconds"]["unit"] == "seconds", (got, want))
check_mode("stream", ["stream", "-n", "200000", "--ntimes", "3"], "stream")
fams, doc = check_mode("mlc (latency-matrix, peak-bandwidth, bandwidth-matrix, loaded-latency, c2c)",
                       ["mlc", "-b", "4M", "-t", "0.05"], "mlc")
if doc:
    modes = sorted(set(r["mode"] for r in doc["results"]))
    check("mlc: the file holds the records of its five steps' modes", modes == sorted(
        ["latency-matrix", "peak-bandwidth", "bandwidth-matrix", "loaded-latency", "c2c"]), modes)
    loaded = [s[1] for s in fams.get("membench_latency_seconds", {}).get("samples", [])
              if s[1]["mode"] == "loaded-latency"] if fams else []
    check("loaded-latency: each delay is its own series (delay and traffic labels)",
          len(loaded) > 2 and len(set((l["delay"], l["traffic"]) for l in loaded)) == len(loaded), loaded[:3])
    rows = [r for r in doc["results"] if r["operation"] == "loaded-latency"]
    want = {json.dumps(lab, sort_keys=True): r["params"]["bandwidth_mb_s"] * 1e6
            for r, lab in zip(doc["results"], with_repeats(doc["results"])) if r["operation"] == "loaded-latency"}
    got = {json.dumps(s[1], sort_keys=True): s[2]
           for s in (fams or {}).get("membench_loaded_latency_bandwidth_bytes_per_second", {}).get("samples", [])}
    check("loaded-latency: membench_loaded_latency_bandwidth_bytes_per_second, one sample per delay with its "
          "latency's labels, the JSON's params.bandwidth_mb_s x 1e6",
          len(rows) > 2 and len(got) == len(rows) and set(got) == set(want) and
          all(same(got[k], want[k], 1e-12) for k in want) and
          fams["membench_loaded_latency_bandwidth_bytes_per_second"]["unit"] == "bytes_per_second",
          (len(rows), list(got.items())[:2], list(want.items())[:2]))
check_mode("numa mem", ["numa", "mem", "-p", "1", "-t", "2", "-P", "16", "-l", "3"], "numa")

# --- a label with a quote, a backslash, a newline; bytes that are not UTF-8 -------------
odd = os.path.join(TMP, 'om "quoted" back\\slash\nnewline.prom')
p = subprocess.run([BIN, "-s", "64", "-o", "read", "-r", "1", "--sample-ms", "1", "--openmetrics", odd],
                   capture_output=True, text=True)
text = open(odd, encoding="utf-8").read() if os.path.exists(odd) else ""
try:
    fams = parse(text)
except ValueError as e:
    fams = {}
    print("    " + str(e))
cmd = [s[1].get("command") for s in fams.get("membench_run_info", {}).get("samples", [])]
# (argv[0] is the program as it was started: under qemu-user, not BIN)
want = " ".join(["-s", "64", "-o", "read", "-r", "1", "--sample-ms", "1", "--openmetrics", odd])
check("a path with a quote, a backslash and a newline: the command label is escaped (\\\" \\\\ \\n) and reads "
      "back as the command line", p.returncode == 0 and len(cmd) == 1 and cmd[0].endswith("membench " + want) and
      '\\"quoted\\" back\\\\slash\\nnewline.prom' in text, (p.returncode, cmd))
check_promtool("the escaped command line", odd)
latin1 = os.path.join(TMP, "om-caf\xe9.prom").encode("latin-1")
p = subprocess.run([BIN.encode(), b"-s", b"64", b"-o", b"read", b"-r", b"1", b"--sample-ms", b"1", b"--openmetrics",
                    latin1], capture_output=True)
raw = open(latin1, "rb").read() if os.path.exists(latin1) else b""
try:
    fams = parse(raw.decode("utf-8"))
except (ValueError, UnicodeDecodeError) as e:
    fams = None
    print("    " + str(e))
check("a path that is not UTF-8: the file stays UTF-8, the byte becomes U+FFFD",
      p.returncode == 0 and fams is not None and "om-caf\ufffd.prom" in raw.decode("utf-8", "replace"))
if raw:
    check_promtool("the non-UTF-8 command line", latin1)

# --- Ctrl-C: a whole file that says the run did not complete ----------------------------
js, om = os.path.join(TMP, "om-int.json"), os.path.join(TMP, "om-int.prom")
proc = subprocess.Popen([BIN, "latency", "--sample-ms", "1", "--min", "4K", "--max", "64M", "--json", js,
                         "--openmetrics", om], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
deadline = time.time() + 60
while time.time() < deadline and proc.poll() is None:
    if os.path.exists(om) and "\nmembench_latency_seconds{" in open(om, encoding="utf-8").read():
        break  # at least one result is in: the stop comes in the middle of the run
    time.sleep(0.02)
mid = open(om, encoding="utf-8").read() if os.path.exists(om) else ""
check("while the run goes on the file is whole and says membench_run_complete 0",
      mid.endswith("# EOF\n") and '\nmembench_run_complete{mode="latency"} 0\n' in mid, mid[-200:])
proc.send_signal(signal.SIGINT)
try:
    rc = proc.wait(timeout=30)
except subprocess.TimeoutExpired:
    proc.kill()
    rc = "hung"
text = open(om, encoding="utf-8").read() if os.path.exists(om) else ""
doc = json.load(open(js)) if os.path.exists(js) else None
try:
    fams = parse(text)
except ValueError as e:
    fams = None
    print("    " + str(e))
check("Ctrl-C: exit 130, and the file is whole (# EOF) after the stop", rc == 130 and fams is not None, rc)
if fams is not None and doc:
    check("Ctrl-C: the JSON says incomplete, stopped by SIGINT, with results",
          doc["complete"] is False and doc["stopped_by"] == "SIGINT" and doc["results"], doc.get("stopped_by"))
    compare("Ctrl-C", fams, doc, 0)
    check_promtool("Ctrl-C", om)

# --- a textfile directory: the file replaced, its mode kept, nothing else left there ------
tdir = os.path.join(TMP, "om-textfile")
os.makedirs(tdir, exist_ok=True)
prom = os.path.join(tdir, "membench.prom")
open(prom, "w").write("old\n")
os.chmod(prom, 0o640)
p = subprocess.run([BIN, "-s", "64", "-o", "read", "-r", "1", "--sample-ms", "1", "--openmetrics", prom],
                   capture_output=True, text=True)
left = sorted(os.listdir(tdir))
check("an existing file in a textfile directory: replaced, keeps its mode 0640, no temporary file left beside it",
      p.returncode == 0 and left == ["membench.prom"] and os.stat(prom).st_mode & 0o7777 == 0o640 and
      open(prom).read().endswith("# EOF\n"), (p.returncode, left, oct(os.stat(prom).st_mode)))

# --- a path that cannot be written: as --json ----------------------------------------
for path, why in [("/nonexistent/dir/x.prom", "No such file or directory"), (TMP, "Is a directory")]:
    p = subprocess.run([BIN, "-s", "64", "-o", "read", "--openmetrics", path], capture_output=True, text=True)
    q = subprocess.run([BIN, "-s", "64", "-o", "read", "--json", path], capture_output=True, text=True)
    check("--openmetrics %s: exit 2, one line '--openmetrics PATH: cannot write (%s)', nothing measured, as --json"
          % (path, why), p.returncode == 2 == q.returncode and p.stdout == "" and
          p.stderr == "membench: --openmetrics %s: cannot write (%s)\n" % (path, why) and
          q.stderr == p.stderr.replace("--openmetrics", "--json"), (p.returncode, p.stderr, q.stderr))
ro = os.path.join(TMP, "om-readonly.prom")
open(ro, "w").close()
os.chmod(ro, 0o444)
p = subprocess.run([BIN, "latency", "--openmetrics", ro], capture_output=True, text=True)
check("--openmetrics on a read-only file: exit 2, one line", p.returncode == 2 and p.stderr ==
      "membench latency: --openmetrics %s: cannot write (the file is read-only)\n" % ro, p.stderr)
if os.path.exists("/dev/full"):
    p = subprocess.run([BIN, "-s", "64", "-o", "read", "-r", "1", "--sample-ms", "1", "--openmetrics", "/dev/full"],
                       capture_output=True, text=True)
    check("--openmetrics /dev/full: the lost write is said and the run fails (exit 1), as --json",
          p.returncode == 1 and "could not write /dev/full" in p.stderr, (p.returncode, p.stderr[-200:]))

print("# %d checks, %d failed" % (len(results), results.count(False)))
sys.exit(0 if all(results) else 1)
