#pragma once
#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
// the mask is always the full warp here: HIP's maskless shuffle does the same
#define __shfl_down_sync(mask, val, delta) __shfl_down(val, delta)
#endif
