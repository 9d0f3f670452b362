#include <cuda_runtime.h>
// file 17
__global__ void k17(int *p) { p[0] = 17; }
void h17() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k17<<<1, 1>>>(0); }
