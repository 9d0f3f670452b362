// Stand-in, PyTorch before 2.11: HIP device guards presented as CUDA ones.
#pragma once
#include <ATen/hip/impl/HIPStreamMasqueradingAsCUDA.h>
#include <c10/core/Device.h>

namespace c10 {
namespace hip {
struct HIPGuardMasqueradingAsCUDA {
    explicit HIPGuardMasqueradingAsCUDA(DeviceIndex device_index);
    explicit HIPGuardMasqueradingAsCUDA(Device device);
};
struct OptionalHIPGuardMasqueradingAsCUDA {
    explicit OptionalHIPGuardMasqueradingAsCUDA(optional<Device> device);
};
struct HIPStreamGuardMasqueradingAsCUDA {
    explicit HIPStreamGuardMasqueradingAsCUDA(HIPStreamMasqueradingAsCUDA stream);
};
} // namespace hip
} // namespace c10

namespace at {
namespace hip {
using namespace ::c10::hip;
} // namespace hip
} // namespace at
