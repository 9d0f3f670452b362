/* Helpers for the kernels: vector widths, activation, launch checks. */
#ifndef CAUSAL_CONV1D_COMMON_H
#define CAUSAL_CONV1D_COMMON_H

#include <cuda_fp16.h>
#include "causal_conv1d.h" // circular on purpose: each header is complete without the other
#include "cuda/reduce_cuda.cuh"
#include "legacy_latin1.h"

#define CHECK_LAUNCH() C10_CUDA_KERNEL_LAUNCH_CHECK()

template <int BYTES> struct BytesToType {};
template <> struct BytesToType<16> { using Type = uint4; };
template <> struct BytesToType<8> { using Type = uint2; };
template <> struct BytesToType<4> { using Type = uint32_t; };

__device__ __forceinline__ float silu(float x) { return x / (1.0f + __expf(-x)); }

#endif
