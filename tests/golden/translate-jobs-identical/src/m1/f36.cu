#include <cuda_runtime.h>
// file 36
__global__ void k36(int *p) { p[0] = 36; }
void h36() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k36<<<1, 1>>>(0); }
