// Idioms of large CUDA code bases that once broke their translation: a device-side abort with
// __trap(), NVTX ranges through nvtxRangePush, the runtime's types from builtin_types.h,
// isfinite in host code that relied on the runtime header for <math.h>, cudaHostAlloc into a
// typed pointer, and a system-scope atomicInc counter shared with the host.
#include <builtin_types.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <cstdio>

__global__ void checked_scale(float *x, int n, float s, unsigned *done)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (n < 0)
        __trap();
    if (i < n)
        x[i] *= s;
    if (threadIdx.x == 0)
        atomicInc_system(done, 1u << 30);
    if (threadIdx.x == 1)
        atomicDec_system(done, 1u << 30);
}

static bool all_finite(const float *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]) || isnan(v[i]) || isinf(v[i]))
            return false;
    return true;
}

int main()
{
    const int n = 256;
    float *h = nullptr, *d = nullptr;
    unsigned *done = nullptr;
    nvtxRangePush("setup");
    if (cudaHostAlloc(&h, n * sizeof(float), cudaHostAllocMapped) != cudaSuccess)
        return 1;
    cudaHostAlloc(&done, sizeof(unsigned), cudaHostAllocMapped);
    for (int i = 0; i < n; i++)
        h[i] = 1.0f;
    *done = 0;
    cudaHostGetDevicePointer((void **)&d, h, 0);
    nvtxRangePop();
    nvtxRangePush("scale");
    checked_scale<<<(n + 127) / 128, 128>>>(d, n, 2.0f, done);
    cudaDeviceSynchronize();
    nvtxRangePop();
    std::printf("%s\n", all_finite(h, n) ? "finite" : "not finite");
    cudaFreeHost(done);
    cudaFreeHost(h);
    return 0;
}
