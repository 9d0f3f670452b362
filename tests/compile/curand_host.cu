// Host-API random numbers: a cuRAND generator bound to a stream fills device buffers with
// uniform and normal values (Monte Carlo setup), with curandStatus_t checks through the
// shared helper header.
#include <cuda_runtime.h>
#include <curand.h>
#include <cstdio>
#include "common/check.cuh"

__global__ void count_inside(const float *xs, const float *ys, int n, unsigned long long *hits)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && xs[i] * xs[i] + ys[i] * ys[i] <= 1.f)
        atomicAdd(hits, 1ull);
}

int main()
{
    const int n = 1 << 22;
    float *xs, *ys, *noise;
    unsigned long long *hits;
    checkCudaErrors(cudaMalloc(&xs, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&ys, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&noise, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&hits, sizeof *hits));
    checkCudaErrors(cudaMemset(hits, 0, sizeof *hits));
    cudaStream_t stream;
    checkCudaErrors(cudaStreamCreate(&stream));

    curandGenerator_t gen;
    checkCudaErrors(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    checkCudaErrors(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
    checkCudaErrors(curandSetStream(gen, stream));
    checkCudaErrors(curandGenerateUniform(gen, xs, n));
    checkCudaErrors(curandGenerateUniform(gen, ys, n));
    checkCudaErrors(curandGenerateNormal(gen, noise, n, 0.0f, 1.0f));
    count_inside<<<n / 256, 256, 0, stream>>>(xs, ys, n, hits);
    checkCudaErrors(cudaStreamSynchronize(stream));
    unsigned long long h = 0;
    checkCudaErrors(cudaMemcpy(&h, hits, sizeof h, cudaMemcpyDeviceToHost));
    printf("pi ~= %f\n", 4.0 * (double)h / n);

    curandGenerator_t qrng;
    checkCudaErrors(curandCreateGenerator(&qrng, CURAND_RNG_QUASI_SOBOL32));
    checkCudaErrors(curandSetQuasiRandomGeneratorDimensions(qrng, 2));
    checkCudaErrors(curandGenerateUniform(qrng, xs, n));
    checkCudaErrors(curandDestroyGenerator(qrng));
    checkCudaErrors(curandDestroyGenerator(gen));
    checkCudaErrors(cudaStreamDestroy(stream));
    checkCudaErrors(cudaFree(xs));
    checkCudaErrors(cudaFree(ys));
    checkCudaErrors(cudaFree(noise));
    checkCudaErrors(cudaFree(hits));
    return 0;
}
