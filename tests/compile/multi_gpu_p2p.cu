// Peer-to-peer copies between GPUs: cudaDeviceCanAccessPeer, cudaDeviceEnablePeerAccess with
// the already-enabled error tolerated, cudaMemcpyPeerAsync and a kernel reading peer memory.
#include <cuda_runtime.h>
#include <cstdio>
#include "common/check.cuh"

__global__ void addPeer(float *dst, const float *peer, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] += peer[i];
}

int main()
{
    int gpuCount = 0;
    checkCudaErrors(cudaGetDeviceCount(&gpuCount));
    if (gpuCount < 2) {
        printf("Two or more GPUs are required\n");
        return 0;
    }
    int can01 = 0, can10 = 0;
    checkCudaErrors(cudaDeviceCanAccessPeer(&can01, 0, 1));
    checkCudaErrors(cudaDeviceCanAccessPeer(&can10, 1, 0));
    if (!can01 || !can10)
        return 0;
    int perfRank = 0;
    checkCudaErrors(cudaDeviceGetP2PAttribute(&perfRank, cudaDevP2PAttrPerformanceRank, 0, 1));

    const int n = 1 << 20;
    float *d0, *d1;
    checkCudaErrors(cudaSetDevice(0));
    cudaError_t e = cudaDeviceEnablePeerAccess(1, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled)
        cudaGetLastError();
    checkCudaErrors(cudaMalloc(&d0, n * sizeof(float)));
    checkCudaErrors(cudaSetDevice(1));
    checkCudaErrors(cudaDeviceEnablePeerAccess(0, 0));
    checkCudaErrors(cudaMalloc(&d1, n * sizeof(float)));

    cudaStream_t s;
    checkCudaErrors(cudaStreamCreate(&s));
    checkCudaErrors(cudaMemcpyPeerAsync(d1, 1, d0, 0, n * sizeof(float), s));
    addPeer<<<n / 256, 256, 0, s>>>(d1, d0, n);
    checkCudaErrors(cudaMemcpyPeer(d0, 0, d1, 1, n * sizeof(float)));
    checkCudaErrors(cudaStreamSynchronize(s));
    checkCudaErrors(cudaDeviceDisablePeerAccess(0));
    checkCudaErrors(cudaFree(d1));
    checkCudaErrors(cudaStreamDestroy(s));
    checkCudaErrors(cudaSetDevice(0));
    checkCudaErrors(cudaFree(d0));
    printf("perf rank %d\n", perfRank);
    return 0;
}
