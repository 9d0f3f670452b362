// Dense linear algebra through cuBLAS: a handle bound to a stream, column-major SGEMM for a
// row-major product (operands swapped), strided-batched GEMM, cublasGemmEx with a compute
// type, and status checks through the shared helper header (CUBLAS_API_H_ guard).
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cstdio>
#include "common/check.cuh"

// C[M][N] = A[M][K] * B[K][N], all row-major.
static void matmul_rowmajor(cublasHandle_t h, const float *A, const float *B, float *C, int M,
                            int N, int K)
{
    const float alpha = 1.f, beta = 0.f;
    checkCudaErrors(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta,
                                C, N));
}

int main()
{
    const int M = 256, N = 128, K = 64, batch = 8;
    float *A, *B, *C;
    checkCudaErrors(cudaMalloc(&A, batch * M * K * sizeof(float)));
    checkCudaErrors(cudaMalloc(&B, batch * K * N * sizeof(float)));
    checkCudaErrors(cudaMalloc(&C, batch * M * N * sizeof(float)));
    cudaStream_t stream;
    checkCudaErrors(cudaStreamCreate(&stream));
    cublasHandle_t handle;
    checkCudaErrors(cublasCreate(&handle));
    checkCudaErrors(cublasSetStream(handle, stream));
    checkCudaErrors(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
    matmul_rowmajor(handle, A, B, C, M, N, K);

    const float alpha = 1.f, beta = 0.f;
    checkCudaErrors(cublasSgemmStridedBatched(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B,
                                              K, (long long)K * N, A, K, (long long)M * K, &beta,
                                              C, N, (long long)M * N, batch));
    checkCudaErrors(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_32F,
                                 N, A, CUDA_R_32F, K, &beta, C, CUDA_R_32F, N,
                                 CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT));
    float nrm = 0.f;
    checkCudaErrors(cublasSnrm2(handle, M * N, C, 1, &nrm));
    checkCudaErrors(cudaStreamSynchronize(stream));
    printf("|C| = %f\n", nrm);
    checkCudaErrors(cublasDestroy(handle));
    checkCudaErrors(cudaStreamDestroy(stream));
    checkCudaErrors(cudaFree(A));
    checkCudaErrors(cudaFree(B));
    checkCudaErrors(cudaFree(C));
    return 0;
}
