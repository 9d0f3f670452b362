#!/bin/bash
# run.sh: builds and runs the programs of the GPU proof, CUDA originals and hipport's
# translations side by side (see docs/gpu-proof.md). Runs inside the bundle that prepare.sh laid
# out, on the machine with the GPU (an H200: sm_90); with --build-only it needs no GPU, and
# checks on any machine with nvcc that everything compiles.
#
# For each "prog" line of programs.txt and each variant:
#   cuda  cuda/CORPUS/DIR: nvcc -std=c++17 -arch=sm_90 -I. FLAGS SOURCES
#   hip   hip/CORPUS/DIR:  the same with -D__HIP_PLATFORM_NVIDIA__ -I include (HIP's
#                          NVIDIA-platform headers), and nothing else: no shim, no -include
# (-I.: the program's folder, as the corpora's CMake builds have it), FLAGS: the corpus's and the
# program's flags of programs.txt, then
# -Xcompiler -Wno-deprecated-declarations (HIP 6.3's NVIDIA headers wrap calls CUDA 13
# deprecates) and -lcuda (the HIP headers call the driver API). Builds run in parallel; the
# programs then run one at a time, in their own source folder, under a timeout.
#
# Usage: run.sh [--build-only] [-j JOBS] [--timeout SECONDS] [--deadline SECONDS] [--only REGEX]
#               [OUTDIR]
# --timeout: the limit of one run (default 60 s); --deadline: no run starts once this many
# seconds have passed since run.sh started (default none), so that the whole stays inside a
# lease; --only: the programs whose name matches; -j: parallel builds (default: the CPUs).
# Writes OUTDIR (default results/): build/VARIANT/NAME.log, run/VARIANT/NAME.out (standard
# output and error), status.tsv (variant, name, build status, build seconds, exit status, run
# seconds; - where not done; 124: timed out), env.txt, and, after the runs,
# results.md and results.tsv from compare.py.
set -uo pipefail

bundle=$(cd "$(dirname "$0")" && pwd)
build_only=0 jobs=$(nproc 2>/dev/null || echo 4) timeout_s=60 deadline=0 only='' out=''
while [ $# -gt 0 ]; do
  case $1 in
    --build-only) build_only=1 ;;
    -j) jobs=$2; shift ;;
    --timeout) timeout_s=$2; shift ;;
    --deadline) deadline=$2; shift ;;
    --only) only=$2; shift ;;
    --build-one) shift; break ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) out=$1 ;;
  esac
  shift
done
: "${out:=${GP_OUT:-$bundle/results}}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
export GP_OUT=$out
start=$(date +%s)
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
secs() { printf '%d.%d' $(( $1 / 1000 )) $(( $1 % 1000 / 100 )); } # milliseconds as seconds
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cuda_home=$(cd "$(dirname "$nvcc")/.." && pwd)
# the driver library to link (HIP's NVIDIA headers call the driver API): the toolkit's stub, or
# the driver's own library where the toolkit has no stub
libcuda=()
for d in "$cuda_home/lib64/stubs" "$cuda_home/targets/x86_64-linux/lib/stubs" /usr/local/nvidia/lib64 \
         /usr/lib/x86_64-linux-gnu /usr/lib64; do
  if [ -e "$d/libcuda.so" ]; then libcuda=(-L"$d" -lcuda); break; fi
  if [ -e "$d/libcuda.so.1" ]; then libcuda=("$d/libcuda.so.1"); break; fi
done

# the fields of a program: prog NAME -> variables
declare -A corpus_flags=()
while IFS='|' read -r kind name _ _ _ flags; do
  [ "$kind" = corpus ] && corpus_flags[$name]=$flags
done <"$bundle/programs.txt"
program() {
  local kind
  while IFS='|' read -r kind p_name p_corpus p_dir p_sources p_flags p_args _; do
    [ "$kind" = prog ] && [ "$p_name" = "$1" ] && return 0
  done <"$bundle/programs.txt"
  return 1
}

build_one() { # VARIANT NAME
  local variant=$1 name=$2 root flags rc t0 t1
  program "$name" || { echo "no program $name" >&2; return 1; }
  root=$bundle/$variant/$p_corpus
  flags="${corpus_flags[$p_corpus]} $p_flags"
  flags=${flags//@ROOT/$root}
  local extra=()
  [ "$variant" = hip ] && extra=(-D__HIP_PLATFORM_NVIDIA__ -I "$bundle/include")
  mkdir -p "$out/build/$variant" "$out/bin/$variant"
  t0=$(now_ms)
  # shellcheck disable=SC2086 # flags and sources are words
  (cd "$root/$p_dir" && "$nvcc" -std=c++17 -arch=sm_90 "${extra[@]}" -I. $flags \
      -Xcompiler -Wno-deprecated-declarations $p_sources -o "$out/bin/$variant/$name" \
      "${libcuda[@]}") >"$out/build/$variant/$name.log" 2>&1
  rc=$?
  t1=$(now_ms)
  printf '%s\t%s\t%s\t%s\n' "$variant" "$name" "$rc" "$(secs $((t1 - t0)))" >"$out/build/$variant/$name.status"
}
if [ $# -eq 2 ]; then build_one "$1" "$2"; exit; fi

names=()
while IFS='|' read -r kind name _; do
  [ "$kind" = prog ] || continue
  [ -z "$only" ] || [[ $name =~ $only ]] || continue
  names+=("$name")
done <"$bundle/programs.txt"

{
  echo "date: $(date -u +%FT%TZ)"
  "$nvcc" --version | tail -2
  (nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || echo "no nvidia-smi") 2>&1 | head -2
  echo "nvcc $nvcc, driver library: ${libcuda[*]:-none found}"
  echo "jobs $jobs, timeout ${timeout_s}s, deadline ${deadline}s, programs ${#names[@]}"
} >"$out/env.txt"
cat "$out/env.txt"

t0=$(date +%s)
for n in "${names[@]}"; do printf 'cuda %s\nhip %s\n' "$n" "$n"; done |
  xargs -P "$jobs" -L 1 bash "$bundle/run.sh" --build-one
echo "built in $(( $(date +%s) - t0 ))s"

status=$out/status.tsv
printf 'variant\tname\tbuild\tbuild_s\trun\trun_s\n' >"$status"
for n in "${names[@]}"; do
  program "$n"
  for v in cuda hip; do
    IFS=$'\t' read -r _ _ brc bs <"$out/build/$v/$n.status"
    rrc=- rs=-
    late=0
    [ "$deadline" -gt 0 ] && [ $(( $(date +%s) - start )) -ge "$deadline" ] && late=1
    if [ "$brc" = 0 ] && [ "$build_only" = 0 ] && [ "$late" = 0 ]; then
      mkdir -p "$out/run/$v"
      r0=$(now_ms)
      # shellcheck disable=SC2086 # the arguments are words
      (cd "$bundle/$v/$p_corpus/$p_dir" && timeout -k 5 "$timeout_s" "$out/bin/$v/$n" $p_args) \
        </dev/null >"$out/run/$v/$n.out" 2>&1
      rrc=$?
      rs=$(secs $(( $(now_ms) - r0 )))
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$n" "$brc" "$bs" "$rrc" "$rs" | tee -a "$status"
  done
done
rm -rf "${out:?}/bin"
[ "$build_only" = 1 ] && exit 0
python3 "$bundle/compare.py" "$bundle" "$out"
