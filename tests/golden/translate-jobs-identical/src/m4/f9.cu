#include <cuda_runtime.h>
// file 9
__global__ void k9(int *p) { p[0] = 9; }
void h9() { cudaFree(0); cudaDeviceFlushGPUDirectRDMAWrites(x, y); k9<<<1, 1>>>(0); }
