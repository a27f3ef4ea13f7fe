#!/usr/bin/env python3
"""Every flag that `--help` of every mode shows must be documented in README.md
and in the man page: prints each missing (mode, flag, document) and exits 1.

  check_docs.py MEMBENCH README.md man/membench.1"""
import re
import subprocess
import sys

MODES = ["", "latency", "stream", "c2c", "topology"]
# An option line of the generated help: "  -s SIZE_KB   ...", "  -h, --help   ...",
# "  --json FILE  ...".
OPTION_LINE = re.compile(r"^  (-[A-Za-z0-9](?:, --[a-z0-9-]+)?|--[a-z0-9-]+)[ =]")


def flags(binary, mode):
    argv = [binary] + ([mode] if mode else []) + ["--help"]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        m = OPTION_LINE.match(line)
        if m:
            found += [f.strip() for f in m.group(1).split(",")]
    return found


def mentioned(text, flag):
    return re.search(r"(?<![A-Za-z0-9-])" + re.escape(flag) + r"(?![A-Za-z0-9-])", text) is not None


def main():
    binary, readme, man = sys.argv[1:4]
    docs = {
        "README.md": open(readme).read(),
        # roff escapes minus signs: \- and \(hy
        "man page": open(man).read().replace("\\-", "-").replace("\\(hy", "-").replace("\\fB", "").replace(
            "\\fI", "").replace("\\fR", "").replace("\\fP", ""),
    }
    missing = []
    total = 0
    for mode in MODES:
        fl = flags(binary, mode)
        if not fl:
            missing.append("%s: --help shows no options" % (mode or "sweep"))
        for flag in fl:
            total += 1
            for name, text in docs.items():
                if not mentioned(text, flag):
                    missing.append("%s %s: not in %s" % (mode or "sweep", flag, name))
    for m in missing:
        print(m)
    print("# %d flags of %d modes checked" % (total, len(MODES)))
    return 1 if missing else 0


sys.exit(main())
