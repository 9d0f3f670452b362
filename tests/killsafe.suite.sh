#!/bin/sh
# killsafe.suite.sh: hipport signalled at random moments. A generated tree (120 files, 12 MB)
# is translated --in-place and with -O DIR, and one large file (20 MB) with -o FILE, each
# RUNS times (default 21: a third each of SIGINT, SIGTERM and SIGKILL, sent after a random
# part of a whole run's time). After every run each file is either the original or its whole
# translation (-O: the whole translation, or nothing; -o: the old file, or nothing where
# there was none, or the whole translation); after SIGINT and SIGTERM no
# temporary file is left and the exit status is the signal's (130, 143); after SIGKILL the
# next run removes what was left. $1 is the hipport binary. Prints
# "killsafe: N passed, N failed" and, on standard error, the figures.
H=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
RUNS=${RUNS:-21}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hipport-killsafe.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 4
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "killsafe FAIL: $*" >&2
}

# ---- the inputs and their translations
mkdir -p orig
i=0
while [ $i -lt 120 ]; do
    i=$((i + 1))
    d=orig/d$((i % 6))
    mkdir -p $d
    yes "float *p$i; cudaMalloc(&p$i, $i); cudaMemcpy(p$i, q, $i, cudaMemcpyHostToDevice); // $i" |
        head -c 100000 > $d/k$i.cu
done
yes 'cudaMalloc(&p, 4); cudaFree(p); cudaMemcpy(a, b, n, cudaMemcpyHostToDevice); // x' |
    head -c 20000000 > big.cu
(cd orig && find . -type f | sort) > files.txt
now() { date +%s.%N; }
t0=$(now)
"$H" translate -q -O ref orig || exit 4
t1=$(now)
"$H" translate -q big.cu -o big.hip || exit 4
t2=$(now)
cp -R orig t && "$H" translate -q --in-place t || exit 4
t3=$(now)
rm -rf t
echo "killsafe: whole runs: -O $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.2f", b - a }') s, -o $(awk -v a=$t1 -v b=$t2 'BEGIN { printf "%.2f", b - a }') s, in place $(awk -v a=$t2 -v b=$t3 'BEGIN { printf "%.2f", b - a }') s" >&2
sums() { (cd "$1" && cksum $(cat ../files.txt)) | awk '{ print $3, $1 }'; }
sums orig > orig.sums
sums ref > ref.sums
big_sum=$(cksum < big.hip)

# a delay: a random part of a whole run's time (seconds), from the run's number
delay() { awk -v s="$1" -v a="$2" -v b="$3" 'BEGIN { srand(s); printf "%.3f", rand() * (b - a) }'; }
m=0
# the signal of run n: INT, TERM and KILL in turn
signal_of() {
    case $(($1 % 3)) in 0) echo INT ;; 1) echo TERM ;; 2) echo KILL ;; esac
}
# every file of dir is the original or the translation ("ref"), or missing with -O
check_tree() { # check_tree DIR MAY_BE_MISSING
    (cd "$1" 2>/dev/null && cksum $(cat ../files.txt) 2>/dev/null) | awk '{ print $3, $1 }' > cur.sums
    awk -v missing="$2" '
        FILENAME == "orig.sums" { o[$1] = $2; next }
        FILENAME == "ref.sums" { r[$1] = $2; next }
        { seen[$1] = 1; if ($2 != o[$1] && $2 != r[$1]) { print "bad " $1; bad = 1 } }
        END {
            for (f in r) if (!(f in seen) && !missing) { print "missing " f; bad = 1 }
            exit bad
        }' orig.sums ref.sums cur.sums
}
temps_in() { find "$1" -name '.*.hipport-*' 2>/dev/null | wc -l; }
# runs "$@" with SIGINT and SIGTERM at their defaults (a script's background job ignores
# SIGINT), signals it after $delay seconds, and sets rc
signalled() {
    env --default-signal=INT,TERM "$@" &
    pid=$!
    sleep "$delay"
    kill -"$sig" $pid 2>/dev/null
    wait $pid 2>/dev/null
    rc=$?
}
want_rc() {
    case $1 in INT) echo 130 ;; TERM) echo 143 ;; KILL) echo 137 ;; esac
}

interrupted=0 # runs that the signal stopped before they ended
runs=0
for mode in inplace outdir outfile; do
    m=$((m + 1))
    case $mode in
    inplace) span="$t2 $t3" ;;
    outdir) span="$t0 $t1" ;;
    outfile) span="$t1 $t2" ;;
    esac
    n=0
    rm -rf t of
    while [ $n -lt "$RUNS" ]; do
        n=$((n + 1))
        runs=$((runs + 1))
        sig=$(signal_of $n)
        delay=$(delay $((m * 1000 + n)) $span)
        case $mode in
        inplace)
            rm -rf t && cp -R orig t
            signalled "$H" translate -q --in-place t
            out=t
            ;;
        outdir)
            rm -rf t
            signalled "$H" translate -q -O t orig
            out=t
            ;;
        outfile)
            rm -rf of && mkdir of
            [ $((n % 2)) = 1 ] && echo "the old o.hip" > of/o.hip # else none
            signalled "$H" translate -q big.cu -o of/o.hip
            out=of
            ;;
        esac
        [ $rc = "$(want_rc "$sig")" ] && interrupted=$((interrupted + 1))
        what="$mode run $n (SIG$sig after ${delay}s, exit status $rc)"
        case $mode in
        inplace) check_tree t 0 >/dev/null && ok || bad "$what: $(check_tree t 0 | head -3)" ;;
        outdir) check_tree t 1 >/dev/null && ok || bad "$what: $(check_tree t 1 | head -3)" ;;
        outfile)
            if [ ! -e of/o.hip ] && [ $((n % 2)) = 0 ] || [ "$(cat of/o.hip)" = "the old o.hip" ] ||
                [ "$(cksum < of/o.hip)" = "$big_sum" ]; then
                ok
            else
                bad "$what: o.hip is neither the old file nor the whole translation"
            fi
            ;;
        esac
        if [ "$sig" != KILL ]; then
            left=$(temps_in $out)
            [ "$left" = 0 ] && ok || bad "$what: $left temporary files left"
            [ $rc = 0 ] || [ $rc = "$(want_rc "$sig")" ] && ok || bad "$what: exit status $rc"
        else
            # what a SIGKILL left is removed by the next run, which ends the work
            case $mode in
            inplace) "$H" translate -q --in-place t ;;
            outdir) "$H" translate -q -O t orig ;;
            outfile) "$H" translate -q big.cu -o of/o.hip ;;
            esac
            left=$(temps_in $out)
            [ "$left" = 0 ] && ok || bad "$what: the next run left $left temporary files"
            case $mode in
            outfile) [ "$(cksum < of/o.hip)" = "$big_sum" ] && ok || bad "$what: the next run did not translate" ;;
            *) check_tree t 0 >/dev/null && [ "$(sums t)" = "$(cat ref.sums)" ] && ok ||
                bad "$what: the next run did not end with the whole translation" ;;
            esac
        fi
    done
done
echo "killsafe: $runs runs, $interrupted stopped by their signal before the end" >&2
echo "killsafe: $pass passed, $fail failed"
[ $fail = 0 ]
