// Clamped indices as softmax and pooling kernels write them: min and max of a signed count and
// a built-in index (unsigned in CUDA), used as an array subscript and stored in an int; CUDA's
// mixed overloads compare in the unsigned type and return an integer; sizes of one unsigned
// type compared in host code.
#include <cuda_runtime.h>
#include "common/cuda_check.h"

__global__ void gather_clamped(const float *x, float *y, int C)
{
    int last = C - 1;
    y[threadIdx.x] = x[min(last, threadIdx.x + blockDim.x)];
    int lo = max(0, blockIdx.x * blockDim.x - 1u);
    unsigned n = min(C, 32u);
    y[blockDim.x + threadIdx.x] = x[lo] + x[n - 1];
}

int host_chunks(int total, unsigned per)
{
    return (int)min(total, per);
}

// sizes of one unsigned type in host code: CUDA's host overload for the pair
size_t host_scratch(size_t heads, size_t vocab, int T)
{
    return T * max(3 * vocab, max(heads * T, vocab));
}

int main()
{
    const int C = 256;
    float *x = (float *)cudaMallocChecked(C * sizeof(float));
    float *y = (float *)cudaMallocChecked(2 * C * sizeof(float));
    gather_clamped<<<1, 128>>>(x, y, host_chunks(C, 512u));
    cudaCheck(cudaGetLastError());
    cudaCheck(cudaDeviceSynchronize());
    cudaCheck(cudaFree(x));
    cudaCheck(cudaFree(y));
    return 0;
}
