#include <cuda_runtime.h>
// file 16
__global__ void k16(int *p) { p[0] = 16; }
void h16() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k16<<<1, 1>>>(0); }
