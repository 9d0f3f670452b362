// half without #include <cuda_fp16.h>: CUDA's library headers bring CUDA's fp16 types (here
// cuda_bf16.h, through a project header), so kernels and headers name half and half2 directly.
#include "common/half_index.h"
#include "common/cuda_check.h"

__global__ void scale_half(half *y, const half *x, half2 *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = __float2half(__half2float(x[i]) * 0.5f);
    if (i == 0)
        p[0] = __floats2half2_rn(1.0f, 2.0f);
}

int main()
{
    const int n = 1024;
    HalfIndex idx;
    (void)idx;
    half *x = (half *)cudaMallocChecked(n * sizeof(half));
    half *y = (half *)cudaMallocChecked(n * sizeof(half));
    half2 *p = (half2 *)cudaMallocChecked(sizeof(half2));
    scale_half<<<n / 256, 256>>>(y, x, p, n);
    cudaCheck(cudaGetLastError());
    cudaCheck(cudaDeviceSynchronize());
    cudaCheck(cudaFree(x));
    cudaCheck(cudaFree(y));
    cudaCheck(cudaFree(p));
    return 0;
}
