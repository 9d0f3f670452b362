// common/warp.cuh: warp-level reduction helpers shared by several kernels, written with a
// full-mask macro and a 32-lane warp as CUDA code usually is.
#pragma once
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
#define WARP_SIZE 32

template <typename T>
__device__ __forceinline__ T warpReduceSum(T val)
{
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        val += __shfl_down_sync(FULL_MASK, val, offset);
    return val;
}

template <typename T>
__device__ __forceinline__ T warpReduceMax(T val)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        val = max(val, __shfl_xor_sync(FULL_MASK, val, offset));
    return val;
}

// Block-wide sum: one partial per warp in shared memory, then the first warp reduces them.
template <typename T>
__device__ T blockReduceSum(T val)
{
    static __shared__ T shared[32];
    const int lane = threadIdx.x % WARP_SIZE;
    const int wid = threadIdx.x / WARP_SIZE;
    val = warpReduceSum(val);
    if (lane == 0)
        shared[wid] = val;
    __syncthreads();
    val = (threadIdx.x < blockDim.x / WARP_SIZE) ? shared[lane] : T(0);
    if (wid == 0)
        val = warpReduceSum(val);
    return val;
}
