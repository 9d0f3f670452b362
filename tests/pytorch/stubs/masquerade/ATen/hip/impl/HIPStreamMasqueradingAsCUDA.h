// Stand-in, PyTorch before 2.11: HIP streams presented as CUDA ones.
#pragma once
#include <c10/core/Device.h>
#include <hip/hip_runtime.h>

namespace c10 {
namespace hip {
class HIPStreamMasqueradingAsCUDA {
  public:
    hipStream_t stream() const;
    operator hipStream_t() const;
};
HIPStreamMasqueradingAsCUDA getCurrentHIPStreamMasqueradingAsCUDA(DeviceIndex device = -1);
HIPStreamMasqueradingAsCUDA getDefaultHIPStreamMasqueradingAsCUDA(DeviceIndex device = -1);
HIPStreamMasqueradingAsCUDA getStreamFromPoolMasqueradingAsCUDA(bool high = false,
                                                                DeviceIndex device = -1);
void setCurrentHIPStreamMasqueradingAsCUDA(HIPStreamMasqueradingAsCUDA stream);
} // namespace hip
} // namespace c10

namespace at {
namespace hip {
using namespace ::c10::hip;
} // namespace hip
} // namespace at
