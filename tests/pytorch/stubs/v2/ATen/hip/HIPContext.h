// Stand-in, PyTorch 2.11 and newer: the hipified ATen/cuda/CUDAContext.h.
#pragma once
#include <c10/hip/HIPException.h>
#include <c10/hip/HIPStream.h>
#include <hip/hip_runtime.h>

#define AT_CUDA_CHECK(EXPR) C10_CUDA_CHECK(EXPR)

namespace at {
namespace cuda {
using namespace ::c10::cuda;
hipDeviceProp_t *getCurrentDeviceProperties();
} // namespace cuda
} // namespace at
