#include <cuda_runtime.h>
// file 24
__global__ void k24(int *p) { p[0] = 24; }
void h24() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k24<<<1, 1>>>(0); }
