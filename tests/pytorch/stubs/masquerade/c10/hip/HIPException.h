// Stand-in, PyTorch before 2.11: the error checks under HIP names.
#pragma once
#include <hip/hip_runtime.h>

namespace c10 {
namespace hip {
void check_hip_error(hipError_t err, const char *file, int line);
} // namespace hip
} // namespace c10

#define C10_HIP_CHECK(EXPR) ::c10::hip::check_hip_error((EXPR), __FILE__, __LINE__)
#define C10_HIP_KERNEL_LAUNCH_CHECK() C10_HIP_CHECK(hipGetLastError())
