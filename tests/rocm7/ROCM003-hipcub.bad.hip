#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
__global__ void k(unsigned *p) { p[0] = HIPCUB_WARP_THREADS; }
