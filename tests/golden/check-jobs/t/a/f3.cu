#define WARP_SIZE 32
__global__ void ka3(float *v) { v[threadIdx.x & 31] = __shfl_xor_sync(0xffffffff, v[0], 1); __nanosleep(3); }
