#include <cuda_runtime.h>
// file 1
__global__ void k1(int *p) { p[0] = 1; }
void h1() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k1<<<1, 1>>>(0); }
