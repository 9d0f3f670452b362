// Online softmax statistics as fused attention and softmax kernels keep them: a struct of the
// running maximum and the sum of exponentials, combined across a warp with cg::reduce and an
// operator of the program's own (cooperative groups reduce any copyable type, not only the
// arithmetic ones), and a 16-bit value (__half) reduced the same way.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "common/cuda_check.h"

namespace cg = cooperative_groups;

struct SumMax {
    float maxval;
    float sum;
};

struct SumMaxCombine {
    __device__ SumMax operator()(SumMax a, SumMax b) const
    {
        SumMax r;
        r.maxval = fmaxf(a.maxval, b.maxval);
        r.sum = a.sum * expf(a.maxval - r.maxval) + b.sum * expf(b.maxval - r.maxval);
        return r;
    }
};

struct HalfMax {
    __device__ __half operator()(__half a, __half b) const { return __hgt(a, b) ? a : b; }
};

__global__ void softmax_stats_kernel(SumMax *stats, __half *hmax, const float *inp, int N, int C)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (row >= N)
        return;
    SumMax s = {-INFINITY, 0.0f};
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        float v = inp[row * C + i], m = fmaxf(s.maxval, v);
        s.sum = s.sum * expf(s.maxval - m) + expf(v - m);
        s.maxval = m;
    }
    s = cg::reduce(warp, s, SumMaxCombine());
    __half h = cg::reduce(warp, __float2half(s.maxval), HalfMax());
    if (warp.thread_rank() == 0) {
        stats[row] = s;
        hmax[row] = h;
    }
}

int main()
{
    const int N = 1024, C = 512;
    float *inp = (float *)cudaMallocChecked((size_t)N * C * sizeof(float));
    SumMax *stats = (SumMax *)cudaMallocChecked(N * sizeof(SumMax));
    __half *hmax = (__half *)cudaMallocChecked(N * sizeof(__half));
    softmax_stats_kernel<<<N / 8, 256>>>(stats, hmax, inp, N, C);
    cudaCheck(cudaGetLastError());
    cudaCheck(cudaDeviceSynchronize());
    cudaCheck(cudaFree(inp));
    cudaCheck(cudaFree(stats));
    cudaCheck(cudaFree(hmax));
    return 0;
}
