#include <cuda_runtime.h>
// file 22
__global__ void k22(int *p) { p[0] = 22; }
void h22() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k22<<<1, 1>>>(0); }
