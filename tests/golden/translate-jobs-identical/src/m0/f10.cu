#include <cuda_runtime.h>
// file 10
__global__ void k10(int *p) { p[0] = 10; }
void h10() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k10<<<1, 1>>>(0); }
