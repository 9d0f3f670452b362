// hip-5.2: reported
// hip-7.2: reported
// Code paths chosen by __CUDA_ARCH__: #ifdef for host/device differences, numeric tests for
// features of newer GPUs (native double atomicAdd before sm_60, __ldg, __nanosleep on sm_70+),
// and a host fallback when the arch macro is absent.
#include <cuda_runtime.h>
#include <cstdio>

__host__ __device__ inline int where()
{
#ifdef __CUDA_ARCH__
    return __CUDA_ARCH__;
#else
    return 0;
#endif
}

__device__ double atomicAddCompat(double *address, double val)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
    unsigned long long *a = (unsigned long long *)address;
    unsigned long long old = *a, assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
#else
    return atomicAdd(address, val);
#endif
}

__global__ void accumulate(const double *in, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
#if __CUDA_ARCH__ >= 350
    double v = __ldg(in + i);
#else
    double v = in[i];
#endif
    atomicAddCompat(out, v);
#if __CUDA_ARCH__ >= 700
    __nanosleep(100);
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    out[1] = where();
#endif
}

int main()
{
    double *in, *out;
    cudaMalloc(&in, 1024 * sizeof(double));
    cudaMalloc(&out, 2 * sizeof(double));
    accumulate<<<4, 256>>>(in, out, 1024);
    cudaDeviceSynchronize();
    printf("host arch value %d\n", where());
    cudaFree(in);
    cudaFree(out);
    return 0;
}
