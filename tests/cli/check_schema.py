#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Validates membench JSON documents against schema/membench-run.schema.json and
the promises the schema language cannot state (a record's value is the statistic it
names over its own samples; summary.n counts them; sizes and threads agree).

  check_schema.py SCHEMA run FILE...       schema-2 run documents
  check_schema.py SCHEMA topology FILE...  `membench topology --json` output
  check_schema.py SCHEMA self-test FILE    every planted defect in a copy of a
                                           valid run document must be refused
Prints one line per problem; exit status 0 when every document passes (self-test:
when every defect was caught), 1 otherwise, 3 when jsonschema is not installed."""
import copy
import json
import math
import statistics
import sys


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)


# The modes `membench mlc` runs as steps: their records are an mlc run's.
MLC_STEP_MODES = ("latency-matrix", "peak-bandwidth", "bandwidth-matrix", "loaded-latency", "c2c")


def buffers_expected(mode, r):
    """How many buffers the result's measurement allocates."""
    if mode == "stream":
        return 3
    if mode == "latency" or r["operation"] == "latency":
        return 1
    if mode in ("peak-bandwidth", "loaded-latency", "bandwidth-matrix"):
        # each traffic thread's buffers for its mix (triads read two), plus the chase chain
        per_thread = {"none": 0, "R": 1, "W6": 1, "W10": 3, "W11": 3}.get(r["params"]["traffic"], 2)
        return r["params"]["traffic_threads"] * per_thread + (mode == "loaded-latency")
    if mode == "numa-mem":  # the global buffer, one per process, one per thread (those with memory)
        p = r["params"]
        return p["buffers_global"] + p["buffers_process"] + p["buffers_thread"]
    if mode == "c2c":
        return 1  # one buffer of windows per pair, shared by writer and reader
    return r["threads"] * (2 if r["operation"].startswith("copy") or r["operation"] == "memcpy" else 1)


def pages_problems(where, mode, r):
    """pages: the method names every group or says mixed; the coverage is the
    byte-weighted share of all buffers; every buffer is counted."""
    p, bad = r["pages"], []
    groups = p["buffers"]
    methods = [g["method"] for g in groups]
    if len(set(methods)) != len(methods):
        bad.append("%s: page method listed twice in %s" % (where, methods))
    want = "mixed" if len(groups) > 1 else (methods[0] if groups else None)
    if p["method"] != want:
        bad.append("%s: pages.method %s for buffers %s" % (where, p["method"], methods))
    covs = [g["huge_coverage"] for g in groups]
    if groups and None not in covs:
        share = sum(g["huge_coverage"] * g["bytes"] for g in groups) / sum(g["bytes"] for g in groups)
        if p["huge_coverage"] is None or not close(p["huge_coverage"], share):
            bad.append("%s: huge_coverage %s, buffers' share %g" % (where, p["huge_coverage"], share))
    elif p["huge_coverage"] is not None:
        bad.append("%s: huge_coverage %s with a buffer not verified" % (where, p["huge_coverage"]))
    count = sum(g["count"] for g in groups)
    if count != buffers_expected(mode, r):
        bad.append("%s: %d buffers counted, the measurement uses %d" % (where, count, buffers_expected(mode, r)))
    return bad


def quantile7(xs, q):
    """The usual linear-interpolation quantile of sorted xs."""
    pos = q * (len(xs) - 1)
    i = int(pos)
    return xs[i] + (pos - i) * (xs[i + 1] - xs[i]) if i + 1 < len(xs) else xs[-1]


def probe_verdict(times):
    """(median, varied_pct) of one probe's times, as noise_judge gives them; (None, None) under 5."""
    t = sorted(times)
    if len(t) < 5:
        return None, None
    med = quantile7(t, 0.5)
    return med, 100 * (quantile7(t, 0.9) - quantile7(t, 0.1)) / (2 * med)


def noise_problems(n, elapsed_s):
    """host_noise's verdicts, recomputed from its raw probe times: the CPU probe's,
    the memory probe's, and the run's (the larger); each probe began within the run
    (seconds since its start), in the order taken."""
    if n is None:
        return []
    t = n["probe_times_s"]
    if n["probes"] != len(t):
        return ["host_noise: %d probes but %d times" % (n["probes"], len(t))]
    at = n["probe_at_s"]
    if len(at) != len(t) or at != sorted(at) or any(not 0 <= a <= elapsed_s for a in at):
        return ["host_noise: %d probe start times for %d probes, not in the order taken or not within the run's "
                "%g s" % (len(at), len(t), elapsed_s)]
    m = n["memory_probe_times_s"]
    if len(m) > len(t) or (n["memory_probe_bytes"] == 0) != (len(m) == 0):
        return ["host_noise: %d memory probe times for %d probes and a %d-byte buffer" % (
            len(m), len(t), n["memory_probe_bytes"])]
    bad = []
    cpu_med, cpu = probe_verdict(t)
    mem_med, mem = probe_verdict(m)
    for key, got, want in (("probe_median_s", n["probe_median_s"], cpu_med), ("cpu_varied_pct", n["cpu_varied_pct"], cpu),
                           ("memory_probe_median_s", n["memory_probe_median_s"], mem_med),
                           ("memory_varied_pct", n["memory_varied_pct"], mem)):
        if (got is None) != (want is None) or (want is not None and not close(got, want)):
            bad.append("host_noise: %s %s, its probes say %s" % (key, got, want))
    known = [v for v in (cpu, mem if n["memory_counted"] else None) if v is not None]
    varied = max(known) if known else None
    if (n["varied_pct"] is None) != (varied is None) or (varied is not None and not close(n["varied_pct"], varied)):
        bad.append("host_noise: varied_pct %s, the larger of its probes' %s" % (n["varied_pct"], varied))
    elif varied is None:
        if n["flagged"] or n["meaningful_difference_pct"] is not None:
            bad.append("host_noise: flagged or a meaningful difference without a verdict")
    elif not close(n["meaningful_difference_pct"], 2 * varied) or n["flagged"] != (varied > 5):
        bad.append("host_noise: meaningful difference or flag not from varied_pct %g" % varied)
    return bad


def batches_of(r):
    """The record's samples cut into time batches: at the changes of round (sample_rounds, when it names
    2 or more), at most 10, consecutive rounds merged evenly; else near-equal runs of consecutive samples."""
    xs, rounds = r["samples"], r.get("sample_rounds")
    if rounds is not None and len(set(rounds)) < 2:
        rounds = None  # one round: runs of consecutive samples
    groups = []
    for i, x in enumerate(xs):
        if not groups or (rounds is None or rounds[i] != rounds[i - 1]):
            groups.append([])
        groups[-1].append(x)
    k = min(len(groups), 10)
    batches = [[] for _ in range(k)]
    for g, group in enumerate(groups):
        batches[g * k // len(groups)].extend(group)
    return batches


def interval_problems(results):
    """summary.median_interval: the order-statistics interval of each record's batch medians."""
    from math import comb
    from statistics import median
    bad = []
    for i, r in enumerate(results):
        batches = batches_of(r)
        mi, n = r["summary"]["median_interval"], len(batches)
        if n < 2:
            if mi is not None:
                bad.append("results[%d]: an interval from one batch" % i)
            continue
        xs = sorted(median(b) for b in batches)
        cover = lambda j: 1 - 2 * sum(comb(n, k) for k in range(j)) / 2 ** n  # noqa: E731
        j = 1
        while j + 1 <= n // 2 and cover(j + 1) >= 0.95:
            j += 1
        if mi is None or not close(mi["low"], xs[j - 1]) or not close(mi["high"], xs[n - j]) or \
                not close(mi["level"], cover(j)) or mi.get("batches") != n:
            bad.append("results[%d]: median_interval %s, want [%g, %g] at %g over %d batches" %
                       (i, mi, xs[j - 1], xs[n - j], cover(j), n))
    return bad


def host_interval_problems(results, noise):
    """summary.host_interval: the median interval widened on each side by the run's host variation
    (host_noise.varied_pct) of the median; null without either."""
    bad = []
    varied = noise["varied_pct"] if noise else None
    for i, r in enumerate(results):
        mi, hi, med = r["summary"]["median_interval"], r["summary"]["host_interval"], r["summary"]["median"]
        if mi is None or varied is None:
            if hi is not None:
                bad.append("results[%d]: host_interval %s without a median interval and a host verdict" % (i, hi))
            continue
        w = med * varied / 100
        if hi is None or not close(hi["low"], mi["low"] - w) or not close(hi["high"], mi["high"] + w) or \
                not close(hi["host_varied_pct"], varied):
            bad.append("results[%d]: host_interval %s, want [%g, %g] (median interval widened by %g%%)" %
                       (i, hi, mi["low"] - w, mi["high"] + w, varied))
    return bad


def random_chase_problems(where, r):
    """random_chase: beside a TLB-local headline only; its value the median of its own samples
    (never the headline's samples again); "same" only where the buffer is one TLB group."""
    rc = r.get("random_chase")
    if rc is None:
        return []
    bad = []
    p = r["params"]
    if r["metric"] != "latency" or p.get("chase_order") != "tlb-local":
        bad.append("%s: random_chase beside a %s chase" % (where, p.get("chase_order")))
    if rc["state"] == "measured":
        xs = rc["samples"]
        if not xs or not close(rc["value"], statistics.median(xs)) or rc["summary"]["n"] != len(xs):
            bad.append("%s: random_chase.value %s is not the median of its %d samples" % (where, rc["value"], len(xs)))
        if xs == r["samples"]:
            bad.append("%s: random_chase has the headline's samples" % where)
        if p.get("random_chain_builds", 0) < 1:
            bad.append("%s: random_chase measured but its chain never linked" % where)
    if rc["state"] == "same" and (r["size_bytes"] > p.get("chase_group_bytes", 0) or rc["value"] != r["value"]):
        bad.append("%s: random_chase 'same' over %d bytes (group %s)" % (where, r["size_bytes"],
                                                                      p.get("chase_group_bytes")))
    return bad


def promises(doc):
    """What the schema cannot say; a list of problems."""
    bad = []
    for i, r in enumerate(doc.get("results", [])):
        where = "results[%d] (%s %s)" % (i, r.get("operation"), r.get("size_bytes"))
        s = r["samples"]
        if r["mode"] != doc["mode"] and not (doc["mode"] == "mlc" and r["mode"] in MLC_STEP_MODES):
            bad.append("%s: mode %s in a %s run" % (where, r["mode"], doc["mode"]))
        if r["summary"]["n"] != len(s):
            bad.append("%s: summary.n %d but %d samples" % (where, r["summary"]["n"], len(s)))
        if not close(r["summary"]["min"], min(s)) or not close(r["summary"]["max"], max(s)):
            bad.append("%s: summary min/max are not the samples'" % where)
        if not close(r["summary"]["median"], statistics.median(s)):
            bad.append("%s: summary.median %g, samples' median %g" % (where, r["summary"]["median"],
                                                                       statistics.median(s)))
        want = max(s) if r["statistic"] == "best" else statistics.median(s)
        if not close(r["value"], want):
            bad.append("%s: value %g is not the %s of its samples (%g)" % (where, r["value"], r["statistic"], want))
        rounds, ends = r.get("sample_rounds"), r.get("sample_end_s")
        if rounds is not None and (len(rounds) != len(s) or rounds != sorted(rounds) or
                                   max(rounds) > doc.get("plan", {}).get("rounds", max(rounds))):
            bad.append("%s: sample_rounds %s: not one non-decreasing round per sample, up to the run's rounds"
                       % (where, rounds))
        if (rounds is None) != (ends is None) or (ends is not None and (len(ends) != len(s) or ends != sorted(ends))):
            bad.append("%s: sample_end_s %s: not one increasing time per sample, with sample_rounds" % (where, ends))
        if r["size_kb"] != r["size_bytes"] // 1024:
            bad.append("%s: size_kb %d for %d bytes" % (where, r["size_kb"], r["size_bytes"]))
        if r["threads"] != len(r["placement"]):
            bad.append("%s: %d threads but %d placement entries" % (where, r["threads"], len(r["placement"])))
        bad += pages_problems(where, r["mode"], r)
        if r["pins_verified"] > r["threads"]:
            bad.append("%s: %d pins verified of %d threads" % (where, r["pins_verified"], r["threads"]))
        bad += random_chase_problems(where, r)
    bad += noise_problems(doc.get("host_noise"), doc["elapsed_s"])
    bad += interval_problems(doc.get("results", []))
    bad += host_interval_problems(doc.get("results", []), doc.get("host_noise"))
    if doc["complete"] and doc["stopped_by"] is not None:
        bad.append("complete but stopped_by %s" % doc["stopped_by"])
    if doc["errors"] and doc["exit_status"] == 0:
        bad.append("errors %s but exit status 0" % doc["errors"])
    if doc["stopped_by"] == "error" and not doc["errors"]:
        bad.append("stopped_by error, but no error said")
    if len(doc["warning_kinds"]) != len(doc["warnings"]):
        bad.append("%d warning kinds for %d warnings" % (len(doc["warning_kinds"]), len(doc["warnings"])))
    bad += dram_rule_problems(doc)
    return bad


def dram_rule_problems(doc):
    """The DRAM rule (plan/dram_size.h): the plan's may_fit_cache is exactly its
    footprint below the rule, one warning says so exactly then, and the cache probe
    ran only when the command line asked for it."""
    bad, plan = [], doc.get("plan") or {}
    if "cache_probe" in doc["topology"] and "--cache-probe always" not in " ".join(doc["command_line"]):
        bad.append("the cache probe ran, not asked for (topology.cache_probe)")
    if "dram_rule_bytes" not in plan or plan.get("may_fit_cache") is None:
        return bad
    below = plan["dram_footprint_bytes"] < plan["dram_rule_bytes"]
    if plan["may_fit_cache"] != below:
        bad.append("plan may_fit_cache %s for a footprint of %d against the rule's %d" %
                   (plan["may_fit_cache"], plan["dram_footprint_bytes"], plan["dram_rule_bytes"]))
    said = [w for w in doc["warnings"] if "below the DRAM rule" in w or "less than STREAM's rule" in w]
    if below != bool(said) or len(said) > 1:
        bad.append("footprint below the DRAM rule %s, but %d warning(s) say so" % (below, len(said)))
    for r in doc.get("results", []):
        if r.get("may_fit_cache") and not below and r["mode"] == doc["mode"] and r["mode"] not in ("latency", "sweep"):
            bad.append("%s %s: may_fit_cache true, the plan's footprint meets the rule" % (r["mode"], r["operation"]))
    return bad


def problems(validator, doc, kind):
    out = ["%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(top)", e.message)
           for e in validator.iter_errors(doc)]
    if not out and kind == "run":
        out = promises(doc)
    return out


def self_test(validator, doc):
    """Planted defects: each must be refused."""
    assert doc["results"], "self-test needs a document with results"

    def res(d):
        return d["results"][0]

    plants = {
        "schema 1": lambda d: d.__setitem__("schema", 1),
        "no warnings array": lambda d: d.pop("warnings"),
        "no errors array": lambda d: d.pop("errors"),
        "a warning without its kind": lambda d: d.update(warnings=d["warnings"] + ["x"]),
        "an unknown warning kind": lambda d: d.update(warnings=["x"], warning_kinds=["noise"]),
        "errors yet exit status 0": lambda d: d.update(errors=["x"], exit_status=0),
        "stopped by an error never said": lambda d: d.update(complete=False, stopped_by="error", errors=[]),
        "a result without samples": lambda d: res(d).pop("samples"),
        "empty samples": lambda d: res(d).__setitem__("samples", []),
        "value not the statistic of the samples": lambda d: res(d).__setitem__("value", res(d)["value"] * 1.5),
        "summary.n not the sample count": lambda d: res(d)["summary"].__setitem__("n", len(res(d)["samples"]) + 1),
        "unknown metric": lambda d: res(d).__setitem__("metric", "speed"),
        "latency in MB/s": lambda d: res(d).update(metric="latency", statistic="median", bytes_per_sample=None),
        "unknown store kind": lambda d: res(d)["kernel"].__setitem__("stores", "load"),
        "placement without memory node": lambda d: res(d)["placement"][0].pop("memory_node"),
        "threads not the placement count": lambda d: res(d).__setitem__("threads", res(d)["threads"] + 1),
        "huge coverage above 1": lambda d: res(d)["pages"].__setitem__("huge_coverage", 1.5),
        "mixed pages with one method": lambda d: res(d)["pages"].__setitem__("method", "mixed"),
        "a buffer not counted": lambda d: res(d)["pages"]["buffers"][0].__setitem__(
            "count", res(d)["pages"]["buffers"][0]["count"] + 1),
        "coverage not the buffers' share": lambda d: res(d)["pages"].update(
            huge_coverage=0.5 if res(d)["pages"]["huge_coverage"] != 0.5 else 0.25,
            buffers=[dict(g, huge_coverage=1.0) for g in res(d)["pages"]["buffers"]]),
        "an unknown top-level key": lambda d: d.__setitem__("extra", 1),
        "nested object in params": lambda d: res(d)["params"].__setitem__("x", {"y": 1}),
        "complete yet stopped": lambda d: d.update(complete=True, stopped_by="SIGINT"),
        "truncated cpu list": lambda d: d["topology"].__setitem__("cpus_usable", "0-"),
        "median interval not the order statistics": lambda d: res(d)["summary"].__setitem__(
            "median_interval", {"low": min(res(d)["samples"]) * 0.9, "high": max(res(d)["samples"]),
                                "level": 0.95, "method": "order statistics of batch medians", "batches": 3}),
        "host noise not from its probes": lambda d: d["host_noise"].update(
            probe_times_s=[0.001, 0.001, 0.001, 0.001, 0.002], probe_at_s=[0.0] * 5, probes=5,
            varied_pct=1.0, probe_median_s=0.001, cpu_varied_pct=1.0, memory_probe_times_s=[],
            memory_probe_bytes=0, memory_probe_median_s=None, memory_varied_pct=None,
            meaningful_difference_pct=2.0, flagged=False),
        "host noise without the memory probe's variation": lambda d: d["host_noise"].update(
            probe_times_s=[0.001] * 5, probe_at_s=[0.0] * 5, probes=5, probe_median_s=0.001, cpu_varied_pct=0.0,
            memory_probe_times_s=[0.002, 0.002, 0.002, 0.002, 0.003], memory_probe_bytes=1 << 24,
            memory_probe_median_s=0.002, memory_varied_pct=20.0, memory_counted=True,
            varied_pct=0.0, meaningful_difference_pct=0.0, flagged=False),
        "memory probe times without a buffer": lambda d: d["host_noise"].update(memory_probe_bytes=0),
        "host noise: the memory probe's variation counted on a cache it fits": lambda d: d["host_noise"].update(
            probe_times_s=[0.001] * 5, probe_at_s=[0.0] * 5, probes=5, probe_median_s=0.001, cpu_varied_pct=0.0,
            memory_probe_times_s=[0.002, 0.002, 0.002, 0.002, 0.003], memory_probe_bytes=1 << 24,
            memory_probe_median_s=0.002, memory_varied_pct=20.0, memory_counted=False,
            varied_pct=20.0, meaningful_difference_pct=40.0, flagged=True),
        "host interval not widened by the host's variation": lambda d: [r["summary"].__setitem__(
            "host_interval", r["summary"]["median_interval"] and dict(
                low=r["summary"]["median_interval"]["low"], high=r["summary"]["median_interval"]["high"],
                host_varied_pct=(d["host_noise"] or {}).get("varied_pct") or 0.0,
                method="median_interval widened on each side by host_noise.varied_pct of the median"))
            for r in d["results"]],
        "host noise probes miscounted": lambda d: d["host_noise"].__setitem__("probes", d["host_noise"]["probes"] + 1),
        "host noise probe start times out of order": lambda d: d["host_noise"].update(
            probe_times_s=[0.001, 0.001], probe_at_s=[0.3, 0.1], probes=2, varied_pct=None, probe_median_s=None,
            cpu_varied_pct=None, memory_probe_times_s=[0.002, 0.002], memory_probe_median_s=None,
            memory_varied_pct=None, meaningful_difference_pct=None, flagged=False),
    }
    missed = []
    for name, plant in plants.items():
        d = copy.deepcopy(doc)
        plant(d)
        if not problems(validator, d, "run"):
            missed.append(name)
    for name in missed:
        print("self-test: planted defect not caught: " + name)
    return not missed


def main():
    if len(sys.argv) < 4 or sys.argv[2] not in ("run", "topology", "self-test"):
        print(__doc__)
        return 2
    try:  # here, not at the top: the promise checks above need no jsonschema (check_rounds.py imports them)
        import jsonschema
    except ImportError:
        print("python3-jsonschema is not installed (apt-get install python3-jsonschema)")
        return 3
    schema = json.load(open(sys.argv[1]))
    kind = sys.argv[2]
    if kind == "topology":
        schema = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/topology"}
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    ok = True
    for path in sys.argv[3:]:
        try:
            doc = json.load(open(path))
        except (OSError, ValueError) as e:
            print("%s: not readable JSON: %s" % (path, e))
            ok = False
            continue
        if kind == "self-test":
            ok = self_test(validator, doc) and ok
            continue
        for p in problems(validator, doc, kind):
            print("%s: %s" % (path, p))
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
