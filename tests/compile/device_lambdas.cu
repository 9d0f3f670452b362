// Generic element-wise kernels driven by __device__ lambdas (nvcc --extended-lambda), as in
// tensor libraries: a templated launcher taking any callable, and host-device lambdas.
// nvcc-flags: --extended-lambda
#include <cuda_runtime.h>
#include <cstdio>

template <typename F>
__global__ void elementwise_kernel(int n, F f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        f(i);
}

template <typename F>
void launch_elementwise(int n, F f, cudaStream_t stream = 0)
{
    constexpr int threads = 128;
    elementwise_kernel<F><<<(n + threads - 1) / threads, threads, 0, stream>>>(n, f);
}

int main()
{
    const int n = 1 << 16;
    float *a, *b;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    const float alpha = 0.5f;
    launch_elementwise(n, [=] __device__(int i) { a[i] = alpha * i; });
    launch_elementwise(n, [a, b] __device__(int i) { b[i] = a[i] * a[i]; });
    auto clampf = [] __host__ __device__(float v, float lo, float hi) {
        return v < lo ? lo : (v > hi ? hi : v);
    };
    launch_elementwise(n, [=] __device__(int i) { b[i] = clampf(b[i], 0.f, 1.f); });
    printf("host clamp %f\n", clampf(3.f, 0.f, 1.f));
    cudaDeviceSynchronize();
    cudaFree(a);
    cudaFree(b);
    return 0;
}
