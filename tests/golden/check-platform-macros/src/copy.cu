#include "common.cuh"
__device__ unsigned lane() {
    unsigned r = 0;
#ifdef PTX_AVAILABLE
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
#endif
    return r;
}
