#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--plan on recorded large machines (tests/machines/make_tree.py) and on this one:
the threads and their CPUs, the sizes against the caches, the memory per node and in
all against the budgets, and the estimated time against the 15 s a default run
should take, each recomputed here from the machine's description, not read back
from membench. Prints TAP lines for run_cli_tests.sh; the estimate is a planned
figure (the model's), never a measured time.

  check_plan.py MEMBENCH TMPDIR"""
import json
import os
import resource
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "machines"))
import make_tree  # noqa: E402
from round_records import check, results  # noqa: E402

BIN, TMP = sys.argv[1:3]
BUDGET_S = 15.0
KIB, MIB = 1024, 1 << 20


def plan(args, name, limit=None):
    path = os.path.join(TMP, "plan-%s.json" % name)
    if os.path.exists(path):
        os.unlink(path)

    def cap():  # no room for any benchmark buffer: a plan must not need one
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:  # a plan takes well under a second; one that measures is cut off
        p = subprocess.run([BIN, "--plan", "--json", path] + args, capture_output=True, text=True,
                           preexec_fn=cap if limit else None, timeout=60)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(e.cmd, -1, "", "timed out after 60 s"), None
    doc = json.load(open(path)) if p.returncode == 0 and os.path.exists(path) else None
    return p, doc


def cpus(text):
    """A compact CPU list ("0-3,8") as a list, repeats kept."""
    out = []
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def budget_from(available):
    """memory/memory_budget.h: less 10% and a quarter, at least 16 MiB, at most 64 MiB."""
    reserve = min(max(available // 4, 16 * MIB), 64 * MIB) if available else 64 * MIB
    margin = available // 100 * 10 + reserve
    return max(available - margin, 0)


def shares(m):
    """Each level's share of one thread when every CPU runs one."""
    return {1: m["l1d_kb"] * KIB // m["smt"], 2: m["l2_kb"] * KIB // (m["l2_cores"] * m["smt"]),
            3: m["l3_kb"] * KIB // (m["l3_cores"] * m["smt"])}


def check_threads(name, m, d):
    total = m["sockets"] * m["cores"] * m["smt"]
    threads = [int(t["cpus"]) for t in d["placement"]["threads"]]
    check("%s: a thread on every CPU, each CPU once (%d)" % (name, total),
          sorted(threads) == list(range(total)), "threads on %d CPUs, %d distinct" % (len(threads), len(set(threads))))
    check("%s: the plan's CPU list is the threads' CPUs" % name,
          d["plan"]["threads"] == len(threads) and cpus(d["plan"]["thread_cpus"]) == sorted(threads),
          (d["plan"]["threads"], d["plan"]["thread_cpus"][:80]))
    nodes = d["plan"]["nodes"]
    by_node = {}
    for t in d["placement"]["threads"]:
        by_node.setdefault(t["node"], []).append(int(t["cpus"]))
    check("%s: per node, its threads and their CPUs (%d nodes)" % (name, m["sockets"] * m["nps"]),
          len(nodes) == m["sockets"] * m["nps"] and
          all(r["threads"] == len(by_node.get(r["node"], [])) and cpus(r["cpus"]) == sorted(by_node.get(r["node"], []))
              for r in nodes), nodes[:2])


def check_sizes(name, m, d):
    p, sh = d["plan"], shares(m)
    check("%s: each level's share per thread, from the tree" % name,
          all(p["L%d_share_bytes" % k] == sh[k] for k in (1, 2, 3)),
          [(p["L%d_share_bytes" % k], sh[k]) for k in (1, 2, 3)])
    rows = p["sizes"]
    sizes = [r["size_kb"] * KIB for r in rows]
    dram = [r["size_kb"] * KIB for r in rows if "may_fit_cache" in r]
    llc_all = m["l3_kb"] * KIB * (m["sockets"] * m["cores"] // m["l3_cores"])
    threads = p["threads"]
    check("%s: DRAM points, each at least 2x the thread's L3 share and all threads' at least 2x every L3 (%s)"
          % (name, ", ".join("%d KiB" % (s // KIB) for s in dram)),
          dram and sizes == sorted(sizes) and sizes[-len(dram):] == dram and
          all(s >= 2 * sh[3] and s * threads >= 2 * llc_all and not r["may_fit_cache"]
              for s, r in zip(dram, [r for r in rows if "may_fit_cache" in r])), rows[-3:])
    check("%s: the largest DRAM point is past twice the thread's L2 and L3 shares together" % name,
          dram and dram[-1] >= 2 * (sh[2] + sh[3]), (dram, sh))
    # one thread chases: a DRAM point's chain is at least twice its whole L3 instance,
    # whatever the per-thread size (16 MiB a thread with 512 threads would be an L3 figure)
    chains = [r.get("latency_chain_bytes", 0) for r in rows if "may_fit_cache" in r]
    check("%s: each DRAM point's latency chain is at least 2x one L3 (%d KiB): %s" % (
          name, m["l3_kb"], ", ".join("%d MiB" % (c >> 20) for c in chains)),
          chains and all(c >= 2 * m["l3_kb"] * KIB for c in chains), rows[-3:])
    wrong = []
    for r in rows:
        reason, size = r["reason"], r["size_kb"] * KIB
        for k in (1, 2, 3):
            if reason.startswith(("L%d/" % k, "L%d:" % k)):  # inside or filling level k
                if size > sh[k] or (k > 1 and size <= sh[k - 1]):
                    wrong.append("%d KiB %s" % (size // KIB, reason.split(" (")[0]))
            elif reason.startswith("2xL%d" % k) and size <= sh[k]:
                wrong.append("%d KiB %s" % (size // KIB, reason.split(" (")[0]))
    check("%s: each cache point in its level: inside Lk within its share and past L(k-1)'s, 2xLk past Lk" % name,
          not wrong, wrong)


def check_memory(name, m, d):
    p = d["plan"]
    nodes = p["nodes"]
    free = m["mem_gib_socket"] * (1 << 30) // KIB // m["nps"] * 97 // 100 * KIB
    check("%s: the budget is the nodes' MemFree less the margin (%d GiB)" % (name, p["memory_budget_bytes"] >> 30),
          p["memory_budget_bytes"] == budget_from(free * len(nodes)), (p["memory_budget_bytes"], free))
    check("%s: memory per node adds up to the total (%.1f GiB)" % (name, p["memory_peak_bytes"] / (1 << 30)),
          sum(r["memory_bytes"] for r in nodes) == p["memory_peak_bytes"], [r["memory_bytes"] for r in nodes])
    largest = max(r["size_kb"] for r in p["sizes"]) * KIB
    # the pool: each thread's source and destination at the largest size, on its own node
    check("%s: each node holds at least its threads' pool (2 x the largest size each)" % name,
          all(r["memory_bytes"] >= 2 * largest * r["threads"] for r in nodes),
          [(r["node"], r["threads"], r["memory_bytes"]) for r in nodes])
    check("%s: memory within every node's budget and within the run's" % name,
          all(r["memory_bytes"] <= r["budget_bytes"] <= r["free_bytes"] for r in nodes) and
          p["memory_peak_bytes"] <= p["memory_budget_bytes"], nodes[:2])


def floors(d, rounds):
    """The timed samples and the warm-ups alone: per round every bandwidth point a
    sample of --sample-ms x 1.25 and a warm-up at least as long, every latency point
    its samples. Returns (samples, warm-ups)."""
    p, ops = d["plan"], d["plan"]["operations"].split(",")
    bw = len([o for o in ops if o != "latency"]) * len(p["sizes"])
    lat = len(p["sizes"]) if "latency" in ops else 0
    per_visit = -(-7 // rounds)
    return rounds * (bw * 0.0125 + lat * per_visit * 0.020), rounds * bw * 0.0125


def samples_floor(d, rounds):
    return sum(floors(d, rounds))


def check_time(name, d, r):
    p = d["plan"]
    check("%s: estimated %.1f s, within the %.0f s a default run should take" % (name, p["estimate_s"], BUDGET_S),
          p["estimate_s"] <= BUDGET_S and p["estimate_budget_s"] == BUDGET_S, p["estimate_s"])
    check("%s: the estimate counts every round's samples and warm-ups (at least %.2f s)" % (name, samples_floor(d, r)),
          samples_floor(d, r) <= p["estimate_s"] and p["estimate_rounds"] == r, (p["estimate_s"], p["estimate_rounds"]))
    samples, warmups = floors(d, r)
    check("%s: the estimate's samples (at least %.2f s) and warm-ups (at least %.2f s) each counted" %
          (name, samples, warmups),
          p["estimate_samples_s"] >= samples - 1e-9 and p["estimate_warmup_s"] >= warmups - 1e-9,
          (p["estimate_samples_s"], p["estimate_warmup_s"]))
    parts = sum(p["estimate_%s_s" % k] for k in ("samples", "warmup", "touch", "chains", "other"))
    check("%s: the estimate is the sum of its parts, the bound at least the estimate" % name,
          abs(parts - p["estimate_s"]) < 1e-6 * max(1, parts) and p["estimate_bound_s"] >= p["estimate_s"],
          (parts, p["estimate_s"], p["estimate_bound_s"]))


# this machine, with no room for a benchmark buffer: the plan allocates none. An
# AddressSanitizer build (make check-asan) reserves terabytes of shadow, and qemu-user
# (make check-cross) maps its guest's address space: where --version cannot start
# under the limit, no limit (probed, as check_numa_mem.py does).
def starts_under(limit):
    try:
        return subprocess.run([BIN, "--version"], capture_output=True, timeout=60,
                              preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


limited = "ASAN_OPTIONS" not in os.environ and starts_under(256 * MIB)
if not limited:
    print("# this build cannot start under a 256 MiB address-space limit (ASan or qemu-user): the plan runs without")
proc, doc = plan(["-t", "1"], "here", limit=256 * MIB if limited else None)  # -t: a plan that measures stops soon
if limited and proc.returncode != 0 and proc.stderr and not proc.stderr.startswith("membench"):
    # qemu-user started --version under the limit but not this run ("mmap stack:
    # Cannot allocate memory" on s390x, now and then): the emulator, not membench
    print("# the emulator could not start under the limit this time (%s): the plan runs without" %
          proc.stderr.strip()[:100])
    limited = False
    proc, doc = plan(["-t", "1"], "here")
check("--plan on this machine%s: exit 0, a plan, nothing measured" % (
      " under a 256 MiB address-space limit" if limited else ""),
      doc and doc["plan"].get("plan_only") is True and doc["results"] == [] and "Estimated time:" in proc.stdout,
      proc.stderr or proc.returncode)
if not doc or doc["results"]:
    sys.exit(1)  # it measures: the recorded machines would take 384 threads each

for name, m in make_tree.MACHINES.items():
    root = os.path.join(TMP, "machine-" + name)
    if not os.path.isdir(root):
        make_tree.make(name, root)
    proc, doc = plan(["--sysfs", root], name)
    check("%s: --plan --sysfs exits 0 with a plan and no result" % name,
          doc and doc["plan"].get("plan_only") is True and doc["results"] == [] and proc.stdout.startswith("membench --plan"),
          proc.stderr)
    if not doc:
        continue
    check_threads(name, m, doc)
    check_sizes(name, m, doc)
    check_memory(name, m, doc)
    check_time(name, doc, 3)

# more rounds, more time; latency's extra rounds bound it
root = os.path.join(TMP, "machine-zen4-2s-nps4")
_, r3 = plan(["--sysfs", root], "r3")
_, r6 = plan(["--sysfs", root, "-r", "6"], "r6")
if r3 and r6:
    check("-r 6 plans more time than -r 3 (%.1f against %.1f s), at least its samples" % (
          r6["plan"]["estimate_s"], r3["plan"]["estimate_s"]),
          r6["plan"]["estimate_s"] > r3["plan"]["estimate_s"] and samples_floor(r6, 6) <= r6["plan"]["estimate_s"])
    check("the latency points' extra rounds (up to 7 with -r 3) lengthen the bound, not the estimate",
          r3["plan"]["estimate_latency_rounds"] == 7 and r3["plan"]["estimate_bound_s"] > r3["plan"]["estimate_s"],
          (r3["plan"]["estimate_bound_s"], r3["plan"]["estimate_s"]))

# bandwidth points only: the latency points' warm-ups (from the first visit's, 1.9
# samples) would hide a later round's missing bandwidth warm-ups in the sum
_, bw_only = plan(["--sysfs", root, "-o", "read", "-o", "copy"], "bandwidth only")
if bw_only:
    check("bandwidth only: the plan has no latency points", "latency" not in bw_only["plan"]["operations"].split(","),
          bw_only["plan"]["operations"])
    check_time("bandwidth only", bw_only, 3)

bad = subprocess.run([BIN, "--sysfs", root], capture_output=True, text=True)
check("--sysfs without --plan is refused (exit 2, one line naming it)",
      bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--sysfs" in bad.stderr, bad.stderr)
bad = subprocess.run([BIN, "--plan", "--sysfs", os.path.join(TMP, "no-such-dir")], capture_output=True, text=True)
check("--plan --sysfs of no directory is refused (exit 2)", bad.returncode == 2 and "no-such-dir" in bad.stderr,
      bad.stderr)
bad = subprocess.run([BIN, "c2c", "--plan"], capture_output=True, text=True)
check("a mode without a plan printer refuses --plan (exit 2)", bad.returncode == 2, bad.stderr)
lat = subprocess.run([BIN, "latency", "--plan"], capture_output=True, text=True)
check("latency --plan says its sizes against the DRAM rule and measures nothing",
      lat.returncode == 0 and "max_bytes:" in lat.stdout and "dram_rule:" in lat.stdout and "plan_only: true" in lat.stdout,
      lat.stdout + lat.stderr)
# latency's sizes in the text: each of the JSON plan's sizes in order, saying whether
# its chain is kept between rounds (the sweep's columns read from latency's rows gave
# 67 lines of "16777216 TiB"), and the model's estimate without the sweep's parts.
path = os.path.join(TMP, "plan-latency-sizes.json")
lat = subprocess.run([BIN, "latency", "--plan", "--json", path], capture_output=True, text=True)
rows = json.load(open(path))["plan"]["sizes"] if lat.returncode == 0 and os.path.exists(path) else []


def size_text(b):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if b < 1024 or unit == "GiB":
            return ("%.0f %s" if b == int(b) else "%.1f %s") % (b, unit)
        b /= 1024


lines = lat.stdout.splitlines()
at = lines.index("Sizes per thread (%d), each point x operation:" % len(rows)) if rows and \
    "Sizes per thread (%d), each point x operation:" % len(rows) in lines else -1
want = ["  %-9s %s" % (size_text(r["size_bytes"]), "chain kept between rounds" if r["chain_kept"]
                        else "chain linked again at each visit") for r in rows]
check("latency --plan: its %d sizes in order, each saying whether its chain is kept between rounds" % len(rows),
      at >= 0 and lines[at + 1:at + 1 + len(rows)] == want, (lines[at + 1:at + 4], want[:3]))
est = [x for x in lines if x.startswith("Estimated time: ")]
lp = json.load(open(path))["plan"] if rows else {}
parts = [lp.get("estimate_%s_s" % k, -1) for k in ("samples", "warmup", "touch", "chains", "other")]
check("latency --plan: the model's estimate in one line, its parts adding up to it, said within or OVER the budget",
      len(est) == 1 and " rounds" not in est[0] and min(parts) >= 0 and abs(sum(parts) - lp["estimate_s"]) < 1e-6 and
      est[0].startswith("Estimated time: %.1f s (samples %.1f s, warm-ups %.1f s, first touch %.1f s, chains %.1f s, "
                        "host probes %.1f s); %s --time-budget %g s" % (
                            lp["estimate_s"], *parts, "within" if lp["estimate_s"] <= lp["time_budget_s"] else "OVER",
                            lp["time_budget_s"])), (est, parts))
# The model counts each chain's first touch (the latency mode has no pool: every chain
# is fresh memory) at its stated one-thread rate, 0.85 of it more for each helper CPU
# of the chaser's node (plan.touch_helper_cpus), once a kept chain and at every visit
# another; the DRAM point's full random chain is a second chain.
made = sum(r["size_bytes"] * (2 if i + 1 == len(rows) else 1) * (1 if r["chain_kept"] else lp["planned_rounds"])
           for i, r in enumerate(rows))
helper_cpus = cpus(lp.get("touch_helper_cpus", ""))
helpers = len(helper_cpus)
topo_cpus = json.load(open(path))["topology"]["cpus"] if rows else []
lp_node = next((c["node"] for c in topo_cpus if c["id"] == lp.get("cpu")), None)
same_node = [c["id"] for c in topo_cpus if c.get("usable") and c["node"] == lp_node and c["id"] != lp["cpu"]]
rate = 1e9 * (1 + 0.85 * helpers)
check("latency --plan: the first-touch helpers are the other usable CPUs of the chaser's node, at most 7 (%d)" % helpers,
      helper_cpus == sorted(same_node)[:7], (lp.get("touch_helper_cpus"), same_node))
check("latency --plan: the estimate's first touch is every chain made at 1 GB/s and 0.85 GB/s a helper (%.1f GiB, "
      "%d helpers)" % (made / 2**30, helpers),
      abs(lp.get("estimate_touch_s", 0) - made / rate) < 1e-6 * max(1, made / rate), (lp.get("estimate_touch_s"), made / rate))
# latency's sizes, recomputed: 4 an octave from --min up to the largest cache a thread
# sees, then 2 an octave counted down from --max (the DRAM plateau: its chains were most
# of the curve's bytes); --points-per-octave given: that many everywhere. Sizes round to
# 4 KiB, and to the 256 KiB group from a group up (TLB-local chains).
def latency_sizes(lo, hi, ppo, llc, tail):
    def rnd(v):
        unit = 262144 if v >= 262144 else 4096
        return max(unit, int(round(v / unit)) * unit)
    tail_from = hi if tail == ppo or llc == 0 else llc
    down = []
    j = 1
    while True:
        v = hi / 2 ** (j / tail)
        if v <= tail_from * 1.0001 or v < lo:
            break
        down.append(v)
        j += 1
    grid_to = tail_from if down else hi
    out, k = [], 0
    while k == 0 or lo * 2 ** (k / ppo) <= grid_to * 1.0001:  # --min itself always
        out.append(rnd(lo * 2 ** (k / ppo)))
        k += 1
    out += [rnd(v) for v in reversed(down)] + [rnd(hi)]
    return [x for i, x in enumerate(out) if i == 0 or x > max(out[:i])]


for args, tail, lo in (([], 2, 4096), (["--points-per-octave", "4"], 4, 4096), (["--points-per-octave", "3"], 3, 4096),
                       (["--min", "64M", "--max", "2G"], 2, 64 << 20), (["--min", "1200M", "--max", "2G"], 2, 1200 << 20)):
    path = os.path.join(TMP, "plan-latency-tail.json")
    lat = subprocess.run([BIN, "latency", "--plan", "--json", path] + args, capture_output=True, text=True)
    p = json.load(open(path))["plan"] if lat.returncode == 0 and os.path.exists(path) else {}
    got = [r["size_bytes"] for r in p.get("sizes", [])]
    llc = p.get("llc_bytes", -1)
    want = latency_sizes(lo, p.get("max_bytes", 0), p.get("points_per_octave", 0), llc, tail) if p else None
    check("latency --plan %s: %d sizes, %d an octave to the largest cache (%d MiB), %d past it down from --max" % (
          " ".join(args) or "(defaults)", len(got), p.get("points_per_octave", 0), llc >> 20, tail),
          p and p.get("points_per_octave_past_llc") == tail and got == want and
          llc == max(v["size_bytes"] for v in json.load(open(path))["topology"]["levels_used"].values()),
          (got, want))
# The plan's Threads line names the CPUs the placement chose, in every mode that
# plans (a mode without the sweep's cost model printed "on CPUs " and nothing), and a
# mode that places threads only as it goes (bandwidth-matrix) says how, no count.
for mode in ("latency", "latency-matrix", "stream", "peak-bandwidth", "loaded-latency"):
    path = os.path.join(TMP, "plan-threads-%s.json" % mode)
    p = subprocess.run([BIN, mode, "--plan", "--json", path], capture_output=True, text=True)
    d = json.load(open(path)) if p.returncode == 0 and os.path.exists(path) else {}
    places = [t["cpus"] for t in d.get("placement", {}).get("threads", [])]
    line = [x for x in (p.stdout + p.stderr).splitlines() if x.startswith("Threads: ")]
    check("%s --plan: 'Threads: %d on CPUs %s (...)', the placement's CPUs" % (mode, len(places), ",".join(places)),
          places and len(line) == 1 and
          (line[0].startswith("Threads: %d on CPUs %s (" % (len(places), ",".join(places))) or
           cpus(line[0].split(" on CPUs ")[1].split(" ")[0]) == [int(c) for c in places]), (line, places))
p = subprocess.run([BIN, "bandwidth-matrix", "--plan"], capture_output=True, text=True)
line = [x for x in (p.stdout + p.stderr).splitlines() if x.startswith("Threads: ")]
check("bandwidth-matrix --plan: 'Threads: (every usable CPU of each node ...)', no count of 0",
      p.returncode == 0 and len(line) == 1 and line[0].startswith("Threads: (every usable CPU"), line)
sys.exit(0 if all(results) else 1)
