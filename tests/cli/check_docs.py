#!/usr/bin/env python3
"""Every flag that `--help` of every mode shows must be documented in README.md
and in the man page: prints each missing (mode, flag, document) and exits 1.

  check_docs.py MEMBENCH README.md man/membench.1"""
import re
import subprocess
import sys

# The modes: the sweep, then every name `membench --help` lists under "Modes".
MODE_LINE = re.compile(r"^  ([a-z0-9-]+)  ")
# An option line of the generated help: "  -s SIZE_KB   ...", "  -h, --help   ...",
# "  --json FILE  ...".
OPTION_LINE = re.compile(r"^  (-[A-Za-z0-9](?:, --[a-z0-9_-]+)?|--[a-z0-9_-]+)(?:[ =]|$)")


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


def modes(binary):
    out = subprocess.run([binary, "--help"], capture_output=True, text=True, check=True).stdout
    listed = out.split("\nModes (", 1)[1].splitlines()[1:] if "\nModes (" in out else []
    return [""] + [m.group(1) for m in map(MODE_LINE.match, listed) if m]


def main():
    binary, readme, man = sys.argv[1:4]
    MODES = modes(binary)
    if len(MODES) < 2:
        print("membench --help lists no modes")
        return 1
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
