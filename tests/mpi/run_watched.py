#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs one mpirun command for the MPI tests, watched, and tells how it ended.

  run_watched.py OUT ERR COMMAND...

Exit status: mpirun's own; 137 when a process of the job is still alive after
120 s (everything is killed then: a hang of membench-mpi's); 254 when mpirun
itself failed after every rank had ended: killed by a signal (it crashed), or
still there 10 s after its last rank ended. Debian 12's mpirun (Open MPI 4.1.4,
PMIx 4.2.2) does both now and then in its own teardown when a job ends
abnormally (a silent rank: MPI_Abort), a few runs in a hundred on a loaded
machine (bench/mpi_silent_rank.sh); the caller runs such a command up to twice more.
"""
import os
import signal
import subprocess
import sys
import time

LIMIT_S = 120
LINGER_S = 10


def children_of(pid):
    """The processes whose parent is pid, with their state letter."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) "
        if int(fields[1]) == pid:
            found.append((int(entry), fields[0]))
    return found


def descendants(pid):
    out, todo = [], [pid]
    while todo:
        for child, _ in children_of(todo.pop()):
            out.append(child)
            todo.append(child)
    return out


def kill_all(pids):
    for p in pids:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass


def main():
    out_path, err_path, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
    start = time.monotonic()
    seen = set()  # every process of the job seen so far
    ranks_seen = False
    idle_since = None
    while proc.poll() is None:
        now = time.monotonic()
        live = [c for c, state in children_of(proc.pid) if state != "Z"]
        seen.update(descendants(proc.pid))
        if live:
            ranks_seen, idle_since = True, None
        elif ranks_seen and idle_since is None:
            idle_since = now
        elif idle_since is not None and now - idle_since >= LINGER_S:
            kill_all([proc.pid])
            proc.wait()
            return 254  # mpirun hung after every rank had ended
        if now - start >= LIMIT_S:
            kill_all(descendants(proc.pid) + [proc.pid])
            proc.wait()
            return 137
        time.sleep(0.1)
    if proc.returncode < 0:  # mpirun killed by a signal: it crashed
        alive = [p for p in seen if os.path.exists("/proc/%d" % p)]
        kill_all(alive)  # ranks it left behind
        return 254
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
