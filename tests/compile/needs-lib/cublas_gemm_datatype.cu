// GEMMs whose compute type is written as a cudaDataType (CUDA_R_32F), as CUDA 10 code and
// cuBLAS's C++ overloads allow; hipBLAS takes a hipblasComputeType_t there. The tensor-op
// default of cuBLAS 11 too.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cublas_v2.h>
#include <cstdio>

int main()
{
    const int n = 64, batch = 4;
    __half *A, *B, *C;
    float *X, *Y;
    cudaMalloc(&A, batch * n * n * sizeof(__half));
    cudaMalloc(&B, batch * n * n * sizeof(__half));
    cudaMalloc(&C, batch * n * n * sizeof(__half));
    cudaMalloc(&X, n * n * sizeof(float));
    cudaMalloc(&Y, n * n * sizeof(float));
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
        return 1;
    const float one = 1.f, zero = 0.f;
    cublasStatus_t s1 = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, CUDA_R_16F, n,
                                     B, CUDA_R_16F, n, &zero, C, CUDA_R_16F, n, CUDA_R_32F,
                                     CUBLAS_GEMM_DEFAULT_TENSOR_OP);
    cublasStatus_t s2 = cublasGemmStridedBatchedEx(
        h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, CUDA_R_16F, n, (long long)n * n, B,
        CUDA_R_16F, n, (long long)n * n, &zero, C, CUDA_R_16F, n, (long long)n * n, batch,
        CUDA_R_32F, CUBLAS_GEMM_DEFAULT);
    cublasStatus_t s3 = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, X, CUDA_R_32F, n,
                                     X, CUDA_R_32F, n, &zero, Y, CUDA_R_32F, n, CUDA_R_32F,
                                     CUBLAS_GEMM_DEFAULT);
    cudaDeviceSynchronize();
    printf("status %d %d %d\n", (int)s1, (int)s2, (int)s3);
    cublasDestroy(h);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    cudaFree(X);
    cudaFree(Y);
    return 0;
}
