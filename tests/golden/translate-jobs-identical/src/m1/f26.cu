#include <cuda_runtime.h>
// file 26
__global__ void k26(int *p) { p[0] = 26; }
void h26() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k26<<<1, 1>>>(0); }
