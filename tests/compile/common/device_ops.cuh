// common/device_ops.cuh: kernels and their launch wrappers kept in a header, so that the .cu
// files that include it contain host code only. Like many project headers it includes no CUDA
// header itself: nvcc pre-includes the runtime.
#pragma once

namespace ops {

__device__ inline float relu(float x) { return x > 0.f ? x : 0.f; }

__global__ void relu_forward(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = relu(in[i]);
}

__global__ void relu_backward(float *dinp, const float *inp, const float *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dinp[i] = inp[i] > 0.f ? dout[i] : 0.f;
}

inline void relu_forward_launch(float *out, const float *in, int n, cudaStream_t stream)
{
    const int block = 256;
    relu_forward<<<(n + block - 1) / block, block, 0, stream>>>(out, in, n);
}

inline void relu_backward_launch(float *dinp, const float *inp, const float *dout, int n,
                                 cudaStream_t stream)
{
    const int block = 256;
    relu_backward<<<(n + block - 1) / block, block, 0, stream>>>(dinp, inp, dout, n);
}

} // namespace ops
