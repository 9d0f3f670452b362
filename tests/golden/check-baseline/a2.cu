// a comment and a few lines added above the old findings
#include <cuda_runtime.h>

#define WARP_SIZE 32
__global__ void k(float *v) {
    v[0] = __shfl_xor_sync(0xffffffff, v[0], 1);
    __nanosleep(10);
    __nanosleep(20);
    v[1] = __shfl_xor_sync(0xffffffffu, v[1], 2);
}
