#!/bin/sh
# compile.sh: the compile proof. Every CUDA program in tests/compile/ is translated with
# hipport for the installed HIP and compiled for AMD with hipcc --offload-arch=gfx90a -c.
# A program may name extra compiler flags in a line "// compile-flags: ..." (both compilers),
# "// nvcc-flags: ..." (nvcc only) or "// hipcc-flags: ..." (hipcc only), and translation
# options in a line "// hipport-flags: ..." (for example --roc).
# Where nvcc is installed, the original is first compiled as CUDA (proof that it is valid).
#
# A program that uses what the installed HIP lacks says so in a line "// hip-X.Y: reported"
# (X.Y: the installed HIP). For it the test passes when hipcc rejects the translation and
# hipport had reported the cause: a warning or error of the translation on the line of hipcc's
# first error, or on one of the three lines above it (lines are mapped back to the original
# through the number of lines translation added above them, at the top of the file).
# Prints "compile: N passed, N failed"; without hipcc it says so and runs nothing.
HIPPORT=$1
dir=$(cd "$(dirname "$0")" && pwd)/compile
if ! command -v hipcc >/dev/null 2>&1; then
    echo "compile: skipped: hipcc not found (apt-get install hipcc libamdhip64-dev)" >&2
    echo "compile: 0 passed, 0 failed"
    exit 0
fi
# The installed HIP, e.g. 5.2 (hipconfig prints 5.2.21153-...).
hipv=$(hipconfig --version 2>/dev/null | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
[ -n "$hipv" ] || hipv=5.2
arch=${HIPPORT_OFFLOAD_ARCH:-gfx90a}
NVCC=${NVCC:-$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)}
out=$(mktemp -d "${TMPDIR:-/tmp}/hipport-compile.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM
pass=0
fail=0
jobs=${HIPPORT_COMPILE_JOBS:-$(nproc 2>/dev/null || echo 2)}
# Translate the whole corpus (headers included) into $out/hip.
if ! "$HIPPORT" translate --hip-version "$hipv" "$dir" -O "$out/hip" 2>"$out/translate.err"; then
    cat "$out/translate.err" >&2
fi
# Programs with their own translation options are translated again, alone.
for f in "$dir"/*.cu; do
    hflags=$(sed -n 's|^// hipport-flags: *||p' "$f" | head -1)
    [ -n "$hflags" ] || continue
    "$HIPPORT" translate --hip-version "$hipv" $hflags "$f" -o "$out/hip/$(basename "$f")" \
        2>>"$out/translate.err"
done
compile_one() {
    f=$1
    base=$(basename "$f")
    flags=$(sed -n 's|^// compile-flags: *||p' "$f" | head -1)
    if [ -n "$NVCC" ] && [ -x "$NVCC" ] && [ -z "$HIPPORT_NO_NVCC" ]; then
        nvflags=$(sed -n 's|^// nvcc-flags: *||p' "$f" | head -1)
        if ! "$NVCC" -std=c++17 $nvflags $flags -I"$dir" -c "$f" -o "$out/$base.nv.o" \
            >"$out/$base.nv.log" 2>&1; then
            echo "compile $base: the CUDA original does not compile with nvcc:" >&2
            head -20 "$out/$base.nv.log" >&2
            echo FAIL >"$out/$base.result"
            return
        fi
    fi
    hipflags=$(sed -n 's|^// hipcc-flags: *||p' "$f" | head -1)
    reported=$(grep -c "^// hip-$hipv: reported" "$f")
    if hipcc --offload-arch="$arch" -std=c++17 $hipflags $flags -I"$out/hip" -c "$out/hip/$base" \
        -o "$out/$base.o" >"$out/$base.log" 2>&1; then
        if [ "$reported" != 0 ]; then
            echo "compile $base: marked 'reported' for HIP $hipv, but it compiles" >&2
            echo FAIL >"$out/$base.result"
        else
            echo PASS >"$out/$base.result"
        fi
    elif [ "$reported" != 0 ]; then
        # hipcc's first error, as path:line, and the original file it came from
        loc=$(sed -n "s|^$out/hip/\([^:]*\):\([0-9]*\):[0-9]*: \(fatal \)*error:.*|\1 \2|p" \
            "$out/$base.log" | head -1)
        rel=${loc% *}
        line=${loc#* }
        orig="$dir/$rel"
        if [ -z "$loc" ] || [ ! -f "$orig" ]; then
            echo "compile $base: no error location in hipcc's output" >&2
            echo FAIL >"$out/$base.result"
            return
        fi
        delta=$(( $(wc -l <"$out/hip/$rel") - $(wc -l <"$orig") ))
        oline=$((line - delta))
        if awk -F: -v p="$orig" -v l="$oline" '
            $1 == p && $2 + 0 <= l && $2 + 0 >= l - 3 && $4 ~ /(warning|error)/ { found = 1 }
            END { exit !found }' "$out/translate.err"; then
            echo PASS >"$out/$base.result"
        else
            echo "compile $base: hipcc fails at $rel:$oline (HIP $hipv) and hipport did not" \
                "report it:" >&2
            head -5 "$out/$base.log" >&2
            echo FAIL >"$out/$base.result"
        fi
    else
        echo "compile $base: the translation does not compile with hipcc (HIP $hipv, $arch):" >&2
        head -30 "$out/$base.log" >&2
        echo FAIL >"$out/$base.result"
    fi
}
n=0
for f in "$dir"/*.cu; do
    [ -f "$f" ] || continue
    compile_one "$f" &
    n=$((n + 1))
    if [ $((n % jobs)) = 0 ]; then wait; fi
done
wait
for r in "$out"/*.result; do
    [ -f "$r" ] || continue
    if [ "$(cat "$r")" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "compile: $pass passed, $fail failed (HIP $hipv, $arch)"
[ $fail = 0 ]
