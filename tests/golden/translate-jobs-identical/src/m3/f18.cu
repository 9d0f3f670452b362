#include <cuda_runtime.h>
// file 18
__global__ void k18(int *p) { p[0] = 18; }
void h18() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k18<<<1, 1>>>(0); }
