#pragma once
// Not a shim: no hip/ include, no AMD test. Its definitions do not hide uses elsewhere.
#include <cuda_bf16.h>
static __device__ __forceinline__ unsigned __vabsdiffu4(unsigned a, unsigned b) { return a ^ b; }
