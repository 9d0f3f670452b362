#!/bin/sh
# layers.suite.sh: the library's layering is enforced by the build. For every folder of src/,
# a file compiled with that folder's include flags (as the Makefile gives them: make
# layer-flags) can include a header of each folder it may use, and cannot include one of any
# other folder: an include upward (base including xlate.h) or sideways (targets including
# rules.h) fails to compile. And every file of the library compiles with its folder's flags
# alone (make builds it so), no header of a folder includes a folder its own may not use, and
# no object calls a function of a folder its own may not use.
# Prints "layers: N passed, N failed".
HIPPORT=$1
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/hipport-layers.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$root" || exit 4
B=$(dirname "$HIPPORT")
pass=0
fail=0
CC=${CC:-cc}
# one header of each folder
header() {
    case $1 in
    base) echo str.h ;; lex) echo lex.h ;; report) echo ruletab.h ;; translate) echo xlate.h ;;
    check) echo rules.h ;; targets) echo tscan.h ;; doctor) echo doctor.h ;; api) echo "" ;;
    esac
}
layers=$(ls src)
for l in $layers; do
    flags=$(make -s --no-print-directory layer-flags LAYER="$l" B="$B") || { fail=$((fail + 1)); continue; }
    for d in $layers; do
        h=$(header "$d")
        [ -n "$h" ] || continue
        printf '#include "%s"\nint layers_probe;\n' "$h" >"$work/probe.c"
        if $CC -std=c11 $flags -fsyntax-only "$work/probe.c" 2>/dev/null; then got=builds; else got=fails; fi
        case " $flags " in
        *" -Isrc/$d "*) want=builds ;;
        *) want=fails ;;
        esac
        if [ "$got" = "$want" ]; then
            pass=$((pass + 1))
        else
            echo "layers: src/$l including $d's $h $got, and should be: $want" >&2
            fail=$((fail + 1))
        fi
    done
    # the quoted includes of the folder's own files name only headers of folders it may use
    for f in src/"$l"/*.[ch]; do
        for inc in $(sed -n 's/^#include "\([a-z_0-9]*\.h\)".*/\1/p' "$f"); do
            owner=$(ls src/*/"$inc" 2>/dev/null | head -n 1 | cut -d/ -f2)
            [ -n "$owner" ] || continue # generated: build/gen
            case " $flags " in
            *" -Isrc/$owner "*) pass=$((pass + 1)) ;;
            *) echo "layers: $f includes $owner's $inc" >&2; fail=$((fail + 1)) ;;
            esac
        done
    done
done
# Calls through the public header (hipport.h) are links, not includes: every function an
# object of a folder calls is defined in a folder it may use (nm over the built objects).
if command -v nm >/dev/null 2>&1 && [ -d "$B/src" ]; then
    for o in "$B"/src/*/*.o; do
        l=$(basename "$(dirname "$o")")
        nm "$o" 2>/dev/null | awk -v l="$l" '$2 ~ /^[TDBR]$/ { print $3, l }'
    done >"$work/defs"
    for l in $layers; do
        flags=$(make -s --no-print-directory layer-flags LAYER="$l" B="$B")
        for o in "$B/src/$l"/*.o; do
            [ -f "$o" ] || continue
            bad=$(nm -u "$o" 2>/dev/null | awk '{ print $NF }' | sort -u |
                awk -v flags=" $flags " 'FNR == NR { def[$1] = $2; next }
                    ($1 in def) && index(flags, " -Isrc/" def[$1] " ") == 0 { print $1 " (" def[$1] ")" }' \
                    "$work/defs" -)
            if [ -z "$bad" ]; then
                pass=$((pass + 1))
            else
                echo "layers: $o calls into a folder $l may not use: $(echo $bad)" >&2
                fail=$((fail + 1))
            fi
        done
    done
else
    echo "layers: no built objects under $B/src or no nm: the calls were not checked" >&2
    fail=$((fail + 1))
fi
echo "layers: $pass passed, $fail failed"
[ $fail = 0 ]
