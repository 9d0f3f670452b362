#!/bin/sh
# scaling.sh: how each per-file pass grows with its input. Writes the scaling classes
# (bench/gen-classes.sh) at sizes 1x, 2x and 4x, runs hipport translate and check on each file
# at each size, and prints per class and command the cost at each size and the exponent
# log(c4/c1)/log(4): 1 for linear work, 2 for quadratic. The target is at most 1.1.
#
#   sh bench/scaling.sh [HIPPORT]           default build/hipport
#
# Environment:
#   VALGRIND=1       count instructions with callgrind (exact and repeatable, unlike times on a
#                    shared machine; the default where valgrind is installed); VALGRIND=0 times
#                    the runs instead (user+sys, for builds whose 4x runs take minutes under
#                    callgrind)
#   RUNS=3           runs per case when timing (the least user+sys time is kept)
#   BENCH_DIR=bench/out   where the class files and the results go
#   CLASSES="..."    only these classes (default: all of gen-classes.sh)
# The table goes to standard output and to $BENCH_DIR/scaling.md; the exit status is 0 even
# when a class is over the target (this is a measurement, not a test).
set -u
HIPPORT=${1:-build/hipport}
cd "$(dirname "$0")/.." || exit 2
case $HIPPORT in /*) ;; *) HIPPORT=$(pwd)/$HIPPORT ;; esac
[ -x "$HIPPORT" ] || { echo "scaling.sh: no hipport at '$HIPPORT' (run make)" >&2; exit 2; }
RUNS=${RUNS:-3}
D=${BENCH_DIR:-bench/out}
CC=${CC:-cc}
mkdir -p "$D" || exit 2
D=$(cd "$D" && pwd)
if [ ! -x "$D/measure" ] || [ bench/measure.c -nt "$D/measure" ]; then
    $CC -std=c11 -O2 -Wall -Wextra -o "$D/measure" bench/measure.c || exit 2
fi
gen_sum=$(cksum < bench/gen-classes.sh | cut -d' ' -f1)
for k in 1 2 4; do
    C=$D/classes-$k
    if [ ! -f "$C/.done" ] || [ "$(cat "$C/.done")" != "$gen_sum" ]; then
        rm -rf "$C"
        sh bench/gen-classes.sh "$C" "$k" || exit 2
        echo "$gen_sum" > "$C/.done"
    fi
done
# class: the file hipport is given (translate of glheader takes the .cu that includes glext.h)
files="defines.cu glheader/draw.cu glheader/glext.h launches.cu tileshfl.cu decls.h configs.py python.py pyline.py
pyelif.py pyimport.py pysetup/setup.py"
if [ -z "${VALGRIND:-}" ]; then
    VALGRIND=0
    command -v valgrind >/dev/null 2>&1 && VALGRIND=1
fi
unit=s
[ "$VALGRIND" = 1 ] && unit=Minstr

cost() { # the least cost of RUNS runs of the command
    if [ "$VALGRIND" = 1 ]; then
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
            awk '/Collected :/ { printf "%.1f\n", $NF / 1e6 }' | tail -1
        return
    fi
    r=0 best=
    while [ "$r" -lt "$RUNS" ]; do
        r=$((r + 1))
        line=$("$D/measure" -- "$@" 2>&1 >/dev/null | tail -1)
        c=$(printf '%s\n' "$line" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "=");
            v[kv[1]] = kv[2] } printf "%.4f\n", v["user"] + v["sys"] }')
        best=$(awk -v a="$best" -v b="$c" 'BEGIN { print (a == "" || b < a) ? b : a }')
    done
    echo "$best"
}

{
    echo "| class file | command | bytes 1x | $unit 1x | $unit 2x | $unit 4x | exponent |"
    echo "|---|---|---:|---:|---:|---:|---:|"
    for f in $files; do
        case " ${CLASSES:-all} " in *" all "*) ;; *" ${f%%[./]*} "*) ;; *) continue ;; esac
        for cmd in translate check; do
            case $cmd in
                translate) set -- translate -q ;;
                check) set -- check --format json ;;
            esac
            c1=$(cost "$HIPPORT" "$@" "$D/classes-1/$f")
            c2=$(cost "$HIPPORT" "$@" "$D/classes-2/$f")
            c4=$(cost "$HIPPORT" "$@" "$D/classes-4/$f")
            bytes=$(wc -c < "$D/classes-1/$f")
            # times under 20 ms are mostly the process's start: the exponent says little
            awk -v f="$f" -v cmd="$cmd" -v b="$bytes" -v c1="$c1" -v c2="$c2" -v c4="$c4" \
                -v unit="$unit" 'BEGIN {
                e = (c1 > 0 && c4 > 0) ? sprintf("%.2f", log(c4 / c1) / log(4)) : "-"
                if (unit == "s" && c4 < 0.02) e = e " (under 20 ms)"
                printf "| %s | %s | %d | %s | %s | %s | %s |\n", f, cmd, b, c1, c2, c4, e }'
        done
    done
} | tee "$D/scaling.md"
