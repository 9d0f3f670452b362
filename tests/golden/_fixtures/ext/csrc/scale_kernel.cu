#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include "scale.h"
#include "cuda_utils.cuh"

template <typename T>
__global__ void scale_kernel(const T *x, T *y, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = load(x, i) * static_cast<T>(alpha);
}

torch::Tensor scale_cuda(torch::Tensor x, double alpha) {
    CHECK_CUDA(x);
    const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
    auto y = torch::empty_like(x);
    const int n = x.numel();
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    scale_kernel<float><<<blocks_for(n), kThreads, 0, stream>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), static_cast<float>(alpha), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
