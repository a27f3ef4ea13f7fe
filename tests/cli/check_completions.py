#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of `membench completions bash|zsh|fish`: each script names exactly the
flags that each mode's --help shows (in that mode's part of the script, plus the
--no- forms of negatable flags) and every mode --help lists; bash's completion
function really completes (mode names, option names, the values the tables know,
nothing for a number, files for FILE, directories for DIR, the second word of
"numa mem"); fish's and zsh's too when those shells are installed (fish: complete
-C; zsh: a real interactive zsh under zsh/zpty with compadd recorded), and both
scripts pass `fish -n` and `zsh -n`. Prints TAP lines for run_cli_tests.sh.

  check_completions.py MEMBENCH TMPDIR"""
import os
import re
import shutil
import subprocess
import sys

BIN, TMP = sys.argv[1:3]
D = os.path.join(TMP, "completions")
os.makedirs(D, exist_ok=True)
results = []
CI = os.environ.get("CI") == "true"
OPS = "read write copy latency write-nt copy-nt memcpy".split()  # README's operations table
MIXES = ["R"] + ["W%d" % n for n in range(2, 18)]  # MLC's -R and -W2..-W17 (README)


def check(name, cond, detail=""):
    results.append(bool(cond))
    print(("ok - " if cond else "not ok - ") + name)
    if not cond and detail:
        print("    " + str(detail)[:600].replace("\n", "\\n"))


def run(args, **kw):
    return subprocess.run([BIN] + args, capture_output=True, text=True, **kw)


# --- what --help says ----------------------------------------------------------
OPTION_LINE = re.compile(r"^  (-[A-Za-z0-9](?:, --[a-z0-9_-]+)?|--[a-z0-9_-]+)[ =\n]")


def help_flags(mode):
    out = run((mode.split() if mode else []) + ["--help"]).stdout
    found = set()
    for line in out.splitlines():
        m = OPTION_LINE.match(line + "\n")
        if m:
            found |= {f.strip() for f in m.group(1).split(",")}
    return found, out


top = run(["--help"]).stdout
MODES = [m.group(1) for m in map(re.compile(r"^  ([a-z0-9-]+)  ").match,
                                 top.split("\nModes (", 1)[1].splitlines()[1:]) if m]
# numa-mem is also typed as the two words "numa mem" (the help's summary says so)
IDENT = {"": "default"}
IDENT.update({m: m.replace("-", "_") for m in MODES})
FLAGS = {m: help_flags(m)[0] for m in [""] + MODES}
check("membench --help lists the completions mode", "completions" in MODES, MODES)

scripts = {}
for shell in ("bash", "zsh", "fish"):
    p = run(["completions", shell])
    scripts[shell] = p.stdout
    check("completions %s: exit 0, a script on stdout, nothing on stderr" % shell,
          p.returncode == 0 and len(p.stdout) > 1000 and p.stderr == "", (p.returncode, p.stderr))
    with open(os.path.join(D, "membench." + shell), "w") as f:
        f.write(p.stdout)


# --- each mode's flags, as each script has them -----------------------------------
def bash_flags(script, ident):
    m = re.search(r"^    %s\)\n        opts=\"([^\"]*)\"" % re.escape(ident), script, re.M)
    return set(m.group(1).split()) if m else None


def zsh_flags(script, ident):
    m = re.search(r"^_membench_%s\(\) \{\n(.*?)^\}" % re.escape(ident), script, re.M | re.S)
    if not m:
        return None
    found = set()
    for spec in re.findall(r"^        '\*(.*?)\[", m.group(1), re.M):
        pair = re.match(r"'\{(-[^,]+),(--[^=}]+)=?\}'$", spec)
        found |= set(pair.groups()) if pair else {spec.rstrip("=")}
    return found


def fish_flags(script, ident):
    found = set()
    for line in script.splitlines():
        if line.startswith("complete -c membench -n '__membench_is %s'" % ident):
            found |= {"-" + s for s in re.findall(r" -s '([^']+)'", line)}
            found |= {"--" + s for s in re.findall(r" -l '([^']+)'", line)}
    return found or None


READERS = {"bash": bash_flags, "zsh": zsh_flags, "fish": fish_flags}
for shell, read in READERS.items():
    wrong = []
    for mode, want in FLAGS.items():
        got = read(scripts[shell], IDENT[mode])
        if got is None:
            wrong.append("%s: no part for it" % (mode or "sweep"))
            continue
        extra = got - want - {"--no-" + f[2:] for f in want if f.startswith("--")}
        if want - got or extra:
            wrong.append("%s: missing %s, not in --help %s" % (mode or "sweep", sorted(want - got), sorted(extra)))
    total = sum(len(v) for v in FLAGS.values())
    check("completions %s: each mode's part has exactly the %d flags of its --help (%d modes)" %
          (shell, total, len(FLAGS)), not wrong, "; ".join(wrong))

# --- bash: the completion function itself ------------------------------------------
open(os.path.join(D, "a.json"), "w").close()
os.makedirs(os.path.join(D, "adir"), exist_ok=True)
BASH_SCRIPT = os.path.join(D, "membench.bash")


def bash_complete(*words):
    """COMPREPLY for the command line words (the last one is being completed)."""
    prog = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _membench; '
            'printf "%s\\n" "${COMPREPLY[@]}"')
    p = subprocess.run(["bash", "-c", prog, "_", BASH_SCRIPT, "membench"] + list(words),
                       capture_output=True, text=True, cwd=D)
    return sorted(w for w in p.stdout.split("\n") if w), p


def expect_bash(words, want, name):
    got, p = bash_complete(*words)
    check("bash: membench %s<TAB> offers %s" % (" ".join(words), name), got == sorted(want) and p.returncode == 0,
          "got %s, want %s, stderr %s" % (got, sorted(want), p.stderr))


kernels = re.search(r"\n +\(([a-z0-9, ]+); see --list-kernels\)", help_flags("")[1]).group(1).split(", ")
expect_bash(["lat"], ["latency", "latency-matrix"], "the two modes starting 'lat'")
expect_bash([""], MODES + ["numa"], "every mode --help lists (and 'numa' of 'numa mem')")
expect_bash(["numa", ""], ["mem"], "'mem', the second word")
expect_bash(["numa", "mem", "--nr_p"], ["--nr_proc"], "numa mem's --nr_proc")
expect_bash(["numa-mem", "--no-data_re"], ["--no-data_reads"], "the --no- form of a negatable flag")
expect_bash(["-"], sorted(FLAGS[""]), "the sweep's flags, exactly")
expect_bash(["latency", "-"], sorted(FLAGS["latency"]), "latency's flags, exactly")
expect_bash(["-o", ""], OPS, "every operation")
expect_bash(["-p", "2", "-o", "c"], ["copy", "copy-nt"], "the operations starting 'c'")
expect_bash(["--kernel", ""], kernels, "the ISAs --help lists")
expect_bash(["--pages", ""], ["4k", "2m", "1g", "thp"], "the page sizes")
expect_bash(["peak-bandwidth", "--traffic", ""], MIXES, "every traffic type")
expect_bash(["bandwidth-matrix", "--traffic", "R,W1"], ["R," + m for m in MIXES if m.startswith("W1")],
            "the traffic types after the comma, the list kept")
expect_bash(["mlc", "-W", ""], [m[1:] for m in MIXES if m != "R"], "the numbers of -W")
expect_bash(["stream", "--stores", ""], ["regular", "nt", "both"], "the store kinds")
expect_bash(["latency", "--mem-policy", ""], ["bind", "preferred"], "the policies")
expect_bash(["latency", "--min", ""], [], "nothing (a size is typed, not an option)")
expect_bash(["latency", "--json", "a"], ["a.json", "adir"], "file names")
expect_bash(["latency", "--json", "=", "a."], ["a.json"], "file names after --json=")
expect_bash(["topology", "--sysfs", "a"], ["adir"], "directories only")
expect_bash(["compare", "a.json", ""], sorted(os.listdir(D)), "files (the runs to compare)")
expect_bash(["completions", ""], ["bash", "zsh", "fish"], "the shells")

# --- fish ------------------------------------------------------------------------
FISH_SCRIPT = os.path.join(D, "membench.fish")
if shutil.which("fish"):
    p = subprocess.run(["fish", "-n", FISH_SCRIPT], capture_output=True, text=True)
    check("fish -n: the fish script parses", p.returncode == 0, p.stderr)

    def expect_fish(line, want, name):
        p = subprocess.run(["fish", "-c", "source %s; complete -C '%s'" % (FISH_SCRIPT, line)],
                           capture_output=True, text=True, cwd=D)
        got = sorted(l.split("\t")[0] for l in p.stdout.splitlines() if l)
        check("fish: %s<TAB> offers %s" % (line, name), got == sorted(want) and p.returncode == 0,
              "got %s, want %s, stderr %s" % (got, sorted(want), p.stderr))

    expect_fish("membench lat", ["latency", "latency-matrix"], "the two modes starting 'lat'")
    expect_fish("membench numa ", ["mem"], "'mem'")
    expect_fish("membench numa mem --nr_p", ["--nr_proc"], "numa mem's --nr_proc")
    expect_fish("membench -o ", OPS, "every operation")
    expect_fish("membench peak-bandwidth --traffic R,W1", ["R," + m for m in MIXES if m.startswith("W1")],
                "the traffic types after the comma")
    expect_fish("membench completions ", ["bash", "zsh", "fish"], "the shells")
    expect_fish("membench topology --sysfs a", ["adir/"], "directories only")
elif CI:
    check("fish is installed (.ci/run installs it)", False)
else:
    print("# skipped: fish checks need fish (apt-get install fish)")

# --- zsh -------------------------------------------------------------------------
ZSH_DRIVER = r'''
zmodload zsh/zpty
out=$3
zpty z zsh -f -i
zpty -w z "PS1='>'; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z "compadd() { if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi; local -a h; builtin compadd -A h \"\$@\"; (( \$#h )) && print -l -- \$h >>$out; builtin compadd \"\$@\"; }"
zpty -w z "echo READY"
zpty -r z line '*READY*'
zpty -r z line '*READY*'
zpty -w -n z "$2"$'\t'
for i in {1..50}; do sleep 0.1; [[ -s $out ]] && break; done
sleep 0.3
zpty -d z
'''
if shutil.which("zsh"):
    fn = os.path.join(D, "zfunc")
    os.makedirs(fn, exist_ok=True)
    shutil.copy(os.path.join(D, "membench.zsh"), os.path.join(fn, "_membench"))
    p = subprocess.run(["zsh", "-n", os.path.join(fn, "_membench")], capture_output=True, text=True)
    check("zsh -n: the zsh script parses", p.returncode == 0, p.stderr)
    driver = os.path.join(D, "zdriver.zsh")
    with open(driver, "w") as f:
        f.write(ZSH_DRIVER)

    def expect_zsh(line, want, name):
        out = os.path.join(D, "zsh.out")
        if os.path.exists(out):
            os.remove(out)
        p = subprocess.run(["zsh", "-f", driver, fn, line, out], capture_output=True, text=True, cwd=D, timeout=60)
        got = sorted(set(open(out).read().split())) if os.path.exists(out) else []
        check("zsh: %s<TAB> offers %s" % (line, name), got == sorted(want),
              "got %s, want %s, stderr %s" % (got, sorted(want), p.stderr))

    expect_zsh("membench lat", ["latency", "latency-matrix"], "the two modes starting 'lat'")
    expect_zsh("membench numa ", ["mem"], "'mem'")
    expect_zsh("membench numa mem --nr_p", ["--nr_proc"], "numa mem's --nr_proc")
    expect_zsh("membench -o c", ["copy", "copy-nt"], "the operations starting 'c'")
    expect_zsh("membench peak-bandwidth --traffic R,W1", [m for m in MIXES if m.startswith("W1")],
               "the traffic types after the comma")
    expect_zsh("membench completions ", ["bash", "zsh", "fish"], "the shells")
elif CI:
    check("zsh is installed (.ci/run installs it)", False)
else:
    print("# skipped: zsh checks need zsh (apt-get install zsh)")

shutil.rmtree(D)  # its a.json is no run: the schema checks after this script read every *.json left
sys.exit(0 if all(results) else 1)
