#include <hip/hip_runtime.h>
__device__ void k(int *p) { p[threadIdx.x & 31] = 0; }
