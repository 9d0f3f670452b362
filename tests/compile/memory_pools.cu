// Stream-ordered allocation: cudaMallocAsync / cudaFreeAsync on the device's default memory
// pool with a release threshold, and an explicitly created pool.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include "common/check.cuh"

__global__ void init(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 1.f;
}

int main()
{
    int dev = 0, poolsSupported = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&poolsSupported, cudaDevAttrMemoryPoolsSupported, dev));
    if (!poolsSupported)
        return 0;
    cudaMemPool_t pool;
    checkCudaErrors(cudaDeviceGetDefaultMemPool(&pool, dev));
    uint64_t threshold = UINT64_MAX;
    checkCudaErrors(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));

    cudaStream_t s;
    checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (int it = 0; it < 8; ++it) {
        float *tmp = nullptr;
        const int n = 1 << (16 + it);
        checkCudaErrors(cudaMallocAsync((void **)&tmp, n * sizeof(float), s));
        init<<<(n + 255) / 256, 256, 0, s>>>(tmp, n);
        checkCudaErrors(cudaFreeAsync(tmp, s));
    }
    checkCudaErrors(cudaStreamSynchronize(s));
    checkCudaErrors(cudaMemPoolTrimTo(pool, 0));

    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    cudaMemPool_t own;
    checkCudaErrors(cudaMemPoolCreate(&own, &props));
    void *p = nullptr;
    checkCudaErrors(cudaMallocFromPoolAsync(&p, 1 << 20, own, s));
    checkCudaErrors(cudaFreeAsync(p, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    uint64_t used = 0;
    checkCudaErrors(cudaMemPoolGetAttribute(own, cudaMemPoolAttrUsedMemCurrent, &used));
    checkCudaErrors(cudaMemPoolDestroy(own));
    checkCudaErrors(cudaStreamDestroy(s));
    printf("used %llu\n", (unsigned long long)used);
    return 0;
}
