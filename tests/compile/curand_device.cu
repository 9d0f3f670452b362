// Device-API random numbers: per-thread curandState initialised with curand_init, then
// curand_uniform / curand_normal draws in a dropout kernel and a Philox state variant.
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <cstdio>

__global__ void setup_states(curandState *states, unsigned long long seed, int n)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id < n)
        curand_init(seed, id, 0, &states[id]);
}

__global__ void dropout(float *x, curandState *states, float p, int n)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= n)
        return;
    curandState local = states[id];
    float keep = curand_uniform(&local) > p ? 1.f / (1.f - p) : 0.f;
    x[id] *= keep;
    x[id] += 0.01f * curand_normal(&local);
    states[id] = local;
}

__global__ void philox_noise(float4 *out, unsigned long long seed, unsigned long long offset,
                             int n4)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= n4)
        return;
    curandStatePhilox4_32_10_t state;
    curand_init(seed, id, offset, &state);
    out[id] = curand_normal4(&state);
    unsigned int bits = curand(&state);
    if (bits == 0u)
        out[id].x = 0.f;
}

int main()
{
    const int n = 1 << 16;
    curandState *states;
    float *x;
    cudaMalloc(&states, n * sizeof(curandState));
    cudaMalloc(&x, n * sizeof(float));
    setup_states<<<n / 256, 256>>>(states, 42ULL, n);
    dropout<<<n / 256, 256>>>(x, states, 0.1f, n);
    philox_noise<<<n / 4 / 256, 256>>>(reinterpret_cast<float4 *>(x), 7ULL, 0ULL, n / 4);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(states);
    cudaFree(x);
    return 0;
}
