#!/bin/sh
# pytorch.suite.sh: the PyTorch extension projects of tests/pytorch/, hipified with
# "hipport hipify-python" for both PyTorch generations, and proven:
#   - every #include of a translated file resolves (next to it, in the project's include
#     directories, in the stand-ins for PyTorch's headers, or among the system's headers);
#   - no CUDA name that the tables map is left in code (build/residue greps with the tables);
#   - bytes that are not UTF-8 (a Latin-1 header) come out as they went in;
#   - a second run changes nothing, in a separate output directory and in the project itself
#     (as CUDAExtension runs it), and translating an output again changes nothing;
#   - where hipcc is installed (and SKIP_COMPILE is unset), each translated compilation unit
#     compiles against the stand-ins of its generation (tests/pytorch/stubs) and not against
#     the other generation's.
# A project may hold hipify.args: more hipify-python options (its include directories).
# Prints "pytorch: N passed, N failed".
HIPPORT=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
RESIDUE=$(dirname "$HIPPORT")/residue
root=$(cd "$(dirname "$0")" && pwd)/pytorch
stubs=$root/stubs
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hipport-pytorch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    echo "pytorch $1" >&2
    fail=$((fail + 1))
}
compile=
if [ -z "$SKIP_COMPILE" ] && command -v hipcc >/dev/null 2>&1; then
    compile=1
    hipv=$(hipconfig --version 2>/dev/null | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
fi
[ -n "$hipv" ] || hipv=6.2

# Does the include "$2" (quoted when $3 is q) of file $1 resolve? $4: include directories.
resolves() {
    f=$1 inc=$2 kind=$3 dirs=$4
    [ "$kind" = q ] && [ -f "$(dirname "$f")/$inc" ] && return 0
    for d in $dirs "$stubs/common" "$stubs/$mode" /usr/include; do
        [ -f "$d/$inc" ] && return 0
    done
    case $inc in
    */* | *.*) ;;
    *) return 0 ;; # a C++ standard header
    esac
    case $inc in
    hip/*) [ -z "$compile" ] && return 0 ;; # HIP is not installed: its headers are assumed
    esac
    return 1
}

for proj in "$root"/*/; do
    proj=${proj%/}
    name=$(basename "$proj")
    [ "$name" = stubs ] && continue
    args=
    [ -f "$proj/hipify.args" ] && args=$(cat "$proj/hipify.args")
    incdirs=$(echo "$args" | sed -n 's/.*--header-include-dirs \([^ ]*\).*/\1/p')
    for mode in v2 masquerade; do
        t=$tmp/$name-$mode
        mkdir -p "$t"
        cp -R "$proj" "$t/proj"
        out=$t/out
        # shellcheck disable=SC2086
        if ! "$HIPPORT" hipify-python -p "$t/proj" --output-directory "$out" $args \
            --pytorch=$mode --hip-version "$hipv" >"$t/run1" 2>"$t/err1"; then
            bad "$name $mode: hipify-python failed"
            cat "$t/err1" >&2
            continue
        fi
        ok
        # the outputs of the run, from its progress lines
        sed -n 's/^.* -> \(.*\) \[[^]]*\]$/\1/p' "$t/run1" >"$t/outputs"
        [ -s "$t/outputs" ] && ok || bad "$name $mode: no outputs reported"
        dirs=
        for d in $incdirs; do dirs="$dirs $out/$d"; done
        missing=0
        while read -r f; do
            sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/q \1/p; s/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/a \1/p' "$f" >"$t/incs"
            while read -r kind inc; do
                if ! resolves "$f" "$inc" "$kind" "$dirs"; then
                    echo "pytorch $name $mode: $f: #include '$inc' does not resolve" >&2
                    missing=1
                fi
            done <"$t/incs"
        done <"$t/outputs"
        [ $missing = 0 ] && ok || bad "$name $mode: includes that do not resolve"
        # shellcheck disable=SC2046
        if "$RESIDUE" --pytorch=$mode $(cat "$t/outputs") >"$t/residue"; then
            ok
        else
            bad "$name $mode: CUDA names left in the output:"
            cat "$t/residue" >&2
        fi
        # Latin-1 bytes kept
        for f in $(grep -l "$(printf '\351')" $(find "$proj" -type f) 2>/dev/null); do
            rel=${f#"$proj"/}
            hip=$(grep -F -- "/$rel -> " "$t/run1" | sed -n 's/^.* -> \(.*\) \[[^]]*\]$/\1/p')
            if [ -n "$hip" ] && [ "$(LC_ALL=C grep -c "$(printf '\351')" "$f")" = \
                "$(LC_ALL=C grep -c "$(printf '\351')" "$hip")" ]; then
                ok
            else
                bad "$name $mode: the bytes of $rel were not kept"
            fi
        done
        # a second run writes nothing
        # shellcheck disable=SC2086
        "$HIPPORT" hipify-python -p "$t/proj" --output-directory "$out" $args --pytorch=$mode \
            --hip-version "$hipv" >"$t/run2" 2>/dev/null
        if grep -q '\[ok\]$' "$t/run2"; then
            bad "$name $mode: the second run wrote files:"
            grep '\[ok\]$' "$t/run2" >&2
        else
            ok
        fi
        # translating an output again changes nothing
        same=1
        while read -r f; do
            "$HIPPORT" translate --pytorch=$mode --hip-version "$hipv" -q "$f" >"$t/again" 2>/dev/null
            if ! cmp -s "$t/again" "$f"; then
                echo "pytorch $name $mode: translating $f again changes it" >&2
                same=0
            fi
        done <"$t/outputs"
        [ $same = 1 ] && ok || bad "$name $mode: outputs change when translated again"
        # in the project itself, as CUDAExtension runs it: a second run writes nothing
        cp -R "$proj" "$t/inplace"
        # shellcheck disable=SC2086
        "$HIPPORT" hipify-python -p "$t/inplace" --output-directory "$t/inplace" $args \
            --pytorch=$mode --hip-version "$hipv" -q
        before=$(cd "$t/inplace" && find . -type f | sort | cksum)
        # shellcheck disable=SC2086
        "$HIPPORT" hipify-python -p "$t/inplace" --output-directory "$t/inplace" $args \
            --pytorch=$mode --hip-version "$hipv" >"$t/run3" 2>/dev/null
        after=$(cd "$t/inplace" && find . -type f | sort | cksum)
        if [ "$before" = "$after" ] && ! grep -q '\[ok\]$' "$t/run3"; then
            ok
        else
            bad "$name $mode: a second run in the project changed it"
        fi
        [ -n "$compile" ] || continue
        other=masquerade
        [ $mode = masquerade ] && other=v2
        incs=
        for d in $dirs; do incs="$incs -I$d"; done
        while read -r f; do
            case $f in
            *.hip | *.cpp | *.cc | *.cu) ;;
            *) continue ;;
            esac
            # shellcheck disable=SC2086
            if hipcc -x hip -std=c++17 --offload-arch=gfx90a -fsyntax-only -w \
                -I"$stubs/common" -I"$stubs/$mode" $incs "$f" >"$t/cc.log" 2>&1; then
                ok
            else
                bad "$name $mode: $f does not compile with PyTorch's $mode headers:"
                grep error "$t/cc.log" | head -5 >&2
            fi
            # shellcheck disable=SC2086
            if grep -q 'include <\(ATen\|c10\)/' "$f" &&
                hipcc -x hip -std=c++17 --offload-arch=gfx90a -fsyntax-only -w \
                    -I"$stubs/common" -I"$stubs/$other" $incs "$f" >/dev/null 2>&1; then
                bad "$name $mode: $f also compiles with the $other headers (stand-ins too loose)"
            fi
        done <"$t/outputs"
    done
done
[ -n "$compile" ] || echo "pytorch: compile checks skipped (hipcc not found or SKIP_COMPILE set)" >&2
echo "pytorch: $pass passed, $fail failed"
[ $fail = 0 ]
