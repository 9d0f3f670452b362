// An index type of a library header that names CUDA's half type without including
// cuda_fp16.h: nvcc's implicit runtime header declares it in every CUDA translation unit.
#ifndef HALF_INDEX_H
#define HALF_INDEX_H
#include <memory>
#include <variant>

template <typename T> struct Store {
    T *data;
    int n;
};

struct HalfIndex {
    std::variant<std::monostate, std::shared_ptr<Store<float>>, std::shared_ptr<Store<half>>> store;
};
#endif
