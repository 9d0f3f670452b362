// lib_rocrand.cu: cuRAND's host and device API translated with --roc: rocRAND directly,
// without the hipRAND wrapper.
// hipport-flags: --roc
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

__global__ void draw(float *out, unsigned long long seed, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    curandState_t st;
    curand_init(seed, i, 0, &st);
    out[i] = curand_uniform(&st) + curand_normal(&st);
}

int fill(float *d, size_t n) {
    curandGenerator_t gen;
    if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS)
        return 1;
    curandStatus_t s = curandSetPseudoRandomGeneratorSeed(gen, 7ULL);
    if (s == CURAND_STATUS_SUCCESS)
        s = curandGenerateNormal(gen, d, n, 0.0f, 1.0f);
    curandDestroyGenerator(gen);
    draw<<<(unsigned)((n + 255) / 256), 256>>>(d, 7ULL, (int)n);
    return s == CURAND_STATUS_SUCCESS && cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
