// lib_hipsparse.cu: cuSPARSE's generic API (a CSR matrix times a dense vector) and its
// descriptors; translated, they use hipSPARSE.
#include <cuda_runtime.h>
#include <cusparse.h>

#define CHECK_SPARSE(call)                                                                     \
    do {                                                                                       \
        if ((call) != CUSPARSE_STATUS_SUCCESS) return 1;                                       \
    } while (0)

int spmv(int m, int n, int nnz, int *rows, int *cols, float *vals, float *x, float *y) {
    cusparseHandle_t handle;
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t vx, vy;
    const float alpha = 1.0f, beta = 0.0f;
    size_t size = 0;
    void *buffer = nullptr;
    CHECK_SPARSE(cusparseCreate(&handle));
    CHECK_SPARSE(cusparseCreateCsr(&A, m, n, nnz, rows, cols, vals, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_SPARSE(cusparseCreateDnVec(&vx, n, x, CUDA_R_32F));
    CHECK_SPARSE(cusparseCreateDnVec(&vy, m, y, CUDA_R_32F));
    CHECK_SPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx,
                                         &beta, vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &size));
    cudaMalloc(&buffer, size);
    CHECK_SPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy,
                              CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    cudaFree(buffer);
    CHECK_SPARSE(cusparseDestroyDnVec(vx));
    CHECK_SPARSE(cusparseDestroyDnVec(vy));
    CHECK_SPARSE(cusparseDestroySpMat(A));
    CHECK_SPARSE(cusparseDestroy(handle));
    return 0;
}

int descriptors(void) {
    cusparseMatDescr_t d;
    CHECK_SPARSE(cusparseCreateMatDescr(&d));
    CHECK_SPARSE(cusparseSetMatType(d, CUSPARSE_MATRIX_TYPE_GENERAL));
    CHECK_SPARSE(cusparseSetMatIndexBase(d, CUSPARSE_INDEX_BASE_ZERO));
    return cusparseGetMatIndexBase(d) == CUSPARSE_INDEX_BASE_ZERO &&
                   cusparseDestroyMatDescr(d) == CUSPARSE_STATUS_SUCCESS
               ? 0
               : 1;
}
