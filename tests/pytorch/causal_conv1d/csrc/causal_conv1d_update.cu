#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAStream.h>

#include "causal_conv1d.h"

template <int kNThreads, int kWidth, typename input_t, typename weight_t>
__global__ void causal_conv1d_update_kernel(ConvParamsBase params) {
    const int batch_id = blockIdx.x;
    const int channel_id = blockIdx.y * kNThreads + threadIdx.x;
    if (channel_id >= params.dim) return;
    auto *state = reinterpret_cast<input_t *>(params.conv_state_ptr) + (batch_id * params.dim + channel_id) * kWidth;
    const auto *w = reinterpret_cast<const weight_t *>(params.weight_ptr) + channel_id * kWidth;
    const input_t x = reinterpret_cast<const input_t *>(params.x_ptr)[batch_id * params.x_batch_stride + channel_id];
    float acc = 0.f;
#pragma unroll
    for (int k = 0; k < kWidth - 1; ++k) {
        state[k] = state[k + 1];
        acc += float(state[k]) * float(w[k]);
    }
    state[kWidth - 1] = x;
    acc += float(x) * float(w[kWidth - 1]);
    reinterpret_cast<input_t *>(params.out_ptr)[batch_id * params.out_batch_stride + channel_id] =
        input_t(params.silu_activation ? silu(acc) : acc);
}

template <typename input_t, typename weight_t>
void causal_conv1d_update_cuda(ConvParamsBase &params, cudaStream_t stream) {
    constexpr int kNThreads = 64;
    dim3 grid(params.batch, (params.dim + kNThreads - 1) / kNThreads);
    causal_conv1d_update_kernel<kNThreads, kMaxWidth, input_t, weight_t><<<grid, kNThreads, 0, stream>>>(params);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    c10::cuda::CUDAStream current = c10::cuda::getCurrentCUDAStream();
    if (current.stream() != stream) C10_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template void causal_conv1d_update_cuda<float, float>(ConvParamsBase &params, cudaStream_t stream);
