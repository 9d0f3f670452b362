#include <cuda_runtime.h>
// file 3
__global__ void k3(int *p) { p[0] = 3; }
void h3() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k3<<<1, 1>>>(0); }
