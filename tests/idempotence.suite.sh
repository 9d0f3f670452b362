#!/bin/sh
# idempotence.suite.sh: translating a translation changes nothing. The compile corpus and the
# examples are translated for several HIP versions, with and without --launch=ggl and
# --annotate; each output tree is translated again with the same options and must come back
# byte for byte. Prints "idempotence: N passed, N failed".
HIPPORT=$1
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/hipport-idem.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
pass=0
fail=0
n=0
for opts in "--hip-version 5.2" "--hip-version 6.2" "" "--launch=ggl" "--annotate" \
    "--hip-version 5.2 --launch=ggl --annotate" "--roc"; do
    n=$((n + 1))
    for src in "$root/tests/compile" "$root/examples"; do
        name=$(basename "$src")
        "$HIPPORT" translate -q $opts "$src" -O "$work/$n-$name-1" 2>/dev/null
        "$HIPPORT" translate -q $opts "$work/$n-$name-1" -O "$work/$n-$name-2" 2>/dev/null
        if diff -r "$work/$n-$name-1" "$work/$n-$name-2" >"$work/diff" 2>&1; then
            pass=$((pass + 1))
        else
            echo "idempotence: translating $name again with '$opts' changes it:" >&2
            head -20 "$work/diff" >&2
            fail=$((fail + 1))
        fi
    done
done
echo "idempotence: $pass passed, $fail failed"
[ $fail = 0 ]
