#!/bin/sh
# flow.suite.sh: the porting flow of docs/porting-guide.md, end to end, on tests/flow/rowsum (a
# PyTorch extension of this project's own, shaped like the real ones: a CUDA kernel with a ROCm
# branch and a `namespace cub = hipcub;` alias, a warp reduction written for 32 lanes, a Triton
# kernel with a vendor branch, a setup.py that builds for either vendor):
#   1. doctor on an MI300X machine (tests/doctor/roots/mi300x): the GPU, exit 0;
#   2. check on the project: the findings a porter must act on, exit 1 (an error);
#   3. hipify-python into hip_ported/ inside the project: the ROCm branch and the alias are
#      kept byte for byte, the CUDA branch becomes hipCUB, exit 0;
#   4. check on the project again: hip_ported/ is not walked (no finding counted twice), the
#      same findings, the same exit status;
#   5. check on hip_ported/ itself: hipify's copy of the original (rowsum.cu beside rowsum.hip)
#      is not taken, so each finding is there once;
#   6. the translated sources compile for gfx942 against ROCm 7.2's headers (build/rocm-7.2)
#      with the PyTorch stand-ins of tests/pytorch/stubs, with and without USE_ROCM; a
#      redefined alias (namespace hipcub = hipcub) would not. Left out, saying so, when
#      SKIP_COMPILE is set; a machine without clang++-19 or the headers is a setup error.
# Prints "flow: N passed, N failed".
HIPPORT=$1
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/hipport-flow.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$root" || exit 4
H=$(cd "$(dirname "$HIPPORT")" && pwd)/$(basename "$HIPPORT")
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "flow: $*" >&2; fail=$((fail + 1)); }
# expect_rc NAME WANT GOT
expect_rc() { if [ "$3" = "$2" ]; then ok; else bad "$1: exit status $3, want $2"; fi; }
# rules FILE: the "path:line rule" of each finding of a JSON report, sorted
rules() { sed -n 's/.*"path":"\([^"]*\)","line":\([0-9]*\),.*"rule":"\([A-Z0-9]*\)".*/\1:\2 \3/p' "$1" | sort; }

cp -R tests/flow/rowsum "$work/rowsum"
p=$work/rowsum

# 1. doctor
"$H" doctor --root tests/doctor/roots/mi300x --format json >"$work/doctor.json" 2>&1
expect_rc doctor 0 $?
if grep -q '"target": *"gfx942' "$work/doctor.json"; then ok; else bad "doctor: no gfx942 in $(head -c 400 "$work/doctor.json")"; fi

# 2. check before
(cd "$p" && "$H" check --format json . >"$work/check1.json" 2>"$work/check1.err")
expect_rc check 1 $?
rules "$work/check1.json" >"$work/rules1"
for want in "./csrc/rowsum.cu:17 WAVE006" "./csrc/rowsum.cu:18 WAVE003" "./csrc/rowsum.cu:36 WAVE002" \
    "./kernels/softmax.py:34 TRI001"; do
    if grep -qxF "$want" "$work/rules1"; then ok; else bad "check: no '$want' in: $(cat "$work/rules1")"; fi
done
# the vendor branches are left alone: nothing on setup.py's HIP flags nor the Triton is_hip()
if grep -q "setup.py\|softmax.py:2[0-9] " "$work/rules1"; then bad "check: findings in vendor branches: $(cat "$work/rules1")"; else ok; fi

# 3. hipify-python into the project
(cd "$p" && "$H" hipify-python -p . --output-directory ./hip_ported --hip-version 7.2 -q >"$work/hipify.out" 2>&1)
expect_rc hipify-python 0 $?
out=$p/hip_ported/csrc/rowsum.hip
if [ -f "$out" ]; then ok; else bad "hipify-python wrote no csrc/rowsum.hip"; fi
if grep -qx 'namespace cub = hipcub;' "$out" && ! grep -q 'namespace hipcub = hipcub' "$out"; then ok; else bad "the alias namespace cub = hipcub; is not kept"; fi
if grep -q 'hipcub::BlockReduce' "$out" && grep -qx '#include <hipcub/hipcub.hpp>' "$out"; then ok; else bad "the CUDA branch is not hipCUB"; fi

# 4. check again: the copy is not walked
(cd "$p" && "$H" check --format json . >"$work/check2.json" 2>"$work/check2.err")
expect_rc "check again" 1 $?
rules "$work/check2.json" >"$work/rules2"
if cmp -s "$work/rules1" "$work/rules2"; then ok; else bad "check after hipify-python: other findings: $(diff "$work/rules1" "$work/rules2")"; fi
if grep -q "hip_ported.*skipped" "$work/check2.err"; then ok; else bad "check does not say it skipped hip_ported: $(cat "$work/check2.err")"; fi

# 5. check on the output itself: each finding once
(cd "$p" && "$H" check --format json hip_ported >"$work/check3.json" 2>"$work/check3.err")
rules "$work/check3.json" >"$work/rules3"
if grep -q "rowsum.cu:" "$work/rules3"; then bad "check of hip_ported takes hipify's copy rowsum.cu: $(cat "$work/rules3")"; else ok; fi
if grep -q "rowsum.hip:[0-9]* WAVE006" "$work/rules3" && grep -q "softmax.py:34 TRI001" "$work/rules3"; then ok; else bad "check of hip_ported: $(cat "$work/rules3")"; fi
if [ "$(cut -d' ' -f1 "$work/rules3" | sort | uniq -d | wc -l)" = 0 ]; then ok; else bad "a line reported twice: $(cat "$work/rules3")"; fi

# 6. the translation compiles against ROCm 7.2
if [ -n "$SKIP_COMPILE" ]; then
    echo "flow: compiles skipped (SKIP_COMPILE is set)"
else
    CLANG=${CLANG:-clang++-19}
    rset=${HIPPORT_ROCM_SET:-$root/build/rocm-7.2}
    stubs=$root/tests/pytorch/stubs
    if ! command -v "$CLANG" >/dev/null 2>&1; then
        bad "setup: $CLANG not found (apt-get install clang-19 lld-19)"
    elif ! sh tests/rocm-headers.sh "$rset" >/dev/null 2>"$work/headers.err"; then
        bad "setup: ROCm 7.2 headers: $(cat "$work/headers.err")"
    else
        cc() {
            for side in --cuda-host-only --cuda-device-only; do
                "$CLANG" -x hip --offload-arch=gfx942 --rocm-path="$rset" -nogpulib \
                    -isystem "$rset/include" -std=c++17 -O1 $side -fsyntax-only \
                    -I"$stubs/common" -I"$stubs/v2" "$@" >"$work/cc.log" 2>&1 || return 1
            done
        }
        for f in "$out" "$p/hip_ported/csrc/bind.cpp"; do
            for d in "" -DUSE_ROCM=1; do
                if cc $d "$f"; then ok; else bad "$(basename "$f") $d does not compile: $(grep error "$work/cc.log" | head -2)"; fi
            done
        done
        sed 's/^namespace cub = hipcub;/namespace hipcub = hipcub;/' "$out" >"$work/broken.hip"
        if cc -DUSE_ROCM=1 "$work/broken.hip"; then bad "a redefined alias compiles: the compile step proves nothing"; else ok; fi
    fi
fi
echo "flow: $pass passed, $fail failed"
[ "$fail" = 0 ]
