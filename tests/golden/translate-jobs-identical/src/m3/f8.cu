#include <cuda_runtime.h>
// file 8
__global__ void k8(int *p) { p[0] = 8; }
void h8() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k8<<<1, 1>>>(0); }
