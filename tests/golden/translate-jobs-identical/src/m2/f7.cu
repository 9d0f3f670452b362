#include <cuda_runtime.h>
// file 7
__global__ void k7(int *p) { p[0] = 7; }
void h7() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k7<<<1, 1>>>(0); }
