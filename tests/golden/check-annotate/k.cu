#include <cuda_runtime.h>

__global__ void k(float *v, unsigned long long *m) {
    int lane = threadIdx.x & 31;
    v[lane] = __shfl_xor_sync(0xffffffff, v[lane], 1);
#define SHFL(x) __shfl_down_sync(0xffffffff, \
                                 x, 1)
    m[0] = __ballot(v[0] > 0); // fine: 64 bits
}
