#!/bin/sh
# seeds.sh: writes a seed corpus for the fuzzers into DIR from the inputs of the spec examples
# and the compile corpus. Each seed starts with an options byte (see the fuzz targets).
# usage: tests/fuzz/seeds.sh DIR
dir=${1:?usage: seeds.sh DIR}
mkdir -p "$dir"
root=$(cd "$(dirname "$0")/../.." && pwd)
n=0
for f in "$root"/tests/spec/*.md; do
    awk -v dir="$dir" -v base="$(basename "$f" .md)" '
        /^````````````````````````````````( example.*)?$/ {
            if ($0 ~ / example/) { inex = 1; part = 0; k++; out = dir "/" base "-" k; printf "%c", 0 > out; next }
            inex = 0; close(out); next
        }
        inex && $0 == "." { part++; next }
        inex && part == 0 { print >> out }
    ' "$f"
done
for f in "$root"/tests/compile/*.cu "$root"/tests/compile/*.cuh "$root"/examples/*.cu; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    { printf '\001'; cat "$f"; } >"$dir/compile-$n"
done
