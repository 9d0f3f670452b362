// Stand-in, PyTorch 2.11 and newer: device guards under their CUDA names.
#pragma once
#include <c10/core/Device.h>
#include <c10/hip/HIPStream.h>

namespace c10 {
namespace cuda {
struct CUDAGuard {
    explicit CUDAGuard(DeviceIndex device_index);
    explicit CUDAGuard(Device device);
};
struct OptionalCUDAGuard {
    explicit OptionalCUDAGuard(optional<Device> device);
};
struct CUDAStreamGuard {
    explicit CUDAStreamGuard(CUDAStream stream);
};
} // namespace cuda
} // namespace c10

namespace at {
namespace cuda {
using namespace ::c10::cuda;
} // namespace cuda
} // namespace at
