#!/bin/sh
# make-seeds.sh: seed corpora for the targets fuzzers from tests/targets/fixtures, in
# build-fuzz/seeds/{elf,bundle,fatbin}. fuzz_bundle and fuzz_fatbin read a mode byte first;
# the seeds carry 0 there ("the input as it is"). Sections are cut out with objcopy.
# Then, one at a time (T is elf, bundle or fatbin):
#   mkdir -p tests/fuzz/corpus-run/T
#   build-fuzz/fuzz_T -max_total_time=600 -timeout=10 -rss_limit_mb=2048 \
#       -dict=tests/fuzz/targets.dict -artifact_prefix=build-fuzz/ \
#       tests/fuzz/corpus-run/T build-fuzz/seeds/T
set -eu
cd "$(dirname "$0")/../.."
fx=tests/targets/fixtures
out=build-fuzz/seeds
rm -rf "$out"
mkdir -p "$out/elf" "$out/bundle" "$out/fatbin"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hipport-seeds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
for f in "$fx"/*; do
    case $f in *.md) continue ;; esac
    cp "$f" "$out/elf/"
done
mode0() { { printf '\000'; cat "$1"; } >"$2"; }
for f in "$fx"/*.hipfb; do mode0 "$f" "$out/bundle/$(basename "$f")"; done
for f in "$fx"/amd-*; do
    for s in .hip_fatbin .llvm.offloading; do
        if objcopy --dump-section "$s=$tmp/sec" "$f" "$tmp/o" 2>/dev/null && [ -s "$tmp/sec" ]; then
            mode0 "$tmp/sec" "$out/bundle/$(basename "$f")$s"
        fi
        rm -f "$tmp/sec" "$tmp/o"
    done
done
for f in "$fx"/nv-*.fatbin "$fx"/nv-*.cubin; do mode0 "$f" "$out/fatbin/$(basename "$f")"; done
for f in "$fx"/nv-*; do
    for s in .nv_fatbin __nv_relfatbin; do
        if objcopy --dump-section "$s=$tmp/sec" "$f" "$tmp/o" 2>/dev/null && [ -s "$tmp/sec" ]; then
            mode0 "$tmp/sec" "$out/fatbin/$(basename "$f")$s"
        fi
        rm -f "$tmp/sec" "$tmp/o"
    done
done
ls "$out"/* | wc -l
