// An index type of a library header that names CUDA's half type without including
// cuda_fp16.h: cuda_bf16.h, which it includes, brings it (as cuBLAS's and cuSPARSE's do).
#ifndef HALF_INDEX_H
#define HALF_INDEX_H
#include <cuda_bf16.h>
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
