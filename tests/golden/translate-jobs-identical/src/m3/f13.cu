#include <cuda_runtime.h>
// file 13
__global__ void k13(int *p) { p[0] = 13; }
void h13() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k13<<<1, 1>>>(0); }
