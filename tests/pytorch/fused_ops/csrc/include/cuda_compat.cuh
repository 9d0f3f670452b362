#ifndef CUDA_COMPAT_CUH
#define CUDA_COMPAT_CUH

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include "fused_ops.h"

#define CUDA_CHECK(expr) C10_CUDA_CHECK(expr)

__device__ __forceinline__ float gelu(float x) {
    return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}

#endif
