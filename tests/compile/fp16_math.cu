// Half-precision kernels from inference code: __half storage with float accumulation,
// __half2 packed arithmetic (__hmul2, __hfma2, __hadd2), conversions and comparisons.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cstdio>

__global__ void scale_bias_half2(__half2 *x, __half2 scale, __half2 bias, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2)
        x[i] = __hfma2(x[i], scale, bias);
}

__global__ void gelu_half(__half *out, const __half *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = __half2float(in[i]);
    float cube = 0.044715f * x * x * x;
    float y = 0.5f * x * (1.f + tanhf(0.7978845608f * (x + cube)));
    out[i] = __float2half(y);
}

__global__ void dot_half2(const __half2 *a, const __half2 *b, float *out, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n2)
        return;
    __half2 p = __hmul2(a[i], b[i]);
    __half2 q = __hadd2(p, __floats2half2_rn(0.f, 0.f));
    float2 f = __half22float2(q);
    atomicAdd(out, f.x + __low2float(q) * 0.f + f.y);
}

__global__ void clamp_half(__half *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const __half lo = __float2half(-1.f), hi = __float2half_rn(1.f);
    __half v = x[i];
    if (__hlt(v, lo))
        v = lo;
    if (__hgt(v, hi))
        v = hi;
    x[i] = __hadd(__hmul(v, __float2half(2.f)), __int2half_rn(0));
    if (__hisnan(v))
        x[i] = __ushort_as_half((unsigned short)0x7E00U);
}

int main()
{
    const int n = 1 << 12;
    __half *h;
    float *acc;
    cudaMalloc(&h, n * sizeof(__half));
    cudaMalloc(&acc, sizeof(float));
    scale_bias_half2<<<n / 2 / 256, 256>>>(reinterpret_cast<__half2 *>(h), __float2half2_rn(2.f),
                                          __half2half2(__float2half(0.5f)), n / 2);
    gelu_half<<<n / 256, 256>>>(h, h, n);
    dot_half2<<<n / 512, 256>>>((const __half2 *)h, (const __half2 *)h, acc, n / 2);
    clamp_half<<<n / 256, 256>>>(h, n);
    cudaDeviceSynchronize();
    printf("host conversion: %f\n", __half2float(__float2half(1.5f)));
    cudaFree(h);
    cudaFree(acc);
    return 0;
}
