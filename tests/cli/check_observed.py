#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where each thread really ran and where its memory really is, against the plan.

  check_observed.py RUN.json [--mem-node N] [--stderr FILE] [--nodes-may-be-unknown]

For every record of a mode that observes (sweep, latency, stream): each thread's
observed CPU (read inside the thread after the measurement) lies in its place
(the run's placement.threads[i].cpus), each buffer's observed node (move_pages on
sampled pages) is the planned memory node (or N, the --mem-node given), every
thread's pin was verified, and the run's stderr never says "could not be pinned".
A record's `placement` is the plan; the observed_* fields are what happened.
--nodes-may-be-unknown accepts null nodes (qemu-user does not pass move_pages on);
a node that is known must still be the planned one.
Prints one line per problem; exit 1 if any (imported by tests/numa/check_guest.py)."""
import json
import sys

OBSERVING_MODES = ("sweep", "latency", "stream")


def cpu_set(text):
    """The CPUs of a place as the run writes it: '0-3,8' (and '|' between places' CPUs)."""
    cpus = set()
    for part in text.replace("|", ",").split(","):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def record_places(r, run_places):
    """A STREAM record's places are its configuration's (params.cpus: places joined by
    '|', or by ',' when each is one CPU); other modes' are the run's."""
    text = r.get("params", {}).get("cpus")
    if r.get("mode") != "stream" or not isinstance(text, str):
        return run_places
    return [cpu_set(p) for p in (text.split("|") if "|" in text else text.split(","))]


def problems(doc, mem_node=None, stderr="", nodes_may_be_unknown=False):
    found = []
    if "could not be pinned" in stderr:
        found.append("stderr says a thread could not be pinned")
    places = doc.get("placement", {})
    pinned = places.get("pinned", False)
    place_cpus = [cpu_set(t["cpus"]) for t in places.get("threads", [])]
    records = [r for r in doc.get("results", []) if r.get("mode") in OBSERVING_MODES]
    if not records:
        found.append("no record of a mode that observes its threads")
    for n, r in enumerate(records):
        stream_off = []  # STREAM's threads off their planned node, or unknown (see below)
        places_of = record_places(r, place_cpus)
        what = "record %d (%s %s %s KB)" % (n, r.get("mode"), r.get("operation"), r.get("size_kb"))
        if pinned and r.get("pins_verified") != r.get("threads"):
            found.append("%s: pins_verified %s of %s threads" % (what, r.get("pins_verified"), r.get("threads")))
        for t in r.get("placement", []):
            i = t["thread"]
            cpu = t.get("observed_cpu")
            if cpu is None:
                found.append("%s: thread %d has no observed CPU" % (what, i))
            elif pinned and i < len(places_of) and cpu not in places_of[i]:
                found.append("%s: thread %d ran on CPU %d, outside its place %s" % (what, i, cpu, sorted(places_of[i])))
            elif pinned and t["cpu"] >= 0 and r.get("threads") == 1 and cpu != t["cpu"]:
                found.append("%s: the single thread ran on CPU %d, planned %d" % (what, cpu, t["cpu"]))
            want = mem_node if mem_node is not None else t.get("memory_node", -1)
            nodes = t.get("observed_memory_nodes", [])
            problem = None
            if not nodes:
                problem = "%s: thread %d has no observed memory node" % (what, i)
            elif None in nodes and not nodes_may_be_unknown:
                problem = "%s: thread %d's buffers' nodes are unknown: %s" % (what, i, nodes)
            elif want is not None and want >= 0 and any(m is not None and m != want for m in nodes):
                problem = "%s: thread %d's buffers are on nodes %s, planned %d" % (what, i, nodes, want)
            if problem and r.get("mode") == "stream":
                stream_off.append((problem, None in nodes))
            elif problem:
                found.append(problem)
        # STREAM binds nothing, so a thread's first touch spills to another node when
        # its own is short of free memory (the NUMA guests' nodes are small), and a
        # chunk whose pages mostly had no answer from move_pages (NUMA balancing
        # unmaps them; a 6.1 kernel then says nothing) before and after the run is
        # unknown: one thread off its node and up to half unknown are let pass. A
        # first touch from the wrong thread (the main one) moves most threads' chunks
        # and still fails.
        off = [p for p, unknown in stream_off if not unknown]
        unknown = [p for p, unknown in stream_off if unknown]
        if len(off) > 1 or 2 * len(unknown) > max(r.get("threads", 1), 1) or (off and unknown):
            found.extend(p for p, _ in stream_off)
    return found


def main(argv):
    path, mem_node, stderr, unknown_ok = None, None, "", False
    args = iter(argv)
    for a in args:
        if a == "--nodes-may-be-unknown":
            unknown_ok = True
        elif a == "--mem-node":
            mem_node = int(next(args))
        elif a == "--stderr":
            stderr = open(next(args), errors="replace").read()
        else:
            path = a
    doc = json.load(open(path))
    found = problems(doc, mem_node, stderr, unknown_ok)
    for p in found:
        print("check_observed: %s: %s" % (path, p))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
