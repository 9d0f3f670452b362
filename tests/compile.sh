#!/bin/sh
# compile.sh HIPPORT [SET...]: the compile proof. Every CUDA program in tests/compile/ is
# translated with hipport for the HIP of a header set and the translation is compiled for AMD
# GPUs against that set. The sets (default: both):
#   hip-5.2    Debian 12's hipcc and HIP 5.2 (hipcc --offload-arch=gfx90a -c);
#   rocm-7.2   ROCm 7.2's headers from Debian's experimental suite, fetched into
#              build/rocm-7.2 by tests/rocm-headers.sh (nothing installed), compiled with
#              Debian 12's clang++-19 for gfx942: the device side through the whole backend to
#              ISA assembly, assembled into an AMDGPU object (a device link would need ROCm's
#              device libraries), the host side to an object. Every HIP or ROCm header the
#              compiler read must come from the set (checked in its dependency files). The
#              programs of tests/compile/needs-lib/ (hipBLAS, hipCUB, rocThrust, hipFFT, which
#              Debian 12 lacks) are compiled too.
# A program may name extra compiler flags in a line "// compile-flags: ..." (all compilers),
# "// nvcc-flags: ..." (nvcc only) or "// hipcc-flags: ..." (the HIP compilers only), and
# translation options in a line "// hipport-flags: ..." (for example --roc).
# Where nvcc is installed, the original is first compiled as CUDA (proof that it is valid).
#
# A program that uses what the set's HIP lacks says so in a line "// hip-X.Y: reported"
# (X.Y: the set's HIP, 5.2 or 7.2). For it the test passes when the compiler rejects the
# translation and hipport had reported the cause: a warning or error of the translation on the
# line of the first error, or on one of the three lines above it (lines are mapped back to the
# original through the number of lines translation added above them, at the top of the file).
# Prints "compile-SET: N passed, N failed" per set. A set whose compiler or headers are
# missing is one failure with the reason, not a skip.
HIPPORT=$1
shift
[ $# -gt 0 ] || set -- hip-5.2 rocm-7.2
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/tests/compile
NVCC=${NVCC:-$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)}
[ -z "$HIPPORT_NO_NVCC" ] || NVCC=
out=$(mktemp -d "${TMPDIR:-/tmp}/hipport-compile.XXXXXX")
# HIPPORT_COMPILE_KEEP=1 keeps the translations and the compilers' logs (the folder is named)
if [ -n "$HIPPORT_COMPILE_KEEP" ]; then
    trap 'echo "compile.sh: kept $out" >&2' EXIT
else
    trap 'rm -rf "$out"' EXIT INT TERM
fi
jobs=${HIPPORT_COMPILE_JOBS:-$(nproc 2>/dev/null || echo 2)}
flag() { sed -n "s|^// $1-flags: *||p" "$2" | head -1; }

# The CUDA originals, once for every set (only where nvcc is installed).
nvcc_one() {
    f=$1
    key=$(echo "${f#$dir/}" | tr / _)
    if ! "$NVCC" -std=c++17 $(flag nvcc "$f") $(flag compile "$f") -I"$dir" -c "$f" \
        -o "$out/nv/$key.o" >"$out/nv/$key.log" 2>&1; then
        echo "compile ${f#$dir/}: the CUDA original does not compile with nvcc:" >&2
        head -20 "$out/nv/$key.log" >&2
        echo FAIL >"$out/nv/$key.result"
    fi
}
mkdir -p "$out/nv"
if [ -n "$NVCC" ] && [ -x "$NVCC" ]; then
    n=0
    for f in "$dir"/*.cu "$dir"/needs-lib/*.cu; do
        [ -f "$f" ] || continue
        nvcc_one "$f" &
        n=$((n + 1))
        [ $((n % jobs)) != 0 ] || wait
    done
    wait
fi

# hip-5.2: hipcc FILE. Sets $build to the command that compiles one translation.
set_hip52() {
    command -v hipcc >/dev/null 2>&1 || { why="hipcc not found (apt-get install hipcc libamdhip64-dev)"; return 1; }
    hipv=$(hipconfig --version 2>/dev/null | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
    [ "$hipv" = 5.2 ] || { why="hipcc is HIP ${hipv:-of unknown version}, not 5.2"; return 1; }
    arch=${HIPPORT_OFFLOAD_ARCH:-gfx90a}
    desc="HIP 5.2, hipcc, $arch"
    progs="$dir/*.cu"
}
build_hip52() {  # build_hip52 SRC OBJBASE FLAGS...
    src=$1 o=$2
    shift 2
    hipcc --offload-arch="$arch" -std=c++17 "$@" -c "$src" -o "$o.o"
}

# rocm-7.2: clang++-19 against build/rocm-7.2.
set_rocm72() {
    CLANG=${CLANG:-clang++-19}
    command -v "$CLANG" >/dev/null 2>&1 || { why="$CLANG not found (apt-get install clang-19 lld-19 libomp-19-dev)"; return 1; }
    rset=${HIPPORT_ROCM_SET:-$top/build/rocm-7.2}
    full=$(sh "$top/tests/rocm-headers.sh" "$rset" 2>"$out/rocm-headers.err") ||
        { why=$(cat "$out/rocm-headers.err"); return 1; }
    hipv=${full%.*}
    arch=gfx942
    desc="HIP $full, ROCm 7.2 headers of Debian experimental, $CLANG, $arch"
    progs="$dir/*.cu $dir/needs-lib/*.cu"
}
build_rocm72() {  # build_rocm72 SRC OBJBASE FLAGS...
    src=$1 o=$2
    shift 2
    # --rocm-path: clang takes the HIP version from the set and pre-includes its HIP wrapper;
    # -isystem puts the set before /usr/include, where Debian 12's HIP 5.2 is; -nogpulib: no
    # device libraries (Debian 12 has none for gfx942)
    set -- -x hip --offload-arch="$arch" --rocm-path="$rset" -nogpulib -isystem "$rset/include" \
        -std=c++17 -O1 "$@"
    "$CLANG" "$@" --cuda-device-only -S "$src" -o "$o.s" -MD -MF "$o.dev.d" || return 1
    "$CLANG" --target=amdgcn-amd-amdhsa -mcpu="$arch" -c -x assembler "$o.s" -o "$o.dev.o" ||
        { echo "$src: the device assembly does not assemble for $arch"; return 1; }
    "$CLANG" "$@" --cuda-host-only -c "$src" -o "$o.host.o" -MD -MF "$o.host.d" || return 1
    leak=$(cat "$o.dev.d" "$o.host.d" | tr ' \\' '\n\n' | grep -v "^$rset/" |
        grep -E '^(/usr(/local)?/include|/opt/rocm[^/]*)/(hip|roc|hipcub|hipblas|hipfft|hiprand|hipsparse|thrust|hsa|cub)' |
        sort -u | head -3)
    [ -z "$leak" ] || { echo "$src: headers from outside $rset were used: $leak"; return 1; }
}

# compile_one SET F: compiles the translation of F; writes PASS or FAIL to its result file.
compile_one() {
    s=$1 f=$2
    rel=${f#$dir/}
    key=$(echo "$rel" | tr / _)
    res=$out/$s/$key
    if [ -f "$out/nv/$key.result" ]; then echo FAIL >"$res.result"; return; fi
    reported=$(grep -c "^// hip-$hipv: reported" "$f")
    if $build "$out/$s/hip/$rel" "$res" $(flag hipcc "$f") $(flag compile "$f") -I"$out/$s/hip" \
        >"$res.log" 2>&1; then
        if [ "$reported" != 0 ]; then
            echo "compile-$s $rel: marked 'reported' for HIP $hipv, but it compiles" >&2
            echo FAIL >"$res.result"
        else
            echo PASS >"$res.result"
        fi
        return
    fi
    if [ "$reported" = 0 ]; then
        echo "compile-$s $rel: the translation does not compile ($desc):" >&2
        grep -E 'error|warning: .*HP-' "$res.log" | head -10 >&2
        echo FAIL >"$res.result"
        return
    fi
    # the first error, as path:line, and the original file it came from; an error inside a
    # HIP header is placed at the first line of the translation named after it (the template
    # instantiation "requested here", the include that led there)
    loc=$(awk -v p="$out/$s/hip/" '
        / (fatal )?error: / { seen = 1 }
        seen && index($0, p) == 1 && match($0, /:[0-9]+:[0-9]+: /) {
            f = substr($0, length(p) + 1, RSTART - length(p) - 1)
            l = substr($0, RSTART + 1); sub(/:.*/, "", l)
            print f, l; exit
        }' "$res.log")
    erel=${loc% *}
    line=${loc#* }
    orig=$dir/$erel
    if [ -z "$loc" ] || [ ! -f "$orig" ]; then
        echo "compile-$s $rel: no error location in the compiler's output:" >&2
        grep error "$res.log" | head -3 >&2
        echo FAIL >"$res.result"
        return
    fi
    delta=$(($(wc -l <"$out/$s/hip/$erel") - $(wc -l <"$orig")))
    oline=$((line - delta))
    if awk -F: -v p="$orig" -v l="$oline" '
        $1 == p && $2 + 0 <= l && $2 + 0 >= l - 3 && $4 ~ /(warning|error)/ { found = 1 }
        END { exit !found }' "$out/$s/translate.err"; then
        echo PASS >"$res.result"
    else
        echo "compile-$s $rel: fails at $erel:$oline (HIP $hipv) and hipport did not report it:" >&2
        grep error "$res.log" | head -5 >&2
        echo FAIL >"$res.result"
    fi
}

status=0
for s in "$@"; do
    case $s in
    hip-5.2) setup=set_hip52 build=build_hip52 ;;
    rocm-7.2) setup=set_rocm72 build=build_rocm72 ;;
    *) echo "compile.sh: unknown set $s (hip-5.2, rocm-7.2)" >&2; exit 2 ;;
    esac
    why=
    if ! $setup; then
        echo "compile-$s: cannot run: $why" >&2
        echo "compile-$s: 0 passed, 1 failed (set-up)"
        status=1
        continue
    fi
    mkdir -p "$out/$s"
    # The whole corpus (headers included) is translated at once, for the set's HIP.
    "$HIPPORT" translate --hip-version "$hipv" "$dir" -O "$out/$s/hip" 2>"$out/$s/translate.err" ||
        cat "$out/$s/translate.err" >&2
    # Programs with their own translation options are translated again, alone.
    for f in $progs; do
        hflags=$(flag hipport "$f")
        [ -n "$hflags" ] || continue
        "$HIPPORT" translate --hip-version "$hipv" $hflags "$f" -o "$out/$s/hip/${f#$dir/}" -f \
            2>>"$out/$s/translate.err"
    done
    n=0
    for f in $progs; do
        [ -f "$f" ] || continue
        compile_one "$s" "$f" &
        n=$((n + 1))
        [ $((n % jobs)) != 0 ] || wait
    done
    wait
    pass=$(cat "$out/$s"/*.result | grep -c PASS)
    fail=$(cat "$out/$s"/*.result | grep -vc PASS)
    echo "compile-$s: $pass passed, $fail failed ($desc)"
    [ "$fail" = 0 ] || status=1
done
exit $status
