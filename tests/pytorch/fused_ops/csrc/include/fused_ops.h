#ifndef FUSED_OPS_H
#define FUSED_OPS_H

#include <torch/extension.h>
#include "cuda_compat.cuh"

torch::Tensor fused_bias_gelu(const torch::Tensor &x, const torch::Tensor &bias);
torch::Tensor fused_layernorm(const torch::Tensor &x, double eps);

#endif
