#include <cutlass/gemm/device/gemm.h>
__global__ void k(unsigned *p) { asm volatile("st.global.cs.b32 [%0], 1;" :: "l"(p)); }
