#!/bin/sh
# check-oracle.sh REFDIR: compares 'hipport targets' with what the vendors' tools printed for
# the binaries of a reference folder (not part of 'make test'). REFDIR holds the binaries,
# oracle/check_agreement.out (the bundle IDs or targets that roc-obj-ls,
# clang-offload-bundler -list, llvm-objdump --offloading and llvm-readelf -h reported, as
# ref=[...] lists) and nvidia_device/ with cuobjdump.txt (cuobjdump --list-elf --list-ptx) and
# the files it listed. AMD lists compare as sets (the reference lists are sets), cuobjdump
# listings as multisets. Prints one line per check and "oracle: N agree, N disagree".
# HIPPORT names the binary (default: build/hipport beside this script).
set -u
ref=${1:?usage: tools/check-oracle.sh REFDIR}
here=$(cd "$(dirname "$0")/.." && pwd)
H=${HIPPORT:-$here/build/hipport}
agree=0
disagree=0
skipped=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hipport-oracle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# json FILE: one line per piece: "kind<TAB>target<TAB>id" (id empty when there is none).
json() {
    "$H" targets --format json "$1" 2>/dev/null | awk '
        function field(key,   m) {
            if (!match($0, "\"" key "\": \"[^\"]*\"")) return ""
            m = substr($0, RSTART, RLENGTH); sub(/^"[^"]*": "/, "", m); sub(/"$/, "", m)
            return m
        }
        /^ *\{"vendor": / { print field("kind") "\t" field("target") "\t" field("id") }'
}

report() { # name tool ours want
    if [ "$3" = "$4" ]; then
        agree=$((agree + 1))
        printf 'agree     %-34s %-28s %s\n' "$1" "$2" "$(echo "$3" | tr '\n' ' ')"
    else
        disagree=$((disagree + 1))
        printf 'DISAGREE  %-34s %-28s hipport: %s| tool: %s\n' "$1" "$2" \
            "$(echo "$3" | tr '\n' ' ')" "$(echo "$4" | tr '\n' ' ')"
    fi
}

# ------------------------------------------------------------ AMD tools
agreement=$ref/oracle/check_agreement.out
if [ ! -f "$agreement" ]; then
    echo "check-oracle: $agreement is missing" >&2
    exit 2
fi
grep -E '^(OK|FAIL) ' "$agreement" | grep -v 'vs cuobjdump' >"$tmp/amd"
while read -r status file vs tool rest; do
    case "$rest" in
    *"ours="*) ;;
    *) continue ;;
    esac
    case "$tool" in
    llvm-objdump-19 | llvm-readelf-19) toolname="$tool $(echo "$rest" | cut -d' ' -f1)" ;;
    clang-offload-bundler-19) toolname="clang-offload-bundler -list" ;;
    *) toolname=$tool ;;
    esac
    path=$ref/$file
    if [ ! -f "$path" ]; then
        skipped=$((skipped + 1))
        echo "skip      $file: not in $ref"
        continue
    fi
    want=$(echo "$rest" | sed 's/.* ref=\[\([^]]*\)\].*/\1/' | tr -d "' " | tr ',' '\n' |
        grep -v '^host-' | grep -v '^$' | sort -u)
    case "$tool" in
    roc-obj-ls | clang-offload-bundler-19)
        # the tools list bundle entry IDs: compare with the IDs hipport read
        ours=$(json "$path" | cut -f3 | grep -v '^$' | sort -u) ;;
    *)
        # llvm-objdump --offloading and llvm-readelf -h name processors
        ours=$(json "$path" | cut -f2 | sort -u) ;;
    esac
    report "$file" "$toolname" "$ours" "$want"
done <"$tmp/amd"
grep -E '^SKIP ' "$agreement" | while read -r _ file _ tool _; do
    echo "skip      $file vs ${tool%:}: the tool printed nothing (a compressed bundle)"
done

# ------------------------------------------------------------ cuobjdump
cuobj=$ref/nvidia_device/cuobjdump.txt
if [ -f "$cuobj" ]; then
    # "== NAME" then lines "ELF file 1: x.1.sm_80.cubin" / "PTX file 1: x.1.sm_90.ptx"
    awk -v dir="$tmp" '
        /^== / { name = $2; next }
        /^(ELF|PTX) file/ {
            f = $NF; sub(/\.(cubin|ptx)$/, "", f); n = split(f, p, "."); arch = p[n]
            print $1 " " arch >> (dir "/nv." name)
        }' "$cuobj"
    for list in "$tmp"/nv.*; do
        [ -f "$list" ] || continue
        name=${list##*/nv.}
        path=$ref/nvidia_device/$name
        if [ ! -f "$path" ]; then
            skipped=$((skipped + 1))
            echo "skip      $name: not in $ref/nvidia_device"
            continue
        fi
        want=$(sort "$list")
        # every copy counts (cuobjdump lists each container). cuobjdump calls PTX entries sm_XY and prints family cubins without their 'f'
        ours=$(json "$path" | awk -F'\t' '
            $1 == "sass" { t = $2; sub(/f$/, "", t); print "ELF " t }
            $1 == "ptx" { t = $2; sub(/^compute_/, "sm_", t); print "PTX " t }' | sort)
        report "nvidia_device/$name" "cuobjdump --list-elf --list-ptx" "$ours" "$want"
    done
fi

echo "oracle: $agree agree, $disagree disagree${skipped:+ ($skipped skipped)}"
[ "$disagree" = 0 ]
