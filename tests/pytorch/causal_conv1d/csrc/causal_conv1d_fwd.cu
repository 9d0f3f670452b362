#include <c10/cuda/CUDAException.h>

#include "causal_conv1d.h"
#include "static_switch.h"

template <int kNThreads, int kWidth, bool kSilu, typename input_t, typename weight_t>
__global__ __launch_bounds__(kNThreads) void causal_conv1d_fwd_kernel(ConvParamsBase params) {
    extern __shared__ char smem[];
    auto *window = reinterpret_cast<input_t *>(smem);
    const int batch_id = blockIdx.x, channel_id = blockIdx.y;
    const auto *x = reinterpret_cast<const input_t *>(params.x_ptr) + batch_id * params.x_batch_stride +
                    channel_id * params.x_c_stride;
    const auto *w = reinterpret_cast<const weight_t *>(params.weight_ptr) + channel_id * kWidth;
    auto *out = reinterpret_cast<input_t *>(params.out_ptr) + batch_id * params.out_batch_stride +
                channel_id * params.out_c_stride;
    float bias = params.bias_ptr ? reinterpret_cast<const weight_t *>(params.bias_ptr)[channel_id] : 0.f;
    for (int l = threadIdx.x; l < params.seqlen; l += kNThreads) {
        window[threadIdx.x] = x[l];
        float acc = bias;
#pragma unroll
        for (int k = 0; k < kWidth; ++k) {
            int src = l - (kWidth - 1) + k;
            acc += src >= 0 ? float(x[src]) * float(w[k]) : 0.f;
        }
        out[l] = input_t(kSilu ? silu(acc) : acc);
    }
}

template <int kNThreads, int kWidth, typename input_t, typename weight_t>
void causal_conv1d_fwd_launch(ConvParamsBase &params, cudaStream_t stream) {
    BOOL_SWITCH(params.silu_activation, kSilu, [&] {
        dim3 grid(params.batch, params.dim);
        auto kernel = &causal_conv1d_fwd_kernel<kNThreads, kWidth, kSilu, input_t, weight_t>;
        const int smem = kNThreads * sizeof(input_t);
        if (smem >= 48 * 1024)
            C10_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        kernel<<<grid, kNThreads, smem, stream>>>(params);
        CHECK_LAUNCH();
    });
}

template <typename input_t, typename weight_t>
void causal_conv1d_fwd_cuda(ConvParamsBase &params, cudaStream_t stream) {
    if (params.width == 2) causal_conv1d_fwd_launch<128, 2, input_t, weight_t>(params, stream);
    else if (params.width == 3) causal_conv1d_fwd_launch<128, 3, input_t, weight_t>(params, stream);
    else if (params.width == 4) causal_conv1d_fwd_launch<128, 4, input_t, weight_t>(params, stream);
}

template void causal_conv1d_fwd_cuda<float, float>(ConvParamsBase &params, cudaStream_t stream);
