#!/bin/sh
# targets.suite.sh: builds GPU binaries with the compilers found on this machine (Debian's
# hipcc, clang-19 with lld-19, nvcc) and checks what 'hipport targets' lists in them and
# whether it says they run on a GPU. Each compiler that is missing skips its cases with a
# message. $1 is the hipport binary. Prints "targets: N passed, N failed".
H=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/tests/targets/src
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hipport-targets.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "targets FAIL: $*" >&2
}
skip() { echo "targets: skipped: $*" >&2; }

# The targets of a file as sorted "vendor target kind compressed" items, one per line.
list() {
    "$H" targets --format json "$1" 2>"$tmp/err" |
        sed -n 's/^ *{"vendor": "\([^"]*\)", "target": "\([^"]*\)", "kind": "\([^"]*\)", "compressed": \([a-z]*\).*/\1 \2 \3 \4/p' |
        sort -u
}

# objdump_agrees NAME FILE: the offloading images llvm-objdump-19 --offloading lists in FILE
# (.llvm.offloading sections: LLVM 19 reads no offload bundles there) are what targets lists
# as AMD code of that processor and kind ("elf" a code object, "llvm ir" bitcode). Skipped
# with a message without llvm-objdump-19 (apt-get install llvm-19).
objdump_agrees() {
    name=$1
    file=$2
    if ! command -v llvm-objdump-19 >/dev/null 2>&1; then
        skip "$name: llvm-objdump-19 not found (apt-get install llvm-19)"
        return
    fi
    want=$(llvm-objdump-19 --offloading "$file" 2>/dev/null | awk '
        /^kind/ { $1 = ""; sub(/^ +/, ""); kind = ($0 == "elf") ? "code-object" : ($0 == "llvm ir") ? "bitcode" : $0 }
        /^arch/ { arch = $2 }
        /^triple/ { if ($2 ~ /^amdgcn/) print "amd " arch " " kind }' | sort -u)
    if [ -z "$want" ]; then
        bad "$name: llvm-objdump-19 --offloading lists no image in $file"
        return
    fi
    got=$(list "$file" | awk '{ print $1, $2, $3 }' | sort -u)
    if [ "$got" = "$want" ]; then
        ok
    else
        bad "$name: llvm-objdump-19 --offloading lists: $(echo $want); targets: $(echo $got)"
    fi
}

# expect NAME FILE ITEM...: the file's targets are exactly these items.
expect() {
    name=$1
    file=$2
    shift 2
    if [ ! -f "$file" ]; then
        bad "$name: $file was not built"
        return
    fi
    got=$(list "$file")
    want=$(for i in "$@"; do echo "$i"; done | sort -u)
    if [ "$got" = "$want" ]; then
        ok
    else
        bad "$name: got [$(echo "$got" | tr '\n' ';')] want [$(echo "$want" | tr '\n' ';')]"
    fi
}

# verdict NAME FILE GPU RC [WORD]: --gpu GPU exits with RC (and prints WORD).
verdict() {
    out=$("$H" targets --gpu "$3" "$2" 2>&1)
    rc=$?
    if [ "$rc" != "$4" ]; then
        bad "$1: --gpu $3 exited $rc, expected $4: $out"
    elif [ -n "$5" ] && ! echo "$out" | grep -q "$5"; then
        bad "$1: --gpu $3 does not say '$5': $out"
    else
        ok
    fi
}

# build NAME COMMAND...: runs a compiler; a failure is a failed case.
build() {
    name=$1
    shift
    if "$@" >"$tmp/build.log" 2>&1; then
        return 0
    fi
    bad "$name: build failed: $*"
    sed 's/^/    /' "$tmp/build.log" | head -20 >&2
    return 1
}

cd "$tmp" || exit 4
hiplib=
for d in /usr/lib/x86_64-linux-gnu /usr/lib /opt/rocm/lib; do
    [ -e "$d/libamdhip64.so" ] && hiplib=$d
done

# ------------------------------------------------------------ Debian's hipcc (clang 15)
if ! command -v hipcc >/dev/null 2>&1; then
    skip "hipcc not found (apt-get install hipcc)"
else
    # hipcc runs rocm_agent_enumerator when no GPU is named; every case names its targets.
    if build hipcc-features hipcc --offload-arch=gfx90a:xnack+ --offload-arch=gfx908:sramecc+:xnack- \
        --offload-arch=gfx1030 -o hip-features "$src/k.hip"; then
        expect hipcc-features hip-features "amd gfx90a:xnack+ code-object false" \
            "amd gfx908:sramecc+:xnack- code-object false" "amd gfx1030 code-object false"
        verdict hipcc-features hip-features gfx90a 1 "WILL NOT RUN"
        verdict hipcc-features hip-features gfx90a:xnack+ 0 "RUNS"
        verdict hipcc-features hip-features gfx908:sramecc+ 0 "RUNS"
        verdict hipcc-features hip-features gfx908:sramecc- 1 "needs sramecc on"
        verdict hipcc-features hip-features gfx1030 0 "RUNS"
        verdict hipcc-features hip-features gfx1100 1 "other processors"
    fi
    if build hipcc-shared hipcc --offload-arch=gfx906 --offload-arch=gfx90a -DNO_MAIN -fPIC -shared \
        -o libk.so "$src/k.hip"; then
        expect hipcc-shared libk.so "amd gfx906 code-object false" "amd gfx90a code-object false"
    fi
    if build hipcc-object hipcc --offload-arch=gfx906 --offload-arch=gfx90a -DNO_MAIN -c -o k.o \
        "$src/k.hip" &&
        build hipcc-rdc hipcc -fgpu-rdc --offload-arch=gfx906 --offload-arch=gfx90a -DNO_MAIN -c \
            -o k-rdc.o "$src/k.hip"; then
        expect hipcc-object k.o "amd gfx906 code-object false" "amd gfx90a code-object false"
        expect hipcc-rdc k-rdc.o "amd gfx906 bitcode false" "amd gfx90a bitcode false"
        verdict hipcc-rdc k-rdc.o gfx90a 1 "device link"
        cp k.o a_member_name_longer_than_sixteen.o && cp k-rdc.o another_long_member_name.o &&
            ar rc libk.a a_member_name_longer_than_sixteen.o another_long_member_name.o
        expect hipcc-archive libk.a "amd gfx906 code-object false" "amd gfx90a code-object false" \
            "amd gfx906 bitcode false" "amd gfx90a bitcode false"
    fi
    if build hipcc-genco hipcc --offload-arch=gfx906 --offload-arch=gfx90a --genco -o k.hsaco \
        "$src/k.hip"; then
        expect hipcc-genco k.hsaco "amd gfx906 code-object false" "amd gfx90a code-object false"
    fi
fi

# ------------------------------------------------------------ clang-19 with lld-19
if ! command -v clang-19 >/dev/null 2>&1 || ! command -v ld.lld-19 >/dev/null 2>&1; then
    skip "clang-19 or lld-19 not found (apt-get install clang-19 lld-19)"
elif [ -z "$hiplib" ]; then
    skip "clang-19: libamdhip64.so not found (apt-get install libamdhip64-dev)"
else
    C="clang-19 -x hip --rocm-path=/usr -nogpulib -O2"
    L="-L$hiplib -lamdhip64"
    if build clang-multi $C --offload-arch=gfx942 --offload-arch=gfx90a:xnack+ \
        --offload-arch=gfx1100 "$src/k.hip" -o c-multi $L; then
        expect clang-multi c-multi "amd gfx942 code-object false" \
            "amd gfx90a:xnack+ code-object false" "amd gfx1100 code-object false"
        verdict clang-multi c-multi gfx942:sramecc+:xnack- 0 "RUNS"
        verdict clang-multi c-multi sm_90 1 "only AMD code"
    fi
    if build clang-compress $C --offload-arch=gfx942 --offload-arch=gfx1100 --offload-compress \
        "$src/k.hip" -o c-compressed $L; then
        expect clang-compress c-compressed "amd gfx942 code-object true" \
            "amd gfx1100 code-object true"
        verdict clang-compress c-compressed gfx1100 0 "RUNS"
        out=$(HIPPORT_NO_CODECS=1 "$H" targets --gpu gfx942 c-compressed 2>&1)
        if [ $? = 3 ] && echo "$out" | grep -q "libzstd.so.1" && echo "$out" | grep -q UNKNOWN; then
            ok
        else
            bad "clang-compress without codecs: $out"
        fi
    fi
    if build clang-newdriver $C --offload-new-driver --offload-arch=gfx942 --offload-arch=gfx1100 \
        -DNO_MAIN -c "$src/k.hip" -o c-newdriver.o; then
        expect clang-newdriver c-newdriver.o "amd gfx942 code-object false" \
            "amd gfx1100 code-object false"
    fi
    if build clang-newdriver-rdc $C -fgpu-rdc --offload-new-driver --offload-arch=gfx942 \
        --offload-arch=gfx1100 -c "$src/k.hip" -o c-nd-rdc.o; then
        expect clang-newdriver-rdc c-nd-rdc.o "amd gfx942 bitcode false" "amd gfx1100 bitcode false"
        objdump_agrees clang-newdriver-rdc-objdump c-nd-rdc.o
        # the device link turns the bitcode into code objects (needs clang-tools-19)
        if command -v clang-linker-wrapper-19 >/dev/null 2>&1 ||
            [ -x /usr/lib/llvm-19/bin/clang-linker-wrapper ]; then
            if build clang-newdriver-link clang++-19 --rocm-path=/usr -fgpu-rdc --offload-new-driver \
                --hip-link --offload-arch=gfx942 --offload-arch=gfx1100 c-nd-rdc.o -o c-nd-rdc $L; then
                expect clang-newdriver-link c-nd-rdc "amd gfx942 code-object false" \
                    "amd gfx1100 code-object false"
                verdict clang-newdriver-link c-nd-rdc gfx942 0 "RUNS"
            fi
        else
            skip "clang-linker-wrapper not found (apt-get install clang-tools-19)"
        fi
    fi
    if build clang-rdc $C -fgpu-rdc --offload-arch=gfx942 --offload-arch=gfx90a -DNO_MAIN -c \
        "$src/k.hip" -o c-rdc.o; then
        expect clang-rdc c-rdc.o "amd gfx942 bitcode false" "amd gfx90a bitcode false"
    fi
    if build clang-generic $C --offload-arch=gfx11-generic -mcode-object-version=6 \
        --offload-arch=gfx942 "$src/k.hip" -o c-generic $L; then
        expect clang-generic c-generic "amd gfx11-generic code-object false" \
            "amd gfx942 code-object false"
        verdict clang-generic c-generic gfx1101 0 "covers gfx1101"
        verdict clang-generic c-generic gfx1151 0 "RUNS"
        verdict clang-generic c-generic gfx1030 1 "WILL NOT RUN"
    fi
    if build clang-bare $C --offload-arch=gfx942 --cuda-device-only --no-gpu-bundle-output \
        -DNO_MAIN -c "$src/k.hip" -o c-942.hsaco &&
        build clang-bare-xnack $C --offload-arch=gfx90a:xnack- --cuda-device-only \
            --no-gpu-bundle-output -DNO_MAIN -c "$src/k.hip" -o c-90a.hsaco; then
        expect clang-bare c-942.hsaco "amd gfx942 code-object false"
        expect clang-bare-xnack c-90a.hsaco "amd gfx90a:xnack- code-object false"
        verdict clang-bare-xnack c-90a.hsaco gfx90a 0 "RUNS"
        verdict clang-bare-xnack c-90a.hsaco gfx90a:xnack+ 1 "needs xnack off"
    fi
fi

# ------------------------------------------------------------ nvcc
NVCC=
if command -v nvcc >/dev/null 2>&1; then
    NVCC=nvcc
elif [ -x /usr/local/cuda/bin/nvcc ]; then
    NVCC=/usr/local/cuda/bin/nvcc
fi
if [ -z "$NVCC" ]; then
    skip "nvcc not found"
else
    if build nvcc-exe $NVCC -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90a,code=sm_90a \
        -gencode arch=compute_90,code=compute_90 -cudart shared -o n-exe "$src/k.cu"; then
        expect nvcc-exe n-exe "nvidia sm_80 sass false" "nvidia sm_90a sass false" \
            "nvidia compute_90 ptx true"
        verdict nvcc-exe n-exe 9.0 0 "sm_90a SASS"
        verdict nvcc-exe n-exe 8.6 0 "sm_80 SASS"
        verdict nvcc-exe n-exe sm_100 0 "compute_90 PTX"
        verdict nvcc-exe n-exe 7.5 1 "WILL NOT RUN"
        verdict nvcc-exe n-exe gfx942 1 "only NVIDIA code"
    fi
    if build nvcc-nocompress $NVCC -gencode arch=compute_80,code=sm_80 \
        -gencode arch=compute_80,code=compute_80 -compress-mode=none -fatbin -o n-plain.fatbin \
        "$src/k.cu"; then
        expect nvcc-nocompress n-plain.fatbin "nvidia sm_80 sass false" "nvidia compute_80 ptx false"
    fi
    if build nvcc-rdc $NVCC -rdc=true -gencode arch=compute_80,code=sm_80 -DNO_MAIN -c -o n-rdc.o \
        "$src/k.cu" && build nvcc-lib $NVCC -lib -o libn.a n-rdc.o; then
        expect nvcc-rdc n-rdc.o "nvidia sm_80 sass true"
        expect nvcc-lib libn.a "nvidia sm_80 sass true"
    fi
    if build nvcc-cubin $NVCC -arch=sm_90a -cubin -o n-90a.cubin "$src/k.cu"; then
        expect nvcc-cubin n-90a.cubin "nvidia sm_90a sass false"
        verdict nvcc-cubin n-90a.cubin 9.0 0 "RUNS"
        verdict nvcc-cubin n-90a.cubin 10.0 1 "exactly 9.0"
    fi
    # family targets (CUDA 12.9 and later); -arch=sm_100f embeds compute_100 PTX as well
    if "$NVCC" --list-gpu-code 2>/dev/null | grep -q sm_100 &&
        "$NVCC" -arch=sm_100f -cubin -o /dev/null "$src/k.cu" >/dev/null 2>&1; then
        if build nvcc-family $NVCC -arch=sm_100f -fatbin -o n-fam.fatbin "$src/k.cu"; then
            expect nvcc-family n-fam.fatbin "nvidia sm_100f sass false" \
                "nvidia compute_100f ptx true" "nvidia compute_100 ptx true"
            verdict nvcc-family n-fam.fatbin 10.3 0 "RUNS"
            verdict nvcc-family n-fam.fatbin 9.0 1 "WILL NOT RUN"
        fi
    else
        skip "nvcc: no family targets (-arch=sm_100f)"
    fi
fi

echo "targets: $pass passed, $fail failed"
[ "$fail" = 0 ]
