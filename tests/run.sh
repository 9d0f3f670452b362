#!/bin/sh
# run.sh: runs every test suite against the build directory $1 and ends with the line
# "N passed, N failed" (the sums over all suites). A suite that exits non-zero without
# reporting a failure counts as one failure. Temporary files go to a directory of the run's
# own, removed at the end.
B=${1:-build}
cd "$(dirname "$0")/.." || exit 4
# Every suite, and every compiler a suite runs, gets this run's own temporary directory:
# hipcc and clang leave empty directories and files in $TMPDIR after each compilation, which
# would otherwise pile up in /tmp by the thousand.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hipport-tests.XXXXXX") || exit 4
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 130' INT TERM
TMPDIR=$tmp
export TMPDIR
log=$tmp/log
one=$tmp/suite
: >"$log"
run() {
    name=$1
    shift
    "$@" >"$one"
    rc=$?
    cat "$one"
    cat "$one" >>"$log"
    if [ $rc != 0 ] && ! grep -Eq '^[a-z0-9_.-]+: [0-9]+ passed, [1-9][0-9]* failed' "$one"; then
        echo "$name: 0 passed, 1 failed (exit status $rc)" | tee -a "$log"
    fi
}
run unit "$B/unit"
run spec "$B/spec" tests/spec
run golden sh tests/golden.sh "$B/hipport"
if [ -z "$SKIP_COMPILE" ]; then
    run compile sh tests/compile.sh "$B/hipport"
else
    echo "compile: skipped (SKIP_COMPILE is set)"
fi
for f in tests/*.suite.sh; do
    [ -f "$f" ] && run "$(basename "$f" .suite.sh)" sh "$f" "$B/hipport"
done
awk '/^[a-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed/ { p += $2; f += $4 }
     END { printf "%d passed, %d failed\n", p, f; exit f > 0 }' "$log"
