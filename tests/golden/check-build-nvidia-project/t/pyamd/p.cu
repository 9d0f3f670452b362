__global__ void p(unsigned *q) { asm volatile("st.global.cs.b32 [%0], 1;" :: "l"(q)); }
