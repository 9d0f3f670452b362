#!/bin/sh
# doctor.suite.sh: rebuilds the stand-in PyTorch GPU libraries of the fake roots with the
# compilers of this machine (tests/doctor/mklibs.sh: Debian's hipcc and clang-19), puts them
# into copies of the roots, and checks that 'hipport doctor' reads the fresh code the way it
# reads the committed copies. A missing compiler skips its cases with a message. $1 is the
# hipport binary. Prints "doctor: N passed, N failed".
H=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)/doctor
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hipport-doctor.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "doctor FAIL: $*" >&2
}

cp -R "$here/roots/mi300x" "$here/roots/rdna3-mi250x" "$tmp/" || exit 4
# the fresh builds replace the committed ones; what was not built is removed, so that no
# case passes on a committed copy
find "$tmp" -name 'lib*_hip.so' -exec rm -f {} +
built=$(sh "$here/mklibs.sh" "$tmp")

# has NAME ROOT [-e VAR=VALUE...] -- TEXT...: every TEXT is a line of the JSON report
has() {
    name=$1 root=$2
    shift 2
    args=
    while [ "$1" != "--" ]; do
        args="$args $1"
        shift
    done
    shift
    out=$(cd "$tmp" && "$H" doctor --root "$root" --format json $args 2>&1)
    for want in "$@"; do
        if ! printf '%s\n' "$out" | grep -qF -- "$want"; then
            bad "$name: no '$want' in: $(printf '%s' "$out" | head -c 3000)"
            return
        fi
    done
    ok
}

lib=opt/venv/lib/python3.12/site-packages/torch/lib
if echo "$built" | grep -q "mi300x/$lib/libtorch_hip.so"; then
    # compressed (CCOB) code for gfx90a, gfx942, gfx1100: runs on the MI300X
    has mi300x-compressed mi300x -- \
        '"path":"/opt/venv/lib/python3.12/site-packages/torch/lib/libtorch_hip.so","scanned":true,"code_objects":3,"targets":["gfx1100","gfx90a","gfx942"],"gpu":"gfx942:sramecc+:xnack-","verdict":"runs"'
    # with the GPUs claiming gfx1100 the library still has code, but ENV001 says why not
    has mi300x-override mi300x -e HSA_OVERRIDE_GFX_VERSION=11.0.0 -- \
        '"gpu":"gfx1100","verdict":"runs"' '"rule":"ENV001","severity":"error"'
else
    echo "doctor: skipped: clang-19 built no libtorch_hip.so for the MI300X root" >&2
fi
if echo "$built" | grep -q "mi300x/$lib/libc10_hip.so"; then
    has mi300x-plain mi300x -- \
        '"path":"/opt/venv/lib/python3.12/site-packages/torch/lib/libc10_hip.so","scanned":true,"code_objects":2,"targets":["gfx90a","gfx942"],"gpu":"gfx942:sramecc+:xnack-","verdict":"runs"'
fi
lib=usr/local/lib/python3.11/dist-packages/torch/lib
if echo "$built" | grep -q "rdna3-mi250x/$lib/libtorch_hip.so"; then
    # gfx90a only: no code for the RX 7900 XTX (DOC001); the override explains the MI250X
    has mixed-gfx90a rdna3-mi250x -- \
        '"targets":["gfx90a"],"gpu":"gfx1100","verdict":"will-not-run"' \
        '"rule":"DOC001","severity":"error","message":"has no code for GPU 0 (AMD Radeon RX 7900 XT/XTX, gfx1100): it carries code for gfx90a only"'
    has mixed-no-override rdna3-mi250x -e HSA_OVERRIDE_GFX_VERSION -- \
        '"targets":["gfx90a"],"gpu":"gfx1100","verdict":"will-not-run"'
else
    echo "doctor: skipped: hipcc built no libtorch_hip.so for the RX 7900 XTX + MI250X root" >&2
fi
if echo "$built" | grep -q "rdna3-mi250x/$lib/libc10_hip.so"; then
    # gfx90a:xnack- code and XNACK on: ENV004
    has mixed-xnack rdna3-mi250x -e HSA_OVERRIDE_GFX_VERSION -e HSA_XNACK=1 -- \
        '"targets":["gfx90a:xnack-"]' '"path":"HSA_XNACK","line":0,"column":0,"rule":"ENV004","severity":"error"'
fi
echo "doctor: $pass passed, $fail failed"
[ "$fail" = 0 ]
