#include <cuda_runtime.h>
__global__ void k(float *x) { x[threadIdx.x] = 0; __syncwarp(); }
int main() { cudaMalloc(0, 4); }
