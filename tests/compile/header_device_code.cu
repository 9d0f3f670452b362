// A .cu file whose device code lives only in an included project header: this file itself
// has host code only (stream management and calls to launch wrappers).
#include <cstdio>
#include "common/device_ops.cuh"

int main()
{
    const int n = 1 << 16;
    float *x = nullptr, *y = nullptr, *dy = nullptr, *dx = nullptr;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMalloc(&dx, n * sizeof(float));
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    ops::relu_forward_launch(y, x, n, s);
    ops::relu_backward_launch(dx, x, dy, n, s);
    cudaError_t err = cudaStreamSynchronize(s);
    printf("relu: %s\n", cudaGetErrorString(err));
    cudaStreamDestroy(s);
    cudaFree(x);
    cudaFree(y);
    cudaFree(dy);
    cudaFree(dx);
    return err == cudaSuccess ? 0 : 1;
}
