// A GEMM whose compute type is chosen among its arguments by the CUDA version, as libraries
// that support CUDA 10 and 11 write it: CUBLAS_COMPUTE_32F from CUDA 11, the cudaDataType
// CUDA_R_32F before; both branches must become a hipblasComputeType_t.
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cstdio>

static cublasStatus_t sgemm(cublasHandle_t h, int m, int n, int k, const float *A,
                            const float *B, float *C)
{
    const float one = 1.f, zero = 0.f;
    return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, CUDA_R_32F, m, B,
                        CUDA_R_32F, k, &zero, C, CUDA_R_32F, m,
#if defined(CUDART_VERSION) && CUDART_VERSION >= 11000
                        CUBLAS_COMPUTE_32F,
#else
                        CUDA_R_32F,
#endif
                        CUBLAS_GEMM_DEFAULT);
}

int main()
{
    const int n = 64;
    float *A, *B, *C;
    cudaMalloc(&A, n * n * sizeof(float));
    cudaMalloc(&B, n * n * sizeof(float));
    cudaMalloc(&C, n * n * sizeof(float));
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
        return 1;
    cublasStatus_t s = sgemm(h, n, n, n, A, B, C);
    cudaDeviceSynchronize();
    printf("status %d\n", (int)s);
    cublasDestroy(h);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    return 0;
}
