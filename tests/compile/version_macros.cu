// hip-5.2: reported
// hip-7.2: reported
// Feature selection by toolkit version: CUDART_VERSION and CUDA_VERSION comparisons choosing
// API spellings, a printed build version, and a run-time check of the runtime and driver.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

#if CUDART_VERSION < 11000
#error "CUDA 11 or newer required"
#endif

#if defined(CUDA_VERSION) && CUDA_VERSION >= 12000
#define HAS_CUDA12 1
#else
#define HAS_CUDA12 0
#endif

__global__ void kern(float *p) { p[threadIdx.x] *= 2.f; }

static void prefetch(void *p, size_t bytes, int device, cudaStream_t s)
{
#if CUDART_VERSION >= 13000
    cudaMemLocation loc = {};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = device;
    cudaMemPrefetchAsync(p, bytes, loc, 0, s);
#else
    cudaMemPrefetchAsync(p, bytes, device, s);
#endif
}

int main()
{
    int runtimeVersion = 0, driverVersion = 0;
    cudaRuntimeGetVersion(&runtimeVersion);
    cudaDriverGetVersion(&driverVersion);
    printf("built with CUDA %d.%d (runtime %d, driver %d), cuda12=%d\n", CUDART_VERSION / 1000,
           (CUDART_VERSION % 1000) / 10, runtimeVersion, driverVersion, HAS_CUDA12);
    if (driverVersion < CUDART_VERSION)
        fprintf(stderr, "driver older than the toolkit\n");
    float *p;
    cudaMallocManaged(&p, 256 * sizeof(float));
    prefetch(p, 256 * sizeof(float), 0, 0);
    kern<<<1, 256>>>(p);
    cudaDeviceSynchronize();
    cudaFree(p);
    return 0;
}
