#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hipblas/hipblas.h>

#define CUBLAS_TF32_TENSOR_OP_MATH 0
#define cublasSetMathMode(handle, mode) CUBLAS_STATUS_SUCCESS
#define __trap() abort()
#define __CUDA_ARCH__ 900
typedef __hip_bfloat16 nv_bfloat16;

static __device__ __forceinline__ int __vsub4(const int a, const int b) {
    return a - b;
}
