// Warp reduction of half-precision values: __shfl_xor_sync applied directly to __half and
// __half2, relying on the fp16 header's shuffle overloads.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__device__ __half warp_sum_half(__half v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = __hadd(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}

__device__ __half2 warp_sum_half2(__half2 v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = __hadd2(v, __shfl_down_sync(0xffffffff, v, o));
    return v;
}

__global__ void sum_rows(const __half2 *in, __half *out, int cols)
{
    __half2 acc = __float2half2_rn(0.f);
    for (int c = threadIdx.x; c < cols; c += 32)
        acc = __hadd2(acc, in[blockIdx.x * cols + c]);
    acc = warp_sum_half2(acc);
    __half s = warp_sum_half(__hadd(__low2half(acc), __high2half(acc)));
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}

int main()
{
    __half2 *in;
    __half *out;
    cudaMalloc(&in, 64 * 128 * sizeof(__half2));
    cudaMalloc(&out, 64 * sizeof(__half));
    sum_rows<<<64, 32>>>(in, out, 128);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}
