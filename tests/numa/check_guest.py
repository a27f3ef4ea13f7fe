#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks what tests/numa/guest_init.sh printed on the guest's serial console.

Each run is a block "=== BEGIN name" ... "=== STDERR" ... ["=== JSON" ...]
"=== END name rc=N". Prints one ok/not ok line per check and a closing
"numa: N passed, M failed"; exits 1 if anything failed or the guest did not finish.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import check_observed  # noqa: E402  (tests/cli/check_observed.py: observed against planned)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guest_log  # noqa: E402

# The console log's run blocks and each node's free memory before a run ("=== FREE
# name node0=..MiB .."), read by tests/numa/guest_log.py.
log = guest_log.Log(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "?")
text, free_before, runs = log.text, log.free_before, log.runs
label = "numa guest (%s)" % sys.argv[2] if len(sys.argv) > 2 else "numa guest"
passed = failed = 0
last_run = None


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok - %s: %s" % (label, name))
    else:
        failed += 1
        print("not ok - %s: %s" % (label, name))
        if detail:
            print("    " + detail[:600].replace("\n", "\n    "))
        if last_run in free_before:
            print("    free before %s: %s" % (last_run, free_before[last_run]))


def run(name):
    global last_run
    last_run = name
    r = runs.get(name)
    check(name + ": ran", r is not None, "no block in the console log")
    return r or {"rc": -1, "out": "", "err": "", "err_lines": [], "json": None}


def exits(name, rc, r):
    check("%s: exit status %d" % (name, rc), r["rc"] == rc, "rc=%d stderr=%s" % (r["rc"], r["err"]))


def bad_input(name, needle):
    r = run(name)
    exits(name, 2, r)
    check(name + ": one line naming the problem", len(r["err_lines"]) == 1 and needle in r["err"], r["err"])


def threads(r):
    return (r["json"] or {}).get("placement", {}).get("threads", [])


def fractions(r):
    return [x.get("node_local_fraction") for x in (r["json"] or {}).get("results", [])]


up = re.search(r"^=== GUEST UP (\S+) nodes=(\d+) cpus=(\d+)$", text, re.M)
check("guest booted with 4 NUMA nodes and 6 CPUs", up is not None and up.group(2) == "4" and up.group(3) == "6",
      text[-1500:])
check("guest ran to the end", "=== GUEST DONE" in text, text[-1500:])

# --- topology as the guest's kernel shows it
r = run("topology")
exits("topology", 0, r)
try:
    r["json"] = json.loads(r["out"])  # membench topology --json writes to stdout
except ValueError as e:
    check("topology --json is valid JSON", False, str(e))
nodes = (r["json"] or {}).get("numa_nodes", [])
check("topology: four nodes with CPUs 0-1, 2-3, 4-5 and none",
      [(n.get("id"), n.get("cpus")) for n in nodes] == [(0, "0-1"), (1, "2-3"), (2, "4-5"), (3, "")], str(nodes))
check("topology: node 2 has no memory, nodes 0, 1 and the CPU-less 3 do",
      len(nodes) == 4 and nodes[2].get("memory_bytes") == 0
      and all(nodes[i].get("memory_bytes", 0) > 0 for i in (0, 1, 3)), str(nodes))
check("topology: memory-less node named with where its memory comes from",
      any("NUMA node 2 has CPUs but no memory: its threads' memory comes from node 3" in w
          for w in (r["json"] or {}).get("warnings", [])), str((r["json"] or {}).get("warnings")))

# --- the binary is the guest's architecture, with its kernels and counter
if len(sys.argv) > 2:
    arch = sys.argv[2]
    d = run("spread2")["json"] or {}
    host = d.get("host", {})
    check("JSON names the guest's architecture (%s)" % arch, host.get("arch") == arch, str(host))
    isas = [x.get("kernel", {}).get("isa") for x in d.get("results", [])]
    check("bandwidth kernels are the architecture's own (%s)" % ",".join(map(str, isas)),
          isas and all(i in host.get("isa", "").split(",") and i != "c" for i in isas)
          and (arch != "aarch64" or all(i == "neon" for i in isas)), str(isas) + " " + str(host))
    check("CPU model named (%s)" % host.get("cpu_model"), host.get("cpu_model") not in (None, "", "unknown")
          and (arch != "aarch64" or host.get("cpu_model", "").startswith("arm64 CPU implementer ")), str(host))
    want_counter = {"x86_64": "TSC", "aarch64": "CNTVCT_EL0"}.get(arch)
    check("reference counter named (%s)" % want_counter, host.get("ref_counter") == want_counter, str(host))

# --- placement: threads spread over nodes, buffers on their own node (page-node query)
r = run("spread2")
exits("spread2", 0, r)
check("-p 2: one thread on each node with memory", [(t["cpus"], t["node"]) for t in threads(r)] == [("0", 0), ("2", 1)],
      str(threads(r)))
check("-p 2: every buffer entirely on its thread's node", fractions(r) and all(f == 1 for f in fractions(r)),
      str(fractions(r)))

r = run("spread_all")
exits("spread_all", 0, r)
check("all CPUs: spread over nodes 0,1,2 then again",
      [t["node"] for t in threads(r)] == [0, 1, 2, 0, 1, 2] and [t["cpus"] for t in threads(r)] == ["0", "2", "4", "1", "3", "5"],
      str(threads(r)))
check("all CPUs: threads of the memory-less node get the CPU-less node 3's memory (the kernel's fallback: all at "
      "distance 20, a node without CPUs first)",
      [t.get("memory_node") for t in threads(r)] == [0, 1, 3, 0, 1, 3], str(threads(r)))
check("all CPUs: every buffer on its thread's memory node", fractions(r) and all(f == 1 for f in fractions(r)),
      str(fractions(r)) + " " + r["err"])
check("all CPUs: no locality warning", "own NUMA node" not in r["err"], r["err"])

r = run("cpus_node1")
exits("cpus_node1", 0, r)
check("--cpus 2,3: both threads on node 1", [(t["cpus"], t["node"]) for t in threads(r)] == [("2", 1), ("3", 1)],
      str(threads(r)))
check("--cpus 2,3: buffers on node 1", fractions(r) and all(f == 1 for f in fractions(r)), str(fractions(r)))

r = run("omp_close")
exits("omp_close", 0, r)
check("OMP_PROC_BIND=close: two threads packed on node 0",
      [(t["cpus"], t["node"]) for t in threads(r)] == [("0", 0), ("1", 0)], str(threads(r)))

r = run("latency_local")
exits("latency_local", 0, r)
check("latency: memory on the CPU's node 0, every buffer there",
      "memory on node 0" in (r["json"] or {}).get("plan", {}).get("method", "") and fractions(r) and all(f == 1 for f in fractions(r)),
      str((r["json"] or {}).get("plan", {}).get("method")) + str(fractions(r)))
r = run("latency_remote")
exits("latency_remote", 0, r)
check("latency --mem-node 1: CPU 0 on node 0, every buffer on node 1",
      "CPU 0 (node 0), memory on node 1" in (r["json"] or {}).get("plan", {}).get("method", "") and fractions(r)
      and all(f == 1 for f in fractions(r)), str((r["json"] or {}).get("plan", {}).get("method")) + str(fractions(r)))
bad_input("latency_memless_node", "--mem-node 2: that NUMA node has no memory")
r = run("latency_bind_full")
exits("latency_bind_full", 1, r)
check("latency --mem-node 1 (bind) larger than node 1: skipped, never measured elsewhere, and an error",
      "could not allocate on the bound node" in r["err"] and "nothing was measured" in r["err"], r["err"])
r = run("latency_node3_margin")
m = re.search(r"\bnode3=(\d+)MiB", free_before.get("latency_node3_margin", ""))
free3 = int(m.group(1)) if m else -1
# 64 MiB + node 3's 16 MiB margin = 80 MiB: measured above, refused below (4 MiB each
# side for what moved between the guest's reading and membench's)
if free3 >= 84:
    exits("latency_node3_margin", 0, r)
    check("latency --mem-node 3, 64 MiB: node 3 (128 MiB, %d MiB free) keeps 16 MiB free, not 64: measured there"
          % free3, fractions(r) and all(f == 1 for f in fractions(r)), r["err"] + str(fractions(r)))
elif free3 >= 0 and free3 < 76:
    exits("latency_node3_margin", 1, r)
    check("latency --mem-node 3, 64 MiB: node 3 with %d MiB free cannot hold it with a 16 MiB margin: skipped"
          % free3, "could not allocate on the bound node" in r["err"], r["err"])
else:
    check("latency --mem-node 3, 64 MiB: node 3's free memory known before the run (%d MiB) and the run ended"
          % free3, free3 >= 0 and r["rc"] in (0, 1), r["err"])
r = run("latency_preferred_full")
exits("latency_preferred_full", 0, r)
check("latency --mem-policy preferred larger than node 1: spills, the plan names the policy, the node share says so",
      (r["json"] or {}).get("plan", {}).get("memory_policy") == "preferred" and fractions(r)
      and all(f is not None and 0 < f < 1 for f in fractions(r)),
      str((r["json"] or {}).get("plan", {}).get("memory_policy")) + str(fractions(r)))

r = run("stream_nodes")
exits("stream_nodes", 0, r)
res = (r["json"] or {}).get("results", [])
check("stream on 6 CPUs in 3 nodes validates", res and all(x["params"].get("validated") for x in res), str(res)[:300])

# --- observed, not planned: every thread's CPU seen from inside it lies in its place,
# every buffer's sampled pages (STREAM: each thread's chunk of each array) are on the
# planned memory node (latency: --mem-node's), every pin verified, none "could not be pinned"
for name, mem_node in (("spread2", None), ("spread_all", None), ("cpus_node1", None), ("latency_local", 0),
                       ("latency_remote", 1), ("stream_nodes", None)):
    r = run(name)
    found = check_observed.problems(r["json"] or {}, mem_node, r["err"])
    check("%s: threads observed in their places, pages on the planned node%s, pins verified"
          % (name, "" if mem_node is None else " (%d)" % mem_node), not found, "; ".join(found))

# --- latency-matrix (a CPU-less memory node as a column) ---------------------------
def lm_results(r):
    return (r["json"] or {}).get("results", [])


def lm_cell(x):
    p = x["placement"][0]
    return (p["node"], p["cpu"], p["memory_node"])


def lm_verified(r):
    """Every cell ran on its planned CPU (seen in the thread) with all sampled pages on its node."""
    return all(x["params"].get("observed_cpu") == x["placement"][0]["cpu"] and x["pins_verified"] == 1
               and x["node_local_fraction"] == 1 and x["params"].get("mem_node") == x["placement"][0]["memory_node"]
               for x in lm_results(r))


r = run("lm_matrix")
exits("lm_matrix", 0, r)
cells = [lm_cell(x) for x in lm_results(r)]
check("latency-matrix: rows nodes 0, 1, 2 (memory-less: still a row) on CPUs 0, 2, 4; columns 0, 1, 3 (CPU-less)",
      cells == [(n, c, m) for n, c in ((0, 0), (1, 2), (2, 4)) for m in (0, 1, 3)], str(cells))
check("latency-matrix: every cell's CPU verified in the thread and every page on the column's node",
      lm_results(r) and lm_verified(r), str([(lm_cell(x), x["params"], x["node_local_fraction"]) for x in lm_results(r)])[:600])
check("latency-matrix: the text matrix has the columns 0 1 3 and a row per CPU node",
      re.search(r"^Numa node +0 +1 +3 +chaser$", r["out"], re.M) is not None
      and [l.split()[0] for l in r["out"].splitlines() if re.match(r"^ +\d+ +[\d.]+ ", l)] == ["0", "1", "2"], r["out"])
check("latency-matrix: no cell unavailable, local and remote extremes in the analysis",
      (r["json"] or {}).get("analysis", {}).get("cells_unavailable") == 0
      and "local_min_ns" in (r["json"] or {}).get("analysis", {}) and "remote_max_ns" in (r["json"] or {}).get("analysis", {}),
      str((r["json"] or {}).get("analysis")))

r = run("lm_full")
exits("lm_full", 0, r)
an = (r["json"] or {}).get("analysis", {})
check("latency-matrix 120 MiB: node 3 (128 MiB) cannot hold it: '-' in its column, nodes 0 and 1 measured",
      re.search(r"^ +0 +\d+\.\d +\d+\.\d +- +CPU 0$", r["out"], re.M) is not None
      and [lm_cell(x) for x in lm_results(r)] == [(0, 0, 0), (0, 0, 1)], r["out"])
check("latency-matrix 120 MiB: the unavailable cell is a warning naming node 3 and is in the JSON",
      "x memory node 3: the node could not hold the 120 MiB buffer" in r["err"]
      and [(u.get("cpu_node"), u.get("cpu"), u.get("mem_node")) for u in an.get("unavailable_cells", [])] == [(0, 0, 3)]
      and an.get("cells_unavailable") == 1, r["err"] + str(an))
check("latency-matrix 120 MiB: the measured cells' pages are on their nodes", lm_results(r) and lm_verified(r),
      str(fractions(r)))

r = run("lm_every")
exits("lm_every", 0, r)
check("latency-matrix --every-cpu: a row per CPU 0-5, memory on its node (node 2's CPUs: node 3)",
      [lm_cell(x) for x in lm_results(r)] == [(0, 0, 0), (0, 1, 0), (1, 2, 1), (1, 3, 1), (2, 4, 3), (2, 5, 3)],
      str([lm_cell(x) for x in lm_results(r)]))
check("latency-matrix --every-cpu: every CPU verified, every page on its node, the slowest CPU named",
      lm_results(r) and lm_verified(r) and (r["json"] or {}).get("analysis", {}).get("slowest_cpu") in range(6),
      str((r["json"] or {}).get("analysis")))
r = run("lm_every_node3")
exits("lm_every_node3", 0, r)
check("latency-matrix --every-cpu --mem-node 3: every CPU reads the CPU-less node 3, pages there",
      [lm_cell(x) for x in lm_results(r)] == [(n, c, 3) for n, c in ((0, 0), (0, 1), (1, 2), (1, 3), (2, 4), (2, 5))]
      and lm_verified(r), str([lm_cell(x) for x in lm_results(r)]))
r = run("lm_cpu_of")
exits("lm_cpu_of", 0, r)
check("latency-matrix --cpu-of 1=3 --mem-node 1: node 1's chaser on CPU 3, one column",
      [lm_cell(x) for x in lm_results(r)] == [(0, 0, 1), (1, 3, 1), (2, 4, 1)] and lm_verified(r),
      str([lm_cell(x) for x in lm_results(r)]))
bad_input("lm_memless", "--mem-node 2: that NUMA node has no memory")
bad_input("lm_cpu_of_wrong", "--cpu-of 1=0: that CPU is not on that node")
# --- end of latency-matrix

# --- traffic modes (peak-bandwidth, loaded-latency, bandwidth-matrix) ---------------
def tr_results(r):
    return (r["json"] or {}).get("results", [])


r = run("tr_peak")
exits("tr_peak", 0, r)
res = tr_results(r)
check("peak-bandwidth: a traffic thread on each CPU 0-5, memory on its node (node 2's CPUs: node 3)",
      [x["operation"] for x in res] == ["R", "W5"] and
      all([t["cpu"] for t in x["placement"]] == [0, 1, 2, 3, 4, 5] and
          all(t["memory_node"] == (t["node"] if t["node"] in (0, 1) else 3)
              for t in x["placement"]) for x in res), str([x["placement"] for x in res])[:600])
check("peak-bandwidth: every buffer's pages on its thread's memory node, every pin verified",
      res and all(x["node_local_fraction"] == 1 and x["pins_verified"] == 6 for x in res),
      str([(x["node_local_fraction"], x["pins_verified"]) for x in res]))

r = run("tr_loaded")
exits("tr_loaded", 0, r)
res = tr_results(r)
check("loaded-latency -c 2: the chaser on CPU 2, traffic on 0,1,3,4,5 (never the chaser's CPU)",
      len(res) == 3 and all([t["cpu"] for t in x["placement"]] == [2, 0, 1, 3, 4, 5] for x in res) and
      res[1]["params"]["traffic_threads"] == 5 and (r["json"] or {}).get("plan", {}).get("latency_cpu") == 2,
      str([x["placement"] for x in res])[:600])
check("loaded-latency: idle, then delays 0 and 100, each with its bandwidth; no hang on 6 vCPUs",
      [(x["operation"], x["params"]["delay"]) for x in res] == [("idle-latency", 0), ("loaded-latency", 0),
                                                               ("loaded-latency", 100)] and
      res[0]["params"]["bandwidth_mb_s"] == 0 and res[1]["params"]["bandwidth_mb_s"] > 0,
      str([(x["operation"], x["params"]) for x in res])[:600])


def tr_cell(x):
    return (x["params"]["cpu_node"], x["params"]["mem_node"])


r = run("tr_bwm")
exits("tr_bwm", 0, r)
res = tr_results(r)
check("bandwidth-matrix: rows nodes 0, 1, 2 (memory-less: a row), columns 0, 1, 3 (CPU-less)",
      [tr_cell(x) for x in res] == [(n, m) for n in (0, 1, 2) for m in (0, 1, 3)], str([tr_cell(x) for x in res]))
check("bandwidth-matrix: a cell's threads are its node's two CPUs, buffers bound to the column's node, pages there",
      res and all([t["cpu"] for t in x["placement"]] == {0: [0, 1], 1: [2, 3], 2: [4, 5]}[x["params"]["cpu_node"]] and
                  all(t["memory_node"] == x["params"]["mem_node"] for t in x["placement"]) and
                  x["node_local_fraction"] == 1 and x["pins_verified"] == 2 for x in res),
      str([(tr_cell(x), [t["cpu"] for t in x["placement"]], x["node_local_fraction"]) for x in res])[:600])
check("bandwidth-matrix: the text has the columns 0 1 3",
      re.search(r"^Numa node\t +0\t +1\t +3$", r["out"], re.M) is not None, r["out"])

r = run("tr_bwm_full")
exits("tr_bwm_full", 0, r)
res = tr_results(r)
un = (r["json"] or {}).get("analysis", {}).get("unavailable_cells", [])
check("bandwidth-matrix 2 x 64 MiB: node 3 (128 MiB) cannot hold them: '-' in its column, reported, not measured",
      [tr_cell(x) for x in res] == [(n, m) for n in (0, 1, 2) for m in (0, 1)] and
      sorted(u["mem_node"] for u in un) == [3, 3, 3] and
      len(re.findall(r"^ +\d\t +[\d.]+\t +[\d.]+\t +-$", r["out"], re.M)) == 3,
      r["out"] + str(un))
# --- end of traffic modes

# --- mlc: MLC's layout of the node matrices, -j on a CPU-less node, -i -------------
def mlc_matrix(out):
    """MLC's 'Numa node' matrix: the columns and [(row node, [cells])]."""
    lines = out.splitlines()
    head = [k for k, l in enumerate(lines) if l.startswith("Numa node\t")]
    if not head:
        return [], []
    cols = [int(c) for c in re.findall(r"\t\s*(\d+)", lines[head[0]])]
    rows = []
    for l in lines[head[0] + 1:]:
        m = re.match(r"^\s+(\d+)((?:\t\s*(?:[0-9.]+|-))+)$", l)
        if not m:
            break
        rows.append((int(m.group(1)), [c.strip() for c in m.group(2).split("\t")[1:]]))
    return cols, rows


def mlc_cells_match(r, key):
    """Every printed cell is the record of its (row node, column node)."""
    cols, rows = mlc_matrix(r["out"])
    recs = {key(x): x for x in (r["json"] or {}).get("results", [])}
    return bool(rows) and all(v == "%.1f" % recs[(n, cols[j])]["value"] for n, vals in rows for j, v in enumerate(vals)
                              if (n, cols[j]) in recs) and all(len(vals) == len(cols) for _, vals in rows)


r = run("mlc_lm")
exits("mlc_lm", 0, r)
cols, rows = mlc_matrix(r["out"])
check("mlc --latency_matrix: MLC's matrix, columns 0 1 3 (the CPU-less node too), rows 0 1 2, each cell the record",
      cols == [0, 1, 3] and [n for n, _ in rows] == [0, 1, 2] and
      mlc_cells_match(r, lambda x: (x["placement"][0]["node"], x["placement"][0]["memory_node"])) and lm_verified(r),
      r["out"])
r = run("mlc_idle_cpuless")
exits("mlc_idle_cpuless", 0, r)
check("mlc --idle_latency -c 3 -j 3: CPU 3 chases the CPU-less node 3 (MLC cannot), verified",
      [lm_cell(x) for x in lm_results(r)] == [(1, 3, 3)] and lm_verified(r) and
      re.search(r"^Each iteration took (?:[0-9.]+|n/a) base frequency clocks \(\t[0-9.]+\tns\)$", r["out"], re.M),
      r["out"] + str([lm_cell(x) for x in lm_results(r)]))
r = run("mlc_idle_i")
exits("mlc_idle_i", 0, r)
check("mlc --idle_latency -c 0 -i 2: memory on CPU 2's node (1), chased from CPU 0",
      [lm_cell(x) for x in lm_results(r)] == [(0, 0, 1)] and lm_verified(r), str([lm_cell(x) for x in lm_results(r)]))
r = run("mlc_idle_i_memless")
exits("mlc_idle_i_memless", 0, r)
check("mlc --idle_latency -i 4: CPU 4's node has no memory: its memory node (3)",
      [lm_cell(x) for x in lm_results(r)] == [(0, 0, 3)] and lm_verified(r), str([lm_cell(x) for x in lm_results(r)]))
r = run("mlc_bwm")
exits("mlc_bwm", 0, r)
cols, rows = mlc_matrix(r["out"])
check("mlc --bandwidth_matrix: MLC's matrix, columns 0 1 3, rows 0 1 2, each cell the record's best MB/s",
      cols == [0, 1, 3] and [n for n, _ in rows] == [0, 1, 2] and
      mlc_cells_match(r, lambda x: (x["params"]["cpu_node"], x["params"]["mem_node"])), r["out"])
r = run("mlc_c2c")
exits("mlc_c2c", 0, r)
remote = re.findall(r"^Remote Socket L2->L2 (HITM|HIT) latency \(data address homed in (writer|reader) socket\)$",
                    r["out"], re.M)
check("mlc --c2c_latency: local lines, then writer x reader node matrices homed in each socket, '-' on the diagonal",
      re.search(r"^Local Socket L2->L2 HITM latency\t[0-9.]+$", r["out"], re.M) and
      ("HITM", "writer") in remote and ("HITM", "reader") in remote and
      [st for st, _ in remote] == ["HIT", "HIT", "HITM", "HITM"] and  # MLC's order
      re.search(r"^ {12}0\t {5}-\t", r["out"], re.M) is not None, r["out"])
bad_input("mlc_j_memless", "-j 2: that NUMA node has no memory")
# --- end of mlc

# --- numa mem: bound and unbound tasks, CPU-less and memory-less nodes, convergence, a killed worker
def nm_tasks(r):
    return ((r["json"] or {}).get("analysis") or {}).get("tasks", [])


r = run("nm_bind")
exits("nm_bind", 0, r)
t = nm_tasks(r)
check("numa mem -C 0,2 -M 0,1: task 0 on CPU 0 (node 0), task 1 on CPU 2 (node 1), each thread's pages on its -M node",
      [(x["cpu"], x["node"], x["mem_node"]) for x in t] == [(0, 0, 0), (2, 1, 1)] and
      all(x["mem_node_fraction"] == 1 for x in t) and
      re.search(r"([0-9.]+), GB\/sec,\s+total-speed", r["out"]) is not None, str(t))
r = run("nm_cpuless")
exits("nm_cpuless", 0, r)
t = nm_tasks(r)
check("numa mem -M 3x2: both threads' memory on the CPU-less node 3 (perf drops such a node)",
      [(x["cpu"], x["mem_node"]) for x in t] == [(2, 3), (2, 3)] and all(x["mem_node_fraction"] == 1 for x in t), str(t))
bad_input("nm_memless", "-M '2': NUMA node 2 has no memory")
# 2 x (40 + 20) MiB on node 3 (128 MiB): each buffer alone fits its free memory, all
# four together do not; the tasks allocate side by side, so the plan refuses them
bad_input("nm_node_full", "-M '3,3': 120 MiB of the tasks' memory bound to node 3, more than it can hold safely")
r = run("nm_conv_bound")
exits("nm_conv_bound", 0, r)
rec0 = ((r["json"] or {}).get("results") or [{}])[0]
check("numa mem -m with each process bound to one node: converged, and stopped there (well before -s 5)",
      rec0.get("params", {}).get("converged") is True and rec0["params"]["convergence_latency_s"] < 5 and
      re.search(r"^ main, +[0-9.]+, secs, +NUMA-convergence-latency$", r["out"], re.M) is not None, r["out"][-600:])
rows = ((r["json"] or {}).get("analysis") or {}).get("convergence", [])
check("numa mem -m bound: the samples show process 0's threads and memory on node 0, process 1's on node 1",
      rows and all((x["thread_node_min"], x["thread_node_max"], x["mem_node"], x["mem_share"]) ==
                   ((0, 0, 0, 1) if x["process"] == 0 else (1, 1, 1, 1)) for x in rows) and rows[-1]["converged"],
      str(rows)[:600])
r = run("nm_conv")
exits("nm_conv", 0, r)
rec0 = ((r["json"] or {}).get("results") or [{}])[0]
check("numa mem -c unbound on 6 vCPUs: ends by -s, says whether and when it converged",
      isinstance(rec0.get("params", {}).get("converged"), bool) and "convergence" in rec0.get("params", {}), str(rec0)[:300])


def conv_samples(rows):
    by_t = {}
    for x in rows:
        by_t.setdefault(x["t_s"], []).append(x)
    return by_t


rows = ((r["json"] or {}).get("analysis") or {}).get("convergence", [])
samples = conv_samples(rows)
check("numa mem -c: a sample is converged exactly when every process's threads share a node holding its memory",
      samples and all(all(x["converged"] == all(y["thread_node_min"] == y["thread_node_max"] >= 0 and
                                                y["mem_node"] in (-1, y["thread_node_min"]) for y in xs) for x in xs)
                      for xs in samples.values()) and
      rec0["params"]["converged"] == any(xs[0]["converged"] for xs in samples.values()), str(rows)[:600])
r = run("nm_split")
exits("nm_split", 0, r)
rows = ((r["json"] or {}).get("analysis") or {}).get("convergence", [])
rec0 = ((r["json"] or {}).get("results") or [{}])[0]
check("numa mem -c, one process's threads on nodes 0 and 1: every sample {0-1}, memory on node 0, never converged",
      len(rows) >= 2 and all((x["thread_node_min"], x["thread_node_max"], x["thread_nodes"], x["mem_node"],
                              x["mem_share"], x["converged"]) == (0, 1, 2, 0, 1, False) for x in rows) and
      rec0.get("params", {}).get("converged") is False and
      len(re.findall(r"^ # +[0-9.]+ s  threads \{0-1\}  memory \{0 100%\}  not converged$", r["out"], re.M)) == len(rows),
      r["out"][-800:])
r = run("nm_killed")
exits("nm_killed", 1, r)
check("numa mem: a worker killed in the guest ends the run with an error naming it, no hang",
      re.search(r"error: process \d \(pid \d+\) was killed by signal 9", r["err"]) is not None, r["err"][-300:])
# --- end of numa mem

# --- THP never, no huge pages
r = run("thp_never_H")
exits("thp_never_H", 0, r)
check("-H with THP never: runs, says so", "THP is 'never'" in r["err"], r["err"])
check("-H with THP never: JSON records no huge pages",
      all(x["pages"]["huge_coverage"] == 0 for x in (r["json"] or {}).get("results", [{"pages": {"huge_coverage": 1}}])))
r = run("mixed_pages")
exits("mixed_pages", 0, r)
pages = ((r["json"] or {}).get("results") or [{}])[0].get("pages", {})
groups = {g["method"]: g for g in pages.get("buffers", [])}
# the other two asked for THP by madvise, which THP "never" accepts and ignores
check("-H with a pool for half the buffers: each buffer's method is reported (2 hugetlb, 2 thp at 0%)",
      pages.get("method") == "mixed" and groups.get("hugetlb", {}).get("count") == 2
      and groups.get("hugetlb", {}).get("huge_coverage") == 1
      and groups.get("thp", {}).get("count") == 2 and groups.get("thp", {}).get("huge_coverage") == 0, str(pages))
check("-H with a pool for half the buffers: the combined share is half",
      pages.get("huge_coverage") is not None and abs(pages["huge_coverage"] - 0.5) < 0.01, str(pages))
check("-H with a pool for half the buffers: the warning names both methods and 50%",
      "only 50% of the buffers' bytes are in huge pages (2 hugetlb + 2 thp); THP is 'never'" in r["err"], r["err"])
bad_input("latency_pages_thp", "transparent huge pages are 'never'")
bad_input("latency_pages_2m", "no room in the 2 MiB huge page pool")

# --- no privileges, restricted cpuset
r = run("nobody_id")
check("unprivileged runs are really uid 65534", r["out"].strip() == "65534", r["out"] + r["err"])
r = run("nobody")
exits("nobody", 0, r)
check("unprivileged: bandwidth and latency measured, buffers on their nodes",
      [x["operation"] for x in (r["json"] or {}).get("results", [])] == ["read", "latency"]
      and all(f == 1 for f in fractions(r)), str((r["json"] or {}).get("results"))[:300])
r = run("nobody_taskset")
exits("nobody_taskset", 0, r)
check("taskset -c 3,5: two threads, on CPUs 3 and 5 only",
      [(t["cpus"], t["node"]) for t in threads(r)] == [("3", 1), ("5", 2)], str(threads(r)))

# --- /sys partly hidden or unreadable
def said(r, text):
    """A warning the run gave: in the JSON's warnings, and on stderr as itself or in
    its kind's one grouped line (`membench: warning: KIND xN: ...`, N the kind's count
    in the JSON's warning_kinds), as the terminal groups warnings since issue 37."""
    d = r["json"] or {}
    ws, ks = d.get("warnings", []), d.get("warning_kinds", [])
    hits = [k for w, k in zip(ws, ks) if text in w]
    if not hits:
        return False
    return text in r["err"] or ("warning: %s x%d:" % (hits[0], ks.count(hits[0]))) in r["err"]


r = run("sys_hidden")
exits("sys_hidden", 0, r)
check("hidden node tree: said (JSON, and on stderr itself or in its kind's line)", said(r, "NUMA nodes unreadable"),
      r["err"])
check("hidden cpu0 caches: said (JSON, and on stderr itself or in its kind's line)",
      said(r, "no cache information for CPU(s) 0"), r["err"])
check("hidden /sys: results still complete", (r["json"] or {}).get("complete") is True)
r = run("sys_hidden_topology")
exits("sys_hidden_topology", 0, r)
r = run("sys_unreadable")
exits("sys_unreadable", 0, r)
check("unreadable THP setting and node1: said (JSON, and on stderr itself or in its kind's line)",
      said(r, "THP mode unknown") and said(r, "node1"), r["err"])

# --- a 256 MiB cgroup
if "=== NOTE cgroup v2 memory controller not available" in text:
    check("cgroup v2 memory controller in the guest", False, "not available")
else:
    r = run("cgroup_f")
    exits("cgroup_f", 0, r)
    rs = (r["json"] or {}).get("results", [])
    biggest = max((x["size_kb"] * 1024 * x["threads"] for x in rs), default=0)
    check("-f in a 256 MiB cgroup: sizes stay inside the limit", 0 < biggest <= 256 << 20,
          "largest %d bytes; stderr %s" % (biggest, r["err"]))
    check("-f in a 256 MiB cgroup: says it adds nothing", "-f adds nothing: the memory budget allows" in r["err"],
          r["err"])
    bad_input("cgroup_big_s", "can be allocated safely")
    bad_input("cgroup_stream", "can be allocated safely")
    bad_input("cgroup_latency", "can be allocated safely")
    for name in ("cgroup_big_s", "cgroup_stream", "cgroup_latency"):
        m = re.search(r"(\d+) ([KM])iB(?: can be allocated safely|: MemAvailable)", runs.get(name, {}).get("err", ""))
        budget = int(m.group(1)) << (10 if m.group(2) == "K" else 20) if m else 0
        check(name + ": the budget named is below the cgroup's 256 MiB", 0 < budget < 256 << 20,
              runs.get(name, {}).get("err", ""))

# --- c2c (membench c2c): begin ---------------------------------------------------
def c2c_results(r):
    return (r["json"] or {}).get("results", [])


def c2c_cell(x):
    """(writer cpu, reader cpu, writer node, reader node, home, state, home_of, verified, pins)"""
    p, q = x["placement"], x["params"]
    return (p[0]["cpu"], p[1]["cpu"], p[0]["node"], p[1]["node"], q["home_node"], q["state"], q["home_of"],
            q["home_verified"], x["pins_verified"])


r = run("c2c_pair")
exits("c2c_pair", 0, r)
cells = [c2c_cell(x) for x in c2c_results(r)]
check("c2c --writer 0 --reader 2: writer CPU 0 on node 0, reader CPU 2 on node 1, HITM homed on node 0, all "
      "pages there, both pins held", cells == [(0, 2, 0, 1, 0, "HITM", "writer", 1, 2)], str(cells))
r = run("c2c_pair_clean")
exits("c2c_pair_clean", 0, r)
cells = [c2c_cell(x) for x in c2c_results(r)]
check("c2c --clean --home 0, writer CPU 2 (node 1): HIT homed on node 0, all pages there",
      cells == [(2, 0, 1, 0, 0, "HIT", "--home", 1, 2)], str(cells))

r = run("c2c_default")
exits("c2c_default", 0, r)
res = c2c_results(r)
local = [c2c_cell(x) for x in res if x["params"]["kind"] == "local"]
node = [c2c_cell(x) for x in res if x["params"]["kind"] == "node"]
check("c2c default: a local pair on one node (CPUs 0 and 1), HIT then HITM (MLC's order), homed on node 0",
      [c[:6] for c in local] == [(0, 1, 0, 0, 0, "HIT"), (0, 1, 0, 0, 0, "HITM")], str(local))
# one CPU per node (0, 2, 4), 6 ordered pairs x 2 states x 2 homings
check("c2c default: node matrices cover every ordered node pair in both states and both homings",
      sorted((c[2], c[3], c[5], c[6]) for c in node) ==
      sorted((w, d, st, h) for w in range(3) for d in range(3) if w != d for st in ("HITM", "HIT")
             for h in ("writer", "reader")), str(node))
has_mem = {n["id"]: n.get("memory_bytes", 0) > 0 for n in
           (r["json"] or {}).get("topology", {}).get("numa_nodes", [])}


def c2c_home_ok(node_id, home):
    """A node with memory is its own home; a memory-less one gets another node that has memory."""
    return home == node_id if has_mem.get(node_id) else (home != node_id and has_mem.get(home, False))


check("c2c default: each cell homed on its writer's or reader's node (the memory-less node 2 on a node with "
      "memory), every page verified there, both pins held",
      len(node) == 24 and all(c2c_home_ok(c[2] if c[6] == "writer" else c[3], c[4]) and c[7] == 1 and c[8] == 2
                              for c in node), str(node) + " " + str(has_mem))
check("c2c default: the table prints the matrices with '-' on the diagonal",
      r["out"].count("memory homed on the writer's node") == 2 and
      r["out"].count("memory homed on the reader's node") == 2 and re.search(r"^0 +- ", r["out"], re.M) is not None,
      r["out"][-1500:])

r = run("c2c_matrix")
exits("c2c_matrix", 0, r)
cells = [c2c_cell(x) for x in c2c_results(r)]
check("c2c --matrix --cpus 0,2,4: 6 ordered pairs, each homed on its writer's node",
      [(c[0], c[1]) for c in cells] == [(0, 2), (0, 4), (2, 0), (2, 4), (4, 0), (4, 2)] and
      all(c2c_home_ok(c[2], c[4]) and c[7] == 1 for c in cells), str(cells))
bad_input("c2c_home_memless", "--home 2: that NUMA node has no memory")
# --- c2c: end --------------------------------------------------------------------

# --- SIGTERM on a multi-node run
r = run("sigterm")
exits("sigterm", 143, r)
d = r["json"] or {}
check("SIGTERM: JSON valid, incomplete, says why, keeps what was measured",
      d.get("complete") is False and "SIGTERM" in str(d.get("stopped_by")) and len(d.get("results", [])) > 0,
      json.dumps({k: d.get(k) for k in ("complete", "stopped_by")}))
# sc-membench's nine columns (the drop-in's contract), and no row cut short by the stop
SC_MEMBENCH_HEADER = ("size_kb,operation,bandwidth_mb_s,latency_ns,latency_stddev_ns,latency_samples,threads,"
                      "iterations,elapsed_s")
check("SIGTERM: CSV rows printed so far are whole (sc-membench's header, 9 fields a row)",
      r["out"].splitlines()[:1] == [SC_MEMBENCH_HEADER] and len(r["out"].splitlines()) > 1 and
      all(len(l.split(",")) == 9 for l in r["out"].splitlines()), r["out"][-300:])

print("%s: %d passed, %d failed" % (label, passed, failed))
sys.exit(1 if failed else 0)
