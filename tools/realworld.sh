#!/bin/bash
# realworld.sh HIPPORT=PATH [OPTIONS] CORPUS...: measures hipport's translations on real CUDA
# code bases. For each corpus directory (its configuration: tools/realworld/NAME.conf, NAME the
# directory's name) and each header set:
#   1. the corpus is translated as a user would: hipport translate --hip-version V CORPUS -O DIR,
#      translate's findings kept in OUT/NAME/SET/translate.txt;
#   2. the programs are picked: the C-family sources (not headers) under the configured
#      subtrees that hold a kernel (__global__) or a main() that translation changed;
#   3. each program's translation is compiled against the set, the way tests/compile.sh does
#      (hip-5.2: Debian 12's hipcc for gfx90a, -c; rocm-7.2: clang++-19 for gfx942 against
#      build/rocm-7.2, the device side to ISA assembly and assembled, the host side to an
#      object, every HIP header read from the set), each within a fixed time (-t);
#   4. a failure's first error is placed in the original (the error's file:line, or, inside a
#      header outside the tree, the first line of the translation the compiler names with it),
#      compared with translate's findings (a warning or error on that line or the three above)
#      and classified with tools/realworld/categories.tsv (the first row whose pattern, an
#      extended regular expression, matches the first error line); a category marked
#      "external" there (a dependency not installed here, which the original needs as well)
#      is recorded as such, not as silent.
# Prints a Markdown table (corpus, header set, programs, compiled, failed, silent, external) and the
# failures; writes OUT/summary.tsv and OUT/failures.tsv.
#
# Options:
#   -o DIR     output directory (default build/realworld)
#   -j N       parallel compilations (default 2)
#   -t SECS    time limit of one program's compilation (default 180)
#   -s SETS    header sets, comma-separated (default hip-5.2,rocm-7.2)
#   -r DIR     the ROCm 7.2 header set (default build/rocm-7.2, made by tests/rocm-headers.sh)
#   -c DIR     where the .conf files and categories.tsv are (default tools/realworld)
#   --reclassify   do not translate or compile: classify the logs of an earlier run again
#                  (after editing categories.tsv) and print the tables
#
# A configuration (NAME.conf) has one setting per line, "KEY VALUE", '#' starts a comment:
#   subtree DIR      where the programs are, relative to the corpus (repeatable; default .)
#   include DIR      an include directory relative to the corpus (repeatable)
#   define NAME[=V]  a macro for the compilers (repeatable)
#   skip GLOB        programs not compiled: a shell pattern on the path in the corpus
#   exclude GLOB     paths not translated (hipport translate --exclude GLOB)
#   flags ARGS       extra compiler flags (both sets); flags-hip-5.2 / flags-rocm-7.2 for one
#   translate ARGS   extra hipport translate options
#   note TEXT        a remark, printed with the table
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
self=$top/tools/realworld.sh

# ---------------------------------------------------------------- one compilation (internal)
# realworld.sh --compile-one SET ROCMSET SRC OBJBASE FLAGS...: exit status of the compilers
if [ "${1:-}" = --compile-one ]; then
    set_=$2 rset=$3 src=$4 o=$5
    shift 5
    case $src in *.cu | *.cuh) lang= ;; *) lang="-x hip" ;; esac
    if [ "$set_" = hip-5.2 ]; then
        exec hipcc --offload-arch=gfx90a -std=c++17 $lang "$@" -c "$src" -o "$o.o"
    fi
    CLANG=${CLANG:-clang++-19}
    set -- -x hip --offload-arch=gfx942 --rocm-path="$rset" -nogpulib -isystem "$rset/include" \
        -std=c++17 -O1 "$@"
    "$CLANG" "$@" --cuda-device-only -S "$src" -o "$o.s" -MD -MF "$o.dev.d" || exit 1
    "$CLANG" --target=amdgcn-amd-amdhsa -mcpu=gfx942 -c -x assembler "$o.s" -o "$o.dev.o" ||
        { echo "$src:1:1: error: the device assembly does not assemble for gfx942"; exit 1; }
    "$CLANG" "$@" --cuda-host-only -c "$src" -o "$o.host.o" -MD -MF "$o.host.d" || exit 1
    leak=$(cat "$o.dev.d" "$o.host.d" | tr ' \\' '\n\n' | grep -v "^$rset/" |
        grep -E '^(/usr(/local)?/include|/opt/rocm[^/]*)/(hip|roc|hipcub|hipblas|hipfft|hiprand|hipsparse|thrust|hsa|cub)' |
        sort -u | head -1)
    [ -z "$leak" ] || { echo "$src:1:1: error: a header from outside the set was used: $leak"; exit 1; }
    rm -f "$o.s" "$o.dev.o" "$o.host.o"
    exit 0
fi

die() { echo "realworld: $*" >&2; exit 2; }
HIPPORT= out=$top/build/realworld jobs=2 limit=180 sets=hip-5.2,rocm-7.2
rset=$top/build/rocm-7.2 confdir=$top/tools/realworld reclassify=
corpora=()
while [ $# -gt 0 ]; do
    case $1 in
    HIPPORT=*) HIPPORT=${1#HIPPORT=} ;;
    -o) out=$2; shift ;;
    -j) jobs=$2; shift ;;
    -t) limit=$2; shift ;;
    -s) sets=$2; shift ;;
    -r) rset=$2; shift ;;
    -c) confdir=$2; shift ;;
    --reclassify) reclassify=1 ;;
    -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) corpora+=("$1") ;;
    esac
    shift
done
[ ${#corpora[@]} -gt 0 ] || die "usage: realworld.sh HIPPORT=PATH [-o DIR] [-j N] [-t SECS] [-s SETS] CORPUS..."
[ -n "$reclassify" ] || [ -x "$HIPPORT" ] || die "HIPPORT=PATH must name the hipport binary"
[ -n "$reclassify" ] || HIPPORT=$(cd "$(dirname "$HIPPORT")" && pwd)/$(basename "$HIPPORT")
cats=$confdir/categories.tsv
[ -f "$cats" ] || die "$cats is missing"
mkdir -p "$out"
out=$(cd "$out" && pwd)
rset=$(mkdir -p "$rset" && cd "$rset" && pwd)
IFS=, read -r -a setlist <<<"$sets"
for s in "${setlist[@]}"; do
    case $s in
    hip-5.2) command -v hipcc >/dev/null || die "hip-5.2: hipcc not found" ;;
    rocm-7.2) [ -f "$rset/include/hip/hip_version.h" ] ||
        die "rocm-7.2: no header set in $rset (sh tests/rocm-headers.sh $rset)" ;;
    *) die "unknown header set $s (hip-5.2, rocm-7.2)" ;;
    esac
done

# conf_get FILE KEY: the values of KEY, one a line
conf_get() {
    [ -f "$1" ] || return 0
    awk -v k="$2" '{ sub(/[ \t]*#.*/, "") } $1 == k { sub(/^[^ \t]+[ \t]+/, ""); print }' "$1"
}

# place LOG TREE: "relpath line text" of the first error; relpath in the tree (empty when the
# compiler names no line of the translation), line in the translation
place() {
    awk -v p="$2/" '
        function loc(s,   r) {
            if (index(s, p) != 1 || !match(s, /:[0-9]+(:[0-9]+)?[:,]/)) return ""
            r = substr(s, length(p) + 1, RSTART - length(p) - 1)
            while (substr(r, 1, 2) == "./") r = substr(r, 3)
            l = substr(s, RSTART + 1); sub(/[:,].*/, "", l)
            return r " " l
        }
        !seen && /^In file included from / {
            s = $0; sub(/^In file included from /, "", s)
            if (loc(s) != "" && inc == "") inc = loc(s)
            next
        }
        !seen && /^                 from / { next }
        !seen && /(fatal )?error: / {
            seen = 1; text = $0
            here = loc($0)
            if (here != "") { print here, text; exit }
            next
        }
        !seen { inc = "" }
        seen && loc($0) != "" { print loc($0), text; found = 1; exit }
        END {
            if (seen && !found && here == "") {
                if (inc != "") print inc, text; else print "-", 0, text
            }
        }' "$1"
}

# origline ORIG TRANSLATION LINE: the line of ORIG that LINE of the translation comes from (a
# line translation added maps to the original line above it; in a run of changed lines, the
# k-th new line to the k-th old one, or the run's last)
origline() {
    diff --old-line-format='-
' --new-line-format='+
' --unchanged-line-format='=
' "$1" "$2" | awk -v t="$3" '
        $0 == "=" { o++; n++; d = 0; a = 0 } $0 == "-" { o++; d++ } $0 == "+" { n++; a++ }
        $0 != "-" && n == t {
            if ($0 == "+" && d > 0) o = o - d + (a < d ? a : d)
            print (o > 0 ? o : 1); done = 1; exit
        }
        END { if (!done) print t }'
}

# expansions LOG TREE: "file line" (relative to TREE) of each "note: expanded from macro" that
# follows the first error of LOG: where the code that failed was written, when the error is at
# a macro's use
expansions() {
    awk -v p="$2/" '
        !seen && /(fatal )?error: / { seen = 1; next }
        !seen { next }
        / (error|warning): / { exit }
        /: note: expanded from macro / && index($0, p) == 1 && match($0, /:[0-9]+:[0-9]+: note/) {
            r = substr($0, length(p) + 1, RSTART - length(p) - 1)
            while (substr(r, 1, 2) == "./") r = substr(r, 3)
            l = substr($0, RSTART + 1); sub(/:.*/, "", l)
            print r, l
        }' "$1"
}

# reported_at ORIGFILE LINE TRANSLATE_TXT: "yes:IDS" if translate warned or erred on LINE or
# the three lines above it in ORIGFILE, else "no"
reported_at() {
    awk -v f="$1" -v l="$2" '
        index($0, f ":") == 1 {
            n = substr($0, length(f) + 2); sub(/:.*/, "", n); n += 0
            if (n <= l && n >= l - 3 && $0 ~ /: (warning|error): / && match($0, /\[[A-Z0-9-]+\]$/)) {
                ids = ids (ids == "" ? "" : ",") substr($0, RSTART + 1, RLENGTH - 2)
            }
        }
        END { print (ids == "" ? "no" : "yes:" ids) }' "$3"
}

# classify TEXT: "id<TAB>reason<TAB>scope" of the first matching row of categories.tsv (scope:
# "external" where the cause is not translation's, else empty)
classify() {
    awk -F'\t' -v t="$1" '
        /^#/ || NF < 3 { next }
        t ~ $1 { print $2 "\t" $3 "\t" $4; found = 1; exit }
        END { if (!found) print "unclassified\t-\t" }' "$cats"
}

# analyse CORPUSDIR NAME SET: writes OUT/NAME/SET/failures.tsv from the logs
analyse() {
    local dir=$1 name=$2 s=$3 w=$out/$2/$3 key rel res
    : >"$w/failures.tsv"
    while IFS=$'\t' read -r rel res; do
        [ "$res" = PASS ] && continue
        key=$(echo "$rel" | tr / _)
        local log=$w/logs/$key.log erel line text oline delta cat rep
        if [ "$res" = TIMEOUT ]; then
            erel=$rel oline=0 text="(no result in ${limit}s)"
        else
            read -r erel line text <<<"$(place "$log" "$w/tree")"
            [ -n "$text" ] || text=$(grep -m1 -E 'error' "$log" || echo "(no error line)")
            oline=0
            if [ "$erel" != - ] && [ -f "$dir/$erel" ] && [ -f "$w/tree/$erel" ]; then
                oline=$(origline "$dir/$erel" "$w/tree/$erel" "$line")
            fi
        fi
        text=$(printf '%s' "$text" | tr '\t' ' ' | sed "s|$w/tree/||g; s|^\./||; s|$rset|ROCM|g")
        local scope=
        if [ "$res" = TIMEOUT ]; then
            cat="timeout	compilation ran past ${limit}s"
        else
            cat=$(classify "$text")
            scope=${cat##*	}
            cat=${cat%	*}
        fi
        # reported: translate's warning or error on the line or the three above it, or, for
        # an error at a macro's use, at a line of the macro the compiler says it expanded
        rep=$(reported_at "$dir/$erel" "$oline" "$w/translate.txt")
        if [ "$rep" = no ] && [ "$res" != TIMEOUT ]; then
            local mrel mline mo
            while read -r mrel mline; do
                [ -f "$dir/$mrel" ] && [ -f "$w/tree/$mrel" ] || continue
                mo=$(origline "$dir/$mrel" "$w/tree/$mrel" "$mline")
                rep=$(reported_at "$dir/$mrel" "$mo" "$w/translate.txt")
                [ "$rep" = no ] || { rep="$rep(macro)"; break; }
            done < <(expansions "$log" "$w/tree")
        fi
        # an error in the device assembly names no source line: reported when translate
        # flagged inline PTX (HP-PTX) in the program, the assembly's only source of raw
        # instructions
        if [ "$rep" = no ] && printf '%s' "$text" | grep -qE '\.s:[0-9]+:[0-9]+: error|device assembly does not assemble' &&
            grep -q "^$dir/$rel:[0-9]*:[0-9]*: warning: .*\[HP-PTX\]$" "$w/translate.txt"; then
            rep="yes:HP-PTX(asm)"
        fi
        # a cause outside translation (a dependency not installed here, which the original
        # needs as well): not translate's to report
        [ "$rep" != no ] || [ "$scope" != external ] || rep=external
        printf '%s\t%s\t%s\t%s:%s\t%s\t%s\t%s\n' "$name" "$s" "$rel" "$erel" "$oline" "$rep" \
            "$cat" "$text" >>"$w/failures.tsv"
    done <"$w/results.tsv"
}

# run_set CORPUSDIR NAME SET CONF
run_set() {
    local dir=$1 name=$2 s=$3 conf=$4 w=$out/$2/$3 hipv flags=() tflags=() g
    hipv=${s#*-}
    rm -rf "$w"
    mkdir -p "$w/logs" "$w/obj"
    while read -r g; do [ -n "$g" ] && tflags+=(--exclude "$g"); done < <(conf_get "$conf" exclude)
    # shellcheck disable=SC2046
    "$HIPPORT" translate --hip-version "$hipv" "${tflags[@]}" $(conf_get "$conf" translate) \
        "$dir" -O "$w/tree" 2>"$w/translate.txt"
    echo "$?" >"$w/translate.rc"
    while read -r g; do
        g=${g#./}
        case $g in "") ;; .) flags+=(-I"$w/tree") ;; *) flags+=(-I"$w/tree/${g%/}") ;; esac
    done < <(conf_get "$conf" include)
    while read -r g; do [ -n "$g" ] && flags+=(-D"$g"); done < <(conf_get "$conf" define)
    # shellcheck disable=SC2207
    flags+=($(conf_get "$conf" flags) $(conf_get "$conf" "flags-$s"))
    # the programs
    local subs skips rel f
    subs=$(conf_get "$conf" subtree)
    [ -n "$subs" ] || subs=.
    skips=$(conf_get "$conf" skip)
    : >"$w/programs.txt"
    for g in $subs; do
        (cd "$dir" && find "./$g" -type f \( -name '*.cu' -o -name '*.cpp' -o -name '*.cc' \
            -o -name '*.cxx' -o -name '*.c' \) | sed 's|^\./||; s|^\./||' | sort)
    done | sort -u | while read -r rel; do
        f=$dir/$rel
        [ -f "$w/tree/$rel" ] || continue
        for g in $skips; do
            # shellcheck disable=SC2254
            case $rel in $g) continue 2 ;; esac
        done
        if grep -q '__global__' "$f" ||
            { grep -qE '(^|[^A-Za-z0-9_])main[[:space:]]*\(' "$f" && ! cmp -s "$f" "$w/tree/$rel"; }; then
            echo "$rel"
        fi
    done >"$w/programs.txt"
    # compile, $jobs at a time
    local key
    while read -r rel; do
        key=$(echo "$rel" | tr / _)
        (
            timeout -k 10 "$limit" "$self" --compile-one "$s" "$rset" "$w/tree/$rel" "$w/obj/$key" \
                "${flags[@]}" >"$w/logs/$key.log" 2>&1
            rc=$?
            case $rc in
            0) r=PASS ;; 124 | 137) r=TIMEOUT ;; *) r=FAIL ;;
            esac
            printf '%s\t%s\n' "$rel" "$r" >"$w/obj/$key.result"
            rm -f "$w/obj/$key".*.o "$w/obj/$key.o" "$w/obj/$key.s"
        ) &
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    done <"$w/programs.txt"
    wait
    cat "$w"/obj/*.result 2>/dev/null | sort >"$w/results.tsv"
}

for c in "${corpora[@]}"; do
    [ -d "$c" ] || die "$c is not a directory"
    dir=$(cd "$c" && pwd)
    name=$(basename "$dir")
    conf=$confdir/$name.conf
    [ -f "$conf" ] || echo "realworld: $name: no $conf, using the defaults" >&2
    for s in "${setlist[@]}"; do
        if [ -z "$reclassify" ]; then
            echo "realworld: $name $s: translating and compiling" >&2
            run_set "$dir" "$name" "$s" "$conf"
        fi
        [ -f "$out/$name/$s/results.tsv" ] || die "$name $s: no results in $out/$name/$s"
        echo "$dir" >"$out/$name/$s/corpus"
        analyse "$dir" "$name" "$s"
    done
done

# ---------------------------------------------------------------- the tables
printf 'corpus\tset\tprograms\tcompiled\tfailed\tsilent\texternal\n' >"$out/summary.tsv"
printf 'corpus\tset\tprogram\terror_at\treported\tcategory\treason\tfirst_error\n' >"$out/failures.tsv"
echo "| corpus | header set | programs | compiled | failed | silent failures | not translation's |"
echo "|---|---|---:|---:|---:|---:|---:|"
for c in "${corpora[@]}"; do
    name=$(basename "$(cd "$c" && pwd)")
    for s in "${setlist[@]}"; do
        w=$out/$name/$s
        p=$(wc -l <"$w/results.tsv")
        ok=$(grep -c $'\tPASS$' "$w/results.tsv")
        fl=$(wc -l <"$w/failures.tsv")
        si=$(awk -F'\t' '$5 == "no"' "$w/failures.tsv" | wc -l)
        ex=$(awk -F'\t' '$5 == "external"' "$w/failures.tsv" | wc -l)
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$s" "$p" "$ok" "$fl" "$si" "$ex" >>"$out/summary.tsv"
        echo "| $name | $s | $p | $ok | $fl | $si | $ex |"
        cat "$w/failures.tsv" >>"$out/failures.tsv"
    done
done
echo
echo "| corpus | header set | program | first error at | reported | category | first error |"
echo "|---|---|---|---|---|---|---|"
tail -n +2 "$out/failures.tsv" | awk -F'\t' '{
    e = $8; gsub(/\|/, "\\|", e); if (length(e) > 160) e = substr(e, 1, 157) "..."
    printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, e }'
echo
echo "| category | header set | programs sunk | silent | reason |"
echo "|---|---|---:|---:|---|"
tail -n +2 "$out/failures.tsv" | awk -F'\t' '{ k = $6 "\t" $2; n[k]++; if ($5 == "no") q[k]++; r[$6] = $7 }
    END { for (k in n) { split(k, a, "\t"); printf "%d\t| %s | %s | %d | %d | %s |\n", n[k], a[1], a[2], n[k], q[k], r[a[1]] } }' |
    sort -t$'\t' -k1,1nr | cut -f2-
for c in "${corpora[@]}"; do
    name=$(basename "$(cd "$c" && pwd)")
    conf_get "$confdir/$name.conf" note | sed "s|^|note ($name): |" >&2
done
exit 0
