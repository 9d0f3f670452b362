#!/bin/bash
# prepare.sh: lays out the bundle of the GPU proof (tools/gpu-proof, docs/gpu-proof.md).
#
# Runs on the development machine (no GPU needed). It
#   1. assembles HIP's NVIDIA-platform headers under BUNDLE/include from three git directories:
#      ROCm/HIP include/hip, hipother hipnv/include/hip/nvidia_detail, clr
#      hipamd/include/hip/amd_detail (hip_runtime_api.h includes amd_detail/host_defines.h on
#      both platforms), writes hip/hip_version.h (HIP 6.3.0: no build system made one) and
#      applies cuda13.py, the edits CUDA 13 needs;
#   2. extracts each corpus of programs.txt at its pinned commit into BUNDLE/cuda/CORPUS (the
#      programs' folders and the corpus's shared paths, such as cuda-samples' Common/);
#   3. translates the whole BUNDLE/cuda tree with `hipport translate -O BUNDLE/hip` (the default
#      target: the newest HIP hipport knows), as a user would translate a project; the
#      diagnostics go to BUNDLE/translate.log; the files hipport does not write (data, build
#      files) are copied beside the translation;
#   4. copies run.sh, compare.py and programs.txt beside them and writes BUNDLE/manifest.txt
#      (commits, hipport's commit, sizes).
# The bundle is then self-contained: run.sh builds and runs everything on the GPU machine.
#
# Usage: prepare.sh [options] BUNDLE
#   --mirror DIR          git directories as DIR/OWNER+NAME/repo, for every input below not given
#   --hip-git DIR         github:ROCm/HIP                       (commit c5e11fca, HIP 6.3)
#   --hipother-git DIR    github:ROCm-Developer-Tools/hipother  (tag rocm-6.3.1)
#   --clr-git DIR         github:ROCm/clr                       (branch release/rocm-rel-6.3.0.1)
#   --corpus NAME=DIR     the git directory of the corpus NAME of programs.txt (repeatable)
#   --hipport BIN         the hipport to translate with (default: build/hipport of this checkout)
# BUNDLE is emptied first. Nothing fetched is written outside BUNDLE.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
hipport=$top/build/hipport
mirror='' hip_git='' hipother_git='' clr_git=''
HIP_REF=c5e11fcac8249ce4f7e70157588ff9661a870b59
HIPOTHER_REF=rocm-6.3.1
CLR_REF=release/rocm-rel-6.3.0.1
declare -A corpus_git=()

die() { echo "prepare.sh: $*" >&2; exit 1; }
while [ $# -gt 1 ]; do
  case $1 in
    --mirror) mirror=$2 ;;
    --hip-git) hip_git=$2 ;;
    --hipother-git) hipother_git=$2 ;;
    --clr-git) clr_git=$2 ;;
    --corpus) corpus_git[${2%%=*}]=${2#*=} ;;
    --hipport) hipport=$2 ;;
    *) die "unknown option $1" ;;
  esac
  shift 2
done
[ $# -eq 1 ] || die "usage: prepare.sh [--mirror DIR] [--hip-git DIR] [--hipother-git DIR] [--clr-git DIR] [--corpus NAME=DIR]... [--hipport BIN] BUNDLE"
bundle=$1
from_mirror() { # fetch name (OWNER/NAME) -> git directory under --mirror
  [ -n "$mirror" ] || die "no git directory for $1: give it or --mirror"
  echo "$mirror/${1/\//+}/repo"
}
: "${hip_git:=$(from_mirror ROCm/HIP)}"
: "${hipother_git:=$(from_mirror ROCm-Developer-Tools/hipother)}"
: "${clr_git:=$(from_mirror ROCm/clr)}"
[ -x "$hipport" ] || die "no hipport at $hipport (make -j2 first)"

# extract GITDIR REF DEST PATH...: the paths of commit REF under DEST. A fetched snapshot can
# lack its largest blobs (documents, images): those are left out and named in extract.log (git
# archive still names them there, as errors it does not stop for). Folders named doc/ (the
# samples' PDF and Word documents) are left out too
extract() {
  local git=$1 ref=$2 dest=$3; shift 3
  mkdir -p "$dest"
  git --git-dir="$git" rev-parse --verify -q "$ref^{commit}" >/dev/null || die "$git has no $ref"
  git --git-dir="$git" ls-tree -r --format='%(objectname) %(path)' "$ref" -- "$@" >"$bundle/.files"
  cut -d' ' -f1 "$bundle/.files" | git --git-dir="$git" cat-file --batch-check='%(objectname) %(objecttype)' \
    >"$bundle/.types" 2>/dev/null
  paste -d' ' "$bundle/.types" "$bundle/.files" | awk '$2 == "missing" { print "absent: " $NF }' \
    >>"$bundle/extract.log"
  paste -d' ' "$bundle/.types" "$bundle/.files" | awk '$2 != "missing" { sub(/^[^ ]+ [^ ]+ [^ ]+ /, ""); if ($0 !~ /(^|\/)doc\//) print }' |
    tr '\n' '\0' | xargs -0 git --git-dir="$git" archive "$ref" -- 2>>"$bundle/extract.log" | tar -x -C "$dest"
  rm -f "$bundle/.files" "$bundle/.types"
  local p
  for p in "$@"; do [ -e "$dest/$p" ] || die "$p of $git@$ref did not arrive"; done
}

rm -rf "$bundle"
mkdir -p "$bundle"
bundle=$(cd "$bundle" && pwd)
: >"$bundle/extract.log"

# 1. headers
tmp=$bundle/.tmp
extract "$hip_git" "$HIP_REF" "$tmp/hip" include/hip
extract "$hipother_git" "$HIPOTHER_REF" "$tmp/hipother" hipnv/include/hip/nvidia_detail
extract "$clr_git" "$CLR_REF" "$tmp/clr" hipamd/include/hip/amd_detail
mkdir -p "$bundle/include"
cp -r "$tmp/hip/include/hip" "$bundle/include/hip"
cp -r "$tmp/hipother/hipnv/include/hip/nvidia_detail" "$bundle/include/hip/nvidia_detail"
cp -r "$tmp/clr/hipamd/include/hip/amd_detail" "$bundle/include/hip/amd_detail"
cat >"$bundle/include/hip/hip_version.h" <<'VER'
// written by hipport's tools/gpu-proof/prepare.sh: HIP's build writes this file, and the
// headers were taken from git, not from an installed HIP
#ifndef HIP_VERSION_H
#define HIP_VERSION_H
#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 3
#define HIP_VERSION_PATCH 0
#define HIP_VERSION_GITHASH ""
#define HIP_VERSION_BUILD_ID 0
#define HIP_VERSION_BUILD_NAME ""
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)
#endif
VER
python3 "$here/cuda13.py" "$bundle/include"
rm -rf "$tmp"

# 2. corpora: "corpus|NAME|FETCH NAME|COMMIT|SHARED PATHS|NVCC FLAGS" and
#    "prog|NAME|CORPUS|DIR|SOURCES|NVCC FLAGS|ARGS|MASK" lines of programs.txt
progs=$here/programs.txt
declare -A corpus_fetch=() corpus_commit=() corpus_paths=()
while IFS='|' read -r kind name fetch commit paths _; do
  [ "$kind" = corpus ] || continue
  corpus_fetch[$name]=$fetch corpus_commit[$name]=$commit corpus_paths[$name]=$paths
done <"$progs"
for c in "${!corpus_fetch[@]}"; do
  dirs=${corpus_paths[$c]}
  while IFS='|' read -r kind name corpus dir _; do
    [ "$kind" = prog ] && [ "$corpus" = "$c" ] && dirs="$dirs $dir"
  done <"$progs"
  git=${corpus_git[$c]:-$(from_mirror "${corpus_fetch[$c]}")}
  # shellcheck disable=SC2086,SC2046 # the paths are words
  extract "$git" "${corpus_commit[$c]}" "$bundle/cuda/$c" $(printf '%s\n' $dirs | sort -u)
done

# 3. translation of the whole tree
set +e
"$hipport" translate -O "$bundle/hip" "$bundle/cuda" >"$bundle/translate.log" 2>&1
echo "exit $?" >>"$bundle/translate.log"
set -e
[ -d "$bundle/hip" ] || die "hipport wrote no translation (see $bundle/translate.log)"
# -O writes the translated sources only: the rest of the project (data files the programs
# read, build files) is copied beside them, as in a copy of the project translated in place
cp -rn "$bundle/cuda/." "$bundle/hip/"

# 4. scripts and manifest
cp "$here/run.sh" "$here/compare.py" "$progs" "$bundle/"
{
  echo "hipport $(git -C "$top" rev-parse HEAD 2>/dev/null || echo unknown) ($("$hipport" --version 2>/dev/null | head -1 || true))"
  echo "ROCm/HIP $(git --git-dir="$hip_git" rev-parse "$HIP_REF^{commit}") include/hip"
  echo "ROCm-Developer-Tools/hipother $(git --git-dir="$hipother_git" rev-parse "$HIPOTHER_REF^{commit}") ($HIPOTHER_REF) hipnv/include/hip/nvidia_detail"
  echo "ROCm/clr $(git --git-dir="$clr_git" rev-parse "$CLR_REF^{commit}") ($CLR_REF) hipamd/include/hip/amd_detail"
  for c in "${!corpus_fetch[@]}"; do
    echo "${corpus_fetch[$c]} ${corpus_commit[$c]} (corpus $c)"
  done
  echo "bundle $(du -sh "$bundle" | cut -f1)"
} >"$bundle/manifest.txt"
cat "$bundle/manifest.txt"
tail -1 "$bundle/translate.log"
