#include <cuda_runtime.h>
// file 19
__global__ void k19(int *p) { p[0] = 19; }
void h19() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k19<<<1, 1>>>(0); }
