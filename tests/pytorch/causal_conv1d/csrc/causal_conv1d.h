/* Parameters shared by the kernels and the host code. */
#pragma once

#include <cuda_runtime.h>
#include "causal_conv1d_common.h"

struct ConvParamsBase {
    int batch, dim, seqlen, width;
    bool silu_activation;
    int x_batch_stride, x_c_stride;
    int out_batch_stride, out_c_stride;
    void *__restrict__ x_ptr;
    void *__restrict__ weight_ptr;
    void *__restrict__ bias_ptr;
    void *__restrict__ out_ptr;
    void *__restrict__ conv_state_ptr;
};

template <typename input_t, typename weight_t>
void causal_conv1d_fwd_cuda(ConvParamsBase &params, cudaStream_t stream);
template <typename input_t, typename weight_t>
void causal_conv1d_bwd_cuda(ConvParamsBase &params, cudaStream_t stream);
template <typename input_t, typename weight_t>
void causal_conv1d_update_cuda(ConvParamsBase &params, cudaStream_t stream);
