#include <cuda_runtime.h>
// file 14
__global__ void k14(int *p) { p[0] = 14; }
void h14() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k14<<<1, 1>>>(0); }
