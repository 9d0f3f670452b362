// hip-5.2: reported
// bfloat16 training kernels: a floatX typedef switched by a build macro, __nv_bfloat16 loads
// converted with __bfloat162float and stored with __float2bfloat16, and bf16 arithmetic.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdio>

#if defined(ENABLE_FP32)
typedef float floatX;
#else
typedef __nv_bfloat16 floatX;
#endif

__device__ inline float toFloat(float x) { return x; }
__device__ inline float toFloat(__nv_bfloat16 x) { return __bfloat162float(x); }

__global__ void adamw_bf16(floatX *params, const floatX *grads, float *m, float *v, float lr,
                           float beta1, float beta2, float eps, float wd, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float g = toFloat(grads[i]);
    float p = toFloat(params[i]);
    m[i] = beta1 * m[i] + (1.f - beta1) * g;
    v[i] = beta2 * v[i] + (1.f - beta2) * g * g;
    p -= lr * (m[i] / (sqrtf(v[i]) + eps) + wd * p);
    params[i] = (floatX)p;
}

__global__ void residual_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                              int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __nv_bfloat16 s = __hadd(a[i], b[i]);
        out[i] = __hmul(s, __float2bfloat16(0.5f));
    }
}

__global__ void pack_bf16x2(__nv_bfloat162 *out, const float *in, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2)
        out[i] = __floats2bfloat162_rn(in[2 * i], in[2 * i + 1]);
}

int main()
{
    const int n = 1 << 16;
    floatX *params, *grads;
    float *m, *v;
    cudaMalloc(&params, n * sizeof(floatX));
    cudaMalloc(&grads, n * sizeof(floatX));
    cudaMalloc(&m, n * sizeof(float));
    cudaMalloc(&v, n * sizeof(float));
    adamw_bf16<<<n / 256, 256>>>(params, grads, m, v, 1e-3f, 0.9f, 0.999f, 1e-8f, 0.f, n);
    residual_bf16<<<n / 256, 256>>>(params, grads, params, n);
    pack_bf16x2<<<n / 512, 256>>>((__nv_bfloat162 *)params, m, n / 2);
    cudaDeviceSynchronize();
    cudaFree(params);
    cudaFree(grads);
    cudaFree(m);
    cudaFree(v);
    return 0;
}
