#pragma once
#include <torch/extension.h>

torch::Tensor scale_cuda(torch::Tensor x, double alpha);
