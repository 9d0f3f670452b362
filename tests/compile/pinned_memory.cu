// Page-locked host memory: cudaMallocHost, cudaHostAlloc with portable/mapped/write-combined
// flags, zero-copy access through cudaHostGetDevicePointer, and registering an existing
// allocation with cudaHostRegister.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void inc(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1;
}

int main()
{
    const int n = 1 << 16;
    cudaSetDeviceFlags(cudaDeviceMapHost | cudaDeviceScheduleBlockingSync);
    int *pinned = nullptr, *mapped = nullptr, *wc = nullptr;
    cudaMallocHost((void **)&pinned, n * sizeof(int));
    cudaHostAlloc((void **)&mapped, n * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable);
    cudaHostAlloc((void **)&wc, n * sizeof(int), cudaHostAllocWriteCombined);
    int *mappedDev = nullptr;
    cudaHostGetDevicePointer((void **)&mappedDev, mapped, 0);
    inc<<<n / 256, 256>>>(mappedDev, n);

    int *plain = static_cast<int *>(malloc(n * sizeof(int)));
    cudaHostRegister(plain, n * sizeof(int), cudaHostRegisterDefault);
    unsigned int flags = 0;
    cudaHostGetFlags(&flags, mapped);
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpyAsync(d, plain, n * sizeof(int), cudaMemcpyHostToDevice, 0);
    cudaMemcpyAsync(pinned, d, n * sizeof(int), cudaMemcpyDefault, 0);
    cudaDeviceSynchronize();
    printf("flags %u\n", flags);
    cudaHostUnregister(plain);
    free(plain);
    cudaFree(d);
    cudaFreeHost(pinned);
    cudaFreeHost(mapped);
    cudaFreeHost(wc);
    return 0;
}
