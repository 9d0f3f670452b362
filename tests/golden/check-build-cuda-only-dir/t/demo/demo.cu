__global__ void k(unsigned *p) { asm volatile("st.global.cs.b32 [%0], 1;" :: "l"(p)); }
