#include <cuda_runtime.h>
__global__ void k(float *x) { x[threadIdx.x] *= 2; }
int main() {
    float *d;
    cudaMalloc(&d, 256 * sizeof(float));
    k<<<1, 256>>>(d);
    cudaDeviceSynchronize();
    cudaFree(d);
}
