__global__ void i(unsigned *p) { asm volatile("st.global.cs.b32 [%0], 1;" :: "l"(p)); }
