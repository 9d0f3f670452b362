// hip-5.2: reported
// Debug output from kernels: device-side printf with several argument types, guarded to one
// thread, plus cudaDeviceSetLimit for the printf FIFO and assert() in device code.
#include <cuda_runtime.h>
#include <cassert>
#include <cstdio>

__global__ void debug_kernel(const float *data, int n, const char *tag)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        printf("[%s] block %d of %d: first=%f\n", tag, blockIdx.x, gridDim.x,
               i < n ? data[i] : -1.0);
    if (i == 0) {
        printf("blockDim=(%u,%u,%u) n=%d ptr=%p long=%lld\n", blockDim.x, blockDim.y, blockDim.z, n,
               (const void *)data, (long long)n * 3);
    }
    assert(i < n + (int)blockDim.x);
}

int main()
{
    cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20);
    size_t fifo = 0;
    cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize);
    float *d;
    char *tag;
    cudaMalloc(&d, 256 * sizeof(float));
    cudaMalloc(&tag, 8);
    cudaMemcpy(tag, "dbg", 4, cudaMemcpyHostToDevice);
    debug_kernel<<<2, 128>>>(d, 256, tag);
    cudaDeviceSynchronize();
    printf("fifo %zu\n", fifo);
    cudaFree(d);
    cudaFree(tag);
    return 0;
}
