#!/bin/sh
# registry.suite.sh: check's rules have one registry. Code names a rule by its RID_ macro
# (build/gen/rule_ids.h, made from data/tables/rules.tsv), so a misspelled id fails to compile,
# and no bare id literal is left in the library; a table that names an unknown rule fails the
# build. And a new rule keyed on a new name fires with only the steps docs/architecture.md
# lists (a rules.tsv row, its page, a rule_keys.tsv row, the family's code), shown on a copy
# of the tree that is built (in the plain run; the sanitizer run says it leaves that out).
# Prints "registry: N passed, N failed".
HIPPORT=$1
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/hipport-registry.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$root" || exit 4
B=$(dirname "$HIPPORT")
CC=${CC:-cc}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "registry: $*" >&2; fail=$((fail + 1)); }

# 1. no bare rule-id literal in the library: every id is a RID_ macro (an id: a rule family of
# docs/rules and three digits; other such words, GPU models like "GB200", are not ids)
fams=$(ls docs/rules | sed -n 's/^\([A-Z]*\)[0-9][0-9][0-9]\.md$/\1/p' | sort -u | paste -sd'|' -)
lits=$(grep -nE "\"($fams)[0-9]{3}\"" src/*/*.c src/*/*.h | grep -v '^src/api/' || true)
if [ -z "$lits" ]; then ok; else bad "bare rule ids (write RID_ID): $lits"; fi

# 2. a RID_ of a rule that exists compiles; a misspelled one does not
printf '#include "rule_ids.h"\nconst char *probe = RID_WAVE001;\n' >"$work/good.c"
printf '#include "rule_ids.h"\nconst char *probe = RID_WAVE01;\n' >"$work/bad.c"
if $CC -std=c11 -I"$B/gen" -fsyntax-only "$work/good.c" 2>/dev/null; then ok; else bad "RID_WAVE001 does not compile"; fi
if $CC -std=c11 -I"$B/gen" -fsyntax-only "$work/bad.c" 2>/dev/null; then bad "RID_WAVE01 compiles"; else ok; fi
# every rule of the table has its macro
n=$(grep -cE '^#define RID_[A-Z]+[0-9]+ ' "$B/gen/rule_ids.h")
rows=$(grep -cv '^#' data/tables/rules.tsv)
if [ "$n" = "$rows" ]; then ok; else bad "rule_ids.h has $n macros for $rows rules"; fi

# 3. a table naming an unknown rule fails the generator, naming the file, line and id
printf 'cudaProbe\tWAVE0001\tident\tany\teach\t-\tmsg\t-\n' >"$work/names.tsv"
if "$B/gentab" ids data/tables/rules.tsv "$work/names.tsv:2" >/dev/null 2>"$work/err"; then
    bad "gentab accepts an unknown rule id"
elif grep -q "names.tsv:1: error: unknown rule id .*WAVE0001" "$work/err"; then
    ok
else
    bad "gentab's message for an unknown id: $(cat "$work/err")"
fi
if "$B/gentab" ids data/tables/rules.tsv data/tables/rule_names.tsv:2 >/dev/null 2>&1; then ok; else bad "rule_names.tsv names an unknown rule"; fi

# 5. a plain-name row that says a name has no HIP form names nothing translate rewrites (a
# finding at error for what the translation fixes sends a porter after nothing)
maps=$(cat data/cuda2hip/*.tsv | awk -F'\t' '!/^#/ && NF > 1 && $2 != "-" { print $1 }' | sort -u)
said=$(awk -F'\t' '!/^#/ && $7 ~ /has no HIP implementation/ { print $1 }' data/tables/rule_names.tsv | sort -u)
both=$(printf '%s\n' "$maps" | comm -12 - "$(printf '%s\n' "$said" >"$work/said"; echo "$work/said")")
if [ -z "$both" ]; then ok; else bad "rule_names.tsv says these have no HIP form, but translate rewrites them: $both"; fi

# 4. a new rule keyed on a new name, added by the documented steps, fires
case $B in
*-san*)
    echo "registry: the build of a tree with a new rule runs in the plain run only"
    ;;
*)
    t=$work/tree
    mkdir -p "$t"
    cp -r Makefile include src cli data docs tools "$t"/
    printf 'KL099\tkl\twarning\t-\tc++\ta probe rule\tdo not call hipportProbeName\n' >>"$t/data/tables/rules.tsv"
    printf '# KL099: a probe rule\n\nA rule added by the documented steps.\n' >"$t/docs/rules/KL099.md"
    printf 'hipportProbeName\tname\tkl\n' >>"$t/data/tables/rule_keys.tsv"
    # the family's code: a branch at the top of its loop over the tokens of its bit
    awk '{ print }
        !done && index($0, "for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_KL)) >= 0;) {") {
            print "        if (c->t[i].kind == TK_IDENT && rules_is(c, i, \"hipportProbeName\"))"
            print "            rules_report(c, RID_KL099, i, 0, 0, \"a probe\", NULL);"
            done = 1
        }' src/check/rules_kl.c >"$t/src/check/rules_kl.c"
    grep -q RID_KL099 "$t/src/check/rules_kl.c" || bad "rules_kl.c: the loop this test extends has changed"
    printf '__global__ void k(int *p) { hipportProbeName(p); }\n' >"$work/probe.cu"
    jobs=$(nproc 2>/dev/null || echo 2)
    if make -s -C "$t" -j"$jobs" build/hipport >"$work/build.log" 2>&1; then
        ok
        if "$t/build/hipport" check "$work/probe.cu" 2>&1 | grep -q 'KL099'; then ok; else bad "the new rule does not fire"; fi
        # without its rule_keys.tsv row the family never sees the name
        sed -i '/^hipportProbeName	/d' "$t/data/tables/rule_keys.tsv"
        if make -s -C "$t" -j"$jobs" build/hipport >"$work/build.log" 2>&1 &&
            ! "$t/build/hipport" check "$work/probe.cu" 2>&1 | grep -q 'KL099'; then
            ok
        else
            bad "the rule fires without its rule_keys.tsv row (or the tree does not build)"
        fi
        # a misspelled id in the family's code fails the build, naming the macro
        sed -i 's/RID_KL099/RID_KL99/' "$t/src/check/rules_kl.c"
        if make -s -C "$t" -j"$jobs" build/hipport >"$work/build.log" 2>&1; then
            bad "a misspelled rule id builds"
        elif grep -q 'RID_KL99' "$work/build.log"; then
            ok
        else
            bad "the build failed, not on the misspelled id: $(tail -3 "$work/build.log")"
        fi
    else
        bad "the tree with a new rule does not build: $(tail -5 "$work/build.log")"
    fi
    ;;
esac
echo "registry: $pass passed, $fail failed"
[ "$fail" = 0 ]
