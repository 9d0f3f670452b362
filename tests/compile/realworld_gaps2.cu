// More idioms of the CUDA samples that broke their translation: the vector constructors from
// vector_functions.h, and zero-copy memory whose device pointer cudaHostGetDevicePointer writes
// into a typed pointer (CUDA's runtime header has a template for it).
#include <vector_functions.h>
#include <cuda_runtime.h>
#include <cstdio>

__global__ void offset_points(float2 *p, int n, float dx)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = make_float2(p[i].x + dx, p[i].y);
}

int main()
{
    const int n = 256;
    float2 *h = nullptr, *d = nullptr;
    if (cudaHostAlloc(&h, n * sizeof(float2), cudaHostAllocMapped) != cudaSuccess)
        return 1;
    for (int i = 0; i < n; i++)
        h[i] = make_float2((float)i, 0.0f);
    if (cudaHostGetDevicePointer(&d, h, 0) != cudaSuccess)
        return 1;
    offset_points<<<(n + 127) / 128, 128>>>(d, n, 1.0f);
    cudaDeviceSynchronize();
    std::printf("%f\n", h[1].x);
    cudaFreeHost(h);
    return 0;
}
