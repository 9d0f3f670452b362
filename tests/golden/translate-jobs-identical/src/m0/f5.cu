#include <cuda_runtime.h>
// file 5
__global__ void k5(int *p) { p[0] = 5; }
void h5() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k5<<<1, 1>>>(0); }
