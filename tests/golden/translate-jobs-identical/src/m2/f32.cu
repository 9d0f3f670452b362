#include <cuda_runtime.h>
// file 32
__global__ void k32(int *p) { p[0] = 32; }
void h32() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k32<<<1, 1>>>(0); }
