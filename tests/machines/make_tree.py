#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the recorded sysfs tree of a large machine, for `membench --plan --sysfs DIR`
and its tests (tests/cli/check_plan.py). Only the files membench reads (src/topology/):

  devices/system/cpu/online
  devices/system/cpu/cpuN/topology/{core_id,physical_package_id,thread_siblings_list}
  devices/system/cpu/cpuN/cache/indexM/{level,type,size,coherency_line_size,shared_cpu_list}
  devices/system/node/nodeN/{cpulist,meminfo,distance}   (meminfo: MemTotal, MemFree)
  kernel/mm/hugepages/hugepages-{2048,1048576}kB/nr_hugepages
  kernel/mm/transparent_hugepage/{enabled,hpage_pmd_size}

CPUs are numbered as Linux numbers them on these parts: every core's first thread
(socket 0's cores, then socket 1's), then every core's second thread in the same
order, so CPU n and n + cores are siblings.

  make_tree.py NAME DIR     write machine NAME's tree under DIR (created)
  make_tree.py --list       the machines, one a line: name, then what it stands for
"""
import os
import sys

GIB = 1 << 30


def machine(desc, sockets, cores, smt, l1d_kb, l2_kb, l2_cores, l3_kb, l3_cores, nodes_per_socket, mem_gib_socket,
            far=32, near=12, thp="always [madvise] never"):
    """cores per socket; l2_cores/l3_cores: consecutive cores of a socket sharing one
    instance (0: no such level in sysfs); a socket's cores split evenly into its nodes."""
    return dict(desc=desc, sockets=sockets, cores=cores, smt=smt, l1d_kb=l1d_kb, l2_kb=l2_kb, l2_cores=l2_cores,
                l3_kb=l3_kb, l3_cores=l3_cores, nps=nodes_per_socket, mem_gib_socket=mem_gib_socket, far=far,
                near=near, thp=thp)


MACHINES = {
    # AMD EPYC 9654 x 2 (Zen 4 Genoa): 96 cores a socket in 12 CCDs of 8, 32 MiB L3 a CCD,
    # 1 MiB L2 and 32 KiB L1d a core, SMT: 384 CPUs; 12 x 64 GiB DDR5 a socket.
    "zen4-2s-nps1": machine("2 x AMD EPYC 9654 (Zen 4), 384 CPUs, 24 CCDs of 32 MiB L3, NPS1: 2 nodes",
                            2, 96, 2, 32, 1024, 1, 32768, 8, 1, 768),
    "zen4-2s-nps4": machine("2 x AMD EPYC 9654 (Zen 4), 384 CPUs, 24 CCDs of 32 MiB L3, NPS4: 8 nodes",
                            2, 96, 2, 32, 1024, 1, 32768, 8, 4, 768),
    # Intel Xeon Platinum 8480+ x 2 (Sapphire Rapids): 56 cores a socket, SMT: 224 CPUs;
    # 2 MiB L2 and 48 KiB L1d a core; 105 MiB L3 a socket, which sysfs shows shared by the
    # whole socket even with SNC4 (4 nodes a socket, 14 cores each); 512 GiB a socket.
    "spr-2s-snc4": machine("2 x Intel Xeon Platinum 8480+ (Sapphire Rapids), 224 CPUs, 105 MiB L3 a socket, "
                           "SNC4: 8 nodes", 2, 56, 2, 48, 2048, 1, 107520, 56, 4, 512, far=21),
    # HiSilicon Kunpeng 920-6426 (arm64, TaiShan v110) x 2: 64 cores a socket in 2 dies,
    # no SMT, 64 KiB L1d and 512 KiB L2 a core, 32 MiB L3 a die; a node a die: 4 nodes;
    # 256 GiB a socket.
    "kunpeng920-2s": machine("2 x HiSilicon Kunpeng 920-6426 (arm64), 128 CPUs, 4 dies of 32 MiB L3: 4 nodes",
                             2, 64, 1, 64, 512, 1, 32768, 32, 2, 256, far=20, near=16),
    # The corner of the time budget (512 CPUs, 8 nodes, 2 GiB of LLC at once): two
    # sockets of 128 SMT cores in 16 CCDs of 8 with 64 MiB L3 each (1 GiB a socket), NPS4;
    # no such part ships yet (EPYC 9754 has 128 cores with 16 MiB per CCD; a Genoa-X
    # 9684X 96 cores with 96 MiB per CCD, 2.25 GiB for two).
    "envelope-512": machine("2 x 128 SMT cores (hypothetical), 512 CPUs, 32 CCDs of 64 MiB L3 = 2 GiB, NPS4: 8 nodes",
                            2, 128, 2, 48, 1024, 1, 65536, 8, 4, 1536),
}


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text + "\n")


def cpu_list(ids):
    """The kernel's compact form: 0-3,8."""
    ids = sorted(ids)
    out, start = [], None
    for i, c in enumerate(ids):
        if start is None:
            start = c
        if i + 1 == len(ids) or ids[i + 1] != c + 1:
            out.append(str(start) if start == c else "%d-%d" % (start, c))
            start = None
    return ",".join(out)


def cpus_of(m):
    """cpu id -> (socket, core within socket, thread): Linux's order, threads last."""
    total_cores = m["sockets"] * m["cores"]
    return {t * total_cores + s * m["cores"] + c: (s, c, t)
            for t in range(m["smt"]) for s in range(m["sockets"]) for c in range(m["cores"])}


def make(name, root):
    m = MACHINES[name]
    cpus = cpus_of(m)
    ids = sorted(cpus)
    where = {v: k for k, v in cpus.items()}

    def group(s, c, ncores):  # CPUs of the ncores consecutive cores holding core c of socket s
        first = c - c % ncores
        return cpu_list(where[(s, k, t)] for k in range(first, first + ncores) for t in range(m["smt"]))

    write(root, "devices/system/cpu/online", cpu_list(ids))
    for cpu, (s, c, t) in cpus.items():
        base = "devices/system/cpu/cpu%d/" % cpu
        write(root, base + "topology/core_id", str(c))
        write(root, base + "topology/physical_package_id", str(s))
        write(root, base + "topology/thread_siblings_list", group(s, c, 1))
        caches = [(1, "Data", m["l1d_kb"], 1), (1, "Instruction", 32, 1), (2, "Unified", m["l2_kb"], m["l2_cores"])]
        if m["l3_cores"]:
            caches.append((3, "Unified", m["l3_kb"], m["l3_cores"]))
        for i, (level, kind, kb, ncores) in enumerate(caches):
            d = base + "cache/index%d/" % i
            write(root, d + "level", str(level))
            write(root, d + "type", kind)
            write(root, d + "size", "%dK" % kb)
            write(root, d + "coherency_line_size", "64")
            write(root, d + "shared_cpu_list", group(s, c, ncores))
    nodes = m["sockets"] * m["nps"]
    per_node = m["cores"] // m["nps"]
    mem_kb = m["mem_gib_socket"] * GIB // 1024 // m["nps"]
    for n in range(nodes):
        s, first = n // m["nps"], (n % m["nps"]) * per_node
        d = "devices/system/node/node%d/" % n
        write(root, d + "cpulist", cpu_list(where[(s, c, t)] for c in range(first, first + per_node)
                                            for t in range(m["smt"])))
        # a machine just booted: 3% in use (kernel, page tables, page cache)
        write(root, d + "meminfo", "Node %d MemTotal:       %d kB\nNode %d MemFree:        %d kB\nNode %d MemUsed:"
              "        %d kB" % (n, mem_kb, n, mem_kb * 97 // 100, n, mem_kb - mem_kb * 97 // 100))
        write(root, d + "distance", " ".join(
            "10" if k == n else str(m["near"] if k // m["nps"] == s else m["far"]) for k in range(nodes)))
    for kb in (2048, 1048576):
        write(root, "kernel/mm/hugepages/hugepages-%dkB/nr_hugepages" % kb, "0")
    write(root, "kernel/mm/transparent_hugepage/enabled", m["thp"])
    write(root, "kernel/mm/transparent_hugepage/hpage_pmd_size", "2097152")


def main(argv):
    if argv[1:] == ["--list"]:
        for name, m in MACHINES.items():
            print("%s\t%s" % (name, m["desc"]))
        return 0
    if len(argv) != 3 or argv[1] not in MACHINES:
        sys.stderr.write("usage: make_tree.py NAME DIR | --list (names: %s)\n" % ", ".join(MACHINES))
        return 2
    make(argv[1], argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
