#include <cuda_runtime.h>
#define FULL_MASK 0xffffffff

__device__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

__global__ void k(float *out, const float *in) {
    int lane = threadIdx.x & 31;
    float s = warp_sum(in[threadIdx.x]);
    if (lane == 0)
        atomicAdd(out, s);
}
