#!/bin/sh
# progress.suite.sh: the progress line. On a terminal (a pseudo-terminal from script(1)) a run
# over a tree shows "N files, X MB, Y MB/s" on standard error and clears it at the end; off a
# terminal, with HIPPORT_NO_PROGRESS, or when the output is standard output, nothing is shown.
# HIPPORT_PROGRESS_AFTER=0 shows it from the first file, so that a short run can be tested.
# Prints "progress: N passed, N failed".
HIPPORT=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/hipport-progress.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "progress: $1" >&2; fail=$((fail + 1)); }
if ! command -v script >/dev/null 2>&1; then
    echo "progress: script(1) not found, the terminal cases are not run" >&2
    echo "progress: 0 passed, 0 failed"
    exit 0
fi
mkdir -p "$work/tree/sub"
for i in 1 2 3 4 5 6; do
    printf '__global__ void k%s(float *x) { cudaDeviceSynchronize(); }\n' "$i" \
        >"$work/tree/sub/k$i.cu"
done
export HIPPORT_PROGRESS_AFTER=0
unset HIPPORT_NO_PROGRESS
esc=$(printf '\033')

# 1. off a terminal: nothing
"$HIPPORT" translate -j 1 -O "$work/plain" "$work/tree" 2>"$work/plain.err"
if grep -q 'MB/s' "$work/plain.err" || grep -q "$esc" "$work/plain.err"; then
    bad "a progress line off a terminal"
else
    ok
fi

# 2. on a terminal: the line, then cleared; the outputs are the same
script -qec "'$HIPPORT' translate -j 1 -O '$work/tty' '$work/tree'" /dev/null \
    >"$work/tty.log" 2>&1
if grep -q '[0-9] files, [0-9.]* MB, ' "$work/tty.log" && grep -q 'MB/s' "$work/tty.log" &&
    grep -q "$esc\\[K" "$work/tty.log"; then
    ok
else
    bad "no progress line on a terminal:"
    od -c "$work/tty.log" | head -10 >&2
fi
if diff -r "$work/plain" "$work/tty" >/dev/null 2>&1; then ok; else bad "outputs differ"; fi

# 3. HIPPORT_NO_PROGRESS on a terminal: nothing
HIPPORT_NO_PROGRESS=1 script -qec "'$HIPPORT' translate -j 1 -O '$work/np' '$work/tree'" \
    /dev/null >"$work/np.log" 2>&1
if grep -q 'MB/s' "$work/np.log"; then bad "HIPPORT_NO_PROGRESS ignored"; else ok; fi

# 4. check shows it too
script -qec "'$HIPPORT' check -j 2 --format json '$work/tree' >'$work/report.json'" \
    /dev/null >"$work/check.log" 2>&1
if grep -q 'files, ' "$work/check.log" && grep -q 'MB/s' "$work/check.log"; then
    ok
else
    bad "check shows no progress on a terminal"
fi

# 5. a translation to standard output shows none (it would mix with the code)
script -qec "'$HIPPORT' translate '$work/tree/sub/k1.cu'" /dev/null >"$work/stdout.log" 2>&1
if grep -q 'MB/s' "$work/stdout.log"; then bad "progress mixed with standard output"; else ok; fi
if grep -q 'hipDeviceSynchronize' "$work/stdout.log"; then ok; else bad "no translation"; fi

echo "progress: $pass passed, $fail failed"
[ $fail = 0 ]
