#include <cuda_runtime.h>
// file 35
__global__ void k35(int *p) { p[0] = 35; }
void h35() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k35<<<1, 1>>>(0); }
