#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>

#include "causal_conv1d.h"

template <int kNThreads, typename input_t, typename weight_t>
__global__ void causal_conv1d_bwd_kernel(ConvParamsBase params) {
    const int batch_id = blockIdx.x, channel_id = blockIdx.y;
    const auto *dout = reinterpret_cast<const input_t *>(params.x_ptr) + batch_id * params.x_batch_stride +
                       channel_id * params.x_c_stride;
    const auto *w = reinterpret_cast<const weight_t *>(params.weight_ptr) + channel_id * params.width;
    auto *dx = reinterpret_cast<input_t *>(params.out_ptr) + batch_id * params.out_batch_stride +
               channel_id * params.out_c_stride;
    float local = 0.f;
    for (int l = threadIdx.x; l < params.seqlen; l += kNThreads) {
        float acc = 0.f;
        for (int k = 0; k < params.width; ++k) {
            int dst = l + (params.width - 1) - k;
            acc += dst < params.seqlen ? float(dout[dst]) * float(w[k]) : 0.f;
        }
        dx[l] = input_t(acc);
        local += acc;
    }
    float total = block_reduce_sum<float, kNThreads>(local);
    if (threadIdx.x == 0 && total != total) printf("nan in channel %d\n", channel_id);
}

template <typename input_t, typename weight_t>
void causal_conv1d_bwd_cuda(ConvParamsBase &params, cudaStream_t stream) {
    dim3 grid(params.batch, params.dim);
    causal_conv1d_bwd_kernel<128, input_t, weight_t><<<grid, 128, 0, stream>>>(params);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

template void causal_conv1d_bwd_cuda<float, float>(ConvParamsBase &params, cudaStream_t stream);
