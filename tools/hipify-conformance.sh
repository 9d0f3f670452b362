#!/bin/sh
# hipify-conformance.sh: runs hipport's hipify-clang (or hipify-perl) command line over a tree of
# lit tests written for hipify-clang (a file with a "// RUN: %run_test hipify ..." line and
# "// CHECK:" lines) and checks the output with FileCheck's rules, implemented here in awk.
#
# usage: tools/hipify-conformance.sh [-m clang|perl] [-b HIPPORT] [-d] [-v] DIR
#   -m   which interface: hipport hipify-clang (default) or hipport hipify-perl
#   -b   the binary (default build/hipport)
#   -d   expect the library headers as hipport writes them, "hipblas/hipblas.h" for "hipblas.h"
#        (a deliberate difference, docs/hipify-conformance.md), so that the checks after them
#        count
#   -v   print passing tests too
# Prints "PASS file" / "FAIL file: reason" per test and "conformance (MODE): N passed, N failed".
#
# The RUN line's words after "%hipify_args COUNT" are COUNT hipify options, then "%clang_args"
# and compiler options, which go after "--". The translated output has everything from "//" to
# the end of a line replaced by "// " (as the lit runner does), then:
#   CHECK: PAT       PAT occurs after the previous match (a substring; {{RE}} is a regex)
#   CHECK-NEXT: PAT  its first occurrence after the previous match is on the next line
#   CHECK-NOT: PAT   PAT does not occur between the previous match and the next one
# Runs of blanks match runs of blanks, and a pattern's leading and trailing blanks are ignored
# (FileCheck without --strict-whitespace).
mode=clang
bin=build/hipport
verbose=
headers=
while getopts m:b:dv o; do
    case $o in
    m) mode=$OPTARG ;;
    b) bin=$OPTARG ;;
    d) headers=1 ;;
    v) verbose=1 ;;
    *) echo "usage: $0 [-m clang|perl] [-b HIPPORT] [-d] [-v] DIR" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -ne 1 ] || [ ! -d "$1" ] || { [ "$mode" != clang ] && [ "$mode" != perl ]; }; then
    echo "usage: $0 [-m clang|perl] [-b HIPPORT] [-d] [-v] DIR" >&2
    exit 2
fi
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
dir=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hipify-conformance.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# hipify-perl's options among hipify-clang's (the others have no hipify-perl spelling)
perl_option() {
    case ${1#-} in
    -roc | roc) echo -roc ;;
    -hip-kernel-execution-syntax | hip-kernel-execution-syntax) echo -hip-kernel-execution-syntax ;;
    -cuda-kernel-execution-syntax | cuda-kernel-execution-syntax)
        echo -cuda-kernel-execution-syntax ;;
    -experimental | experimental) echo -experimental ;;
    esac
}

# check CHECKS OUTPUT: FileCheck's rules; prints nothing on success, else the first failure
check() {
    awk -v checks="$1" '
function canon(s) { gsub(/[ \t]+/, " ", s); return s }
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return canon(s) }
# the pattern as an ERE: literal text quoted, {{RE}} kept
function to_re(p,    out, i, c, j) {
    out = ""
    while (length(p) > 0) {
        i = index(p, "{{")
        lit = i ? substr(p, 1, i - 1) : p
        for (j = 1; j <= length(lit); j++) {
            c = substr(lit, j, 1)
            if (c ~ /[][\\^$.|()*+?{}\/]/) out = out "\\" c; else out = out c
        }
        if (!i) break
        p = substr(p, i + 2)
        j = index(p, "}}")
        if (!j) { out = out "\\{\\{"; continue }
        out = out "(" substr(p, 1, j - 1) ")"
        p = substr(p, j + 2)
    }
    return out
}
# the first occurrence of check k in text: its start (0 if none); sets mlen
function find(text, k,    i) {
    if (isre[k]) {
        if (match(text, re[k])) { mlen = RLENGTH; return RSTART }
        return 0
    }
    i = index(text, pat[k]); mlen = length(pat[k]); return i
}
# the first occurrence of check k from (line l, column c): sets fl, fc (fl = 0 if none)
function search(k, l, c, endl, endc,    t, i) {
    for (; l <= endl; l++) {
        t = substr(out[l], c)
        if (l == endl) t = substr(t, 1, endc - c)
        i = find(t, k)
        if (i) { fl = l; fc = c + i - 1; return }
        c = 1
    }
    fl = 0
}
function fail(k, why) {
    printf "line %d: %s: %s%s\n", cline[k], kind[k], pat[k], why
    failed = 1
    exit
}
# the CHECK-NOTs pending: none may occur between (l, c) and (el, ec)
function nots(l, c, el, ec,    k) {
    for (k = nfrom; k < nnot; k++) {
        search(notk[k], l, c, el, ec)
        if (fl) fail(notk[k], " (found on output line " fl ")")
    }
    nnot = nfrom = 0
}
BEGIN {
    n = 0
    while ((getline line < checks) > 0) {
        n++
        split(line, f, "\t")
        cline[n] = f[1]; kind[n] = f[2]
        pat[n] = trim(substr(line, length(f[1]) + length(f[2]) + 3))
        isre[n] = index(pat[n], "{{") > 0
        if (isre[n]) re[n] = to_re(pat[n])
    }
}
{ out[NR] = canon($0) }
END {
    nout = NR
    l = 1; c = 1; nnot = nfrom = 0
    for (k = 1; k <= n; k++) {
        if (kind[k] == "CHECK-NOT") { notk[nnot++] = k; continue }
        search(k, l, c, nout, length(out[nout]) + 1)
        if (!fl) fail(k, " (no match)")
        if (kind[k] == "CHECK-NEXT" && fl != l + 1)
            fail(k, " (found on output line " fl ", not on line " l + 1 ")")
        ml = fl; mc = fc; mn = mlen
        nots(l, c, ml, mc)
        l = ml; c = mc + mn
    }
    nots(l, c, nout, length(out[nout]) + 1)
}' "$2"
}

pass=0
fail=0
list=$tmp/list
grep -rlE '^[[:space:]]*// RUN:.*%run_test hipify' "$dir" | LC_ALL=C sort >"$list"
while read -r test; do
    name=${test#"$dir"/}
    run=$(grep -m1 -E '// RUN:.*%run_test hipify' "$test" | sed 's/.*%hipify_args//; s/"//g')
    # shellcheck disable=SC2086
    set -- $run
    case $1 in
    *[!0-9]* | "") count=$(printf '%s\n' "$@" | sed -n '/^%clang_args$/q; p' | wc -l) ;;
    *) count=$1; shift ;;
    esac
    hopts=
    i=0
    while [ "$i" -lt "$count" ] && [ $# -gt 0 ]; do
        if [ "$mode" = perl ]; then
            hopts="$hopts $(perl_option "$1")"
        else
            hopts="$hopts $1"
        fi
        shift
        i=$((i + 1))
    done
    [ "${1:-}" = "%clang_args" ] && shift
    copts="$*"
    grep -n -E '// CHECK(-NEXT|-NOT)?:' "$test" |
        sed -E 's/^([0-9]+):.*\/\/ (CHECK(-NEXT|-NOT)?):(.*)$/\1\t\2\t\4/' >"$tmp/checks"
    if [ -n "$headers" ]; then
        libs='hipblas|hipblaslt|rocblas|hipsparse|rocsparse|hipsolver|rocsolver|hiprand|rocrand|hipfft'
        sed -E "s/#include \"($libs)\\.h\"/#include \"\\1\\/\\1.h\"/; s/#include <($libs)\\.h>/#include <\\1\\/\\1.h>/" \
            "$tmp/checks" >"$tmp/checks.d"
        mv "$tmp/checks.d" "$tmp/checks"
    fi
    rm -f "$tmp/out.hip"
    tdir=$(dirname "$test")
    if [ "$mode" = perl ]; then
        # shellcheck disable=SC2086
        (cd "$tdir" && "$bin" hipify-perl $hopts -o="$tmp/out.hip" "$(basename "$test")") \
            >"$tmp/log" 2>&1
    else
        # shellcheck disable=SC2086
        (cd "$tdir" && "$bin" hipify-clang -o="$tmp/out.hip" "$(basename "$test")" $hopts \
            -- $copts) >"$tmp/log" 2>&1
    fi
    rc=$?
    why=
    if [ ! -f "$tmp/out.hip" ]; then
        why="hipport exit $rc: $(grep -v '^$' "$tmp/log" | head -1)"
    else
        sed -E 's|//.+|// |g' "$tmp/out.hip" >"$tmp/out.stripped"
        why=$(check "$tmp/checks" "$tmp/out.stripped")
    fi
    if [ -z "$why" ]; then
        pass=$((pass + 1))
        [ -n "$verbose" ] && echo "PASS $name"
    else
        fail=$((fail + 1))
        printf 'FAIL %s: %s\n' "$name" "$why"
    fi
done <"$list"
echo "conformance ($mode${headers:+, -d}): $pass passed, $fail failed"
[ "$fail" -eq 0 ]
