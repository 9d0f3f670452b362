// A utility header pattern that tests __DRIVER_TYPES_H__ and __CUDA_RUNTIME_API_H__ directly
// to decide whether runtime-API helpers can be defined.
#include <cuda_runtime_api.h>
#include <cstdio>

#if defined(__DRIVER_TYPES_H__)
inline bool reportError(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s (%s)\n", what, cudaGetErrorString(e), cudaGetErrorName(e));
        return false;
    }
    return true;
}
#else
#error "driver_types.h was not included"
#endif

#if defined(__CUDA_RUNTIME_API_H__)
inline size_t freeDeviceMemory()
{
    size_t freeB = 0, totalB = 0;
    if (!reportError(cudaMemGetInfo(&freeB, &totalB), "cudaMemGetInfo"))
        return 0;
    return freeB;
}
#endif

int main()
{
    int count = 0;
    if (!reportError(cudaGetDeviceCount(&count), "cudaGetDeviceCount"))
        return 1;
    printf("%d devices, %zu bytes free on the current one\n", count, freeDeviceMemory());
    return 0;
}
