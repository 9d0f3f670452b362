#include "inc.cu"
__global__ void a(unsigned *p) { asm volatile("st.global.cs.b32 [%0], 1;" :: "l"(p)); }
