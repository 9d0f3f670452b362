#include <cuda_runtime.h>
#ifdef USE_DRIVER_API
#include <cuda.h>
void init() { cuInit(0); }
#else
void init() { cudaFree(0); }
#endif
#if defined(LEGACY) || CUDA_ARCH_LIST > 700
void sync() { cudaThreadSynchronize(); }
#else
void sync() { cudaDeviceSynchronize(); }
#endif
#if __CUDACC_VER_MAJOR__ >= 12
void mem(void **p) { cudaMallocAsync(p, 64, 0); }
#endif
