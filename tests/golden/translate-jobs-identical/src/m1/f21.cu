#include <cuda_runtime.h>
// file 21
__global__ void k21(int *p) { p[0] = 21; }
void h21() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k21<<<1, 1>>>(0); }
