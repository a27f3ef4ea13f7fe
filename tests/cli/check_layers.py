#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Includes point down the layers README's Layout section draws; prints each one
that points up or sideways against them and exits 1.

  check_layers.py SRC_DIR"""
import os
import re
import sys

# Lower numbers are lower layers; a directory may include its own and lower ones.
RANK = {"util": 0, "platform": 1, "kernels": 1, "topology": 2, "team": 2, "core": 3, "memory": 3, "plan": 3,
        "measure": 4, "output": 4, "cli": 5, "cluster": 5, "modes": 6}  # measure and output never include each other
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')


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
    for b in bad:
        print(b)
    return 1 if bad else 0


sys.exit(main())
