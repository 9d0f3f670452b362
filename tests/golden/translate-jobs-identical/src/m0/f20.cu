#include <cuda_runtime.h>
// file 20
__global__ void k20(int *p) { p[0] = 20; }
void h20() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k20<<<1, 1>>>(0); }
