#ifdef USE_ROCM
#include "vendors/hip.h"
#else
#include <cuda_runtime.h>
#endif
#include "compat.cuh"

__global__ void k(int *out, const nv_bfloat16 *x, half2 *acc, half2 v) {
#if __CUDA_ARCH__ >= 800
    out[0] = 1;
#endif
    out[1] = __vsub4(out[1], out[2]);
    atomicAdd(acc, v);
    if (!x)
        __trap();
}

void host(cublasHandle_t h) {
    cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
}
