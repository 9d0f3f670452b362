// Projects that predate NVTX v3 include <nvToolsExt.h> and fall back to the v3 path only when
// the old header is absent; annotations are compiled out with -DDISABLE_NVTX.
#if !defined(DISABLE_NVTX)
#if __has_include(<nvToolsExt.h>)
#include <nvToolsExt.h>
#else
#include <nvtx3/nvToolsExt.h>
#endif
#define PUSH_RANGE(name) nvtxRangePushA(name)
#define POP_RANGE() nvtxRangePop()
#else
#define PUSH_RANGE(name)
#define POP_RANGE()
#endif
#include <cuda_runtime.h>

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

int main()
{
    int *p;
    PUSH_RANGE("setup");
    cudaMalloc(&p, 128 * sizeof(int));
    POP_RANGE();
    PUSH_RANGE("kernel");
    touch<<<1, 128>>>(p);
    cudaDeviceSynchronize();
    POP_RANGE();
    cudaFree(p);
    return 0;
}
