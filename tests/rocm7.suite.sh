#!/bin/sh
# rocm7.suite.sh: the ROCM rules (and TYPE001's HIP FP8 types) against ROCm 7.2's real headers.
# Each tests/rocm7/RULE-*.bad.hip
# uses a name a ROCm release removed: check --hip-version 7.2 reports it as an error with that
# rule, and clang++-19 for gfx942 against ROCm 7.2.4's headers (build/rocm-7.2, fetched by
# tests/rocm-headers.sh) rejects it (for the target its first line names, "// offload-arch:
# gfxNNN", if any). Each RULE.fixed.hip uses what replaces it: check says nothing of that rule
# or the ROCM rules, and it compiles (host and device side). The compile half is left
# out, saying so, when SKIP_COMPILE is set; a machine without clang++-19 or the headers is a
# setup error. Prints "rocm7: N passed, N failed".
HIPPORT=$1
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/hipport-rocm7.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$root" || exit 4
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "rocm7: $*" >&2; fail=$((fail + 1)); }

compile=1
if [ -n "$SKIP_COMPILE" ]; then
    compile=0
    echo "rocm7: compiles skipped (SKIP_COMPILE is set); check's findings only"
else
    CLANG=${CLANG:-clang++-19}
    rset=${HIPPORT_ROCM_SET:-$root/build/rocm-7.2}
    if ! command -v "$CLANG" >/dev/null 2>&1; then
        bad "setup: $CLANG not found (apt-get install clang-19 lld-19)"
        compile=0
    elif ! full=$(sh tests/rocm-headers.sh "$rset" 2>"$work/headers.err"); then
        bad "setup: ROCm 7.2 headers: $(cat "$work/headers.err")"
        compile=0
    else
        echo "rocm7: compiling against HIP $full (ROCm 7.2 headers of Debian experimental), $CLANG, gfx942"
    fi
fi
builds() {
    # a first line "// offload-arch: gfxNNN" names another target than gfx942
    arch=$(sed -n '1s|^// offload-arch: *||p' "$1")
    for side in --cuda-host-only --cuda-device-only; do
        "$CLANG" -x hip --offload-arch="${arch:-gfx942}" --rocm-path="$rset" -nogpulib -isystem "$rset/include" \
            -std=c++17 -O1 $side -fsyntax-only "$1" >"$work/cc.log" 2>&1 || return 1
    done
    return 0
}

for f in tests/rocm7/*.hip; do
    name=$(basename "$f")
    rule=${name%%[-.]*}
    "$HIPPORT" check --hip-version 7.2 --format json "$f" >"$work/out.json" 2>"$work/err"
    case $name in
    *.bad.hip)
        if grep -q "\"rule\": *\"$rule\"" "$work/out.json" && grep -q '"severity": *"error"' "$work/out.json"; then
            ok
        else
            bad "$name: check --hip-version 7.2 does not report $rule as an error"
        fi
        if [ $compile = 1 ]; then
            if builds "$f"; then bad "$name: compiles against ROCm 7.2's headers"; else ok; fi
        fi
        ;;
    *.fixed.hip)
        if grep -q -e '"rule": *"ROCM' -e "\"rule\": *\"$rule\"" "$work/out.json"; then
            bad "$name: check reports $rule or a ROCM rule on the fixed form"
        else
            ok
        fi
        if [ $compile = 1 ]; then
            if builds "$f"; then ok; else bad "$name: does not compile against ROCm 7.2's headers: $(grep error "$work/cc.log" | head -2)"; fi
        fi
        ;;
    esac
done
# Rules whose bad form compiles and computes something else: check reports the line, and the
# program, built for the host against ROCm 7.2's headers and run, shows the difference.
"$HIPPORT" check --brief tests/rocm7/run/TYPE004.hip >"$work/t4.txt" 2>&1
if [ "$(grep -c 'TYPE004' "$work/t4.txt")" = 1 ] && grep -q '^tests/rocm7/run/TYPE004.hip:10:' "$work/t4.txt"; then
    ok
else
    bad "run/TYPE004.hip: check does not report TYPE004 once, on line 10: $(head -2 "$work/t4.txt")"
fi
if [ $compile = 1 ]; then
    if "$CLANG" -x hip --offload-arch=gfx942 --rocm-path="$rset" -nogpulib -isystem "$rset/include" \
        -std=c++17 --cuda-host-only -c tests/rocm7/run/TYPE004.hip -o "$work/t4.o" >"$work/cc.log" 2>&1 &&
        "$CLANG" "$work/t4.o" -o "$work/t4" >>"$work/cc.log" 2>&1; then
        got=$("$work/t4")
        # 0x77c0 is 31744.0 as a half: the literal converted as a number; 0x7c00 is infinity
        if [ "$got" = "braces 0x77c0 member 0x7c00" ]; then ok; else bad "run/TYPE004.hip printed: $got"; fi
    else
        bad "run/TYPE004.hip: does not build for the host: $(grep error "$work/cc.log" | head -2)"
    fi
fi
echo "rocm7: $pass passed, $fail failed"
[ "$fail" = 0 ]
