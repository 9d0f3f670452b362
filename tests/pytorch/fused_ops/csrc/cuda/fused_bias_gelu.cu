#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include "fused_ops.h"

__global__ void bias_gelu_kernel(const float *__restrict__ x, const float *__restrict__ bias,
                                 float *__restrict__ y, int64_t n, int64_t hidden) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        y[i] = gelu(x[i] + bias[i % hidden]);
}

torch::Tensor fused_bias_gelu(const torch::Tensor &x, const torch::Tensor &bias) {
    c10::cuda::CUDAGuard guard(x.device());
    auto y = torch::empty_like(x);
    const int64_t n = x.numel(), hidden = bias.numel();
    // a side stream from the pool, made current for the launch
    c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
    c10::cuda::CUDAStreamGuard stream_guard(side);
    const int threads = 256;
    const int blocks = (int)((n + threads - 1) / threads);
    bias_gelu_kernel<<<blocks, threads, 0, side.stream()>>>(x.data_ptr<float>(), bias.data_ptr<float>(),
                                                           y.data_ptr<float>(), n, hidden);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    CUDA_CHECK(cudaStreamSynchronize(side));
    return y;
}
