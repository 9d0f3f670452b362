#include <string.h>
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
#include <hipcub/hipcub.hpp>
__global__ void k(unsigned *p) { __shared__ int a[rocprim::arch::wavefront::max_size()]; a[0]=1; p[0] = rocprim::arch::wavefront::size() + a[0] + HIPCUB_DEVICE_WARP_THREADS; }
