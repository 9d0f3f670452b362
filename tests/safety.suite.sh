#!/bin/sh
# safety.suite.sh: what hipport promises about the files it writes, where a golden case cannot
# set the scene: another user's files (as root: skipped with a message otherwise), a signal
# in the middle of a write, symbolic links made while a run goes on. $1 is the hipport
# binary. Prints "safety: N passed, N failed".
H=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hipport-safety.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 4
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "safety FAIL: $*" >&2
}
# A background job of a script ignores SIGINT: the runs that are signalled get the default
# disposition back (hipport keeps a signal ignored that it was started with).
run_bg() { env --default-signal=INT,TERM "$@" & }

# owner:group mode mtime of a file
meta() { stat -c '%U:%G %a %Y' "$1"; }

# ---------------------------------------------------------------- owners (needs root)
if [ "$(id -u)" != 0 ]; then
    echo "safety: owners: skipped (not root: only root can give files to another user)" >&2
elif ! id nobody >/dev/null 2>&1; then
    echo "safety: owners: skipped (no user 'nobody' to give files to)" >&2
else
    mkdir own && cd own || exit 4
    printf '#include <cuda_runtime.h>\nint main() { return cudaFree(0); }\n' > orig.cu
    theirs() { # a copy of orig.cu that belongs to nobody, mode 640, dated 2020
        cp orig.cu "$1" && chown nobody:nogroup "$1" && chmod 640 "$1" &&
            touch -d '2020-01-02 03:04:05' "$1"
    }
    want="nobody:nogroup 640"
    old=$(theirs t.cu && meta t.cu)
    # translate --in-place, with a backup
    mkdir tree && theirs tree/a.cu
    "$H" translate -q --in-place --backup=.orig tree
    case "$(meta tree/a.cu)" in "$want "*) ok ;; *) bad "in place: $(meta tree/a.cu), want $want" ;; esac
    [ "$(meta tree/a.cu.orig)" = "$old" ] && cmp -s tree/a.cu.orig orig.cu && ok ||
        bad "in place: the backup is $(meta tree/a.cu.orig), want $old"
    # a second run changes nothing: the file's times stay
    before=$(meta tree/a.cu)
    sleep 1
    "$H" translate -q --in-place tree
    [ "$(meta tree/a.cu)" = "$before" ] && ok || bad "a run with nothing to do: $(meta tree/a.cu), was $before"
    # hipify-perl -inplace and hipify-clang --inplace, and their .prehip backups
    theirs p.cu && "$H" hipify-perl -inplace p.cu 2>/dev/null
    case "$(meta p.cu)" in "$want "*) ok ;; *) bad "hipify-perl -inplace: $(meta p.cu), want $want" ;; esac
    [ "$(meta p.cu.prehip)" = "$old" ] && ok || bad "hipify-perl's backup: $(meta p.cu.prehip), want $old"
    theirs c.cu && "$H" hipify-clang --inplace c.cu >/dev/null 2>&1
    case "$(meta c.cu)" in "$want "*) ok ;; *) bad "hipify-clang --inplace: $(meta c.cu), want $want" ;; esac
    [ "$(meta c.cu.prehip)" = "$old" ] && ok || bad "hipify-clang's backup: $(meta c.cu.prehip), want $old"
    # an output replaced with -O --force, and with -o
    mkdir out && theirs out/orig.cu && "$H" translate -q -f -O out orig.cu
    case "$(meta out/orig.cu)" in "$want "*) ok ;; *) bad "-O --force: $(meta out/orig.cu), want $want" ;; esac
    theirs o.hip && "$H" translate -q orig.cu -o o.hip
    case "$(meta o.hip)" in "$want "*) ok ;; *) bad "-o: $(meta o.hip), want $want" ;; esac
    grep -q hipFree tree/a.cu p.cu c.cu out/orig.cu o.hip && ok || bad "owners: not translated"
    cd .. || exit 4
fi

# ---------------------------------------------------------------- signals
# One large file (50 MB), and its translation.
yes 'cudaMalloc(&p, 4); cudaFree(p); cudaMemcpy(a, b, n, cudaMemcpyHostToDevice); // x' |
    head -c 50000000 > big.cu
"$H" translate -q big.cu > big.hip || exit 4

# wait_for PID GLOB: until a file matches GLOB or the process has ended
wait_for() {
    while kill -0 "$1" 2>/dev/null; do
        for f in $2; do
            [ -e "$f" ] && return 0
        done
    done
    return 1
}

# -o FILE and -O DIR: stopped as soon as the output's name appears, it must be whole
for sig in INT TERM; do
    rm -rf o.hip OUT
    run_bg "$H" translate -q big.cu -o o.hip
    pid=$!
    wait_for $pid o.hip
    kill -$sig $pid 2>/dev/null
    wait $pid 2>/dev/null
    if [ -e o.hip ] && ! cmp -s o.hip big.hip; then
        bad "-o, SIG$sig: a partial output under the final name ($(wc -c < o.hip) of $(wc -c < big.hip) bytes)"
    else
        ok
    fi
    mkdir OUT
    run_bg "$H" translate -q big.cu -O OUT
    pid=$!
    wait_for $pid OUT/big.cu
    kill -$sig $pid 2>/dev/null
    wait $pid 2>/dev/null
    if [ -e OUT/big.cu ] && ! cmp -s OUT/big.cu big.hip; then
        bad "-O, SIG$sig: a partial output under the final name ($(wc -c < OUT/big.cu) bytes)"
    else
        ok
    fi
    # a run that follows replaces nothing and refuses nothing
    "$H" translate -q big.cu -O OUT && cmp -s OUT/big.cu big.hip && ok ||
        bad "-O, SIG$sig: the next run did not end with the whole output"
done

# stopped while the temporary file is written: it is removed, the exit status is the
# signal's (130, 143), and the original (in place) or nothing (-o) is left
for sig in INT TERM; do
    case $sig in INT) want=130 ;; TERM) want=143 ;; esac
    rm -rf o.hip
    run_bg "$H" translate -q big.cu -o o.hip
    pid=$!
    wait_for $pid ".o.hip.hipport-*"
    kill -$sig $pid 2>/dev/null
    wait $pid 2>/dev/null
    rc=$?
    left=$(ls -A | grep -c '\.hipport-')
    [ "$left" = 0 ] && ok || bad "-o, SIG$sig: $left temporary files left"
    [ ! -e o.hip ] || cmp -s o.hip big.hip && ok || bad "-o, SIG$sig: a partial o.hip"
    [ $rc = $want ] && ok || bad "-o, SIG$sig: exit status $rc, want $want"
    rm -rf T && mkdir T && cp big.cu T/
    run_bg "$H" translate -q --in-place T
    pid=$!
    wait_for $pid "T/.big.cu.hipport-*"
    kill -$sig $pid 2>/dev/null
    wait $pid 2>/dev/null
    rc=$?
    left=$(ls -A T | grep -c '\.hipport-')
    [ "$left" = 0 ] && ok || bad "in place, SIG$sig: $left temporary files left in the tree"
    cmp -s T/big.cu big.cu || cmp -s T/big.cu big.hip && ok || bad "in place, SIG$sig: big.cu is neither"
    [ $rc = $want ] && ok || bad "in place, SIG$sig: exit status $rc, want $want"
done
# SIGKILL cannot be caught: the next run removes what it left
rm -rf T && mkdir T && cp big.cu T/
run_bg "$H" translate -q --in-place T
pid=$!
wait_for $pid "T/.big.cu.hipport-*"
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
cmp -s T/big.cu big.cu || cmp -s T/big.cu big.hip && ok || bad "in place, SIGKILL: big.cu is neither"
"$H" translate -q --in-place T
left=$(ls -A T | grep -c '\.hipport-')
[ "$left" = 0 ] && ok || bad "in place, after SIGKILL: the next run left $left temporary files"
cmp -s T/big.cu big.hip && ok || bad "in place, after SIGKILL: the next run did not translate"

# ---------------------------------------------------------------- links made during a run
# While translations are written, directories of the output (and of the tree translated in
# place) are swapped again and again with links to a directory outside: nothing may land
# there, whatever the moment.
mkdir -p race/in race/outside
i=0
while [ $i -lt 40 ]; do
    i=$((i + 1))
    mkdir -p race/in/d$i
    j=0
    while [ $j -lt 10 ]; do
        j=$((j + 1))
        printf 'void f%s_%s(float *p) { cudaMalloc(&p, 4); cudaFree(p); }\n' $i $j > race/in/d$i/k$j.cu
    done
done
echo "theirs" > race/outside/k1.cu
swap() { # swap DIR: DIR and a link to race/outside take turns until race/stop appears
    while [ ! -e race/stop ]; do
        mv "$1" "$1.real" 2>/dev/null && ln -s "$tmp/race/outside" "$1" 2>/dev/null
        rm -f "$1" 2>/dev/null
        mv "$1.real" "$1" 2>/dev/null
    done
}
for mode in out inplace; do
    rm -rf race/OUT race/T race/stop
    cp -R race/in race/T
    mkdir -p race/OUT && cp -R race/in/d1 race/in/d2 race/in/d3 race/OUT/
    case $mode in
    out) swap race/OUT/d1 & s1=$!; swap race/OUT/d2 & s2=$! ;;
    inplace) swap race/T/d1 & s1=$!; swap race/T/d2 & s2=$! ;;
    esac
    r=0
    while [ $r -lt 5 ]; do
        r=$((r + 1))
        case $mode in
        out) "$H" translate -q -f -j 4 -O race/OUT race/in 2>/dev/null ;;
        inplace) "$H" translate -q -j 4 --in-place race/T 2>/dev/null ;;
        esac
    done
    touch race/stop
    wait $s1 $s2
    n=$(find race/outside -type f | wc -l)
    [ "$n" = 1 ] && [ "$(cat race/outside/k1.cu)" = theirs ] && ok ||
        bad "links made during the run ($mode): $(find race/outside -type f | head -5) written outside"
done

# ---------------------------------------------------------------- descriptors
# -o naming one of the process's descriptors (a link into /proc/self/fd, as /dev/stdout is)
# writes into what it is open on, a regular file too; the link stays a link
mkdir fd && printf '#include <cuda_runtime.h>\nint main() { return cudaFree(0); }\n' > fd/a.cu
ln -s /proc/self/fd/1 fd/out
"$H" translate -q fd/a.cu -o fd/out > fd/captured
[ -L fd/out ] && grep -q hipFree fd/captured && ok ||
    bad "-o to a link into /proc/self/fd: $(ls -l fd/out) $(head -c 80 fd/captured)"
"$H" translate -q fd/a.cu -o /dev/fd/1 > fd/captured2
grep -q hipFree fd/captured2 && ok || bad "-o /dev/fd/1 with the output in a file"
# -o - is standard output, as without -o: no file named '-' is made
(cd fd && "$H" translate -q a.cu -o - > captured3)
grep -q hipFree fd/captured3 && [ ! -e fd/- ] && ok || bad "-o -: $(ls fd) $(head -c 80 fd/captured3)"

echo "safety: $pass passed, $fail failed"
[ $fail = 0 ]
