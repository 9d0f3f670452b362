// Warp and block reductions.
#pragma once
#include <cuda_runtime.h>

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffff, v, offset);
    return v;
}

template <typename T, int THREADS>
__device__ T block_reduce_sum(T v) {
    __shared__ T partial[THREADS / 32];
    v = warp_reduce_sum(v);
    if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = v;
    __syncthreads();
    T total = 0;
    if (threadIdx.x == 0)
        for (int i = 0; i < (THREADS + warpSize - 1) / warpSize; ++i) total += partial[i];
    return total;
}
