#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The sweep's pool (README "Rounds"): points beyond the keep limit borrow one set
of buffers, and the record still says which bytes each point measured.

usage: check_pool.py POOLED.json SMALL.json
POOLED.json: a run whose points are all beyond the keep limit (-s 163840 -o read
-o write -o copy -o latency -r 2): every record is pooled, names only the part of
the pool it used (read and write: one buffer of the size per thread, copy two,
latency one chain of the size), write's destination starts at its page, copy's 2 KiB into it; the chain was
linked once for both rounds (in a pool source, which the kernels only read: in a
destination, write and copy would overwrite it between its visits; read's second
visit checks its kernel against the source with the chain in it).
SMALL.json: a run at a cache size: no record is pooled."""
import json
import sys


def fail(msg):
    print("check_pool:", msg)
    sys.exit(1)


def main():
    pooled = json.load(open(sys.argv[1]))["results"]
    small = json.load(open(sys.argv[2]))["results"]
    if sorted(r["operation"] for r in pooled) != ["copy", "latency", "read", "write"]:
        fail("expected read, write, copy and latency records, got %s" % [r["operation"] for r in pooled])
    for r in pooled:
        p, size, op = r["params"], r["size_bytes"], r["operation"]
        if p.get("pooled") is not True:
            fail("%s: not pooled" % op)
        per_thread = {"read": 1, "write": 1, "copy": 2, "latency": 1}[op]
        threads = 1 if op == "latency" else r["threads"]
        bufs = r["pages"]["buffers"]
        count = sum(b["count"] for b in bufs)
        total = sum(b["bytes"] for b in bufs)
        if count != per_thread * threads or total != per_thread * threads * size:
            fail("%s: %d buffers of %d bytes in all, expected %d of %d each" % (op, count, total, per_thread * threads, size))
        if op == "write" and p.get("dst_page_offset") != 0:
            fail("write: destination at %s in its page, expected 0" % p.get("dst_page_offset"))
        if op == "copy" and (p.get("src_page_offset") != 0 or p.get("dst_page_offset") != 2048):
            fail("copy: source at %s, destination at %s, expected 0 and 2048" % (p.get("src_page_offset"), p.get("dst_page_offset")))
        if op == "latency" and p.get("chased_bytes") != size:
            fail("latency: chased %s bytes, expected %d" % (p.get("chased_bytes"), size))
        if op == "latency" and (p.get("chain_builds") != 1 or not r["value"] > 0):
            fail("latency: chain linked %s times over %s rounds (%s ns), expected once" % (p.get("chain_builds"), p.get("rounds"), r["value"]))
        if p.get("rounds", 0) < 2:
            fail("%s: %s rounds, expected 2 (-r 2)" % (op, p.get("rounds")))
    if not small or any(r["params"].get("pooled") is not False for r in small):
        fail("a cache-size run has pooled records: %s" % [(r["operation"], r["params"].get("pooled")) for r in small])


main()
