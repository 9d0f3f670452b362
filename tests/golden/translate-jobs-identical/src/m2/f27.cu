#include <cuda_runtime.h>
// file 27
__global__ void k27(int *p) { p[0] = 27; }
void h27() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k27<<<1, 1>>>(0); }
