#include <cuda_runtime.h>
// file 39
__global__ void k39(int *p) { p[0] = 39; }
void h39() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k39<<<1, 1>>>(0); }
