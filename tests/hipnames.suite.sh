#!/bin/sh
# hipnames.suite.sh: every HIP name the tables of data/cuda2hip emit for a target exists in
# that target's real headers. For ROCm 7.2 (the headers of tests/rocm-headers.sh, with
# clang-19's HIP headers for the device functions clang defines) and for HIP 5.2 (Debian 12's
# packages in /usr/include, with the clang of Debian's hipcc), each row of a family whose HIP
# library the set has, whose name the target has (since <= target, not removed by then) and
# which names a HIP identifier, is looked up as an identifier of the set's headers, spelled as
# translation spells it for that target (the legacy spelling below `since`, hipBLAS's _v2 names
# without _v2 from HIP 7.0 on). Names of hipport's own (hipport_compat.h's, HIPPORT_*) are left
# out. Prints
# "hipnames: N passed, N failed" (one check per set and family); a missing set is a failure.
HIPPORT=$1
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/hipport-names.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
pass=0
fail=0

# check SET VERSION FAMILIES DIRS...: the names of FAMILIES for HIP VERSION (major*100+minor)
check() {
    set_name=$1 target=$2 fams=$3
    shift 3
    for d in "$@"; do
        [ -d "$d" ] || { echo "hipnames: $set_name: no $d" >&2; fail=$((fail + 1)); return; }
    done
    find "$@" -type f -exec cat {} + | tr -cs 'A-Za-z0-9_' '\n' | sort -u >"$work/ids"
    files=
    for fam in $fams; do files="$files $root/data/cuda2hip/$fam.tsv"; done
    # one line per family: "family rows missing", then up to five missing names
    awk -F'\t' -v target="$target" '
        function ver(v,   p) { if (v == "-" || v == "") return 0; split(v, p, "."); return p[1] * 100 + p[2] }
        function flush() { if (fam != "") { print "= " fam, n, miss; for (k = 1; k <= miss && k <= 5; k++) print "  " shown[k] } }
        FNR == NR { ids[$0] = 1; next }
        FNR == 1 { flush(); fam = FILENAME; sub(/.*\//, "", fam); sub(/\.tsv$/, "", fam); n = miss = 0 }
        /^#/ || NF < 9 { next }
        {
            hip = $2; kind = $3; since = ver($4); removed = ver($6); legacy = $7; flags = $9
            if (hip == "-" || kind == "header" || kind == "ns" || kind == "member") next
            if (flags ~ /(^|,)pytorch(,|$)/ || hip ~ /^(hipport_|HIPPORT_)/ || hip ~ /^[0-9]/) next
            if (removed && removed <= target) next
            if (since > target) {
                if (legacy == "-" || legacy ~ /^hipport_/) next
                hip = legacy
            }
            if (flags ~ /(^|,)v2(,|$)/ && target >= 700) sub(/_v2/, "", hip)
            sub(/::.*$/, "", hip); sub(/[^A-Za-z0-9_].*$/, "", hip)
            n++
            if (!(hip in ids)) shown[++miss] = $1 " -> " hip
        }
        END { flush() }' "$work/ids" $files >"$work/out"
    while read -r mark fam n miss; do
        [ "$mark" = "=" ] || continue
        if [ "$miss" = 0 ]; then
            pass=$((pass + 1))
        else
            echo "hipnames: $set_name, $fam: $miss of $n HIP names are not in the headers:" >&2
            awk -v f="$fam" '$1 == "=" { on = ($2 == f); next } on' "$work/out" >&2
            fail=$((fail + 1))
        fi
    done <"$work/out"
}

set72=$root/build/rocm-7.2
if sh "$root/tests/rocm-headers.sh" "$set72" >/dev/null 2>"$work/err"; then
    check rocm-7.2 702 "runtime driver device complex nvrtc cublas curand cufft cusparse cub lowp" \
        "$set72/include" /usr/lib/llvm-19/lib/clang/19/include
else
    echo "hipnames: rocm-7.2: $(cat "$work/err")" >&2
    fail=$((fail + 1))
fi
clang52=$(ls -d /usr/lib/llvm-15/lib/clang/15*/include 2>/dev/null | head -n 1)
if [ -f /usr/include/hip/hip_version.h ] && [ -n "$clang52" ]; then
    check hip-5.2 502 "runtime driver device complex curand cusparse lowp" \
        /usr/include/hip /usr/include/hiprand /usr/include/rocrand /usr/include/hipsparse "$clang52"
else
    echo "hipnames: hip-5.2: Debian 12's HIP headers or hipcc's clang are missing (apt-get install hipcc libamdhip64-dev)" >&2
    fail=$((fail + 1))
fi
echo "hipnames: $pass passed, $fail failed"
[ $fail = 0 ]
