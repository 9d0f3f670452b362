// Atomics as real kernels use them: float and double atomicAdd, a float atomicMax built on
// atomicCAS, atomicExch as a flag, atomicInc ring counters, scoped atomics (_block, _system)
// and 64-bit atomicMin on packed keys.
#include <cuda_runtime.h>
#include <cstdio>

__device__ float atomicMaxFloat(float *addr, float value)
{
    int *addrAsInt = (int *)addr;
    int old = *addrAsInt, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value)
            break;
        old = atomicCAS(addrAsInt, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

__global__ void stats(const float *x, int n, float *sum, double *dsum, float *maxv,
                      unsigned int *ring, unsigned long long *argmin, int *flag)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    atomicAdd(sum, v);
    atomicAdd(dsum, (double)v);
    atomicMaxFloat(maxv, v);
    unsigned slot = atomicInc(ring, 1023u);
    (void)slot;
    unsigned long long key = ((unsigned long long)__float_as_uint(fabsf(v)) << 32) | (unsigned)i;
    atomicMin(argmin, key);
    atomicAdd_block(flag + 1, 1);
    atomicAdd_system(flag + 2, 1);
    if (atomicExch(flag, 1) == 0)
        atomicOr(flag + 3, 1 << (i & 7));
    atomicAnd(flag + 4, ~0);
    atomicXor(flag + 5, i);
    atomicSub(flag + 6, 1);
    atomicDec(ring + 1, 10u);
}

int main()
{
    const int n = 1 << 16;
    float *x, *sum, *maxv;
    double *dsum;
    unsigned int *ring;
    unsigned long long *argmin;
    int *flag;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&sum, sizeof(float));
    cudaMalloc(&maxv, sizeof(float));
    cudaMalloc(&dsum, sizeof(double));
    cudaMalloc(&ring, 2 * sizeof(unsigned int));
    cudaMalloc(&argmin, sizeof(unsigned long long));
    cudaMallocManaged(&flag, 8 * sizeof(int));
    stats<<<n / 256, 256>>>(x, n, sum, dsum, maxv, ring, argmin, flag);
    cudaDeviceSynchronize();
    printf("flag %d\n", flag[0]);
    cudaFree(x);
    cudaFree(sum);
    cudaFree(maxv);
    cudaFree(dsum);
    cudaFree(ring);
    cudaFree(argmin);
    cudaFree(flag);
    return 0;
}
