// lib_hiprand.cu: cuRAND's host API (curand.h) and device API (curand_kernel.h); translated,
// they use hipRAND.
#include <cstdio>
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#define CHECK_RAND(call)                                                                       \
    do {                                                                                       \
        curandStatus_t s_ = (call);                                                            \
        if (s_ != CURAND_STATUS_SUCCESS) {                                                     \
            std::fprintf(stderr, "curand error %d at line %d\n", (int)s_, __LINE__);           \
            return 1;                                                                          \
        }                                                                                      \
    } while (0)

__global__ void setup(curandState_t *states, unsigned long long seed) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, i, 0, &states[i]);
}

__global__ void draw(curandState_t *states, float *out, unsigned int *bits, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    curandState_t local = states[i];
    out[i] = curand_uniform(&local) + curand_normal(&local) * 0.5f;
    bits[i] = curand(&local) ^ curand_poisson(&local, 4.0);
    states[i] = local;
}

int host_api(float *d, size_t n) {
    curandGenerator_t gen;
    CHECK_RAND(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
    CHECK_RAND(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
    CHECK_RAND(curandGenerateUniform(gen, d, n));
    CHECK_RAND(curandGenerateNormal(gen, d, n, 0.0f, 1.0f));
    CHECK_RAND(curandDestroyGenerator(gen));
    return 0;
}

int run(int n) {
    curandState_t *states;
    float *out;
    unsigned int *bits;
    cudaMalloc(&states, n * sizeof *states);
    cudaMalloc(&out, n * sizeof *out);
    cudaMalloc(&bits, n * sizeof *bits);
    setup<<<(n + 127) / 128, 128>>>(states, 42ULL);
    draw<<<(n + 127) / 128, 128>>>(states, out, bits, n);
    int rc = host_api(out, (size_t)n);
    cudaDeviceSynchronize();
    cudaFree(states);
    cudaFree(out);
    cudaFree(bits);
    return rc;
}
