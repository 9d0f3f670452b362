#include <cuda_runtime.h>
// file 30
__global__ void k30(int *p) { p[0] = 30; }
void h30() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k30<<<1, 1>>>(0); }
