#include <cuda_runtime.h>
// file 37
__global__ void k37(int *p) { p[0] = 37; }
void h37() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k37<<<1, 1>>>(0); }
