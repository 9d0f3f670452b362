#!/bin/sh
# jobs.sh: translate and check over each tree at several worker counts beside cp -r of the same
# tree, one run of each in turn, and the median of RUNS runs of each (seconds of wall time).
#
#   sh bench/jobs.sh HIPPORT TREE...        JOBS="8 12 16" RUNS=7 BENCH_TMP=/dev/shm
#
# The outputs go to a directory of its own under BENCH_TMP (default /dev/shm where writable,
# else /tmp), removed at the end; a line per tree, command and worker count.
H=${1:?usage: sh bench/jobs.sh HIPPORT TREE...}
shift
JOBS=${JOBS:-8 12 14 16}
RUNS=${RUNS:-7}
if [ -z "${BENCH_TMP:-}" ]; then
    BENCH_TMP=/tmp
    [ -d /dev/shm ] && [ -w /dev/shm ] && BENCH_TMP=/dev/shm
fi
D=$(mktemp -d "$BENCH_TMP/hipport-jobs.XXXXXX") || exit 2
trap 'rm -rf "$D"' EXIT INT TERM
med() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }
for T in "$@"; do
    : >"$D/times"
    r=0
    while [ "$r" -lt "$RUNS" ]; do
        r=$((r + 1))
        for j in $JOBS cp; do
            for c in translate check; do
                [ "$j" = cp ] && [ "$c" = check ] && continue
                rm -rf "$D/o"
                s=$(now)
                if [ "$j" = cp ]; then
                    cp -r "$T" "$D/o"
                    c=cp
                elif [ "$c" = translate ]; then
                    "$H" translate "$T" -O "$D/o" -q -j "$j" >/dev/null 2>&1
                else
                    "$H" check "$T" --format json -j "$j" >/dev/null 2>&1
                fi
                e=$(now)
                echo "$c -j$j $(awk "BEGIN{print $e - $s}")" >>"$D/times"
            done
        done
    done
    cpm=$(grep '^cp ' "$D/times" | cut -d' ' -f3 | med)
    for k in $(cut -d' ' -f1,2 "$D/times" | sort -u | tr ' ' ':'); do
        m=$(grep "^$(echo "$k" | tr ':' ' ') " "$D/times" | cut -d' ' -f3 | med)
        printf '%s %s %.4f s %.2fx cp -r\n' "$(basename "$T")" "$(echo "$k" | tr ':' ' ')" "$m" \
            "$(awk "BEGIN{print $m / $cpm}")"
    done
done
