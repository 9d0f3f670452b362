// hip-7.2: reported
// Warp votes and masks: __ballot_sync with __popc for stream compaction, __activemask inside
// divergent code, __any_sync / __all_sync for early exit, __syncwarp between shared-memory
// phases, and __ffs to elect a leader lane.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void compact(const int *in, int *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    bool keep = i < n && in[i] % 3 == 0;
    unsigned ballot = __ballot_sync(0xffffffff, keep);
    int warpCount = __popc(ballot);
    int leader = __ffs(ballot) - 1;
    int base = 0;
    if (lane == 0 && warpCount > 0)
        base = atomicAdd(count, warpCount);
    base = __shfl_sync(0xffffffff, base, 0);
    if (keep) {
        unsigned lowerMask = (1u << lane) - 1;
        out[base + __popc(ballot & lowerMask)] = in[i];
    }
    (void)leader;
}

__global__ void divergent(int *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (flags[i] & 1)) {
        unsigned active = __activemask();
        int nActive = __popc(active);
        if (__all_sync(active, flags[i] > 0))
            flags[i] = nActive;
    }
    if (__any_sync(0xffffffff, i < n && flags[i] < 0))
        return;
}

__global__ void transpose_warp(float *data)
{
    __shared__ float tile[32][33];
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    tile[warp][lane] = data[threadIdx.x];
    __syncwarp();
    float v = tile[lane][warp];
    __syncwarp(0xffffffff);
    data[threadIdx.x] = v;
}

int main()
{
    const int n = 1 << 14;
    int *in, *out, *count;
    float *f;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&count, sizeof(int));
    cudaMalloc(&f, 1024 * sizeof(float));
    compact<<<n / 256, 256>>>(in, out, count, n);
    divergent<<<n / 256, 256>>>(in, n);
    transpose_warp<<<1, 1024>>>(f);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    cudaFree(count);
    cudaFree(f);
    return 0;
}
