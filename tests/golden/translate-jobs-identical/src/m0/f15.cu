#include <cuda_runtime.h>
// file 15
__global__ void k15(int *p) { p[0] = 15; }
void h15() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k15<<<1, 1>>>(0); }
