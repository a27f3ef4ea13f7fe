#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The documentation against the binary and itself; prints each problem and exits 1.

  check_docs.py [--check links|modes|flags] MEMBENCH README.md DOCS_DIR man/membench.1

links  every relative link and image in README.md, DOCS_DIR/*.md and the
       BENCHMARKS.md beside README.md names a file that exists, and a #anchor a
       heading of that file (GitHub's slugs); links that leave the repository
       (README.md's directory) are not followed; every page of DOCS_DIR is linked
       from README.md and links back to it
modes  every mode `membench --help` lists (and the sweep) has a row in a README.md
       table whose first cell names it (`MODE`) and which links to a page of
       DOCS_DIR that exists and names the mode
flags  every flag that `--help` of every mode shows is in README.md + DOCS_DIR/*.md
       (read together) and in the man page, and the man page's .TH line names the
       version `membench --version` prints
licence every source file of the tree (src, tests, bench, fuzz, mpi, .ci: .c, .h, .py,
       .sh, the Makefile, .ci/run) says `SPDX-License-Identifier: MIT` in its first
       two lines (after a #! line), as LICENSE and debian/copyright say
Without --check, all four."""
import glob
import os
import re
import subprocess
import sys

# The modes: the sweep, then every name `membench --help` lists under "Modes".
MODE_LINE = re.compile(r"^  ([a-z0-9-]+)  ")
# An option line of the generated help: "  -s SIZE_KB   ...", "  -h, --help   ...",
# "  --json FILE  ...".
OPTION_LINE = re.compile(r"^  (-[A-Za-z0-9](?:, --[a-z0-9_-]+)?|--[a-z0-9_-]+)(?:[ =]|$)")
# [text](target) and ![alt](target); the target ends at the first blank or ")".
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


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


def prose(text):
    """The lines outside fenced code blocks, as (line number, line)."""
    fence = None
    for n, line in enumerate(text.splitlines(), 1):
        s = line.lstrip()
        if fence is None and (s.startswith("```") or s.startswith("~~~")):
            fence = s[:3]
            continue
        if fence is not None:
            if s.startswith(fence):
                fence = None
            continue
        yield n, line


def slug(heading):
    """GitHub's anchor of a heading: the text as rendered (links by their text,
    code without backticks), lower case, punctuation but - and _ dropped, blanks -."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    text = "".join(c for c in text.lower() if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path):
    seen = {}
    out = set()
    for _, line in prose(open(path, encoding="utf-8").read()):
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        k = seen.get(base, 0)
        seen[base] = k + 1
        out.add(base if k == 0 else "%s-%d" % (base, k))
    return out


def inline_code_removed(line):
    return re.sub(r"`[^`]*`", lambda m: " " * len(m.group(0)), line)


def links(path):
    """(line, target) of every link and image outside code."""
    for n, line in prose(open(path, encoding="utf-8").read()):
        for m in LINK.finditer(inline_code_removed(line)):
            yield n, m.group(1)


def check_links(root, files):
    bad = []
    count = 0
    for f in files:
        rel = os.path.relpath(f, root)
        for n, target in links(f):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:
                continue
            count += 1
            path, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            if os.path.relpath(dest, root).startswith(".."):
                continue  # outside the repository (the sc-membench seeds beside it)
            if not os.path.exists(dest):
                bad.append("%s:%d: link to %s: no such file" % (rel, n, target))
                continue
            if anchor:
                if not dest.endswith(".md") or not os.path.isfile(dest):
                    bad.append("%s:%d: link to %s: an anchor in a file that is not Markdown" % (rel, n, target))
                elif anchor not in anchors(dest):
                    bad.append("%s:%d: link to %s: %s has no heading '#%s'" %
                               (rel, n, target, os.path.relpath(dest, root), anchor))
    return bad, count


def check_navigation(readme, pages):
    """A newcomer lands on any page from a search: each page of docs/ is linked from
    README.md and links back to it."""
    bad = []
    readme = os.path.abspath(readme)

    def targets(f):
        for _, t in links(f):
            path = t.partition("#")[0]
            if path and not re.match(r"^[a-z][a-z0-9+.-]*:", path, re.I):
                yield os.path.normpath(os.path.join(os.path.dirname(f), path))

    from_readme = set(targets(readme))
    for p in pages:
        p = os.path.abspath(p)
        rel = os.path.relpath(p, os.path.dirname(readme))
        if p not in from_readme:
            bad.append("%s: README.md never links to it" % rel)
        if readme not in set(targets(p)):
            bad.append("%s: no link back to README.md" % rel)
    return bad


def check_modes(binary, readme, docs_dir):
    """Each mode a README table row: first cell `MODE` (the sweep: `membench`), a
    link to an existing docs page that names the mode."""
    bad = []
    rows = [line for _, line in prose(open(readme, encoding="utf-8").read()) if line.lstrip().startswith("|")]
    docs_rel = os.path.relpath(docs_dir, os.path.dirname(readme))
    for mode in modes(binary):
        name = mode or "membench"
        row = None
        for r in rows:
            cells = r.strip().strip("|").split("|")
            if re.search(r"`%s`" % re.escape(name), cells[0]):
                row = r
                break
        if row is None:
            bad.append("mode %s: no row of README.md's mode table names `%s` in its first cell" % (name, name))
            continue
        pages = [t.partition("#")[0] for t in LINK.findall(row)]
        pages = [p for p in pages if os.path.dirname(os.path.normpath(p)) == os.path.normpath(docs_rel)
                 and p.endswith(".md")]
        if not pages:
            bad.append("mode %s: its README.md row links to no page of %s/" % (name, docs_rel))
            continue
        page = os.path.join(os.path.dirname(readme), pages[0])
        if not os.path.isfile(page):
            bad.append("mode %s: its page %s does not exist" % (name, pages[0]))
        elif mode and not re.search(r"membench %s\b" % re.escape(mode), open(page, encoding="utf-8").read()):
            bad.append("mode %s: its page %s never says `membench %s`" % (name, pages[0], mode))
    return bad


def check_flags(binary, readme, docs_dir, man):
    docs = {
        "README.md + docs/": "\n".join(open(f, encoding="utf-8").read()
                                       for f in [readme] + sorted(glob.glob(os.path.join(docs_dir, "*.md")))),
        # roff escapes minus signs: \- and \(hy
        "man page": open(man).read().replace("\\-", "-").replace("\\(hy", "-").replace("\\fB", "").replace(
            "\\fI", "").replace("\\fR", "").replace("\\fP", ""),
    }
    missing = []
    total = 0
    all_modes = modes(binary)
    for mode in all_modes:
        fl = flags(binary, mode)
        if not fl:
            missing.append("%s: --help shows no options" % (mode or "sweep"))
        for flag in fl:
            total += 1
            for name, text in docs.items():
                if not mentioned(text, flag):
                    missing.append("%s %s: not in %s" % (mode or "sweep", flag, name))
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
    th = [l for l in open(man).read().splitlines() if l.startswith(".TH ")]
    if not th or '"%s"' % version not in th[0]:
        missing.append("man page: its .TH line (%s) does not name %s, what --version prints" %
                       (th[0] if th else "none", version))
    return missing, total, len(all_modes)


SPDX = "SPDX-License-Identifier: MIT"
SOURCE_DIRS = ("src", "tests", "bench", "fuzz", "mpi", ".ci")


def check_licence(root):
    """The source files of the tree without the SPDX line in their first two lines."""
    files = [os.path.join(root, "Makefile")]
    for top in SOURCE_DIRS:
        for d, _, names in os.walk(os.path.join(root, top)):
            files += [os.path.join(d, n) for n in names
                      if n.endswith((".c", ".h", ".py", ".sh")) or (top == ".ci" and n == "run")]
    bad = []
    for f in sorted(files):
        with open(f, encoding="utf-8", errors="replace") as fh:
            head = [fh.readline(), fh.readline()]
        if SPDX not in "".join(head):
            bad.append("%s: no '%s' in its first two lines" % (os.path.relpath(f, root), SPDX))
    return bad, len(files)


def main():
    args = sys.argv[1:]
    which = ["links", "modes", "flags", "licence"]
    if len(args) >= 2 and args[0] == "--check":
        which = [args[1]]
        args = args[2:]
    if len(args) != 4 or not set(which) <= {"links", "modes", "flags", "licence"}:
        print(__doc__.strip())
        return 2
    binary, readme, docs_dir, man = args
    if len(modes(binary)) < 2:
        print("membench --help lists no modes")
        return 1
    root = os.path.dirname(os.path.abspath(readme))
    pages = sorted(glob.glob(os.path.join(docs_dir, "*.md")))
    bad = []
    if "links" in which:
        bench = [os.path.join(root, "BENCHMARKS.md")] if os.path.isfile(os.path.join(root, "BENCHMARKS.md")) else []
        b, count = check_links(root, [os.path.abspath(readme)] + [os.path.abspath(p) for p in pages] + bench)
        bad += b + check_navigation(readme, pages)
        print("# %d relative links in README.md, %d pages of %s and %s checked" %
              (count, len(pages), os.path.basename(os.path.normpath(docs_dir)), "BENCHMARKS.md" if bench else "no BENCHMARKS.md"))
    if "modes" in which:
        bad += check_modes(binary, readme, docs_dir)
        print("# %d modes checked against README.md's mode table" % len(modes(binary)))
    if "flags" in which:
        b, total, nmodes = check_flags(binary, readme, docs_dir, man)
        bad += b
        print("# %d flags of %d modes checked" % (total, nmodes))
    if "licence" in which:
        b, total = check_licence(root)
        bad += b
        print("# %d source files checked for the SPDX line" % total)
    for b in bad:
        print(b)
    return 1 if bad else 0


sys.exit(main())
