#include <cutlass/cutlass.h>
__device__ unsigned lop(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm volatile("lop3.b32 %0, %1, %2, %3, 0xEA;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
