// Stand-in: c10::Device and c10::optional.
#pragma once

namespace c10 {
using DeviceIndex = signed char;

struct Device {
    DeviceIndex index() const;
};

template <typename T> class optional {
  public:
    optional() = default;
    optional(const T &v) : v_(v), has_(true) {}
    bool has_value() const { return has_; }
    const T &value() const { return v_; }

  private:
    T v_{};
    bool has_ = false;
};
} // namespace c10
