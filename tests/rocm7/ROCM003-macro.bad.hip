#include <string.h>
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void k(unsigned *p) { p[0] = ROCPRIM_WAVEFRONT_SIZE + rocprim::device_warp_size(); }
