#pragma once
#include <cuda_fp16.h>
#include "ext_config.h"

template <typename T>
__device__ __forceinline__ T load(const T *p, int i) { return __ldg(p + i); }

#define CHECK_CUDA(x) TORCH_CHECK((x).is_cuda(), #x " must be a CUDA tensor")
