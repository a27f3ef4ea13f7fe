#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the files of a sysfs tree that `membench topology --sysfs` reads as one
input of the sysfs fuzz target (fuzz/fuzz_sysfs.c): lines PATH=VALUE with the
abbreviations C/, N/, M/, escaped values, and CPUs or nodes whose files differ
only by their own number folded into one {A-B} line. Used to seed
fuzz/corpus/sysfs from /sys and from the unit tests' fixtures, and to turn a
recorded tree from a bug report into a reproducer.

    python3 fuzz/sysfs_to_input.py /sys > input
"""
import os
import re
import sys

ABBREV = [("devices/system/cpu/", "C/"), ("devices/system/node/", "N/"), ("kernel/mm/", "M/")]
READ = [
    r"devices/system/cpu/(online|possible)",
    r"devices/system/cpu/cpu\d+/topology/(core_id|physical_package_id|thread_siblings_list)",
    r"devices/system/cpu/cpu\d+/cache/index\d+/(level|type|size|coherency_line_size|shared_cpu_list)",
    r"devices/system/node/node\d+/(cpulist|meminfo|distance)",
    r"kernel/mm/transparent_hugepage/(enabled|hpage_pmd_size)",
]
DIRS = [r"devices/system/cpu/cpu\d+", r"devices/system/node/node\d+", r"kernel/mm/hugepages/hugepages-[^/]+"]
MAX_RANGE = 256


def escape(data):
    out = []
    for b in data:
        if b == 0x5C:
            out.append("\\\\")
        elif b == 0x0A:
            out.append("\\n")
        elif 0x20 <= b < 0x7F and b not in (0x7B, 0x7D):
            out.append(chr(b))
        else:
            out.append("\\x%02X" % b)
    return "".join(out)


def short(rel):
    for full, abbrev in ABBREV:
        if rel.startswith(full):
            return abbrev + rel[len(full):]
    return rel


def collect(root):
    files, dirs = {}, []
    for dirpath, dirnames, filenames in (w for top in ("devices/system/cpu", "devices/system/node", "kernel/mm")
                                         for w in os.walk(os.path.join(root, top))):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        if rel_dir and any(re.fullmatch(d, rel_dir[:-1]) for d in DIRS):
            dirs.append(rel_dir[:-1])
        for name in filenames:
            rel = rel_dir + name
            if any(re.fullmatch(r, rel) for r in READ):
                try:
                    with open(os.path.join(dirpath, name), "rb") as f:
                        files[rel] = f.read(4096)
                except OSError:
                    pass
    return files, dirs


def numbered(rel):
    """(template, number) for paths under cpuN/ or nodeN/, else None."""
    m = re.match(r"(devices/system/(?:cpu/cpu|node/node))(\d+)(/.*)?$", rel)
    if not m:
        return None
    return m.group(1) + "{}" + (m.group(3) or ""), int(m.group(2))


def lines(files, dirs):
    out = []
    # Directories that hold no file read (CPUs without topology/, huge page sizes).
    for d in dirs:
        if not any(rel.startswith(d + "/") for rel in files):
            out.append(short(d))
    # Files of consecutive CPUs (nodes) with the same contents, then with
    # contents that differ only by the CPU's own number, become range lines.
    numbered_files = []
    for rel, data in sorted(files.items()):
        key = numbered(rel)
        if key is None:
            out.append("%s=%s" % (short(rel), escape(data)))
        else:
            numbered_files.append((key[0], key[1], rel, escape(data)))
    for substitute in (False, True):
        groups = {}
        for template, n, rel, text in numbered_files:
            value = re.sub(r"(?<![0-9])%d(?![0-9])" % n, "{}", text) if substitute else text
            groups.setdefault((template, value), []).append((n, rel, text))
        numbered_files = []
        for (template, value), members in groups.items():
            members.sort()
            i = 0
            while i < len(members):
                j = i
                while (j + 1 < len(members) and members[j + 1][0] == members[j][0] + 1
                       and members[j + 1][0] - members[i][0] < MAX_RANGE):
                    j += 1
                if j > i:
                    path = template.replace("{}", "{%d-%d}" % (members[i][0], members[j][0]))
                    out.append("%s=%s" % (short(path), value))
                elif substitute:
                    out.append("%s=%s" % (short(members[i][1]), members[i][2]))
                else:
                    numbered_files.append((template, members[i][0], members[i][1], members[i][2]))
                i = j + 1
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    files, dirs = collect(sys.argv[1])
    sys.stdout.write("".join(line + "\n" for line in lines(files, dirs)))


if __name__ == "__main__":
    main()
