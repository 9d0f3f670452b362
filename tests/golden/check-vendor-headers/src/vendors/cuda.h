#pragma once
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#if CUDART_VERSION >= 11080
#define HAS_FP8 1
#endif
