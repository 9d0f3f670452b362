#include "../common/masks.cuh"
__global__ void k1(float *x) {
    float v = x[0];
    v += __shfl_down_sync(FULL, v, 1);
    x[0] = __shfl_sync(ALL_LANES, v, 0);
}
