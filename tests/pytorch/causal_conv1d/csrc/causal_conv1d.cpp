#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>
#include <vector>

#include "causal_conv1d.h"

#define CHECK_SHAPE(x, ...) \
    TORCH_CHECK(x.sizes() == torch::IntArrayRef({__VA_ARGS__}), #x " must have shape (" #__VA_ARGS__ ")")

static void set_params(ConvParamsBase &params, const at::Tensor &x, const at::Tensor &weight,
                       const at::Tensor &out, void *bias_ptr, bool silu) {
    params.batch = x.size(0);
    params.dim = x.size(1);
    params.seqlen = x.size(2);
    params.width = weight.size(-1);
    params.silu_activation = silu;
    params.x_ptr = x.data_ptr();
    params.weight_ptr = weight.data_ptr();
    params.bias_ptr = bias_ptr;
    params.out_ptr = out.data_ptr();
    params.x_batch_stride = x.stride(0);
    params.x_c_stride = x.stride(1);
    params.out_batch_stride = out.stride(0);
    params.out_c_stride = out.stride(1);
}

at::Tensor causal_conv1d_fwd(const at::Tensor &x, const at::Tensor &weight,
                             const c10::optional<at::Tensor> &bias, bool silu) {
    TORCH_CHECK(x.is_cuda(), "x must be on CUDA");
    TORCH_CHECK(weight.scalar_type() == at::ScalarType::Float, "weight must be float32");
    const int dim = x.size(1), width = weight.size(-1);
    CHECK_SHAPE(weight, dim, width);
    at::Tensor out = torch::empty_like(x);
    ConvParamsBase params;
    set_params(params, x, weight, out, bias.has_value() ? bias.value().data_ptr() : nullptr, silu);
    // Otherwise the kernel will be launched from cuda:0 device
    at::cuda::CUDAGuard device_guard{(char)x.get_device()};
    auto stream = at::cuda::getCurrentCUDAStream().stream();
    causal_conv1d_fwd_cuda<float, float>(params, stream);
    return out;
}

at::Tensor causal_conv1d_bwd(const at::Tensor &x, const at::Tensor &weight, const at::Tensor &dout) {
    const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
    at::Tensor dx = torch::empty_like(x);
    ConvParamsBase params;
    set_params(params, dout, weight, dx, nullptr, false);
    causal_conv1d_bwd_cuda<float, float>(params, at::cuda::getCurrentCUDAStream());
    AT_CUDA_CHECK(cudaGetLastError());
    return dx;
}

void causal_conv1d_update(const at::Tensor &x, const at::Tensor &conv_state, const at::Tensor &weight,
                          at::Tensor &out) {
    c10::cuda::CUDAGuard device_guard(x.device());
    ConvParamsBase params;
    set_params(params, x, weight, out, nullptr, true);
    params.conv_state_ptr = conv_state.data_ptr();
    cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
    causal_conv1d_update_cuda<float, float>(params, stream);
    C10_CUDA_CHECK(cudaStreamSynchronize(stream));
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("causal_conv1d_fwd", &causal_conv1d_fwd, "Causal conv1d forward");
    m.def("causal_conv1d_bwd", &causal_conv1d_bwd, "Causal conv1d backward");
    m.def("causal_conv1d_update", &causal_conv1d_update, "Causal conv1d update");
}
