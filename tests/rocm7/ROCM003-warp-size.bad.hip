#include <string.h>
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void k(unsigned *p) { p[0] = rocprim::warp_size(); }
