// Stand-in, PyTorch before 2.11: the hipified ATen/cuda/CUDAContext.h.
#pragma once
#include <ATen/hip/impl/HIPStreamMasqueradingAsCUDA.h>
#include <c10/hip/HIPException.h>
#include <hip/hip_runtime.h>

#define AT_CUDA_CHECK(EXPR) C10_HIP_CHECK(EXPR)

namespace at {
namespace cuda {
hipDeviceProp_t *getCurrentDeviceProperties();
} // namespace cuda
} // namespace at
