#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check-deb: builds the Debian package (dpkg-buildpackage -us -uc -b) in a copy
# of the tree in a temporary directory (no build artefact and no ../*.deb outside
# it), runs lintian, installs it with dpkg -i, checks what it installed, removes it
# and checks it is gone. Root only (dpkg -i); the package is removed even when a
# check fails, and a membench package installed before is never touched.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
not_ok() { FAIL=$((FAIL + 1)); echo "not ok - $1"; [ -n "${2:-}" ] && echo "$2" | head -20 | sed 's/^/    /'; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
finish() { echo "deb: $PASS passed, $FAIL failed"; [ $FAIL -eq 0 ]; exit $?; }

if [ "$(id -u)" -ne 0 ]; then
    echo "# skipped: make check-deb installs the package with dpkg -i, which needs root"
    exit 0
fi
missing=""
for tool in dpkg-buildpackage dh lintian fakeroot; do
    command -v $tool >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
    if [ "${CI:-}" = true ]; then
        not_ok "tools for the package build:$missing missing (.ci/run installs dpkg-dev debhelper lintian)"
        finish
    fi
    echo "# skipped: make check-deb needs$missing (apt-get install dpkg-dev debhelper lintian fakeroot)"
    exit 0
fi
if dpkg-query -W -f='${Status}' membench 2>/dev/null | grep -q ' installed$'; then
    not_ok "a membench package is already installed; make check-deb would replace and remove it (dpkg -r membench first)"
    finish
fi

TMP=$(mktemp -d /tmp/membench-deb-XXXXXX)
INSTALLED=false
cleanup() {
    # Leave the system as it was: the package goes even when a check failed.
    if $INSTALLED && dpkg-query -W -f='${Status}' membench 2>/dev/null | grep -q ' installed$'; then
        dpkg -r membench >/dev/null 2>&1 || echo "# could not remove membench: dpkg -r membench by hand"
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The sources only: what git tracks (and new files it would track), else the tree
# without build output.
SRC=$TMP/membench
mkdir "$SRC"
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$ROOT" && git ls-files -z -co --exclude-standard |
        while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done | tar --null -cf - -T -) |
        tar -xf - -C "$SRC"
else
    tar -C "$ROOT" --exclude=./build --exclude='./build-*' --exclude=./membench --exclude=./.git -cf - . |
        tar -xf - -C "$SRC"
fi
check "the scratch copy holds the sources and no build output" \
    bash -c "[ -f '$SRC/debian/control' ] && [ -f '$SRC/src/main.c' ] && [ ! -e '$SRC/membench' ] && [ ! -e '$SRC/build' ]"

VERSION=$(sed -n 's/^VERSION *:= *//p' "$SRC/Makefile")
DEB_VERSION=$(cd "$SRC" && dpkg-parsechangelog -S Version)
check "debian/changelog's version ($DEB_VERSION) is the Makefile's ($VERSION)" test "$DEB_VERSION" = "$VERSION"

# --- build ----------------------------------------------------------------------
# The source package too (lintian checks debian/control, copyright and rules there),
# made from the clean copy before the build fills it.
(cd "$TMP" && dpkg-source -b membench) >"$TMP/source.log" 2>&1
check "dpkg-source -b makes the native source package" test -f "$TMP/membench_${DEB_VERSION}.dsc"
beside() { ls -d "$ROOT"/../membench_* "$ROOT"/../membench-dbgsym_* 2>/dev/null; }
BESIDE_BEFORE=$(beside)
# -J: the build's compiles on every CPU (dh runs make -jN), as a packager's would.
(cd "$SRC" && dpkg-buildpackage -us -uc -b -J"$(nproc)") >"$TMP/build.log" 2>&1
rc=$?
check "dpkg-buildpackage -us -uc -b exits 0" test $rc -eq 0
[ $rc -eq 0 ] || { tail -30 "$TMP/build.log" | sed 's/^/    /'; finish; }
ARCH=$(dpkg --print-architecture)
DEB=$TMP/membench_${DEB_VERSION}_${ARCH}.deb
check "the .deb is in the temporary directory: $(basename "$DEB")" test -f "$DEB"
check "nothing new beside the source tree (../*.deb, .changes, .buildinfo)" test "$(beside)" = "$BESIDE_BEFORE"
check "the source tree has no debian/ build output" \
    bash -c "[ ! -e '$ROOT/debian/membench' ] && [ ! -e '$ROOT/debian/files' ] && [ ! -e '$ROOT/debian/.debhelper' ]"

# dpkg-buildflags' hardening flags reach every compile and the link.
FLAGS_BAD=$(grep -E '^(cc|gcc|clang)\b.* -c ' "$TMP/build.log" |
    grep -v -- '-D_FORTIFY_SOURCE=2' | head -3)
NCOMPILE=$(grep -cE '^(cc|gcc|clang)\b.* -c ' "$TMP/build.log")
check "every compile ($NCOMPILE) has CPPFLAGS' -D_FORTIFY_SOURCE=2 and CFLAGS' -fstack-protector-strong" \
    bash -c "[ $NCOMPILE -gt 50 ] && [ -z '$FLAGS_BAD' ] && ! grep -E '^(cc|gcc|clang)\b.* -c ' '$TMP/build.log' | grep -qv -- '-fstack-protector-strong'"
check "the link has LDFLAGS' -z relro and -z now" \
    bash -c "grep -E -- ' -o membench ' '$TMP/build.log' | grep -q -- '-Wl,-z,relro' && grep -E -- ' -o membench ' '$TMP/build.log' | grep -q -- '-Wl,-z,now'"
check "the package build ran the unit tests only (make check-unit), all passing" \
    bash -c "grep -q '^unit: [0-9]* passed, 0 failed' '$TMP/build.log' && ! grep -q 'run_cli_tests' '$TMP/build.log'"

# --- lintian --------------------------------------------------------------------
lintian --fail-on error,warning "$TMP/membench_${DEB_VERSION}.dsc" "$TMP/membench_${DEB_VERSION}_${ARCH}.changes" \
    >"$TMP/lintian.out" 2>&1
rc=$?
check "lintian --fail-on error,warning on the source and binary packages: clean (exit 0, no E: or W:)" \
    bash -c "[ $rc -eq 0 ] && ! grep -qE '^[EW]: ' '$TMP/lintian.out'"
grep -E '^[EWIP]: ' "$TMP/lintian.out" | head -20 | sed 's/^/    /'

# --- install and use -----------------------------------------------------------
dpkg -i "$DEB" >"$TMP/install.log" 2>&1
rc=$?
INSTALLED=true
check "dpkg -i installs it" test $rc -eq 0
out=$(/usr/bin/membench --version 2>&1)
check "/usr/bin/membench --version says 'membench $DEB_VERSION'" test "$out" = "membench $DEB_VERSION"
/usr/bin/membench topology >"$TMP/topo" 2>"$TMP/topo.err"
rc=$?
check "membench topology exits 0 and names this CPU" bash -c "[ $rc -eq 0 ] && grep -q '^This CPU: ' '$TMP/topo'"
check "the binary is hardened: PIE, RELRO, BIND_NOW, fortified calls" \
    bash -c "readelf -h /usr/bin/membench | grep -q 'Type: *DYN' && readelf -lW /usr/bin/membench | grep -q GNU_RELRO &&
             readelf -dW /usr/bin/membench | grep -qE 'BIND_NOW|FLAGS_1.*NOW' && readelf -sW --dyn-syms /usr/bin/membench | grep -q '__[a-z]*printf_chk'"
check "the man page is at /usr/share/man/man1/membench.1.gz" \
    bash -c "zcat /usr/share/man/man1/membench.1.gz | grep -q '^\.TH MEMBENCH'"
check "the README and BENCHMARKS the man page points to are at /usr/share/doc/membench/, uncompressed" \
    bash -c "zcat /usr/share/man/man1/membench.1.gz | grep -q '/usr/share/doc/membench/README.md' && [ -s /usr/share/doc/membench/README.md ] && [ -s /usr/share/doc/membench/BENCHMARKS.md ]"
check "the docs pages the README links to are at /usr/share/doc/membench/docs/, uncompressed, one per .md of docs/" \
    bash -c "zcat /usr/share/man/man1/membench.1.gz | grep -q '/usr/share/doc/membench/docs/' && [ -s /usr/share/doc/membench/docs/stream.md ] &&
             [ -s /usr/share/doc/membench/docs/report.png ] &&
             [ \$(ls '$ROOT'/docs/*.md | wc -l) -eq \$(ls /usr/share/doc/membench/docs/*.md | wc -l) ]"
check "the copyright file says MIT (Expat), as LICENSE does" \
    bash -c "grep -q '^License: Expat' /usr/share/doc/membench/copyright && grep -q '^MIT License' '$ROOT/LICENSE'"
BASH_C=/usr/share/bash-completion/completions/membench
ZSH_C=/usr/share/zsh/vendor-completions/_membench
FISH_C=/usr/share/fish/vendor_completions.d/membench.fish
for f in "bash:$BASH_C" "zsh:$ZSH_C" "fish:$FISH_C"; do
    shell=${f%%:*} path=${f#*:}
    check "the $shell completions are at $path, as the installed binary writes them" \
        bash -c "[ -s '$path' ] && /usr/bin/membench completions $shell | cmp -s - '$path'"
done
out=$(bash -c "source $BASH_C; COMP_WORDS=(membench lat); COMP_CWORD=1; _membench; echo \"\${COMPREPLY[*]}\"" 2>&1)
check "the installed bash completion completes 'membench lat' ($out)" test "$out" = "latency latency-matrix"

# --- remove ---------------------------------------------------------------------
dpkg -r membench >"$TMP/remove.log" 2>&1
rc=$?
check "dpkg -r membench exits 0" test $rc -eq 0
check "the binary, the man page, the completions and the docs pages are gone" \
    bash -c "[ ! -e /usr/bin/membench ] && [ ! -e /usr/share/doc/membench/docs/stream.md ] && [ ! -e /usr/share/man/man1/membench.1.gz ] && [ ! -e '$BASH_C' ] && [ ! -e '$ZSH_C' ] && [ ! -e '$FISH_C' ]"
check "dpkg knows membench as not installed" \
    bash -c "! dpkg-query -W -f='\${Status}' membench 2>/dev/null | grep -q ' installed\$'"
finish
