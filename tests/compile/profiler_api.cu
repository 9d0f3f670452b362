// Limiting profiler capture to the interesting region: cuda_profiler_api.h's
// cudaProfilerStart / cudaProfilerStop around warm iterations.
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <cstdio>

__global__ void iterate(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = p[i] * 0.5f + 1.f;
}

int main()
{
    const int n = 1 << 20;
    float *p;
    cudaMalloc(&p, n * sizeof(float));
    for (int warm = 0; warm < 3; ++warm)
        iterate<<<n / 256, 256>>>(p, n);
    cudaDeviceSynchronize();
    cudaProfilerStart();
    for (int it = 0; it < 10; ++it)
        iterate<<<n / 256, 256>>>(p, n);
    cudaDeviceSynchronize();
    cudaProfilerStop();
    cudaFree(p);
    printf("profiled 10 iterations\n");
    return 0;
}
