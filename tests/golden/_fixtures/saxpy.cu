#include <cuda_runtime.h>
#include <cstdio>

__global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
    float *x, *y;
    cudaMalloc(&x, 1024 * sizeof(float));
    cudaMalloc(&y, 1024 * sizeof(float));
    saxpy<<<4, 256>>>(1024, 2.0f, x, y);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) printf("%s\n", cudaGetErrorString(err));
    cudaDeviceSynchronize();
    cudaFree(x);
    cudaFree(y);
    return 0;
}
