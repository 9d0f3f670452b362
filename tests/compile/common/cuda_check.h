// common/cuda_check.h: the one-macro error check of plain CUDA C training codes, plus user
// helpers whose own names contain "cuda" (they belong to the project, not to CUDA).
#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

static inline void cuda_check(cudaError_t error, const char *file, int line)
{
    if (error != cudaSuccess) {
        printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line, cudaGetErrorString(error));
        exit(EXIT_FAILURE);
    }
}
#define cudaCheck(err) (cuda_check(err, __FILE__, __LINE__))

// Project helpers: not CUDA API names.
static inline void *cudaMallocChecked(size_t bytes)
{
    void *p = NULL;
    cudaCheck(cudaMalloc(&p, bytes));
    return p;
}

static inline int cuda_num_sms(void)
{
    int dev = 0, sms = 0;
    cudaCheck(cudaGetDevice(&dev));
    cudaCheck(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return sms;
}

#define CEIL_DIV(M, N) (((M) + (N) - 1) / (N))
