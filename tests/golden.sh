#!/bin/sh
# golden.sh: runs the CLI cases of tests/golden. Each case is a directory with
#   cmd            one shell command line; $HIPPORT is the binary under test; it runs in a
#                  scratch copy of the case directory (input files are whatever else is there)
#   expected.out   standard output
#   expected.err   standard error (optional: not compared when absent)
#   expected.rc    exit status (optional: 0)
#   post           optional shell commands run after cmd in the same directory; their output
#                  is compared with expected.post
#   fixtures       optional: inputs shared by several cases, one per line, "NAME [DEST]":
#                  tests/golden/_fixtures/NAME (a file or a directory) is copied to DEST
#                  (default NAME) in the scratch copy before cmd runs
# UPDATE=1 rewrites the expected files from what the command does now.
# Prints "golden: N passed, N failed".
HIPPORT=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
export HIPPORT
root=$(cd "$(dirname "$0")" && pwd)/golden
scratch=$(mktemp -d "${TMPDIR:-/tmp}/hipport-golden.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
pass=0
fail=0
for case in "$root"/*/; do
    case=${case%/}
    name=$(basename "$case")
    [ -f "$case/cmd" ] || continue
    if [ -n "$2" ] && [ "$name" != "$2" ]; then continue; fi
    work="$scratch/$name"
    mkdir -p "$work"
    (cd "$case" && tar cf - --exclude=expected.out --exclude=expected.err --exclude=expected.rc \
        --exclude=expected.post --exclude=cmd --exclude=post --exclude=fixtures .) |
        (cd "$work" && tar xf -)
    if [ -f "$case/fixtures" ]; then
        while read -r fx dest || [ -n "$fx" ]; do
            [ -n "$fx" ] || continue
            dest=${dest:-$fx}
            mkdir -p "$work/$(dirname "$dest")"
            cp -R "$root/_fixtures/$fx" "$work/$dest"
        done <"$case/fixtures"
    fi
    (cd "$work" && HIPPORT_NO_PROGRESS=1 NO_COLOR=1 sh "$case/cmd" >"$scratch/$name.out" \
        2>"$scratch/$name.err")
    rc=$?
    if [ -f "$case/post" ]; then
        (cd "$work" && sh "$case/post" >"$scratch/$name.post" 2>&1)
    fi
    if [ -n "$UPDATE" ]; then
        cp "$scratch/$name.out" "$case/expected.out"
        cp "$scratch/$name.err" "$case/expected.err"
        echo "$rc" >"$case/expected.rc"
        [ -f "$case/post" ] && cp "$scratch/$name.post" "$case/expected.post"
    fi
    ok=1
    want_rc=0
    [ -f "$case/expected.rc" ] && want_rc=$(cat "$case/expected.rc")
    if [ "$rc" != "$want_rc" ]; then
        echo "golden $name: exit status $rc, expected $want_rc" >&2
        ok=0
    fi
    if ! diff -u "$case/expected.out" "$scratch/$name.out" >&2; then
        echo "golden $name: standard output differs" >&2
        ok=0
    fi
    if [ -f "$case/expected.err" ] && ! diff -u "$case/expected.err" "$scratch/$name.err" >&2; then
        echo "golden $name: standard error differs" >&2
        ok=0
    fi
    if [ -f "$case/post" ] && ! diff -u "$case/expected.post" "$scratch/$name.post" >&2; then
        echo "golden $name: post-check output differs" >&2
        ok=0
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "golden: $pass passed, $fail failed"
[ $fail = 0 ]
