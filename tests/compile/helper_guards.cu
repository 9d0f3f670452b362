// Sample-style program whose error helpers (checkCudaErrors, getLastCudaError) exist only
// because cuda_runtime.h was included before the helper header, which tests its include guard.
#include <cuda_runtime.h>
#include <cstdio>
#include "common/check.cuh"

__global__ void scaleKernel(float *data, float factor, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        data[idx] *= factor;
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    int dev = pickFastestDevice();
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    printf("Using device %d: %s (SM %d.%d)\n", dev, prop.name, prop.major, prop.minor);

    const int n = 4096;
    float *d = nullptr;
    checkCudaErrors(cudaMalloc(&d, n * sizeof(float)));
    checkCudaErrors(cudaMemset(d, 0, n * sizeof(float)));
    scaleKernel<<<n / 128, 128>>>(d, 2.0f, n);
    getLastCudaError("scaleKernel execution failed");
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaFree(d));
    return 0;
}
