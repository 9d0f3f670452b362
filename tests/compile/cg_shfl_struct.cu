// Register transposes and scans with a tile's own shuffles of values HIP's do not take: a uint4
// exchanged with tile.shfl_xor between neighbouring lanes of a tiled_partition<32>, a struct of
// a key and a weight moved with shfl_down and shfl, and a plain int scanned with shfl_up
// (CUDA's group shuffles take any trivially copyable type, HIP's arithmetic types only).
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include "common/cuda_check.h"

namespace cg = cooperative_groups;

struct KeyWeight {
    int key;
    float weight;
};

__global__ void swizzle_kernel(uint4 *out, const uint4 *in)
{
    const auto block = cg::this_thread_block();
    const auto tile = cg::tiled_partition<32>(block);
    uint4 v = in[blockIdx.x * blockDim.x + threadIdx.x];
    v = tile.shfl_xor(v, 1);
    uint4 w;
    w.x = v.x;
    w.y = tile.shfl_xor(v, 2).y;
    w.z = v.z;
    w.w = v.w;
    out[blockIdx.x * blockDim.x + threadIdx.x] = w;
}

__global__ void best_kernel(KeyWeight *out, const KeyWeight *in, int *ranks)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    KeyWeight kw = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (unsigned off = warp.size() / 2; off > 0; off /= 2) {
        KeyWeight o = warp.shfl_down(kw, off);
        if (o.weight > kw.weight)
            kw = o;
    }
    kw = warp.shfl(kw, 0);
    int rank = 1;
    for (unsigned d = 1; d < warp.size(); d *= 2) {
        int n = warp.shfl_up(rank, d);
        if (warp.thread_rank() >= d)
            rank += n;
    }
    if (warp.thread_rank() == 0)
        out[blockIdx.x] = kw;
    ranks[blockIdx.x * blockDim.x + threadIdx.x] = rank;
}

int main()
{
    const int n = 4096;
    uint4 *a = (uint4 *)cudaMallocChecked(n * sizeof(uint4));
    uint4 *b = (uint4 *)cudaMallocChecked(n * sizeof(uint4));
    KeyWeight *kw = (KeyWeight *)cudaMallocChecked(n * sizeof(KeyWeight));
    int *ranks = (int *)cudaMallocChecked(n * sizeof(int));
    swizzle_kernel<<<n / 128, 128>>>(b, a);
    best_kernel<<<n / 128, 128>>>(kw, kw, ranks);
    cudaCheck(cudaGetLastError());
    cudaCheck(cudaDeviceSynchronize());
    cudaCheck(cudaFree(a));
    cudaCheck(cudaFree(b));
    cudaCheck(cudaFree(kw));
    cudaCheck(cudaFree(ranks));
    return 0;
}
