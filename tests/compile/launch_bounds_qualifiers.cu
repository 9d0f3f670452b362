// Function qualifiers tuned for NVIDIA occupancy: __launch_bounds__ with a minimum blocks per
// SM, __forceinline__ / __noinline__ helpers, __restrict__ and const __restrict__ pointers,
// and a parameter struct passed as __grid_constant__.
#include <cuda_runtime.h>
#include <cstdio>

#define MAX_THREADS 256
#define MIN_BLOCKS 4

struct Params {
    const float *in;
    float *out;
    int n;
    float coeff[16];
};

__device__ __noinline__ float poly(const float *c, float x)
{
    float r = 0.f;
    for (int k = 15; k >= 0; --k)
        r = r * x + c[k];
    return r;
}

__device__ __forceinline__ float clamp01(float x) { return fminf(fmaxf(x, 0.f), 1.f); }

__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS)
evalPoly(const float *__restrict__ in, float *__restrict__ out, const float *__restrict__ c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = clamp01(poly(c, in[i]));
}

__global__ void __launch_bounds__(512) evalParams(const __grid_constant__ Params p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n)
        p.out[i] = poly(p.coeff, p.in[i]);
}

int main()
{
    const int n = 1 << 16;
    float *in, *out, *c;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMalloc(&c, 16 * sizeof(float));
    evalPoly<<<n / MAX_THREADS, MAX_THREADS>>>(in, out, c, n);
    Params p{in, out, n, {}};
    evalParams<<<n / 512, 512>>>(p);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    cudaFree(c);
    return 0;
}
