// hip-5.2: reported
// Layer-norm forward as written in plain CUDA C trainers: one warp per row with
// cooperative_groups tiles, cg::reduce from cooperative_groups/reduce.h for the mean and
// variance, and __restrict__ pointers with streaming stores.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
#include <cstdio>
#include "common/cuda_check.h"

namespace cg = cooperative_groups;

__global__ void layernorm_forward_kernel(float *__restrict__ out, float *__restrict__ mean,
                                         float *__restrict__ rstd, const float *__restrict__ inp,
                                         const float *__restrict__ weight,
                                         const float *__restrict__ bias, int N, int C)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (idx >= N)
        return;
    const float *x = inp + idx * C;

    float sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size())
        sum += x[i];
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    float m = sum / C;
    if (warp.thread_rank() == 0 && mean != nullptr)
        __stcs(mean + idx, m);

    sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        float diff = x[i] - m;
        sum += diff * diff;
    }
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    float s = rsqrtf(sum / C + 1e-5f);
    if (warp.thread_rank() == 0 && rstd != nullptr)
        __stcs(rstd + idx, s);

    float *o = out + idx * C;
    for (int c = warp.thread_rank(); c < C; c += warp.size()) {
        float n = s * (__ldcs(x + c) - m);
        __stcs(o + c, n * weight[c] + bias[c]);
    }
}

__global__ void row_max_kernel(float *out, const float *inp, int N, int C)
{
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (row >= N)
        return;
    float m = -INFINITY;
    for (int i = warp.thread_rank(); i < C; i += 32)
        m = fmaxf(m, inp[row * C + i]);
    m = cg::reduce(warp, m, cg::greater<float>());
    if (warp.thread_rank() == 0)
        out[row] = m;
}

int main()
{
    const int B = 8, T = 1024, C = 768, N = B * T;
    float *out = (float *)cudaMallocChecked((size_t)N * C * sizeof(float));
    float *inp = (float *)cudaMallocChecked((size_t)N * C * sizeof(float));
    float *mean = (float *)cudaMallocChecked(N * sizeof(float));
    float *rstd = (float *)cudaMallocChecked(N * sizeof(float));
    float *w = (float *)cudaMallocChecked(C * sizeof(float));
    float *b = (float *)cudaMallocChecked(C * sizeof(float));
    const int block_size = 512;
    const int grid_size = CEIL_DIV(N * 32, block_size);
    layernorm_forward_kernel<<<grid_size, block_size>>>(out, mean, rstd, inp, w, b, N, C);
    row_max_kernel<<<grid_size, block_size>>>(mean, inp, N, C);
    cudaCheck(cudaGetLastError());
    cudaCheck(cudaDeviceSynchronize());
    cudaCheck(cudaFree(out));
    cudaCheck(cudaFree(inp));
    cudaCheck(cudaFree(mean));
    cudaCheck(cudaFree(rstd));
    cudaCheck(cudaFree(w));
    cudaCheck(cudaFree(b));
    return 0;
}
