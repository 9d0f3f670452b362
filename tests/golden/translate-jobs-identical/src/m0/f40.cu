#include <cuda_runtime.h>
// file 40
__global__ void k40(int *p) { p[0] = 40; }
void h40() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k40<<<1, 1>>>(0); }
