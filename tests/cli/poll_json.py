#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A reader polling --json FILE while the run rewrites it (README: "rewritten
atomically after every result"): every read must be a whole, valid document.

  poll_json.py FILE MEMBENCH ARGS...     runs MEMBENCH ARGS --json FILE

Reads FILE in a tight loop until the run exits. Fails when any read does not
parse, when the run fails, or when the reader saw fewer than two versions of the
document (it did not poll while the run wrote). Prints one summary line."""
import json
import subprocess
import sys


def main(argv):
    path, cmd = argv[0], argv[1:] + ["--json", argv[0]]
    run = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    reads = invalid = 0
    versions = set()
    first_bad = ""
    while True:
        done = run.poll() is not None  # one last read after the exit
        try:
            with open(path, "rb") as f:
                text = f.read()
        except FileNotFoundError:  # before the first result
            text = None
        if text is not None:
            reads += 1
            try:
                doc = json.loads(text)
                versions.add((len(doc.get("results", [])), doc.get("complete")))
            except ValueError as e:
                invalid += 1
                first_bad = first_bad or "%s (%d bytes)" % (e, len(text))
        if done:
            break
    ok = invalid == 0 and run.returncode == 0 and len(versions) >= 2
    print("poll_json: %d reads, %d invalid, %d versions, exit status %d%s" % (
        reads, invalid, len(versions), run.returncode, "; first invalid: " + first_bad if first_bad else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
