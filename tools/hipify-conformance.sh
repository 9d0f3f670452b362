#!/bin/sh
# hipify-conformance.sh: runs hipport's hipify-clang (or hipify-perl) command line over a tree of
# lit tests written for hipify-clang (a file with a "// RUN: %run_test hipify ..." line and
# "// CHECK:" lines) and checks the output with FileCheck's rules, implemented here in awk.
#
# usage: tools/hipify-conformance.sh [-m clang|perl] [-b HIPPORT] [-d] [-k TABLE] [-v] DIR
#   -m   which interface: hipport hipify-clang (default) or hipport hipify-perl
#   -b   the binary (default build/hipport)
#   -d   count the deliberate differences of docs/hipify-conformance.md: a test passes with the
#        library headers expected as hipport writes them ("hipblas/hipblas.h" for "hipblas.h"),
#        and one whose every failing check matches a row of TABLE "differs only as documented"
#   -k   the table of documented failures (default tools/hipify-conformance/known.tsv): lines
#        "TEST<TAB>TEXT<TAB>KEY", TEST the test's path under DIR, TEXT a piece of the failing
#        check's pattern, KEY the difference's key in docs/hipify-conformance.md; # comments
#   -v   print passing tests too, and the checks of documented ones
# Prints "FAIL file" with every failing check of the test below it ("DOC file: KEYS" for a
# documented one, under -d), then "conformance (MODE): N passed, K failed" ("N passed,
# M documented, K failed" under -d) and, under -d, the rows of TABLE for a test that ran that
# matched none of its failing checks. Exit status 0 when K is 0 and every such row matched.
#
# The RUN line's words after "%hipify_args COUNT" are COUNT hipify options, then "%clang_args"
# and compiler options, which go after "--". The translated output has everything from "//" to
# the end of a line replaced by "// " (as the lit runner does), then:
#   CHECK: PAT       PAT occurs after the previous match (a substring; {{RE}} is a regex)
#   CHECK-NEXT: PAT  its first occurrence after the previous match is on the next line
#   CHECK-NOT: PAT   PAT does not occur between the previous match and the next one
# Runs of blanks match runs of blanks, and a pattern's leading and trailing blanks are ignored
# (FileCheck without --strict-whitespace). A failing CHECK or CHECK-NEXT leaves the position
# where it was, and the checks after it go on from there; a CHECK-NEXT right after a failing
# check, which has no line to be next to, is searched as a CHECK.
here=$(cd "$(dirname "$0")" && pwd)
mode=clang
bin=build/hipport
verbose=
headers=
known=$here/hipify-conformance/known.tsv
doc=$here/../docs/hipify-conformance.md
usage="usage: $0 [-m clang|perl] [-b HIPPORT] [-d] [-k TABLE] [-v] DIR"
while getopts m:b:dk:v o; do
    case $o in
    m) mode=$OPTARG ;;
    b) bin=$OPTARG ;;
    d) headers=1 ;;
    k) known=$OPTARG ;;
    v) verbose=1 ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -ne 1 ] || [ ! -d "$1" ] || { [ "$mode" != clang ] && [ "$mode" != perl ]; }; then
    echo "$usage" >&2
    exit 2
fi
if [ -n "$headers" ] && [ ! -f "$known" ]; then
    echo "$0: no table '$known'" >&2
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
# a failing check is listed and the checking goes on: the position stays where it was
function fail(k, why) {
    printf "line %d: %s: %s%s\n", cline[k], kind[k], pat[k], why
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
    l = 1; c = 1; nnot = nfrom = lost = 0
    for (k = 1; k <= n; k++) {
        if (kind[k] == "CHECK-NOT") { notk[nnot++] = k; continue }
        search(k, l, c, nout, length(out[nout]) + 1)
        if (!fl) { fail(k, " (no match)"); lost = 1; continue }
        if (kind[k] == "CHECK-NEXT" && fl != l + 1 && !lost) {
            fail(k, " (found on output line " fl ", not on line " l + 1 ")")
            lost = 1
            continue
        }
        lost = 0
        ml = fl; mc = fc; mn = mlen
        nots(l, c, ml, mc)
        l = ml; c = mc + mn
    }
    nots(l, c, nout, length(out[nout]) + 1)
}' "$2"
}

# classify NAME FAILURES: each failing check as "KEY<TAB>CHECK" (KEY "-" when no row of the
# table matches it), and "used N" for each row N that matched one
classify() {
    awk -F '\t' -v name="$1" -v fails="$2" '
/^#/ || NF < 3 { next }
$1 == name { n++; row[n] = NR; text[n] = $2; key[n] = $3 }
END {
    while ((getline line < fails) > 0) {
        k = "-"
        p = line
        sub(/^line [0-9]+: CHECK(-NEXT|-NOT)?: /, "", p)
        for (i = 1; i <= n; i++)
            if (index(p, text[i])) {
                k = key[i]
                if (!(row[i] in used)) { used[row[i]] = 1; print "used\t" row[i] }
                break
            }
        print k "\t" line
    }
}' "$known"
}

pass=0
hpass=0
documented=0
fail=0
list=$tmp/list
: >"$tmp/ran"
: >"$tmp/used"
grep -rlE '^[[:space:]]*// RUN:.*%run_test hipify' "$dir" | LC_ALL=C sort >"$list"
while read -r test; do
    name=${test#"$dir"/}
    echo "$name" >>"$tmp/ran"
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
    if [ ! -f "$tmp/out.hip" ]; then
        fail=$((fail + 1))
        printf 'FAIL %s\n    hipport exit %s: %s\n' "$name" "$rc" "$(grep -v '^$' "$tmp/log" | head -1)"
        continue
    fi
    sed -E 's|//.+|// |g' "$tmp/out.hip" >"$tmp/out.stripped"
    check "$tmp/checks" "$tmp/out.stripped" >"$tmp/fails"
    if [ -s "$tmp/fails" ] && [ -n "$headers" ]; then
        libs='hipblas|hipblaslt|rocblas|hipsparse|rocsparse|hipsolver|rocsolver|hiprand|rocrand|hipfft'
        sed -E "s/#include \"($libs)\\.h\"/#include \"\\1\\/\\1.h\"/; s/#include <($libs)\\.h>/#include <\\1\\/\\1.h>/" \
            "$tmp/checks" >"$tmp/checks.d"
        check "$tmp/checks.d" "$tmp/out.stripped" >"$tmp/fails"
        [ -s "$tmp/fails" ] || hpass=$((hpass + 1))
    fi
    if [ ! -s "$tmp/fails" ]; then
        pass=$((pass + 1))
        [ -n "$verbose" ] && echo "PASS $name"
        continue
    fi
    if [ -z "$headers" ]; then
        fail=$((fail + 1))
        echo "FAIL $name"
        sed 's/^/    /' "$tmp/fails"
        continue
    fi
    classify "$name" "$tmp/fails" >"$tmp/class"
    grep '^used	' "$tmp/class" | cut -f2 >>"$tmp/used"
    grep -v '^used	' "$tmp/class" >"$tmp/fails"
    if grep -q '^-	' "$tmp/fails"; then
        fail=$((fail + 1))
        echo "FAIL $name"
        awk -F '\t' '{ line = substr($0, length($1) + 2)
            print "    " line ($1 == "-" ? "" : " [" $1 "]") }' "$tmp/fails"
        continue
    fi
    documented=$((documented + 1))
    echo "DOC $name: $(cut -f1 "$tmp/fails" | awk '!seen[$0]++' | paste -sd, - | sed 's/,/, /g')"
    [ -n "$verbose" ] && cut -f2- "$tmp/fails" | sed 's/^/    /'
done <"$list"
status=0
if [ -n "$headers" ]; then
    echo "conformance ($mode, -d): $pass passed ($hpass with the headers in hipport's spelling)," \
        "$documented documented, $fail failed"
    # the table's rows for a test that ran that matched no failing check, and keys the
    # document's table lacks
    case $known in "$here"/*) table=tools/${known#"$here"/} ;; *) table=$known ;; esac
    awk -F '\t' -v ran="$tmp/ran" -v used="$tmp/used" -v doc="$doc" -v table="$table" '
BEGIN {
    while ((getline l < ran) > 0) r[l] = 1
    while ((getline l < used) > 0) u[l] = 1
    while ((getline l < doc) > 0)
        if (match(l, /^\| `[^`]+` \|/)) d[substr(l, 4, RLENGTH - 6)] = 1
}
/^#/ || NF < 3 { next }
$1 in r && !(NR in u) { printf "unused row %s:%d: %s\n", table, NR, $0; bad = 1 }
!($3 in d) { printf "row %s:%d: no key \"%s\" in docs/hipify-conformance.md\n", table, NR, $3
    bad = 1 }
END { exit bad }' "$known" || status=1
else
    echo "conformance ($mode): $pass passed, $fail failed"
fi
[ "$fail" -eq 0 ] && exit $status
exit 1
