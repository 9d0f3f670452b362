#include <cuda_runtime.h>
// file 4
__global__ void k4(int *p) { p[0] = 4; }
void h4() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k4<<<1, 1>>>(0); }
