#include <cuda_runtime.h>
// file 6
__global__ void k6(int *p) { p[0] = 6; }
void h6() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k6<<<1, 1>>>(0); }
