// Stand-in, PyTorch 2.11 and newer: the hipified c10/cuda/CUDAStream.h keeps CUDA names.
#pragma once
#include <c10/core/Device.h>
#include <hip/hip_runtime.h>

namespace c10 {
namespace cuda {
class CUDAStream {
  public:
    hipStream_t stream() const;
    operator hipStream_t() const;
};
CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1);
CUDAStream getStreamFromPool(bool high_priority = false, DeviceIndex device = -1);
void setCurrentCUDAStream(CUDAStream stream);
} // namespace cuda
} // namespace c10
