#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Includes point down the layers README's Layout section draws, and no two source
files call each other's functions, directly or round a circle (session.c and the
cache probe step, topology.c and its sources were such circles); prints each
include that points up or sideways and each circle, and exits 1.

  check_layers.py SRC_DIR"""
import os
import re
import sys

# Lower numbers are lower layers; a directory may include its own and lower ones.
RANK = {"util": 0, "platform": 1, "kernels": 1, "topology": 2, "team": 2, "core": 3, "memory": 3, "plan": 3,
        "measure": 4, "output": 4, "cli": 5, "cluster": 5, "modes": 6}  # measure and output never include each other
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')
DEFINITION = re.compile(r'^(?!static\b)[A-Za-z_][\w \*]*?\b([a-z_][a-z0-9_]*)\s*\([^;]*$')
CALL = re.compile(r'\b([a-z_][a-z0-9_]*)\s*\(')


def call_graph(src):
    """file -> the files whose functions it calls (functions defined outside static)."""
    defs, texts = {}, {}
    for root, _, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            rel = os.path.relpath(os.path.join(root, f), src)
            texts[rel] = open(os.path.join(root, f), errors="replace").read()
            lines = texts[rel].split("\n")
            for i, line in enumerate(lines):
                m = DEFINITION.match(line)
                if not m:
                    continue
                j = i
                while j < len(lines) and "{" not in lines[j] and ";" not in lines[j]:
                    j += 1
                if j < len(lines) and lines[j].startswith("{"):
                    defs.setdefault(m.group(1), rel)
    edges = {}
    for f, text in texts.items():
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
        edges[f] = {defs[m.group(1)] for m in CALL.finditer(text) if defs.get(m.group(1), f) != f}
    return edges


def circles(edges):
    """Strongly connected groups of more than one file (Tarjan's algorithm)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    src = sys.argv[1]
    bad = []
    for layer in sorted(os.listdir(src)):
        path = os.path.join(src, layer)
        if not os.path.isdir(path):
            continue
        if layer not in RANK:
            bad.append("%s/: a directory the layer table does not know" % layer)
            continue
        for name in sorted(os.listdir(path)):
            for n, line in enumerate(open(os.path.join(path, name), errors="replace"), 1):
                m = INCLUDE.match(line)
                if m and m.group(1) != layer and RANK.get(m.group(1), 99) >= RANK[layer]:
                    bad.append("%s/%s:%d includes %s/ (not below %s/)" % (layer, name, n, m.group(1), layer))
    for group in circles(call_graph(src)):
        bad.append("files that call each other round a circle: %s" % " <-> ".join(group))
    for b in bad:
        print(b)
    return 1 if bad else 0


sys.exit(main())
