# SPDX-License-Identifier: MIT
"""What check_report.py and check_fleet.py share: their arguments and TAP-style
checks, and the DOM of a report page as headless Chromium built it (Chromium runs
the page, its script too, and dumps the DOM, parsed into Elements to look for
classes and data- attributes)."""
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile

failures = 0


def setup(prefix):
    """(membench, chromium or None, a new scratch directory) from MEMBENCH [CHROMIUM]."""
    chromium = sys.argv[2] if len(sys.argv) > 2 else (shutil.which("chromium") or shutil.which("chromium-browser"))
    return os.path.abspath(sys.argv[1]), chromium, tempfile.mkdtemp(prefix=prefix)


def check(name, ok, detail=""):
    """One "ok - " / "not ok - " line, the detail under a failure; counted in failures."""
    global failures
    print(("ok - " if ok else "not ok - ") + name)
    if not ok:
        failures += 1
        if detail:
            print("    " + str(detail)[:2000].replace("\n", "\n    "))
    return ok


class Element:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, dict(attrs), parent, [], ""

    def classes(self):
        return self.attrs.get("class", "").split()

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def find(self, tag=None, cls=None, **attrs):
        for e in self.walk():
            if (tag is None or e.tag == tag) and (cls is None or cls in e.classes()) and \
                    all(e.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                yield e

    def all_text(self):
        return self.text + "".join(c.all_text() for c in self.children)


VOID = {"meta", "br", "img", "hr", "input", "link", "area", "base", "col", "embed", "source", "track", "wbr"}


class DomParser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {}, None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        e = Element(tag, attrs, self.cur)
        self.cur.children.append(e)
        if tag not in VOID:
            self.cur = e

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Element(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        e = self.cur
        while e is not self.root and e.tag != tag:
            e = e.parent
        if e is not self.root:
            self.cur = e.parent

    def handle_data(self, data):
        self.cur.text += data


def chromium_args(chromium, profile, html_path, extra):
    args = [chromium, "--headless", "--disable-gpu", "--enable-logging=stderr", "--v=0",
            "--user-data-dir=" + profile, "--virtual-time-budget=3000",
            "--hide-scrollbars", "--no-first-run"]
    if os.geteuid() == 0:
        args.append("--no-sandbox")
    return args + extra + ["file://" + html_path]


def console_errors(stderr):
    return [l for l in stderr.splitlines() if "Uncaught" in l or "CONSOLE" in l]


def render(chromium, profile, html_path, extra=()):
    """The DOM after Chromium ran the page, its exit status and any console error lines
    (extra: more Chromium flags, such as a --window-size)."""
    parser = DomParser()
    try:
        p = subprocess.run(chromium_args(chromium, profile, html_path, list(extra) + ["--dump-dom"]),
                           capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:  # a page whose script opened a dialog (markup let through) never ends
        return parser.root, -1, ["Chromium timed out on the page (a script it ran waiting on a dialog?)"]
    parser.feed(p.stdout)
    return parser.root, p.returncode, console_errors(p.stderr)
