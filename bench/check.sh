#!/bin/sh
# check.sh: how fast hipport check reads a tree. Generates (once) bench/corpus/check, about
# 10 MB of CUDA-like sources in 200 files with kernels, warp code, launches and host calls,
# then times `hipport check` over it with 1 job and with every CPU, and prints MB/s.
# usage: sh bench/check.sh [build/hipport] [MB]
HIPPORT=${1:-build/hipport}
MB=${2:-10}
cd "$(dirname "$0")/.." || exit 2
dir=bench/corpus/check-$MB
if [ ! -f "$dir/.done" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    awk -v dir="$dir" -v mb="$MB" '
    function kernel(f, i) {
        printf "__global__ void __launch_bounds__(256) k%d(const float *__restrict__ in, float *out, int n) {\n", i > f
        printf "    __shared__ float tile[256];\n" > f
        printf "    int tid = threadIdx.x;\n    int lane = tid %% warpSize;\n" > f
        printf "    int i = blockIdx.x * blockDim.x + tid;\n" > f
        printf "    float v = i < n ? in[i] : 0.0f;\n" > f
        printf "    for (int o = warpSize / 2; o > 0; o /= 2)\n        v += __shfl_down(v, o);\n" > f
        printf "    tile[tid] = v; // partial sums %d\n    __syncthreads();\n", i > f
        printf "    if (lane == 0 && i < n) atomicAdd(&out[blockIdx.x], tile[tid]);\n}\n\n" > f
    }
    function host(f, i) {
        printf "void run%d(float *d_in, float *d_out, int n, cudaStream_t s) {\n", i > f
        printf "    dim3 grid((n + 255) / 256), block(256);\n" > f
        printf "    k%d<<<grid, block, 0, s>>>(d_in, d_out, n);\n", i > f
        printf "    CHECK(cudaGetLastError());\n    CHECK(cudaMemcpyAsync(d_out, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice, s));\n}\n\n" > f
    }
    BEGIN {
        target = mb * 1000000; files = 200; per = target / files
        for (n = 0; n < files; n++) {
            f = sprintf("%s/d%02d/file%03d.cu", dir, n % 20, n)
            if (n < 20) system("mkdir -p " dir sprintf("/d%02d", n))
            printf "#include <cuda_runtime.h>\n#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) return; } while (0)\n\n" > f
            size = 0; i = 0
            while (size < per) { kernel(f, n * 1000 + i); host(f, n * 1000 + i); size += 820; i++ }
            close(f)
        }
    }'
    touch "$dir/.done"
fi
bytes=$(cat "$dir"/*/*.cu | wc -c)
files=$(ls "$dir"/*/*.cu | wc -l)
now() { date +%s.%N; }
for j in 1 0; do
    opt="-j $j"
    [ "$j" = 0 ] && opt="" && j=$(nproc 2>/dev/null || echo 1)
    "$HIPPORT" check $opt --format json "$dir" >/dev/null 2>&1 # warm the cache
    t0=$(now)
    "$HIPPORT" check $opt --format json "$dir" >/dev/null 2>&1
    t1=$(now)
    awk -v b="$bytes" -v f="$files" -v t0="$t0" -v t1="$t1" -v j="$j" 'BEGIN {
        s = t1 - t0; printf "check: %d files, %.1f MB, %d job(s): %.3f s, %.0f MB/s\n", f, b / 1e6, j, s, b / 1e6 / s }'
done
