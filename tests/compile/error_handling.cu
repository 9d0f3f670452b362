// Error reporting idioms: cudaGetErrorName / cudaGetErrorString, cudaPeekAtLastError vs
// cudaGetLastError, a switch over cudaError_t values, CUDA names inside string literals and
// comments (cudaMalloc, cudaMemcpy), and project helpers whose names contain "cuda".
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include "common/cuda_check.h"

// Project helper, not a CUDA API: name starts with "cuda" by convention of this code base.
static const char *cudaErrorCategory(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "ok";
    case cudaErrorMemoryAllocation: return "out of memory (cudaMalloc)";
    case cudaErrorInvalidValue:
    case cudaErrorInvalidDevicePointer: return "bad argument";
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalAddress: return "kernel fault";
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver: return "no usable GPU";
    case cudaErrorNotReady: return "pending";
    default: return "other";
    }
}

__global__ void oob(int *p) { p[threadIdx.x * 1024 * 1024] = 1; }

int main()
{
    void *huge = nullptr;
    cudaError_t e = cudaMalloc(&huge, (size_t)1 << 62);
    printf("cudaMalloc(1<<62): %s / %s / %s\n", cudaGetErrorName(e), cudaGetErrorString(e),
           cudaErrorCategory(e));
    (void)cudaGetLastError(); // clear the sticky "cudaErrorMemoryAllocation"
    int *small = (int *)cudaMallocChecked(16);
    oob<<<1, 32>>>(small);
    e = cudaPeekAtLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    const char *msg = "cudaMemcpy failed; see cudaGetLastError()";
    if (e != cudaSuccess && strstr(msg, "cudaMemcpy") != nullptr)
        fprintf(stderr, "%s: %s\n", msg, cudaErrorCategory(e));
    printf("sms: %d\n", cuda_num_sms());
    cudaFree(small);
    return 0;
}
