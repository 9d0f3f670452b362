// hip-5.2: reported
// Numerical constants from math_constants.h (CUDART_PI_F, CUDART_INF_F, CUDART_NAN_F,
// CUDART_SQRT_2PI) used in a Gaussian kernel and NaN/Inf sanitising.
#include <cuda_runtime.h>
#include <math_constants.h>
#include <cstdio>

__global__ void gaussian(float *out, const float *x, float mu, float sigma, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float z = (x[i] - mu) / sigma;
    float v = expf(-0.5f * z * z) / (sigma * sqrtf(2.f * CUDART_PI_F));
    if (isinf(v) || v == CUDART_INF_F)
        v = 0.f;
    if (isnan(v))
        v = CUDART_NAN_F;
    out[i] = v;
}

__global__ void gaussian_d(double *out, const double *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = exp(-0.5 * x[i] * x[i]) / CUDART_SQRT_2PI + CUDART_PI * 0.0;
}

int main()
{
    float *x, *y;
    double *xd, *yd;
    cudaMalloc(&x, 1024 * sizeof(float));
    cudaMalloc(&y, 1024 * sizeof(float));
    cudaMalloc(&xd, 1024 * sizeof(double));
    cudaMalloc(&yd, 1024 * sizeof(double));
    gaussian<<<4, 256>>>(y, x, 0.f, 1.f, 1024);
    gaussian_d<<<4, 256>>>(yd, xd, 1024);
    cudaDeviceSynchronize();
    printf("pi = %f\n", CUDART_PI_F);
    cudaFree(x);
    cudaFree(y);
    cudaFree(xd);
    cudaFree(yd);
    return 0;
}
