// An editor hint: __CUDACC__ defined for the IDE's parser (IntelliSense), so that it reads the
// CUDA headers and the file's own __CUDACC__ branches as nvcc does; compilers define it
// themselves. The host/device qualifiers of a helper called from a kernel hang on it.
#if defined(__INTELLISENSE__) && !defined(__CUDACC__)
#define __CUDACC__
#endif
#include <cuda_runtime.h>
#include <cstdio>

#ifdef __CUDACC__
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

HOST_DEVICE inline float smoothstep(float e0, float e1, float v)
{
    float t = (v - e0) / (e1 - e0);
    t = t < 0.f ? 0.f : t > 1.f ? 1.f : t;
    return t * t * (3.f - 2.f * t);
}

__global__ void ramp(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = smoothstep(0.f, (float)n, (float)i);
}

int main()
{
    const int n = 1024;
    float *d;
    if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
        return 1;
    ramp<<<(n + 255) / 256, 256>>>(d, n);
    cudaDeviceSynchronize();
    printf("host: %f\n", smoothstep(0.f, 1.f, 0.5f));
    cudaFree(d);
    return 0;
}
