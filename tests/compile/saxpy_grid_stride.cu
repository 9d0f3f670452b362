// Grid-stride loops sized from the device's multiprocessor count, dim3 launch configs,
// cudaMemset and cudaDeviceSynchronize after the launch.
#include <cstdio>
#include <cuda_runtime.h>
#include "common/cuda_check.h"

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

__global__ void fill(float *p, float v, size_t n)
{
    size_t stride = (size_t)blockDim.x * gridDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = v;
}

int main(void)
{
    const int N = 1 << 20;
    float *x = (float *)cudaMallocChecked(N * sizeof(float));
    float *y = (float *)cudaMallocChecked(N * sizeof(float));
    cudaCheck(cudaMemset(y, 0, N * sizeof(float)));

    dim3 block(256);
    dim3 grid(32 * cuda_num_sms());
    fill<<<grid, block>>>(x, 1.0f, N);
    saxpy<<<grid, block>>>(N, 2.0f, x, y);
    cudaCheck(cudaGetLastError());
    cudaCheck(cudaDeviceSynchronize());

    float first = 0.f;
    cudaCheck(cudaMemcpy(&first, y, sizeof(float), cudaMemcpyDeviceToHost));
    printf("y[0] = %f\n", first);
    cudaCheck(cudaFree(x));
    cudaCheck(cudaFree(y));
    return first == 2.0f ? 0 : 1;
}
