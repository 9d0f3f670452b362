#include <cuda_runtime.h>
// file 23
__global__ void k23(int *p) { p[0] = 23; }
void h23() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k23<<<1, 1>>>(0); }
