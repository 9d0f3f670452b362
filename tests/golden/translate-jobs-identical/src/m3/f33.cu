#include <cuda_runtime.h>
// file 33
__global__ void k33(int *p) { p[0] = 33; }
void h33() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k33<<<1, 1>>>(0); }
