// A source saved with a UTF-8 byte-order mark (common from Windows editors) and UTF-8 text
// in comments and strings: λ = 0.5, σ², →, 温度.
#include <cuda_runtime.h>
#include <cstdio>

// Exponential moving average: xₙ = λ·x + (1 − λ)·xₙ₋₁
__global__ void ema(float *avg, const float *x, float lambda, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        avg[i] = lambda * x[i] + (1.f - lambda) * avg[i];
}

int main()
{
    float *avg, *x;
    cudaMalloc(&avg, 1024 * sizeof(float));
    cudaMalloc(&x, 1024 * sizeof(float));
    ema<<<4, 256>>>(avg, x, 0.5f, 1024);
    cudaError_t e = cudaDeviceSynchronize();
    printf("λ-average: %s\n", cudaGetErrorString(e));
    cudaFree(avg);
    cudaFree(x);
    return 0;
}
