#include <cutlass/cutlass.h>
__global__ void k() {}
