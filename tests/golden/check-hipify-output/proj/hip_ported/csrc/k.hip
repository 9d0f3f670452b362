#include <hip/hip_runtime.h>
__global__ void k(int *p) { p[threadIdx.x & 31] = 0; }
