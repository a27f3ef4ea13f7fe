# SPDX-License-Identifier: MIT
"""The calibration scripts' reference (bench/calibration.sh, bench/host_interval_ab.sh):
the runs kept as OUT/KIND-ROUND.json, and each point's samples of the -r 2 reference
slices pooled over the batch."""
import json
import os


def points(doc):
    """{(operation, size_kb): record} of one run."""
    return {(r['operation'], r['size_kb']): r for r in doc['results']}


def load(out, kind, i):
    return json.load(open(os.path.join(out, '%s-%d.json' % (kind, i))))


def pooled_reference(out, rounds, kind='reference'):
    """{(operation, size_kb): samples} of the reference runs of rounds 1..rounds."""
    pooled = {}
    for i in range(1, rounds + 1):
        for key, r in points(load(out, kind, i)).items():
            pooled.setdefault(key, []).extend(r['samples'])
    return pooled
