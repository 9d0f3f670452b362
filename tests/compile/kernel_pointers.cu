// Kernels handled through pointers: a table of kernel function pointers selected at run time,
// cudaLaunchKernel with an argument array, cudaFuncGetAttributes and cudaFuncSetAttribute for
// a large dynamic shared memory carve-out, and launches through the pointer with <<< >>>.
#include <cuda_runtime.h>
#include <cstdio>

typedef void (*unary_kernel_t)(float *, int);

__global__ void square(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * x[i];
}

__global__ void negate(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = -x[i];
}

__global__ void big_smem(float *x, int n)
{
    extern __shared__ float buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? x[i] : 0.f;
    __syncthreads();
    if (i < n)
        x[i] = buf[blockDim.x - 1 - threadIdx.x];
}

static const unary_kernel_t kTable[] = {square, negate};

int main()
{
    const int n = 1 << 14;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    for (int which = 0; which < 2; ++which) {
        unary_kernel_t k = kTable[which];
        cudaFuncAttributes attr;
        cudaFuncGetAttributes(&attr, k);
        printf("kernel %d: %d regs, max %d threads\n", which, attr.numRegs,
               attr.maxThreadsPerBlock);
        k<<<n / 256, 256>>>(x, n);
    }
    void *args[] = {&x, (void *)&n};
    cudaLaunchKernel((const void *)square, dim3(n / 128), dim3(128), args, 0, 0);
    cudaLaunchKernel(reinterpret_cast<void *>(&negate), n / 128, 128, args);

    const int smem = 64 * 1024;
    cudaFuncSetAttribute(big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaFuncSetAttribute((const void *)big_smem, cudaFuncAttributePreferredSharedMemoryCarveout,
                         cudaSharedmemCarveoutMaxShared);
    cudaFuncSetCacheConfig(square, cudaFuncCachePreferL1);
    big_smem<<<n / 1024, 1024, smem>>>(x, n);
    cudaError_t err = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorName(err));
    cudaFree(x);
    return 0;
}
