#ifndef COMPAT_CUH
#define COMPAT_CUH
__device__ __forceinline__ void atomic_add_h2(half2 *p, half2 v) { /* a CAS loop */ }
#if defined(USE_ROCM)
__device__ __forceinline__ void atomicAdd(half2 *p, half2 v) { atomic_add_h2(p, v); }
#endif
#endif
