#include <cuda_runtime.h>
// file 11
__global__ void k11(int *p) { p[0] = 11; }
void h11() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k11<<<1, 1>>>(0); }
