#include <cuda_runtime.h>
// file 25
__global__ void k25(int *p) { p[0] = 25; }
void h25() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k25<<<1, 1>>>(0); }
