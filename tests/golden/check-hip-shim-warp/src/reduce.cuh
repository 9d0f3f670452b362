#pragma once
#include "interop.h"
template <typename T> __device__ T warp_sum(T v) {
    const unsigned full = 0xffffffffu;
    unsigned mask = full;
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_down_sync(mask, v, d);
    return v;
}
__device__ float warp_any(float v) {
    unsigned m = 0xffffffffu;
    return __any_sync(m, v > 0.f) ? v : 0.f;
}
