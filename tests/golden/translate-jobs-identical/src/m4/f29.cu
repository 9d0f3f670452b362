#include <cuda_runtime.h>
// file 29
__global__ void k29(int *p) { p[0] = 29; }
void h29() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k29<<<1, 1>>>(0); }
