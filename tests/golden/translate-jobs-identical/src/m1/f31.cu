#include <cuda_runtime.h>
// file 31
__global__ void k31(int *p) { p[0] = 31; }
void h31() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k31<<<1, 1>>>(0); }
