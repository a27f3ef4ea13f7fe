#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the 16-CPU guest (run_numa_guest.sh's x86_64-wide, runs of guest_wide.sh).

The truth is QEMU's command line, not what membench read: CPUs 0-15 in 2 sockets of
8, node n holds CPUs 4n..4n+3 and memory, node 4 only memory. Every run's threads
are held to it three ways: the plan (placement), what each thread saw of itself
(observed CPU, its pages' nodes: check_observed.py), and what the guest's kernel
said of every membench thread while it ran (/proc: the CPU it last ran on and its
allowed CPUs), so a plan that puts every thread on one CPU, a CPU-to-node map wrong
above CPU 7, or a CPU list or mask read wrong for two-digit CPUs fails here.

  check_wide.py CONSOLE_LOG [NAME]"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "cli"))
sys.path.insert(0, HERE)
import check_observed  # noqa: E402  (observed against planned, as in the 6-CPU guest)
from guest_log import Log  # noqa: E402

CPUS = list(range(16))
NODE = {c: c // 4 for c in CPUS}  # QEMU's -numa node,cpus=4n-4n+3
SOCKET = {c: c // 8 for c in CPUS}
NODES_OF_CPUS = [0, 1, 2, 3]
MEM_NODES = [0, 1, 2, 3, 4]  # node 4: memory, no CPU

log = Log(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "x86_64-wide")
check, run, exits = log.check, log.run, log.exits

up = re.search(r"^=== GUEST UP (\S+) nodes=(\d+) cpus=(\d+)$", log.text, re.M)
check("guest booted with 5 NUMA nodes and 16 CPUs", up is not None and up.groups()[1:] == ("5", "16"),
      log.text[-1500:])
check("guest ran to the end", "=== GUEST DONE" in log.text, log.text[-1500:])


def records(r, mode=None):
    return [x for x in (r["json"] or {}).get("results", []) if mode is None or x.get("mode") == mode]


def pinned_watch(name, r, want_cpus):
    """What the guest's kernel said while the run ran: every membench thread with one
    allowed CPU (a pinned worker) was on that CPU at every sample after the first that
    saw it pinned (that one may have caught it between its pin and its move), and the
    pinned threads cover want_cpus (each CPU the plan says is used had a worker pinned
    there)."""
    tasks = r["tasks"]
    pinned = [t for t in tasks if len(t[4]) == 1]
    first = {}
    for t in pinned:
        first.setdefault(t[2], t[0])
    off = [t for t in pinned if t[3] not in t[4] and t[0] > first[t[2]]]
    check("%s: the guest's /proc saw every pinned membench thread on its one allowed CPU (%d samples of %d threads)"
          % (name, len(pinned), len({t[2] for t in pinned})), pinned and not off,
          "off their CPU (sample, tgid, tid, cpu, allowed): %s" % off[:8] if pinned else "no pinned thread sampled")
    seen = sorted({c for t in pinned for c in t[4]})
    check("%s: the guest's /proc saw workers pinned to CPUs %s" % (name, short(want_cpus)),
          seen == sorted(want_cpus), "pinned to %s" % seen)


def short(cpus):
    cpus = sorted(cpus)
    return "%d-%d" % (cpus[0], cpus[-1]) if cpus == list(range(cpus[0], cpus[-1] + 1)) else ",".join(map(str, cpus))


# --- topology as the guest's kernel shows it (the truth: QEMU's command line)
r = run("topology")
exits("topology", 0, r)
try:
    topo = __import__("json").loads(r["out"])
except ValueError as e:
    topo = {}
    check("topology --json is valid JSON", False, str(e))
nodes = topo.get("numa_nodes", [])
check("topology: nodes 0-3 with CPUs 0-3, 4-7, 8-11, 12-15, node 4 without CPUs, all with memory",
      [(n.get("id"), n.get("cpus")) for n in nodes] == [(0, "0-3"), (1, "4-7"), (2, "8-11"), (3, "12-15"), (4, "")]
      and all(n.get("memory_bytes", 0) > 0 for n in nodes), str(nodes))
cpus = topo.get("cpus", [])
check("topology: every CPU's node and package as QEMU made them (CPUs 8-15 too)",
      [(c.get("id"), c.get("node"), c.get("package")) for c in cpus] == [(c, NODE[c], SOCKET[c]) for c in CPUS],
      str([(c.get("id"), c.get("node"), c.get("package")) for c in cpus]))

# --- the default run: no mode, no option but --json; all 16 CPUs
r = run("default")
exits("default", 0, r)
d = r["json"] or {}
threads = d.get("placement", {}).get("threads", [])
check("default run: complete, its JSON valid", d.get("complete") is True and "_invalid" not in d,
      str({k: d.get(k) for k in ("complete", "stopped_by", "_invalid")}))
check("default run: 16 threads, one on each CPU 0-15",
      len(threads) == 16 and sorted(t.get("cpus") for t in threads) == sorted(str(c) for c in CPUS),
      str([t.get("cpus") for t in threads]))
check("default run: each thread's node is its CPU's (CPUs 8-15 on nodes 2 and 3), memory on that node",
      threads and all(t.get("cpus", "x").isdigit() and t.get("node") == NODE[int(t["cpus"])]
                      and t.get("memory_node") == t.get("node") for t in threads),
      str([(t.get("cpus"), t.get("node"), t.get("memory_node")) for t in threads]))
check("default run: spread over the nodes first (threads 0-3 on nodes 0, 1, 2, 3, then again)",
      [t.get("node") for t in threads] == [i % 4 for i in range(16)], str([t.get("node") for t in threads]))
bw = [x for x in records(r, "sweep") if x.get("metric") == "bandwidth"]
lat = [x for x in records(r, "sweep") if x.get("metric") == "latency"]
check("default run: bandwidth records of all 16 threads, each thread observed on its planned CPU",
      bw and all(x.get("threads") == 16 and len(x.get("placement", [])) == 16 and
                 all(p.get("observed_cpu") == p.get("cpu") for p in x["placement"]) for x in bw),
      str([[p.get("observed_cpu") for p in x.get("placement", [])] for x in bw[:2]]))
check("default run: read, write, copy and latency measured, DRAM points (2 and 4 times the L3 share) included",
      {x.get("operation") for x in bw} >= {"read", "write", "copy"} and lat and
      max(x.get("size_bytes", 0) for x in bw) >= 4 * 2 * 1024 * 1024, str(sorted({x.get("size_bytes") for x in bw})))
found = check_observed.problems(d, None, r["err"])
check("default run: every thread observed in its place, every buffer's pages on its planned node, pins verified",
      not found, "; ".join(found))
# the CSV on stdout is sc-membench's, a row per record, the threads column 16 for bandwidth
rows = [l.split(",") for l in r["out"].splitlines()]
check("default run: CSV header and a row per record, 16 threads in each bandwidth row",
      rows and rows[0][:9] == ["size_kb", "operation", "bandwidth_mb_s", "latency_ns", "latency_stddev_ns",
                               "latency_samples", "threads", "iterations", "elapsed_s"]
      and len(rows) - 1 == len(bw) + len(lat)
      and all(row[6] == "16" for row in rows[1:] if row[1] != "latency"), r["out"][:600])
pinned_watch("default run", r, CPUS)

# --- mlc: MLC's default sequence, every node and CPU
r = run("mlc")
exits("mlc", 0, r)
for head in ("Measuring idle latencies", "Measuring Peak Injection Memory Bandwidths",
             "Measuring Memory Bandwidths between nodes", "Measuring Loaded Latencies",
             "Measuring cache-to-cache transfer latency"):
    check("mlc: prints '%s...'" % head, head in r["out"], r["out"][-600:])
lm = records(r, "latency-matrix")
cells = [(x["placement"][0]["node"], x["placement"][0]["cpu"], x["placement"][0]["memory_node"]) for x in lm]
check("mlc latency matrix: a row per node with CPUs (0-3), chased from a CPU of that node, a column per node "
      "with memory (0-4)", sorted((n, m) for n, _, m in cells) == [(n, m) for n in NODES_OF_CPUS for m in MEM_NODES]
      and all(NODE.get(c) == n for n, c, _ in cells), str(cells))
check("mlc latency matrix: every cell's chaser observed on its CPU, pinned, every page on the column's node",
      lm and all(x["params"].get("observed_cpu") == x["placement"][0]["cpu"] and x.get("pins_verified") == 1
                 and x.get("node_local_fraction") == 1 for x in lm),
      str([(x["params"].get("observed_cpu"), x.get("pins_verified"), x.get("node_local_fraction")) for x in lm]))
pk = records(r, "peak-bandwidth")
check("mlc peak injection bandwidth: 5 mixes, each a thread on every CPU 0-15 on its node, memory there",
      len(pk) == 5 and all([p["cpu"] for p in x["placement"]] == CPUS and
                           all(p["node"] == NODE[p["cpu"]] == p["memory_node"] for p in x["placement"]) for x in pk),
      str([[(p["cpu"], p["node"], p["memory_node"]) for p in x["placement"]] for x in pk[:1]]))
check("mlc peak injection bandwidth: 16 pins verified, every buffer's pages on its node",
      pk and all(x.get("pins_verified") == 16 and x.get("node_local_fraction") == 1 for x in pk),
      str([(x.get("pins_verified"), x.get("node_local_fraction")) for x in pk]))
bm = records(r, "bandwidth-matrix")
check("mlc bandwidth matrix: a cell per CPU node (0-3) and memory node (0-4), the row node's 4 CPUs, memory "
      "bound to the column's node, pages there, 4 pins verified",
      sorted((x["params"]["cpu_node"], x["params"]["mem_node"]) for x in bm) ==
      [(n, m) for n in NODES_OF_CPUS for m in MEM_NODES] and
      all([p["cpu"] for p in x["placement"]] == [c for c in CPUS if NODE[c] == x["params"]["cpu_node"]] and
          all(p["memory_node"] == x["params"]["mem_node"] for p in x["placement"]) and
          x.get("node_local_fraction") == 1 and x.get("pins_verified") == 4 for x in bm),
      str([(x["params"].get("cpu_node"), x["params"].get("mem_node"), [p["cpu"] for p in x["placement"]],
            x.get("node_local_fraction"), x.get("pins_verified")) for x in bm])[:800])
ll = records(r, "loaded-latency")
check("mlc -d 0 loaded latency: idle, then delay 0; the chaser on CPU 0 and a traffic thread on each of the other "
      "15 CPUs, all pinned",
      [(x["operation"], x["params"].get("delay")) for x in ll] == [("idle-latency", 0), ("loaded-latency", 0)] and
      all([p["cpu"] for p in x["placement"]] == CPUS and x.get("pins_verified") == 16 for x in ll),
      str([(x["operation"], x["params"].get("delay"), [p["cpu"] for p in x["placement"]], x.get("pins_verified"))
           for x in ll]))
cc = [x for x in records(r, "c2c") if x["params"].get("kind") == "node"]
check("mlc c2c: writer x reader over every ordered pair of nodes 0-3, each on a CPU of its node, both pinned, "
      "the line homed where said",
      sorted({(x["placement"][0]["node"], x["placement"][1]["node"]) for x in cc}) ==
      [(w, d) for w in NODES_OF_CPUS for d in NODES_OF_CPUS if w != d] and
      all(NODE[p["cpu"]] == p["node"] for x in cc for p in x["placement"][:2]) and
      all(x.get("pins_verified") == 2 and x["params"].get("home_verified") == 1 for x in cc),
      str([(x["placement"][0]["cpu"], x["placement"][1]["cpu"], x.get("pins_verified")) for x in cc])[:600])
pinned_watch("mlc", r, CPUS)

# --- numa mem, perf's command line, all 16 CPUs busy
r = run("numa_mem")
exits("numa_mem", 0, r)
check("numa mem: perf's total-speed line", re.search(r"([0-9.]+), GB/sec,\s+total-speed", r["out"]) is not None,
      r["out"][-600:])
tasks = ((r["json"] or {}).get("analysis") or {}).get("tasks", [])
check("numa mem -C 0-15: task i ran on CPU i, on that CPU's node",
      [(x.get("cpu"), x.get("node")) for x in tasks] == [(c, NODE[c]) for c in CPUS],
      str([(x.get("cpu"), x.get("node")) for x in tasks]))
check("numa mem -M 3x4,2x4,1x4,0x4: each process's 4 threads' memory all on its far node (3, 2, 1, 0)",
      [(x.get("process"), x.get("mem_node"), x.get("mem_node_fraction")) for x in tasks] ==
      [(c // 4, 3 - c // 4, 1) for c in CPUS], str([(x.get("process"), x.get("mem_node"), x.get("mem_node_fraction"))
                                                    for x in tasks]))
check("numa mem: 4 processes (the guest saw 4 worker processes besides the parent), 16 threads pinned",
      len({t[1] for t in r["tasks"]}) == 5 and len({t[2] for t in r["tasks"] if len(t[4]) == 1}) >= 16,
      "processes %s; pinned threads per watcher pass %s"
      % (sorted({t[1] for t in r["tasks"]}),
         [sum(1 for t in r["tasks"] if t[0] == n and len(t[4]) == 1) for n in sorted({t[0] for t in r["tasks"]})]))
pinned_watch("numa mem", r, CPUS)

# --- MLC's -m: a hexadecimal mask with digits above 9
r = run("mlc_mask")
exits("mlc_mask", 0, r)
pk = records(r, "peak-bandwidth")
want = [4] + list(range(8, 16))
check("mlc -m 0xff10: traffic threads on CPUs 4 and 8-15 only, each on its node, memory there, pins verified",
      pk and all([p["cpu"] for p in x["placement"]] == want and
                 all(p["node"] == NODE[p["cpu"]] == p["memory_node"] for p in x["placement"]) and
                 x.get("pins_verified") == len(want) and x.get("node_local_fraction") == 1 for x in pk),
      str([([p["cpu"] for p in x["placement"]], x.get("pins_verified")) for x in pk[:1]]))
pinned_watch("mlc -m 0xff10", r, want)

log.finish()
