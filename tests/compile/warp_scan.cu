// Warp-level inclusive and exclusive scans with __shfl_up_sync, lane broadcast with
// __shfl_sync, and a block scan built from per-warp totals in shared memory.
#include <cuda_runtime.h>
#include <cstdio>

#define WARP_SIZE 32
#define LOG_WARP_SIZE 5

__device__ int warpInclusiveScan(int v)
{
    const int lane = threadIdx.x & (WARP_SIZE - 1);
    for (int d = 1; d < WARP_SIZE; d *= 2) {
        int up = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d)
            v += up;
    }
    return v;
}

__global__ void blockScan(const int *in, int *out, int *blockTotals, int n)
{
    __shared__ int warpTotals[1024 / WARP_SIZE];
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % WARP_SIZE;
    int warpId = threadIdx.x >> LOG_WARP_SIZE;
    int v = gid < n ? in[gid] : 0;
    int incl = warpInclusiveScan(v);
    if (lane == WARP_SIZE - 1)
        warpTotals[warpId] = incl;
    __syncthreads();
    if (warpId == 0) {
        int nWarps = blockDim.x / WARP_SIZE;
        int t = lane < nWarps ? warpTotals[lane] : 0;
        t = warpInclusiveScan(t);
        if (lane < nWarps)
            warpTotals[lane] = t;
    }
    __syncthreads();
    int offset = warpId > 0 ? warpTotals[warpId - 1] : 0;
    int excl = incl - v + offset;
    // Exclusive value of lane 0 of this warp, broadcast to the warp.
    int warpBase = __shfl_sync(0xffffffff, excl, 0);
    if (gid < n)
        out[gid] = excl + 0 * warpBase;
    if (threadIdx.x == blockDim.x - 1)
        blockTotals[blockIdx.x] = excl + v;
}

__global__ void rotate(int *data)
{
    int lane = threadIdx.x % 32;
    int v = data[threadIdx.x];
    v = __shfl_sync(0xffffffff, v, (lane + 1) % 32);
    v = __shfl_sync(0xffffffff, v, lane ^ 1, 16);
    data[threadIdx.x] = v;
}

int main()
{
    const int n = 1 << 16, threads = 512;
    int *in, *out, *totals;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&totals, (n / threads) * sizeof(int));
    blockScan<<<n / threads, threads>>>(in, out, totals, n);
    rotate<<<1, 64>>>(out);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    cudaFree(totals);
    return 0;
}
