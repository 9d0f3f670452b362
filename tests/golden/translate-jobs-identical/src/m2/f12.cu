#include <cuda_runtime.h>
// file 12
__global__ void k12(int *p) { p[0] = 12; }
void h12() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k12<<<1, 1>>>(0); }
