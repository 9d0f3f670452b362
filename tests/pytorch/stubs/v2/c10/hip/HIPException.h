// Stand-in, PyTorch 2.11 and newer: the error checks keep their CUDA names.
#pragma once
#include <hip/hip_runtime.h>

namespace c10 {
namespace cuda {
void check_hip_error(hipError_t err, const char *file, int line);
} // namespace cuda
} // namespace c10

#define C10_CUDA_CHECK(EXPR) ::c10::cuda::check_hip_error((EXPR), __FILE__, __LINE__)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(hipGetLastError())
