#!/bin/sh
# make-fixtures.sh: rebuilds tests/targets/fixtures from tests/targets/src with clang-19 (and
# lld-19), Debian's hipcc and nvcc. The fixtures are committed, so tests never need these
# tools; run this only to change them, then re-bless the golden cases (UPDATE=1).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/src
out=$here/fixtures
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hipport-fixtures.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# Compile from the source directory with relative names, so that no build path is recorded.
cd "$src"

C="clang-19 -x hip --rocm-path=/usr -nogpulib -O2"
HIPLIB="-L/usr/lib/x86_64-linux-gnu -lamdhip64"
DEV="--cuda-device-only --no-gpu-bundle-output -DNO_MAIN -c"

# bare AMDGPU code objects
$C --offload-arch=gfx942 $DEV k.hip -o "$out/amd-gfx942.hsaco"
$C --offload-arch=gfx90a:xnack+ $DEV k.hip -o "$out/amd-gfx90a-xnack.hsaco"
$C --offload-arch=gfx908:sramecc+:xnack- $DEV k.hip -o "$out/amd-gfx908-features.hsaco"
$C --offload-arch=gfx1030 -mcode-object-version=4 $DEV k.hip -o "$out/amd-gfx1030-v4.hsaco"
$C --offload-arch=gfx11-generic -mcode-object-version=6 $DEV k.hip \
    -o "$out/amd-gfx11-generic.hsaco" 2>/dev/null
# offload bundles: plain and compressed (CCOB v2, zstd)
$C --offload-arch=gfx942 --offload-arch=gfx90a:xnack+ --cuda-device-only -DNO_MAIN -c \
    k.hip -o "$out/amd-bundle.hipfb"
$C --offload-arch=gfx942 --offload-arch=gfx90a:xnack+ --cuda-device-only --offload-compress \
    -DNO_MAIN -c k.hip -o "$out/amd-bundle-zstd.hipfb"
# host files: an executable with a compressed bundle, objects with .hip_fatbin, -fgpu-rdc
# bundle sections and .llvm.offloading
$C --offload-arch=gfx942 --offload-arch=gfx90a:xnack+ --offload-compress k.hip \
    -o "$out/amd-exe-compressed" $HIPLIB
$C --offload-arch=gfx942 --offload-arch=gfx1100 -DNO_MAIN -c k.hip -o "$out/amd-obj.o"
$C --offload-arch=gfx942 --offload-arch=gfx1100 -fgpu-rdc -DNO_MAIN -c k.hip \
    -o "$out/amd-rdc.o"
$C --offload-arch=gfx942 --offload-arch=gfx1100 -fgpu-rdc --offload-new-driver -DNO_MAIN -c \
    k.hip -o "$out/amd-newdriver-rdc.o"
# a static archive whose member names need the GNU long-name table
cp "$out/amd-obj.o" "$tmp/kernels_for_gfx942_and_gfx1100.o"
cp "$out/amd-rdc.o" "$tmp/relocatable_device_code.o"
rm -f "$out/amd-lib.a"
(cd "$tmp" && ar rc "$out/amd-lib.a" kernels_for_gfx942_and_gfx1100.o relocatable_device_code.o)
# Debian's hipcc (HIP 5.2, code object v4) with target features
hipcc --offload-arch=gfx90a:xnack+ --offload-arch=gfx908:sramecc+:xnack- --offload-arch=gfx1030 \
    k.hip -o "$out/amd-hipcc-features" 2>/dev/null

N=/usr/local/cuda/bin/nvcc
$N -arch=sm_80 -cubin -o "$out/nv-sm80.cubin" k.cu
$N -arch=sm_90a -cubin -o "$out/nv-sm90a.cubin" k.cu
$N -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90a,code=sm_90a \
    -gencode arch=compute_90,code=compute_90 -fatbin -o "$out/nv-multi.fatbin" k.cu
$N -gencode arch=compute_100f,code=sm_100f -gencode arch=compute_120f,code=compute_120f \
    -fatbin -o "$out/nv-family.fatbin" k.cu
$N -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90 \
    -compress-mode=none -fatbin -o "$out/nv-nocompress.fatbin" k.cu
$N -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90 -DNO_MAIN -c \
    -o "$out/nv-obj.o" k.cu
$N -rdc=true -gencode arch=compute_80,code=sm_80 -DNO_MAIN -c -o "$out/nv-rdc.o" k.cu
$N -arch=sm_80 -cudart shared -o "$out/nv-exe" k.cu
ls -l "$out"
