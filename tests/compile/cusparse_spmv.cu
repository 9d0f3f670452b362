// Sparse matrix-vector product with cuSPARSE's generic API: CSR and dense-vector descriptors,
// a work buffer sized by cusparseSpMV_bufferSize, and the handle bound to a stream.
#include <cuda_runtime.h>
#include <cusparse.h>
#include <cstdio>
#include <vector>
#include "common/check.cuh"

#define CHECK_CUSPARSE(func)                                                                \
    {                                                                                       \
        cusparseStatus_t status = (func);                                                   \
        if (status != CUSPARSE_STATUS_SUCCESS) {                                            \
            printf("CUSPARSE API failed at line %d with error: %s (%d)\n", __LINE__,       \
                   cusparseGetErrorString(status), status);                                 \
            return EXIT_FAILURE;                                                            \
        }                                                                                   \
    }

int main()
{
    // 4x4 matrix with 9 non-zeros.
    const int rows = 4, cols = 4, nnz = 9;
    std::vector<int> hOffsets = {0, 3, 4, 7, 9};
    std::vector<int> hColumns = {0, 2, 3, 1, 0, 2, 3, 1, 3};
    std::vector<float> hValues = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    std::vector<float> hX = {1, 2, 3, 4}, hY(rows, 0.f);
    float alpha = 1.f, beta = 0.f;

    int *dOffsets, *dColumns;
    float *dValues, *dX, *dY;
    checkCudaErrors(cudaMalloc(&dOffsets, (rows + 1) * sizeof(int)));
    checkCudaErrors(cudaMalloc(&dColumns, nnz * sizeof(int)));
    checkCudaErrors(cudaMalloc(&dValues, nnz * sizeof(float)));
    checkCudaErrors(cudaMalloc(&dX, cols * sizeof(float)));
    checkCudaErrors(cudaMalloc(&dY, rows * sizeof(float)));
    checkCudaErrors(cudaMemcpy(dOffsets, hOffsets.data(), (rows + 1) * sizeof(int),
                               cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(dColumns, hColumns.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(dValues, hValues.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(dX, hX.data(), cols * sizeof(float), cudaMemcpyHostToDevice));

    cusparseHandle_t handle = nullptr;
    cusparseSpMatDescr_t matA;
    cusparseDnVecDescr_t vecX, vecY;
    void *dBuffer = nullptr;
    size_t bufferSize = 0;
    cudaStream_t stream;
    checkCudaErrors(cudaStreamCreate(&stream));
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseSetStream(handle, stream));
    CHECK_CUSPARSE(cusparseCreateCsr(&matA, rows, cols, nnz, dOffsets, dColumns, dValues,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecX, cols, dX, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecY, rows, dY, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA,
                                           vecX, &beta, vecY, CUDA_R_32F,
                                           CUSPARSE_SPMV_ALG_DEFAULT, &bufferSize));
    checkCudaErrors(cudaMalloc(&dBuffer, bufferSize));
    CHECK_CUSPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX,
                                &beta, vecY, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, dBuffer));
    CHECK_CUSPARSE(cusparseDestroySpMat(matA));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecX));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecY));
    CHECK_CUSPARSE(cusparseDestroy(handle));
    checkCudaErrors(cudaMemcpy(hY.data(), dY, rows * sizeof(float), cudaMemcpyDeviceToHost));
    printf("y = %f %f %f %f\n", hY[0], hY[1], hY[2], hY[3]);
    checkCudaErrors(cudaFree(dBuffer));
    checkCudaErrors(cudaFree(dOffsets));
    checkCudaErrors(cudaFree(dColumns));
    checkCudaErrors(cudaFree(dValues));
    checkCudaErrors(cudaFree(dX));
    checkCudaErrors(cudaFree(dY));
    checkCudaErrors(cudaStreamDestroy(stream));
    return 0;
}
