#!/bin/sh
# platform.suite.sh: translations are single-source HIP, for HIP's AMD and NVIDIA platforms
# alike. hipport_compat.h, preprocessed as HIP's NVIDIA platform sees it (for each HIP major
# version it tests), calls no __builtin_amdgcn_* builtin and no maskless shuffle or vote (CUDA
# has none from sm_70 on), and as HIP's AMD platform sees it still defines every function; and
# no header-guard test of the compile corpus becomes a guard that only HIP's AMD platform
# defines. Needs only a C preprocessor (cc -E). Prints "platform: N passed, N failed".
HIPPORT=$1
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/hipport-platform.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "platform: $*" >&2; fail=$((fail + 1)); }

"$HIPPORT" translate --compat-header >"$work/hipport_compat.h" || bad "no compat header"
# HIP's headers as empty stand-ins: only the header's own text is preprocessed
mkdir -p "$work/inc/hip" "$work/inc/cooperative_groups"
for h in hip/hip_runtime.h hip/hip_fp16.h hip/hip_bf16.h hip/hip_version.h hip/hip_bfloat16.h \
    cooperative_groups.h cooperative_groups/reduce.h; do
    : >"$work/inc/$h"
done
pp() {  # pp DEFINES...: the header after the preprocessor, without line markers
    cc -E -P -x c++ -nostdinc -I"$work/inc" "$@" "$work/hipport_compat.h" 2>"$work/pp.err"
}
for major in 5 6 7; do
    nv=$(pp -D__HIP_PLATFORM_NVIDIA__ -DHIP_VERSION_MAJOR=$major -DHIP_VERSION_MINOR=0) ||
        { bad "cc -E failed: $(head -3 "$work/pp.err")"; continue; }
    amd=$(pp -D__HIP_PLATFORM_AMD__ -DHIP_VERSION_MAJOR=$major -DHIP_VERSION_MINOR=0)
    # what the NVIDIA platform must not see: amdgcn builtins, maskless shuffles and votes
    hits=$(echo "$nv" | grep -oE '__builtin_amdgcn_[a-z_]*|__shfl(_up|_down|_xor)?[[:space:]]*\(|__(ballot|any|all)[[:space:]]*\(' |
        sort -u | tr '\n' ' ')
    if [ -z "$hits" ]; then ok; else bad "HIP $major, NVIDIA platform: the compat header calls $hits"; fi
    # the same functions on both platforms
    for f in hipport_syncwarp hipport_reduce_add_sync hipport_shfl_xor_sync hipport_shfl_down_sync \
        hipport_cg reduce hipport_drv_get_error_string hipport_sparse_error_string hipport_ldcs \
        hipport_stcs; do
        nvn=$(echo "$nv" | grep -c "$f")
        amdn=$(echo "$amd" | grep -c "$f")
        if [ "$nvn" -gt 0 ] && [ "$amdn" -gt 0 ]; then ok; else
            bad "HIP $major: $f defined on NVIDIA $nvn, AMD $amdn times"
        fi
    done
done

# Header guards: the guards of hip/driver_types.h and hip/hip_texture_types.h are defined on
# HIP's AMD platform only; a CUDA guard test must never become one of them.
"$HIPPORT" translate "$root/tests/compile" -O "$work/out" 2>/dev/null
amd_only=$(grep -rlE 'HIP_INCLUDE_HIP_DRIVER_TYPES_H|HIP_INCLUDE_HIP_HIP_TEXTURE_TYPES_H' "$work/out")
if [ -z "$amd_only" ]; then ok; else bad "AMD-only guards in: $amd_only"; fi
# ... while the programs that test CUDA's guards still test a HIP one
if grep -q HIP_INCLUDE_HIP_HIP_RUNTIME_API_H "$work/out/driver_types_guard.cu"; then ok; else
    bad "driver_types_guard.cu: the guard test became no HIP guard"
fi
echo "platform: $pass passed, $fail failed"
[ $fail = 0 ]
