#include <cuda_runtime.h>
// file 2
__global__ void k2(int *p) { p[0] = 2; }
void h2() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k2<<<1, 1>>>(0); }
