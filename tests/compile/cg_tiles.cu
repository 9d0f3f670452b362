// hip-5.2: reported
// Cooperative groups inside a block: this_thread_block, tiled_partition<32> tiles used as warps
// with tile.shfl_down / tile.any / tile.ballot, a dynamic tiled_partition and
// coalesced_threads for an atomic aggregated by the active lanes.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>

namespace cg = cooperative_groups;

__device__ float tileSum(cg::thread_block_tile<32> tile, float v)
{
    for (int offset = tile.size() / 2; offset > 0; offset /= 2)
        v += tile.shfl_down(v, offset);
    return v;
}

__device__ int atomicAggInc(int *counter)
{
    cg::coalesced_group active = cg::coalesced_threads();
    int prev = 0;
    if (active.thread_rank() == 0)
        prev = atomicAdd(counter, (int)active.size());
    return active.shfl(prev, 0) + active.thread_rank();
}

__global__ void sumAndCompact(const float *in, float *blockSums, float *kept, int *nKept, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float partial[32];

    int i = block.group_index().x * block.size() + block.thread_rank();
    float v = i < n ? in[i] : 0.f;
    if (v > 0.5f)
        kept[atomicAggInc(nKept)] = v;

    float s = tileSum(warp, v);
    if (warp.thread_rank() == 0)
        partial[warp.meta_group_rank()] = s;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        float w = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.f;
        w = tileSum(warp, w);
        bool anyNeg = warp.any(w < 0.f);
        unsigned int ballot = warp.ballot(w > 0.f);
        if (warp.thread_rank() == 0)
            blockSums[blockIdx.x] = anyNeg ? -w : w + 0.f * ballot;
    }

    cg::thread_group quad = cg::tiled_partition(block, 4);
    quad.sync();
    cg::sync(block);
}

int main()
{
    const int n = 1 << 16, threads = 256;
    float *in, *sums, *kept;
    int *nKept;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&sums, (n / threads) * sizeof(float));
    cudaMalloc(&kept, n * sizeof(float));
    cudaMalloc(&nKept, sizeof(int));
    cudaMemset(nKept, 0, sizeof(int));
    sumAndCompact<<<n / threads, threads>>>(in, sums, kept, nKept, n);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(sums);
    cudaFree(kept);
    cudaFree(nKept);
    return 0;
}
