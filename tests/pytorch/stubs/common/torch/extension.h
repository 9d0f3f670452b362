// Stand-in: the parts of torch/extension.h the test extensions use.
#pragma once
#include <c10/core/Device.h>
#include <cstdint>
#include <initializer_list>

namespace c10 {
enum class ScalarType { Float, Half, BFloat16 };

struct IntArrayRef {
    IntArrayRef(std::initializer_list<int64_t> values);
    bool operator==(const IntArrayRef &other) const;
};
} // namespace c10

namespace at {
using c10::ScalarType;

class Tensor {
  public:
    int64_t size(int64_t dim) const;
    int64_t stride(int64_t dim) const;
    int64_t numel() const;
    c10::IntArrayRef sizes() const;
    void *data_ptr() const;
    template <typename T> T *data_ptr() const;
    bool is_cuda() const;
    ScalarType scalar_type() const;
    c10::DeviceIndex get_device() const;
    c10::Device device() const;
};

c10::optional<c10::Device> device_of(const Tensor &t);
} // namespace at

namespace torch {
using at::Tensor;
using c10::IntArrayRef;
at::Tensor empty_like(const at::Tensor &t);
} // namespace torch

#define TORCH_CHECK(cond, ...) ((void)(cond))
#define TORCH_EXTENSION_NAME test_extension

struct pybind_module_stub {
    template <typename F> void def(const char *name, F f, const char *doc) {}
};
#define PYBIND11_MODULE(name, m) void pybind_module_init(pybind_module_stub &m)
