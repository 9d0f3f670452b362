// A math header shared between C++ and CUDA translation units: __CUDACC__ decides the
// host/device qualifiers and inlining macros, and __CUDACC_VER_MAJOR__ is reported.
#include "common/hd_math.h"
#include <cstdio>

__global__ void lerp_kernel(Vec3 *out, const Vec3 *a, const Vec3 *b, float t, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = lerp(a[i], b[i], t);
}

int main()
{
    printf("compiled by %s\n", compilerName());
    Vec3 *a, *b, *o;
    cudaMalloc(&a, 256 * sizeof(Vec3));
    cudaMalloc(&b, 256 * sizeof(Vec3));
    cudaMalloc(&o, 256 * sizeof(Vec3));
    lerp_kernel<<<1, 256>>>(o, a, b, 0.25f, 256);
    cudaDeviceSynchronize();
    Vec3 h = lerp(Vec3{0, 0, 0}, Vec3{1, 1, 1}, 0.5f);
    printf("%f\n", h.x);
    cudaFree(a);
    cudaFree(b);
    cudaFree(o);
    return 0;
}
