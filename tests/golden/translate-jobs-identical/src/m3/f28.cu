#include <cuda_runtime.h>
// file 28
__global__ void k28(int *p) { p[0] = 28; }
void h28() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k28<<<1, 1>>>(0); }
