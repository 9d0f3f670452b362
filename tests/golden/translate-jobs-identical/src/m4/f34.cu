#include <cuda_runtime.h>
// file 34
__global__ void k34(int *p) { p[0] = 34; }
void h34() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k34<<<1, 1>>>(0); }
