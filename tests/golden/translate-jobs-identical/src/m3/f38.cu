#include <cuda_runtime.h>
// file 38
__global__ void k38(int *p) { p[0] = 38; }
void h38() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k38<<<1, 1>>>(0); }
