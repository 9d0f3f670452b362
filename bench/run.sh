#!/bin/sh
# run.sh: the benchmark suite (make bench). Builds bench/gencorpus.c and bench/measure.c (and
# bench/inmem.c against the library beside HIPPORT, for the tree's work without its files),
# generates (once per seed and size) a CUDA project tree and one large .cu file, then times
# hipport translate and check over them: the single file, and the tree with each job count;
# then the floor, the same tree read by cat and copied by cp -r (no work done on the bytes).
# Every case runs RUNS times; the table gives the best wall time with MB/s and files/s from it,
# the least CPU time (user+sys) with MB per CPU second from it and the least user time (the
# steadier figures on a shared machine: sys is mostly the file system's cost of creating the
# translated files, and swings with the machine's other work), the largest peak RSS (from
# wait4, so only hipport's own memory), and instructions when `perf stat` can count them (or,
# with VALGRIND=1, from callgrind: exact and repeatable, but about fifty times slower).
#
#   sh bench/run.sh [HIPPORT]             default build/hipport
#   sh bench/run.sh DIR [HIPPORT]         any directory instead of the corpus: hipport
#                                         translate and check over DIR, and the floor, cp -r
#                                         and cat of its files, one run of each in turn (so
#                                         that the machine's other work weighs on all alike),
#                                         RUNS times (default 7); prints the median wall time
#                                         of each and its ratio to the cp -r floor
#
# Environment:
#   MB=50 SINGLE_MB=16 SEED=1   corpus size (tree), single-file size, generator seed
#   RUNS=3                      runs per case (the best wall time is kept)
#   JOBS="1 2"                  job counts for the tree runs
#   BENCH_DIR=bench/out         where the corpus and the results go
#   BENCH_TMP=/dev/shm          where translated trees are written: memory (tmpfs) where the
#                               system has it, so that the figures measure hipport and not the
#                               disk (creating 2380 files on a busy ext4 disk took from 0.1 s to
#                               2 s of system time); else $TMPDIR or /tmp. Never the checkout: a
#                               directory watched by an editor or indexer is dearer still.
#   HIPIFY_PERL=FILE            also time hipify-perl (perl FILE) over the tree's files
#   HIPIFY_PYTHON=DIR           also time PyTorch's hipify (the package directory holding
#                               hipify_python.py, e.g. .../torch/utils/hipify) over the tree;
#                               with DIR, beside hipport hipify-python over the same project
#   PYTHON=python3 PERL=perl    their interpreters
# Nothing is downloaded: the other tools run only from the paths given.
# The results (a Markdown table) go to standard output and to $BENCH_DIR/results.md.
set -u
TREE_ARG=
if [ $# -ge 1 ] && [ -d "$1" ]; then
    TREE_ARG=$(cd "$1" && pwd) || exit 2
    shift
fi
HIPPORT=${1:-build/hipport}
cd "$(dirname "$0")/.." || exit 2
case $HIPPORT in /*) ;; *) HIPPORT=$(pwd)/$HIPPORT ;; esac
MB=${MB:-50}
SINGLE_MB=${SINGLE_MB:-16}
SEED=${SEED:-1}
RUNS_SET=${RUNS:-}
RUNS=${RUNS:-3}
JOBS=${JOBS:-"1 2"}
D=${BENCH_DIR:-bench/out}
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
PERL=${PERL:-perl}
[ -x "$HIPPORT" ] || { echo "run.sh: no hipport at '$HIPPORT' (run make)" >&2; exit 2; }
mkdir -p "$D" || exit 2
D=$(cd "$D" && pwd)

# ---- tools
for t in gencorpus measure; do
    if [ ! -x "$D/$t" ] || [ "bench/$t.c" -nt "$D/$t" ]; then
        $CC -std=c11 -O2 -Wall -Wextra -o "$D/$t" "bench/$t.c" || exit 2
    fi
done
MEASURE=$D/measure
# the work in memory, built against the library beside HIPPORT (when it is there)
INMEM=
LIB=$(dirname "$HIPPORT")/libhipport.a
if [ -f "$LIB" ]; then
    if [ ! -x "$D/inmem" ] || [ bench/inmem.c -nt "$D/inmem" ] || [ "$LIB" -nt "$D/inmem" ]; then
        $CC -std=c11 -O2 -Wall -Wextra -Iinclude $(for l in src/*/; do printf -- "-I%s " "${l%/}"; done) \
            -I"$(dirname "$HIPPORT")" \
            -o "$D/inmem" bench/inmem.c "$LIB" -lpthread -lm
    fi
    [ -x "$D/inmem" ] && INMEM=$D/inmem
fi

# PyTorch's hipify over a project (python3 hipify_run.py PKGDIR PROJECT OUT), as CUDAExtension
# runs it: the arguments that the installed version takes
write_hipify_run() {
    cat > "$D/hipify_run.py" <<'EOF'
import importlib, inspect, os, sys
pkg = os.path.abspath(sys.argv[1])
if os.path.isfile(pkg):
    pkg = os.path.dirname(pkg)
sys.path.insert(0, os.path.dirname(pkg))
hp = importlib.import_module(os.path.basename(pkg) + ".hipify_python")
src, out = os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
want = {"project_directory": src, "output_directory": out,
        "includes": [os.path.join(src, "*")], "show_detailed": False,
        "show_progress": False, "is_pytorch_extension": True}
params = inspect.signature(hp.hipify).parameters
hp.hipify(**{k: v for k, v in want.items() if k in params})
EOF
}

# ---- a directory given: its files, in turn with the floor, medians of RUNS
if [ -n "$TREE_ARG" ]; then
    RUNS=${RUNS_SET:-7}
    if [ -z "${BENCH_TMP:-}" ]; then
        BENCH_TMP=${TMPDIR:-/tmp}
        [ -d /dev/shm ] && [ -w /dev/shm ] && BENCH_TMP=/dev/shm
    fi
    TMPD=$(mktemp -d "$BENCH_TMP/hipport-bench.XXXXXX") || exit 2
    trap 'rm -rf "$TMPD"' EXIT INT TERM
    HIPIFY_RUNS=
    if [ -n "${HIPIFY_PYTHON:-}" ]; then
        write_hipify_run
        HIPIFY_RUNS="hipport-hipify-python pytorch-hipify"
    fi
    dir_bytes=$(find "$TREE_ARG" -type f -exec cat {} + | wc -c)
    dir_files=$(find "$TREE_ARG" -type f | wc -l)
    : > "$TMPD/walls.tsv"
    r=0
    while [ "$r" -lt "$RUNS" ]; do
        r=$((r + 1))
        for c in translate check "cp -r" cat $HIPIFY_RUNS; do
            case $c in
                translate) set -- "$HIPPORT" translate "$TREE_ARG" -O "$TMPD/out$r" -q ;;
                hipport-hipify-python) set -- "$HIPPORT" hipify-python -p "$TREE_ARG" \
                    --output-directory "$TMPD/hh$r" ;;
                pytorch-hipify) set -- "$PYTHON" "$D/hipify_run.py" "$HIPIFY_PYTHON" \
                    "$TREE_ARG" "$TMPD/ph$r" ;;
                check) set -- "$HIPPORT" check "$TREE_ARG" --format json ;;
                "cp -r") set -- cp -r "$TREE_ARG" "$TMPD/copy$r" ;;
                cat) set -- find "$TREE_ARG" -type f -exec cat {} + ;;
            esac
            line=$("$MEASURE" -- "$@" 2>&1 >/dev/null | tail -1)
            case $line in wall=*) ;; *) echo "run.sh: $c failed: $line" >&2; exit 1 ;; esac
            printf '%s\t%s\n' "$c" "$line" >> "$TMPD/walls.tsv"
        done
    done
    {
        echo "Directory: $TREE_ARG, $dir_files files, $dir_bytes bytes; median of $RUNS runs" \
             "of each, in turn."
        echo
        echo "| run | median wall s | MB/s | x cp -r |"
        echo "|---|---:|---:|---:|"
        for c in translate check "cp -r" cat $HIPIFY_RUNS; do
            awk -F'\t' -v c="$c" '$1 == c { split($2, f, " "); split(f[1], kv, "=");
                print kv[2] }' "$TMPD/walls.tsv" | sort -n |
                awk -v c="$c" '{ v[NR] = $1 } END {
                    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                    printf "%s\t%.4f\n", c, m }'
        done | awk -F'\t' -v b="$dir_bytes" '{ n[NR] = $1; w[NR] = $2; if ($1 == "cp -r") f = $2 }
            END { for (i = 1; i <= NR; i++)
                printf "| %s | %.3f | %.0f | %s |\n", n[i], w[i],
                    (w[i] > 0 ? b / 1e6 / w[i] : 0), (f > 0 ? sprintf("%.2f", w[i] / f) : "-") }'
    } | tee "$D/results-dir.md"
    exit 0
fi

# ---- corpus (regenerated when the generator, the seed or the size changes)
gen_sum=$(cksum < bench/gencorpus.c | cut -d' ' -f1)
C=$D/corpus-s$SEED-$MB-$SINGLE_MB
if [ ! -f "$C/.done" ] || [ "$(cat "$C/.done")" != "$gen_sum" ]; then
    rm -rf "$C"
    mkdir -p "$C"
    "$D/gencorpus" -s "$SEED" -m "$MB" -o "$C/tree" || exit 2
    "$D/gencorpus" -s "$((SEED + 1000))" -m "$SINGLE_MB" -f "$C/single.cu" || exit 2
    echo "$gen_sum" > "$C/.done"
fi
TREE=$C/tree
SINGLE=$C/single.cu
tree_bytes=$(find "$TREE" -type f -exec cat {} + | wc -c)
tree_files=$(find "$TREE" -type f | wc -l)
single_bytes=$(wc -c < "$SINGLE")

# ---- instruction counts: perf when it counts them here, else callgrind when asked
PERF=
if command -v perf >/dev/null 2>&1 &&
   perf stat -x, -e instructions:u true 2>&1 >/dev/null | grep -q '^[0-9]'; then
    PERF=perf
elif [ -n "${VALGRIND:-}" ] && command -v valgrind >/dev/null 2>&1; then
    PERF=valgrind
fi

# ---- one case: name, bytes, files, jobs, then the command, where an argument @OUT@ stands for
# a fresh output directory per run (outputs are deleted only at the end: deleting a tree just
# before a timed run makes its file creation pay for the deletion)
RES=$D/results.tsv
: > "$RES"
nout=0
run_once() { # in a subshell: the caller counts nout
    for a; do
        shift
        [ "$a" = @OUT@ ] && a=$TMPD/out$nout
        set -- "$@" "$a"
    done
    "$MEASURE" -o "$D/stdout" -- "$@" 2>&1 >/dev/null | tail -1
}
bench() {
    name=$1 bytes=$2 files=$3 jobs=$4
    shift 4
    sync # the file system's pending work (an earlier run's deletions) is not this case's
    lines=
    r=0
    while [ "$r" -lt "$RUNS" ]; do
        r=$((r + 1))
        nout=$((nout + 1))
        line=$(run_once "$@")
        case $line in wall=*) ;; *) echo "run.sh: $name failed: $line" >&2; return ;; esac
        lines="$lines$line
"
    done
    ins=-
    if [ -n "$PERF" ]; then
        nout=$((nout + 1))
        for a; do
            shift
            [ "$a" = @OUT@ ] && a=$TMPD/out$nout
            set -- "$@" "$a"
        done
        if [ "$PERF" = perf ]; then
            ins=$(perf stat -x, -e instructions:u -- "$@" 2>&1 >/dev/null |
                  awk -F, '/instructions/ { print $1 }' | tail -1)
        else
            ins=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
                  awk '/Collected :/ { print $NF }' | tail -1)
        fi
        [ -n "$ins" ] || ins=-
    fi
    printf '%s' "$lines" | awk -v name="$name" -v bytes="$bytes" -v files="$files" \
        -v jobs="$jobs" -v ins="$ins" '{
        for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        cpu = v["user"] + v["sys"]
        if (NR == 1 || v["wall"] < wall) wall = v["wall"]
        if (NR == 1 || cpu < best_cpu) best_cpu = cpu
        if (NR == 1 || v["user"] < user) user = v["user"]
        if (v["maxrss_kb"] > rss) rss = v["maxrss_kb"]
    } END {
        printf "%s\t%d\t%d\t%s\t%.3f\t%.3f\t%d\t%s\t%.3f\n", name, bytes, files, jobs, wall,
            best_cpu, rss, ins, user }' >> "$RES"
}

if [ -z "${BENCH_TMP:-}" ]; then
    BENCH_TMP=${TMPDIR:-/tmp}
    [ -d /dev/shm ] && [ -w /dev/shm ] && BENCH_TMP=/dev/shm
fi
TMPD=$(mktemp -d "$BENCH_TMP/hipport-bench.XXXXXX") || exit 2
trap 'rm -rf "$TMPD"' EXIT INT TERM
bench "translate, one file" "$single_bytes" 1 1 "$HIPPORT" translate "$SINGLE" -q
for j in $JOBS; do
    bench "translate, tree" "$tree_bytes" "$tree_files" "$j" \
        "$HIPPORT" translate "$TREE" -O @OUT@ -q -j "$j"
done
# PyTorch's file names (the mode of PyTorch extensions and hipify-python): two passes over the
# project, since a file's name depends on whether it or the headers it includes change
for j in $JOBS; do
    bench "translate --rename=pytorch, tree" "$tree_bytes" "$tree_files" "$j" \
        "$HIPPORT" translate "$TREE" -O @OUT@ -q --rename=pytorch --pytorch=v2 -j "$j"
done
bench "check, one file" "$single_bytes" 1 1 "$HIPPORT" check "$SINGLE" --format json
for j in $JOBS; do
    bench "check, tree" "$tree_bytes" "$tree_files" "$j" \
        "$HIPPORT" check "$TREE" -j "$j" --format json
done

# ---- the floor: the same files read (cat) and copied (cp -r) with no work on them, what any
# tool that reads the tree, or writes a translated copy of it, pays on this machine
# (no instruction counts: those of cat would count the shell's, not cat's)
find "$TREE" -type f | sort > "$D/files.txt"
perf_saved=$PERF
PERF=
bench "floor: read, tree (cat)" "$tree_bytes" "$tree_files" 1 \
    sh -c 'xargs -s 1000000 cat < "$1"' sh "$D/files.txt"
bench "floor: copy, tree (cp -r)" "$tree_bytes" "$tree_files" 1 cp -r "$TREE" @OUT@
PERF=$perf_saved

# ---- the tools people use today, when their paths are given
if [ -n "${HIPIFY_PERL:-}" ]; then
    # one process over every file of the tree (as a project script would call it)
    bench "hipify-perl, tree" "$tree_bytes" "$tree_files" 1 \
        sh -c 'xargs -s 1000000 "$1" "$2" -quiet-warnings < "$3"' sh "$PERL" "$HIPIFY_PERL" \
        "$D/files.txt"
fi
if [ -n "${HIPIFY_PYTHON:-}" ]; then
    write_hipify_run
    bench "PyTorch hipify, tree" "$tree_bytes" "$tree_files" 1 \
        "$PYTHON" "$D/hipify_run.py" "$HIPIFY_PYTHON" "$TREE" @OUT@
fi
rm -f "$D/stdout"

# ---- the work without the files: lexing and translating the tree's files held in memory
inmem_line=
[ -n "$INMEM" ] && inmem_line=$("$INMEM" "$TREE" "$RUNS")

# ---- the table
{
    cpu=$(awk -F: '/model name/ { sub(/^ */, "", $2); print $2; exit }' /proc/cpuinfo 2>/dev/null)
    ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo ?)
    load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)
    mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
    fs=$(df -PT "$BENCH_TMP" 2>/dev/null | awk 'NR == 2 { print $2 }')
    echo "Machine: $(uname -sm), ${cpu:-unknown CPU}, $ncpu CPUs;" \
         "load average $load after the runs."
    echo "Corpus: seed $SEED, tree $tree_files files, $(mb "$tree_bytes") MB;" \
         "one file of $(mb "$single_bytes") MB. Best of $RUNS runs;" \
         "translated trees written under $BENCH_TMP ($fs)."
    echo
    echo "| run | jobs | wall s | MB/s | files/s | CPU s | MB/CPU-s | user s | peak RSS MB" \
         "| instructions |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    awk -F'\t' '{
        mbs = $5 > 0 ? $2 / 1e6 / $5 : 0; fs = $5 > 0 ? $3 / $5 : 0
        mbc = $6 > 0 ? $2 / 1e6 / $6 : 0
        printf "| %s | %s | %.3f | %.0f | %.0f | %.3f | %.0f | %.3f | %.1f | %s |\n", $1, $4, $5,
            mbs, fs, $6, mbc, $9, $7 / 1024, $8 }' "$RES"
    awk -F'\t' '$1 ~ /tree/ && $1 !~ /hipify/ { w[$1, $4] = $5; n[$1] = 1 }
        END {
            for (k in w) {
                split(k, p, SUBSEP)
                if (p[2] != 1 && w[p[1], 1] > 0)
                    printf "\n%s: -j %s runs %.2fx as fast as -j 1 (wall time)", p[1], p[2],
                        w[p[1], 1] / w[k]
            }
        }' "$RES"
    # each tool against hipport doing the same job: PyTorch's hipify against the PyTorch mode
    awk -F'\t' '$1 ~ /hipify/ { o[$1] = $5 }
        $1 == "translate, tree" && $4 == 1 { t = $5 }
        $1 == "translate --rename=pytorch, tree" && $4 == 1 { tp = $5 }
        END {
            for (k in o) {
                b = k ~ /PyTorch/ && tp > 0 ? tp : t
                c = k ~ /PyTorch/ && tp > 0 ? "translate --rename=pytorch" : "translate"
                if (b > 0)
                    printf "\n%s takes %." (o[k] / b < 10 ? 1 : 0) "fx the time of hipport %s -j 1",
                        k, o[k] / b, c
            }
        }' "$RES"
    echo
    [ -z "$inmem_line" ] || printf '\nTree %s\n' "$inmem_line"
} | tee "$D/results.md"
