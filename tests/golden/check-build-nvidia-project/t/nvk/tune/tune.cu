__global__ void t(unsigned *p) { asm volatile("st.global.cs.b32 [%0], 1;" :: "l"(p)); }
