__device__ void k(int *p) { p[threadIdx.x & 31] = 0; }
