# SPDX-License-Identifier: MIT
"""A NUMA guest's console log (tests/numa/run_numa_guest.sh), read for a checker.

Each run is a block "=== BEGIN name" ... "=== STDERR" ... ["=== TASKS" ...]
["=== JSON" ...] "=== END name rc=N" (guest_init.sh's run(), guest_wide.sh's
watched()). A checker makes one Log, calls check() per promise and finish() last:
one ok/not ok line per check and a closing "numa guest (NAME): N passed, M failed"."""
import json
import re
import sys


def cpu_set(text):
    """'0-3,8' as a set of ints ('' is empty)."""
    cpus = set()
    for part in (text or "").split(","):
        if part:
            lo, _, hi = part.partition("-")
            cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


class Log:
    def __init__(self, path, name):
        self.text = open(path, errors="replace").read().replace("\r", "")
        self.label = "numa guest (%s)" % name
        self.passed = self.failed = 0
        self.free_before = dict(re.findall(r"^=== FREE (\S+) (.*)$", self.text, re.M))
        self.runs = {}
        for m in re.finditer(r"^=== BEGIN (\S+)\n(.*?)^=== END \1 rc=(\d+)$", self.text, re.S | re.M):
            out, _, rest = m.group(2).partition("=== STDERR\n")
            rest, _, js = rest.partition("=== JSON\n")
            err, _, tasks = rest.partition("=== TASKS\n")
            doc = None
            if js.strip():
                try:
                    doc = json.loads(js)
                except ValueError as e:
                    doc = {"_invalid": str(e)}
            self.runs[m.group(1)] = {"rc": int(m.group(3)), "out": out, "err": err, "json": doc,
                                     "err_lines": [l for l in err.splitlines() if l.strip()],
                                     "tasks": self._tasks(tasks)}

    @staticmethod
    def _tasks(text):
        """watched()'s samples: (sample, tgid, tid, cpu, allowed CPUs as a set)."""
        rows = []
        for line in text.splitlines():
            f = line.split()
            if len(f) == 5 and all(x.isdigit() for x in f[:4]):
                rows.append((int(f[0]), int(f[1]), int(f[2]), int(f[3]), cpu_set(f[4])))
        return rows

    def check(self, name, cond, detail=""):
        if cond:
            self.passed += 1
            print("ok - %s: %s" % (self.label, name))
        else:
            self.failed += 1
            print("not ok - %s: %s" % (self.label, name))
            if detail:
                print("    " + str(detail)[:800].replace("\n", "\n    "))
        return bool(cond)

    def run(self, name):
        r = self.runs.get(name)
        self.check(name + ": ran", r is not None, "no block in the console log")
        return r or {"rc": -1, "out": "", "err": "", "err_lines": [], "json": None, "tasks": []}

    def exits(self, name, rc, r):
        return self.check("%s: exit status %d" % (name, rc), r["rc"] == rc, "rc=%d stderr=%s" % (r["rc"], r["err"]))

    def finish(self):
        print("%s: %d passed, %d failed" % (self.label, self.passed, self.failed))
        sys.exit(1 if self.failed else 0)
