// Warp reductions with every spelling of the full-warp mask found in real code: 0xffffffff,
// 0xFFFFFFFFu, ~0u, -1, a macro and a const unsigned variable.
#include <cuda_runtime.h>
#include <cstdio>

#define FULL_MASK 0xffffffff
static constexpr unsigned kAllLanes = 0xFFFFFFFFu;

__device__ __forceinline__ float reduce_lit(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__device__ __forceinline__ int reduce_upper(int v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
    return v;
}

__device__ __forceinline__ double reduce_tilde(double v)
{
    for (int mask = 16; mask >= 1; mask /= 2)
        v += __shfl_xor_sync(~0u, v, mask);
    return v;
}

__device__ __forceinline__ unsigned reduce_minus_one(unsigned v)
{
    v += __shfl_down_sync(-1, v, 16);
    v += __shfl_down_sync(-1, v, 8);
    v += __shfl_down_sync(-1, v, 4);
    v += __shfl_down_sync(-1, v, 2);
    v += __shfl_down_sync(-1, v, 1);
    return v;
}

__device__ __forceinline__ long long reduce_macro(long long v)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

__device__ __forceinline__ float reduce_var(float v)
{
    const unsigned int mask = 0xffffffffu;
    for (int offset = 16; offset > 0; offset /= 2)
        v = fmaxf(v, __shfl_xor_sync(mask, v, offset));
    return __shfl_sync(kAllLanes, v, 0);
}

__global__ void reductions(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = i < n ? in[i] : 0.f;
    float a = reduce_lit(x);
    int b = reduce_upper((int)x);
    double c = reduce_tilde((double)x);
    unsigned d = reduce_minus_one((unsigned)x);
    long long e = reduce_macro((long long)x);
    float f = reduce_var(x);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, a + b + (float)c + d + e + f);
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 4096 * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    reductions<<<16, 256>>>(in, out, 4096);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}
